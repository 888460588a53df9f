#!/bin/bash
# t-shmem-heap-align - shmem_align at every power of two up to the heap's size
# (tests/shmem/heap_align.c) gives the same offsets on every PE, and so do
# the allocations after it, on 2, 3, 4 and 8 PEs; heaps of 4 MiB, and of
# sizes that are not powers of two. Where the heap's aligned view cannot be
# mapped (an address-space limit too small for a second view of 256M), an
# alignment the heap's start lacks ends the job, named, on 1 PE.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    SHMEM_SYMMETRIC_SIZE=4M job 0 "$n" "$B/tests/shmem/heap_align" 4194304 &&
        expect_out "^heap_align: 20 alignments symmetric on $n PEs"
done
n=${PES%% *}
for size in 5000 3000000; do
    SHMEM_SYMMETRIC_SIZE=$size job 0 "$n" "$B/tests/shmem/heap_align" "$size" &&
        expect_out "^heap_align: .* alignments symmetric on $n PEs"
done
SHMEM_SYMMETRIC_SIZE=256M job 1 1 bash -c 'ulimit -v 700000 && exec "$0" "$@"' \
    "$B/tests/shmem/heap_align" 268435456 &&
    expect_err "which is not a multiple of it, and the aligned view of the heap could not be mapped (Cannot allocate memory)"
finish
