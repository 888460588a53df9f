#!/bin/bash
# t-shmem-cxx-team - the C++ overloads of the generic team collectives,
# reductions, scans, vector waits and shmem_sync(team):
# tests/shmem/cxx_team.cpp builds with oshc++ warning-free and its results
# are checked at every PE count.
. "$(dirname "$0")/shmem/driver.sh"

cxx_build cxx_team
for n in $PES; do
    job 0 "$n" "$T/cxx_team" && expect_out "cxx_team: $n PEs ok"
done
finish
