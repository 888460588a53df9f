#!/bin/bash
# t-shmem-lock.sh - shmem_set_lock, shmem_test_lock, shmem_clear_lock: exact
# counts under contention, FIFO order, with 2, 3, 4 and 8 PEs
# (tests/shmem/lock_queue.c).
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run lock_queue
exit $failed
