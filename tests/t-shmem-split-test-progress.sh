#!/bin/bash
# t-shmem-split-test-progress - with the PEs split into supernodes under mpirun
# (tests/shmem/split.sh) and no progress thread (SHMEM_PROGRESS_INTERVAL=0),
# a loop of failing shmem_TYPE_test_any/all/some and _vector calls serves
# the atomics another supernode sends here, so that it ends
# (tests/shmem/test_progress.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
export SHMEM_PROGRESS_INTERVAL=0
run() {
    job 0 "$PES" "$B/tests/shmem/test_progress" &&
        expect_out "^test_progress: 60 rounds of array tests progressed on $PES PEs"
}
per_layout run
finish
