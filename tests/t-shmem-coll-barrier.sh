#!/bin/bash
# t-shmem-coll-barrier.sh - shmem_barrier_all, shmem_sync_all, shmem_barrier and shmem_sync over active sets,
# with 2, 3, 4 and 8 PEs (tests/shmem/coll_barrier.c checks every element).
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_barrier
exit $failed
