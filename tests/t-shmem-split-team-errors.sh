#!/bin/bash
# t-shmem-split-team-errors - t-shmem-team-errors's cases in jobs split
# into supernodes (tests/shmem/split.sh): the same messages.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/team_cases.sh"
team_errors_run() { team_errors "$PES"; }
per_layout team_errors_run
finish
