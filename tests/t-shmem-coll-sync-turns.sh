#!/bin/bash
# t-shmem-coll-sync-turns.sh - shmem_barrier and shmem_sync back to back on
# shared pSyncs, PEs delayed at random (tests/shmem/coll_sync_turns.c): a fast
# PE's signal for its next call is neither lost nor taken for this one, and
# every pSync slot is SHMEM_SYNC_VALUE at the end.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
# Its rounds pair PE 0 with PE 1: a job of one PE (--disable-pshm) has none.
[ "$PES" = 1 ] && { echo "SKIP: needs 2 PEs, and this build runs jobs of 1"; exit 77; }
coll_run coll_sync_turns
finish
