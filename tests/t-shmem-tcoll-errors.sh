#!/bin/bash
# t-shmem-tcoll-errors.sh - a misused team collective (an invalid or
# destroyed team, a root outside the team, a stride under 1, overlapping
# dest and source, a source off the symmetric heap) ends the job with a
# non-zero status and a message naming the routine and the bad value, and
# no PE goes on past the call (tests/shmem/tcoll_errors.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/errors_cases.sh"

tcoll_errors_messages "${PES%% *}" # 2, or 1 without shared memory
finish
