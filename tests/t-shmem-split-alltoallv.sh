#!/bin/bash
# t-shmem-split-alltoallv - t-shmem-alltoallv's program with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh): the leaders' size
# tables and data between supernodes, for active sets and teams.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() { job 0 "$PES" "$B/tests/shmem/alltoallv" && expect_out "every element as sent"; }
per_layout run
split_layout 6:hosts=3 && run
finish
