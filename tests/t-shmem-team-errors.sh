#!/bin/bash
# t-shmem-team-errors - misuse of the team routines is a message naming the
# routine and the bad value, then a failed job (tests/shmem/team_errors.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/team_cases.sh"
for n in $PES; do
    team_errors "$n"
done
finish
