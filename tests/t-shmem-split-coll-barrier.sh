#!/bin/bash
# t-shmem-split-coll-barrier - t-shmem-coll-barrier's program (barrier_all, sync_all,
# barrier and sync over active sets) with the PEs split into supernodes
# under mpirun (tests/shmem/split.sh): active sets mix the two paths.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
per_layout coll_run coll_barrier
finish
