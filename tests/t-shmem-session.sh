#!/bin/bash
# t-shmem-session - sessions (1.6): a batch of non-blocking xor atomics and
# puts on a context inside a session, every table entry checked against a
# replay of every PE's sequence (tests/shmem/session.c), on 2, 3, 4 and 8
# PEs; unknown option or mask bits and a NULL config that the mask reads
# end the job naming the value.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/session
for n in $PES; do
    job 0 "$n" "$P" && expect_out "^session: 4000 xor updates per PE in a batch session, every table entry checked, on $n PEs"
done
n=${PES%% *}
job 1 "$n" "$P" bad-options && expect_err "shmem: shmem_ctx_session_start: options 0x10: unknown bits (known: SHMEM_CTX_SESSION_BATCH)"
job 1 "$n" "$P" bad-mask && expect_err "shmem: shmem_ctx_session_start: config_mask 0x6: unknown bits (known: SHMEM_CTX_SESSION_TOTAL_OPS)"
job 1 "$n" "$P" null-config && expect_err "shmem: shmem_ctx_session_start: config is NULL with config_mask 0x1"
finish
