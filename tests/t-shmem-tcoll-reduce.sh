#!/bin/bash
# t-shmem-tcoll-reduce.sh - every team reduction of the 1.6 table,
# on WORLD, SHARED and strided, reversed and list teams, every element
# checked (tests/shmem/tcoll_reduce.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run tcoll_reduce
finish
