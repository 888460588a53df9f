#!/bin/bash
# t-shmem-split-heap-quiet - with the PEs split into supernodes under mpirun
# (tests/shmem/split.sh), the non-fetching atomics a PE sent to another
# supernode are applied when an allocation routine returns, as after
# shmem_barrier_all (tests/shmem/heap_quiet.c: the allocator's barrier
# implies quiet).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/heap_quiet" &&
        expect_out "^heap_quiet: 300 rounds of 100 adds complete after each allocation call on $PES PEs"
}
per_layout run
finish
