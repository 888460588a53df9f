#!/bin/bash
# t-shmem-coll-barrier.sh - shmem_barrier_all, shmem_sync_all, shmem_barrier
# and shmem_sync over active sets (tests/shmem/coll_barrier.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_barrier
finish
