#!/bin/bash
# t-shmem-split-lock - t-shmem-lock's program (exact counts under contention,
# FIFO order, two locks at once) with the PEs split into supernodes under
# mpirun (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
per_layout coll_run lock_queue
finish
