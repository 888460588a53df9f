# team_cases.sh - sourced after driver.sh (and split.sh) by the team tests,
# so that a job on one host and a job split into supernodes run the same
# programs and are held to the same messages.
#
#   team_run N        tests/shmem/team_{split,sync,ctx,ctx_ops} on N PEs: each must
#                     exit 0 and PE 0 say "with N PEs: passed"
#   team_errors N     tests/shmem/team_errors's cases on N PEs

team_run() {
    local n=$1 p
    for p in team_split team_sync team_ctx team_ctx_ops; do
        job 0 "$n" "$B/tests/shmem/$p" || continue
        expect_out "^$p with $n PEs: passed"
    done
}

team_errors() {
    local n=$1 P=$B/tests/shmem/team_errors
    job 1 "$n" "$P" sync-invalid &&
        expect_err "shmem: shmem_team_sync: team is SHMEM_TEAM_INVALID; a valid team is needed"
    job 1 "$n" "$P" destroyed && expect_err "shmem: shmem_team_my_pe: team 0x" &&
        expect_err "is not a valid team (never created, or destroyed)"
    job 1 "$n" "$P" bogus && expect_err "shmem: shmem_team_n_pes: team 0x" &&
        expect_err "is not a valid team (never created, or destroyed)"
    job 1 "$n" "$P" ptr-pe && expect_err "shmem: shmem_team_ptr: pe is $n; the team has PEs 0 to $((n - 1))"
    job 1 "$n" "$P" ctx-pe && expect_err "shmem: shmem_ctx_long_p: pe is 1; the team has PEs 0 to 0"
    for op in long_ibput ibget64 signal_add signal_set; do
        job 1 "$n" "$P" ctx-pe "${op#long_}" &&
            expect_err "shmem: shmem_ctx_$op: pe is 1; the team has PEs 0 to 0"
    done
    job 1 "$n" "$P" ctx-pe pe_quiet && expect_err "shmem: shmem_ctx_pe_quiet: target_pes[0] is PE 1, out of range: the context's team has 1 PEs (0 to 0)"
    job 1 "$n" "$P" ctx-invalid && expect_err "shmem: shmem_ctx_long_p: ctx is SHMEM_CTX_INVALID"
    job 1 "$n" "$P" destroy-world && expect_err "shmem: shmem_team_destroy: SHMEM_TEAM_WORLD cannot be destroyed"
    job 1 "$n" "$P" destroy-shared && expect_err "shmem: shmem_team_destroy: SHMEM_TEAM_SHARED cannot be destroyed"
    job 1 "$n" "$P" config-mask &&
        expect_err "shmem: shmem_team_get_config: config_mask 0x6: unknown bits (known: SHMEM_TEAM_NUM_CONTEXTS)"
    job 1 "$n" "$P" config-null &&
        expect_err "shmem: shmem_team_split_strided: config is NULL with config_mask 0x1"
    job 1 "$n" "$P" xrange && expect_err "shmem: shmem_team_split_2d: xrange is 0; it must be 1 or more"
}
