#!/bin/bash
# t-shmem-heap - the symmetric heap (tests/shmem/heap.c) on 2, 3, 4 and 8
# PEs; SHMEM_SYMMETRIC_SIZE: the default, suffixes, and bad values refused
# with the variable named; the default shrinks on a small backing store;
# SHMEM_INFO prints the variables.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/heap"
done
n=${PES##* }
# The default size (unset) works with the largest job.
SHMEM_SYMMETRIC_SIZE= job 0 "$n" env -u SHMEM_SYMMETRIC_SIZE "$B/tests/shmem/heap"
for v in 4M 4096K 1G 3m; do
    SHMEM_SYMMETRIC_SIZE=$v job 0 1 "$B/tests/shmem/tutorial"
done
for v in 12X 0 -5 "" 4MM 5abc 99999999999999999999 2T; do
    SHMEM_SYMMETRIC_SIZE=$v job 1 1 "$B/tests/shmem/tutorial" &&
        expect_err "SHMEM_SYMMETRIC_SIZE='$v' is not a heap size"
done
# A backing store that cannot give every PE the default: the default
# shrinks (to 32M under a 64M limit), a size the user gave does not.
GASNET_MAX_SEGSIZE=64M/p SHMEM_INFO=1 job 0 1 env -u SHMEM_SYMMETRIC_SIZE "$B/tests/shmem/tutorial"
grep -q "SHMEM_SYMMETRIC_SIZE  *33554432 (default)" "$T/out" && ok "the default heap shrinks to 32M" ||
    bad "the default heap did not shrink to 32M under GASNET_MAX_SEGSIZE=64M/p: $(cat "$T/out")"
GASNET_MAX_SEGSIZE=64M/p SHMEM_SYMMETRIC_SIZE=128M job 1 1 "$B/tests/shmem/tutorial" &&
    expect_err "SHMEM_SYMMETRIC_SIZE=128M asks for a symmetric heap of 134217728 bytes per PE, but the PE on this host can have at most"
SHMEM_INFO=1 job 0 1 "$B/tests/shmem/tutorial"
grep -q "SHMEM_SYMMETRIC_SIZE" "$T/out" && grep -q "SHMEM_DEBUG" "$T/out" &&
    ok "SHMEM_INFO lists the variables" || bad "SHMEM_INFO did not list the variables: $(cat "$T/out")"
finish
