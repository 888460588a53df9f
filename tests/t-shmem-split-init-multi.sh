#!/bin/bash
# t-shmem-split-init-multi - t-shmem-init-multi's program under mpirun with the
# PEs split into supernodes (tests/shmem/split.sh): the library ends and
# starts again over the same MPI (which the layer started and finalizes only
# at exit, as MPI cannot be initialized twice), windows and atomics' service
# made anew.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/init_multi" &&
        expect_out "^init_multi: 3 initializations, 3 finalizes (2 of them barriers), then again, on $PES PEs"
}
per_layout run
# Without the progress thread MPI is started at the lowest level.
split_layout "${SPLIT_LAYOUTS%% *}" && SHMEM_PROGRESS_INTERVAL=0 job 0 "$PES" "$B/tests/shmem/init_multi"
split_layout "${SPLIT_LAYOUTS%% *}" && job 0 "$PES" "$B/tests/shmem/init_multi" forget
finish
