#!/bin/bash
# t-shmem-ctx-invalid - the routines that take SHMEM_CTX_INVALID as "no
# operation" (1.5, 1.6) return on it (tests/shmem/ctx_invalid.c), on 2, 3,
# 4 and 8 PEs; SHMEM_CTX_DEFAULT still cannot be destroyed.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/ctx_invalid
for n in $PES; do
    job 0 "$n" "$P" && expect_out "^ctx_invalid: every routine given SHMEM_CTX_INVALID did nothing"
done
job 1 "${PES%% *}" "$P" default && expect_err "shmem: shmem_ctx_destroy: SHMEM_CTX_DEFAULT cannot be destroyed"
finish
