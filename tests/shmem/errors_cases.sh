# errors_cases.sh - sourced after driver.sh (and split.sh) by the tests of
# misuse and failures, so that a job on one host and a job split into
# supernodes are held to the same cases and the same messages.
#
#   errors_cases N          tests/shmem/errors's cases on N PEs
#   coll_errors_messages P  tests/shmem/coll_errors's misuse cases on P PEs
#   coll_errors_deaths N    a PE dying in a barrier, a reduction, a lock
#   tcoll_errors_messages P tests/shmem/tcoll_errors's misuse cases of the team
#                           collectives on P PEs
#   told_once N TEXT        the last job's stderr has one "shmem:" line, from
#                           shmem_init, with TEXT

errors_cases() {
    local n=$1 P=$B/tests/shmem/errors
    job 1 "$n" "$P" before-init && expect_err "shmem: shmem_int_p: called before shmem_init"
    job 1 "$n" "$P" barrier-before-init && expect_err "shmem: shmem_barrier: called before shmem_init"
    job 1 "$n" "$P" pe-range && expect_err "shmem: shmem_int_p: PE $n is out of range: this job has $n PEs"
    job 1 "$n" "$P" not-symmetric && expect_err "is not symmetric"
    SHMEM_DEBUG=1 job 1 "$n" "$P" null && expect_err "shmem: shmem_putmem: source is NULL with 4"
    job 1 "$n" "$P" bad-cmp && expect_err "shmem: shmem_long_wait_until: cmp 42 is not a comparison"
    job 1 "$n" "$P" bad-free && expect_err "shmem: shmem_free:"
    job 1 "$n" "$P" overflow && expect_err "shmem: shmem_long_put: nelems $(( (1 << 62) - 1 )) of 8 bytes each is more than the address space"
    job 1 "$n" "$P" iput-span && expect_err "shmem: shmem_int_iput: the range at"
    job 1 "$n" "$P" range && expect_err "shmem: shmem_putmem: the range at"
    SHMEM_DEBUG=1 job 0 "$n" "$P" zero-length
    job 7 "$n" "$P" global-exit 7
    job 3 "$n" "$P" global-exit 3
    job 0 "$n" "$P" no-finalize
    job 0 "$n" "$B/tests/shmem/tutorial"
    if [ "$n" -gt 1 ]; then
        # Killed (137): oshrun names the PE; or a survivor's report of the
        # death (1) first, in pshm's words, or mpirun's.
        if job nz "$n" "$P" die; then
            if grep -q "PE $((n - 1)) \|rank $((n - 1))" "$T/err"; then
                ok "the death of PE $((n - 1)) is told"
            else
                bad "the death of PE $((n - 1)) is not told; stderr was:"
                sed 's/^/    /' "$T/err" | tail -10
            fi
        fi
    fi
}

# expect_coll N MODE TEXT [WHO]: the job (of tests/shmem/$COLL_PROG,
# coll_errors by default) fails with TEXT on stderr, and no PE (or only the
# PE WHO, the one that erred, where the others' call is complete without it
# and their output may or may not be flushed) went on.
expect_coll() {
    job nz "$1" "$B/tests/shmem/${COLL_PROG:-coll_errors}" "$2" || return
    expect_err "$3"
    if grep -q "^PE ${4:-[0-9]*}: .*returned" "$T/out"; then
        bad "$2: a PE went on after the error:"
        sed 's/^/    /' "$T/out" | head -5
    fi
}

coll_errors_messages() {
    local P=$1
    expect_coll "$P" stride "shmem: shmem_barrier: logPE_stride is -1"
    expect_coll "$P" size "shmem: shmem_sync: PE_size is 0"
    expect_coll "$P" range "shmem: shmem_barrier: the active set (PE_start 0, logPE_stride 0, PE_size $((P + 1))) ends at PE $P"
    [ "$P" -gt 1 ] &&
        expect_coll "$P" member "shmem: shmem_long_sum_to_all: PE 0 is not in the active set (PE_start 1, logPE_stride 0, PE_size $((P - 1)))" 0
    expect_coll "$P" root "shmem: shmem_broadcast64: PE_root is $P"
    expect_coll "$P" psync "shmem: shmem_barrier:"
    expect_coll "$P" nreduce "shmem: shmem_long_max_to_all: nreduce is -1"
    expect_coll "$P" overlap "shmem: shmem_fcollect64: dest"
    expect_coll "$P" strides "shmem: shmem_alltoalls64: dst is 0"
    expect_coll "$P" clear "does not hold the lock"
    expect_coll "$P" relock "shmem: shmem_set_lock: PE 0 already holds the lock" 0
    expect_coll "$P" retest "shmem: shmem_test_lock: PE 0 already holds the lock" 0
}

coll_errors_deaths() {
    local m
    for m in die-barrier die-reduce die-lock; do
        job nz "$1" "$B/tests/shmem/coll_errors" "$m"
    done
}

told_once() {
    local got
    got=$(grep -c "^shmem: " "$T/err")
    if [ "$got" = 1 ] && grep -q "^shmem: shmem_init: .*$2" "$T/err"; then
        ok "$1 PEs: told once: $2"
    else
        bad "$1 PEs: expected one line 'shmem: shmem_init: ...$2', got $got; stderr:"
        sed 's/^/    /' "$T/err" | tail -10
    fi
}

tcoll_errors_messages() {
    local P=$1 COLL_PROG=tcoll_errors
    expect_coll "$P" invalid "shmem: shmem_int_broadcast: team is SHMEM_TEAM_INVALID"
    expect_coll "$P" generic "shmem: shmem_int_sum_reduce: team is SHMEM_TEAM_INVALID"
    expect_coll "$P" destroyed "shmem: shmem_long_sum_exscan: team 0x"
    expect_coll "$P" root "shmem: shmem_broadcastmem: PE_root is $P; it is a member's index, 0 to $((P - 1))"
    expect_coll "$P" strides "shmem: shmem_alltoallsmem: dst is 0"
    expect_coll "$P" overlap "shmem: shmem_int_sum_reduce: dest"
    expect_coll "$P" scan-overlap "shmem: shmem_long_sum_inscan: dest"
    expect_coll "$P" collect-overlap "shmem: shmem_fcollectmem: dest"
    expect_coll "$P" local "shmem: shmem_int_collect:"
    # The same calls, well formed, return 0.
    job 0 "$P" "$B/tests/shmem/tcoll_errors" none && expect_out "PE 0: none returned 0"
}
