#!/bin/bash
# t-shmem-amo-nbi-c11 - the C11 generic forms of the non-blocking fetching
# atomics, with and without a context, on every type their lists select,
# each fetched value and result checked (tests/shmem/amo_nbi_c11.c), on 2,
# 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/amo_nbi_c11" &&
        expect_out "^amo_nbi_c11: every generic nbi atomic, with and without a context, on $n PEs"
done
finish
