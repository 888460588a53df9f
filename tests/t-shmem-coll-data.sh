#!/bin/bash
# t-shmem-coll-data.sh - broadcast, collect, fcollect, alltoall, alltoalls over
# active sets, into the heap and into statics, every element checked
# (tests/shmem/coll_data.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_data heap
coll_run coll_data static
finish
