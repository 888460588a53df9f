#!/bin/bash
# t-shmem-mpi-coll-lock - the locks' exact counts, test_lock, FIFO order
# and two locks at once (tests/shmem/lock_queue.c) with the queue spread
# over supernodes under mpirun (tests/shmem/split.sh): 8 PEs on 2 simulated
# hosts, a queue of 7 waiters where the tail (PE 0's copy) and every other
# predecessor are on the other host, and 4 PEs in supernodes of 1, where
# every step goes through MPI.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
SPLIT_LAYOUTS=${SHMEM_SPLIT_LAYOUTS:-"8:hosts=2 4:maxsize=1"}
per_layout coll_run lock_queue
finish
