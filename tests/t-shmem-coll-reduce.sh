#!/bin/bash
# t-shmem-coll-reduce.sh - every shmem_TYPE_OP_to_all over active sets, into
# the heap and into statics, every element checked (tests/shmem/coll_reduce.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_reduce heap
coll_run coll_reduce static
finish
