#!/bin/bash
# t-shmem-wait-any - a series of calls of shmem_TYPE_test_any,
# _wait_until_any and their _vector forms returns every satisfying index,
# and the some forms return all of them at once (tests/shmem/wait_any.c),
# on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/wait_any" &&
        expect_out "^wait_any: every index returned by the any and some forms on $n PEs"
done
finish
