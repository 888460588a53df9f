#!/bin/bash
# t-shmem-coll-data.sh - broadcast, collect, fcollect, alltoall, alltoalls over active sets, heap and statics,
# with 2, 3, 4 and 8 PEs (tests/shmem/coll_data.c checks every element).
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_data heap
coll_run coll_data static
exit $failed
