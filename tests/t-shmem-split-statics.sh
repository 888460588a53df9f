#!/bin/bash
# t-shmem-split-statics - t-shmem-statics's program (global and static variables
# after shmem_init) with the PEs split into supernodes under mpirun
# (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() { job 0 "$PES" "$B/tests/shmem/statics"; }
per_layout run
finish
