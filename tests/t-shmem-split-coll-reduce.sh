#!/bin/bash
# t-shmem-split-coll-reduce - t-shmem-coll-reduce's program (every reduction over
# active sets, heap and statics) with the PEs split into supernodes under
# mpirun (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
run() {
    coll_run coll_reduce heap
    coll_run coll_reduce static
}
per_layout run
finish
