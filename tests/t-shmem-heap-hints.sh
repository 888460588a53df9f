#!/bin/bash
# t-shmem-heap-hints - shmem_malloc_with_hints with hints it knows and
# bits it does not: a usable symmetric block each time (the specification
# falls back to shmem_malloc), and the unknown bits told once as a warning
# by PE 0, not a fatal error (tests/shmem/heap_hints.c).
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/heap_hints" &&
        expect_out "^heap_hints: 6 blocks with any hints on $n PEs"
    expect_err "shmem: warning: shmem_malloc_with_hints: hints 0xfffffffffffffffe: unknown bits ignored"
    w=$(grep -c "shmem_malloc_with_hints" "$T/err")
    [ "$w" = 1 ] && ok "told once" || bad "the warning is told $w times, not once"
done
finish
