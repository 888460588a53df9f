#!/bin/bash
# t-shmem-split-heap - t-shmem-heap's program (the symmetric heap) with the PEs
# split into supernodes under mpirun (tests/shmem/split.sh), and the default
# heap size (SHMEM_SYMMETRIC_SIZE unset) in the largest layout.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() { job 0 "$PES" "$B/tests/shmem/heap"; }
per_layout run
split_layout "${SPLIT_LAYOUTS##* }" && SHMEM_SYMMETRIC_SIZE= job 0 "$PES" env -u SHMEM_SYMMETRIC_SIZE "$B/tests/shmem/heap"
finish
