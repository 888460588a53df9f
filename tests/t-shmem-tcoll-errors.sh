#!/bin/bash
# t-shmem-tcoll-errors.sh - a misused team collective (an invalid or
# destroyed team, a root outside the team, a stride under 1, overlapping
# dest and source, a source off the symmetric heap) ends the job with a
# non-zero status and a message naming the routine and the bad value, and
# no PE goes on past the call (tests/shmem/tcoll_errors.c).
. "$(dirname "$0")/shmem/driver.sh"

P=${PES%% *} # 2, or 1 without shared memory

# expect_tcoll MODE TEXT: the job fails with TEXT on stderr, and no PE
# says it went on.
expect_tcoll() {
    job nz "$P" "$B/tests/shmem/tcoll_errors" "$1" || return
    expect_err "$2"
    if grep -q "returned" "$T/out"; then
        bad "$1: a PE went on after the error:"
        sed 's/^/    /' "$T/out" | head -5
    fi
}

expect_tcoll invalid "shmem: shmem_int_broadcast: team is SHMEM_TEAM_INVALID"
expect_tcoll generic "shmem: shmem_int_sum_reduce: team is SHMEM_TEAM_INVALID"
expect_tcoll destroyed "shmem: shmem_long_sum_exscan: team 0x"
expect_tcoll root "shmem: shmem_broadcastmem: PE_root is $P; it is a member's index, 0 to $((P - 1))"
expect_tcoll strides "shmem: shmem_alltoallsmem: dst is 0"
expect_tcoll overlap "shmem: shmem_int_sum_reduce: dest"
expect_tcoll scan-overlap "shmem: shmem_long_sum_inscan: dest"
expect_tcoll collect-overlap "shmem: shmem_fcollectmem: dest"
expect_tcoll local "shmem: shmem_int_collect:"
# The same calls, well formed, return 0.
job 0 "$P" "$B/tests/shmem/tcoll_errors" none && expect_out "PE 0: none returned 0"
finish
