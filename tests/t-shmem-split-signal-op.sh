#!/bin/bash
# t-shmem-split-signal-op - t-shmem-signal-op's program with the PEs split into
# supernodes under mpirun (tests/shmem/split.sh): the updates of a word come
# by shared memory from some PEs and through MPI from others, and must all
# count.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/signal_op" &&
        expect_out "^signal_op: signal_add counted exactly and signal_set around the ring on $PES PEs"
}
per_layout run
finish
