#!/bin/bash
# t-shmem-amo - atomics under contention from every PE counted exactly, heap
# and statics, every AMO type (tests/shmem/amo.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/amo"
done
finish
