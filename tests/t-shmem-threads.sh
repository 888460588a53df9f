#!/bin/bash
# t-shmem-threads - SHMEM_THREAD_MULTIPLE: atomics and waits from four
# threads per PE (tests/shmem/threads.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/threads"
done
finish
