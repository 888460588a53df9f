#!/bin/bash
# t-shmem-mpi-coll-sets - every collective over sets that mix PEs of one
# supernode and of others, every element checked on every PE
# (tests/shmem/coll_hosts.c), under mpirun with the PEs split into
# supernodes (tests/shmem/split.sh): 8 PEs on 2 simulated hosts
# (supernodes of 4), 6 on 4 (supernodes of 2 and of 1), and 4 on this host
# in supernodes of 1 PE (every collective through MPI alone). The none
# backend (every PE its own supernode) runs them all through MPI. coll_alone
# calls no collective but a broadcast and a reduction: what a statically
# linked program takes of the library must still set them up.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
SPLIT_LAYOUTS=${SHMEM_SPLIT_LAYOUTS:-"8:hosts=2 6:hosts=4 4:maxsize=1"}
run() {
    coll_run coll_hosts
    coll_run coll_alone
}
per_layout run
finish
