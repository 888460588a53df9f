#!/bin/bash
# t-shmem-split-coll-errors - t-shmem-coll-errors's cases with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh): a misused collective
# or lock ends the job with the message naming the call and the value; a PE
# that dies while the others wait in a barrier, a reduction or a lock ends
# the job instead of leaving them waiting.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/errors_cases.sh"
# Every case in the first layout; the deaths in the last (supernodes of
# one) too.
split_layout "${SPLIT_LAYOUTS%% *}" && coll_errors_messages "$PES" && coll_errors_deaths "$PES"
split_layout "${SPLIT_LAYOUTS##* }" && coll_errors_deaths "$PES"
finish
