#!/bin/bash
# t-shmem-coll-reduce.sh - every shmem_TYPE_OP_to_all over active sets, heap and statics,
# with 2, 3, 4 and 8 PEs (tests/shmem/coll_reduce.c checks every element).
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_reduce heap
coll_run coll_reduce static
exit $failed
