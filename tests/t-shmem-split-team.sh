#!/bin/bash
# t-shmem-split-team - t-shmem-team's programs with the PEs split into
# supernodes under mpirun (tests/shmem/split.sh), and on 2 and 4 simulated
# hosts: teams that span supernodes sync hierarchically and agree on their
# slots over MPI; SHMEM_TEAM_SHARED is one supernode.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/team_cases.sh"
SPLIT_LAYOUTS=${SHMEM_SPLIT_LAYOUTS:-"4:hosts=2 5:hosts=4 8:hosts=4 3:maxsize=1"}
team_split_run() { team_run "$PES"; }
per_layout team_split_run
finish
