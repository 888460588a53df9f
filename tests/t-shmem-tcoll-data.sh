#!/bin/bash
# t-shmem-tcoll-data.sh - team broadcast, collect, fcollect, alltoall, alltoalls on every RMA type and the mem forms,
# on WORLD, SHARED and strided, reversed and list teams, every element
# checked (tests/shmem/tcoll_data.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run tcoll_data
finish
