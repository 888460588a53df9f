#!/bin/bash
# t-shmem-coll-sync-sets.sh - shmem_barrier and shmem_sync over several
# active sets in turn, one pSync reused by two sets and overlapping sets on
# their own pSyncs back to back, a reduction and a team sync between
# (tests/shmem/coll_sync_sets.c): every member's stores are seen after each
# call, and every pSync is SHMEM_SYNC_VALUE at the end.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run coll_sync_sets
finish
