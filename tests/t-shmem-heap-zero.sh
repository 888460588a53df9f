#!/bin/bash
# t-shmem-heap-zero - allocations of size 0 and shmem_free(NULL) do nothing,
# no barrier included (tests/shmem/heap_zero.c: PE 0 calls them alone while
# the others wait for it), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/heap_zero" &&
        expect_out "^heap_zero: no barrier in the calls of size 0 on $n PEs"
done
finish
