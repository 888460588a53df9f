#!/bin/bash
# t-shmem-split-tcoll-scan - t-shmem-tcoll-scan's program with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh): 2 and 4 simulated
# hosts, whose PEs the strided teams interleave in team order, and PEs
# alone.
. "$(dirname "$0")/shmem/driver.sh"
: "${SHMEM_SPLIT_LAYOUTS:=4:hosts=2 8:hosts=4 3:maxsize=1}"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
run() {
    coll_run tcoll_scan
}
per_layout run
finish
