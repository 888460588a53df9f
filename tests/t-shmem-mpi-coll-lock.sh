#!/bin/bash
# t-shmem-mpi-coll-lock - the locks' exact counts, test_lock, FIFO order
# and two locks at once (tests/shmem/lock_queue.c) with the queue spread
# over supernodes under mpirun (tests/shmem/split.sh): 8 PEs on 2 and on 4
# simulated hosts, so the tail (PE 0's copy) and most predecessors are on
# another host, and supernodes of 1 PE, where every step goes through MPI.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
SPLIT_LAYOUTS=${SHMEM_SPLIT_LAYOUTS:-"8:hosts=2 8:hosts=4 4:maxsize=1"}
per_layout coll_run lock_queue
finish
