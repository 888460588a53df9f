#!/bin/bash
# t-shmem-heap-size - SHMEM_SYMMETRIC_SIZE=N gives a heap from which N bytes
# can be allocated at once (tests/shmem/heap_size.c), for N a multiple of
# the block size (64), of the page, and neither, on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
n=${PES%% *}
for size in 1 63 64 1000 4095 4096 4097 65537; do
    SHMEM_SYMMETRIC_SIZE=$size job 0 "$n" "$B/tests/shmem/heap_size" "$size" &&
        expect_out "^heap_size: $size bytes allocatable on $n PEs"
done
for n in $PES; do
    SHMEM_SYMMETRIC_SIZE=1000 job 0 "$n" "$B/tests/shmem/heap_size" 1000 &&
        expect_out "^heap_size: 1000 bytes allocatable on $n PEs"
done
finish
