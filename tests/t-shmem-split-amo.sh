#!/bin/bash
# t-shmem-split-amo - t-shmem-amo's program (every atomic counted exactly under
# contention from every PE) with the PEs split into supernodes under mpirun
# (tests/shmem/split.sh): every PE's atomics reach some PEs through shared
# memory and others through MPI, on the same variables.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() { job 0 "$PES" "$B/tests/shmem/amo"; }
per_layout run
finish
