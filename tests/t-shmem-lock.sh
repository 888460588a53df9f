#!/bin/bash
# t-shmem-lock.sh - shmem_set_lock, shmem_test_lock, shmem_clear_lock: exact
# counts under contention, FIFO order, two locks at once (tests/shmem/lock_queue.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run lock_queue
finish
