#!/bin/bash
# t-shmem-wait - waits woken by remote puts and atomics, test and the array
# forms (tests/shmem/wait.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/wait"
done
finish
