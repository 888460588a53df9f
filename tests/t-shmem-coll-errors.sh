#!/bin/bash
# t-shmem-coll-errors.sh - a misused collective or lock ends the job with a
# non-zero status and a message naming the call and the bad value; a PE that
# dies while the others wait in a barrier, a reduction or a lock ends the job
# instead of leaving them waiting (tests/shmem/coll_errors.c).
. "$(dirname "$0")/shmem/driver.sh"

P=${PES%% *} # 2, or 1 without shared memory

. "$(dirname "$0")/shmem/errors_cases.sh"

coll_errors_messages "$P"
for n in $PES; do
  [ "$n" = 3 ] && continue
  coll_errors_deaths "$n"
done
finish
