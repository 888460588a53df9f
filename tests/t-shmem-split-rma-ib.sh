#!/bin/bash
# t-shmem-split-rma-ib - t-shmem-rma-ib's program (every ibput and ibget form,
# element by element) with the PEs split into supernodes under mpirun
# (tests/shmem/split.sh): the blocks to a PE of another supernode go
# through MPI, one operation per block.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/rma_ib" &&
        expect_out "^rma_ib: ibput and ibget, every form and type, checked element by element on $PES PEs"
}
per_layout run
split_layout "${SPLIT_LAYOUTS%% *}" && SHMEM_DEBUG=1 job 0 "$PES" "$B/tests/shmem/rma_ib"
finish
