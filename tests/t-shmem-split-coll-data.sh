#!/bin/bash
# t-shmem-split-coll-data - t-shmem-coll-data's program (broadcast, collect,
# fcollect, alltoall, alltoalls over active sets, heap and statics) with
# the PEs split into supernodes under mpirun (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
run() {
    coll_run coll_data heap
    coll_run coll_data static
}
per_layout run
finish
