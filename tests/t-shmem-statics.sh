#!/bin/bash
# t-shmem-statics - global and static variables after shmem_init
# (tests/shmem/statics.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/statics"
done
finish
