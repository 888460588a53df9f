#!/bin/bash
# t-shmem-pe-quiet - shmem_pe_quiet and shmem_ctx_pe_quiet (1.6): puts,
# put-with-signal, atomics and gets to the next PE, completed by pe_quiet
# before a flag tells the PE to check them, element by element
# (tests/shmem/pe_quiet.c), on 2, 3, 4 and 8 PEs; a PE out of range or a
# NULL list ends the job naming it; npes 0 returns at once.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/pe_quiet
for n in $PES; do
    job 0 "$n" "$P" && expect_out "^pe_quiet: 20 rounds .* on $n PEs"
done
n=${PES%% *}
job 1 "$n" "$P" bad-pe && expect_err "shmem: shmem_pe_quiet: target_pes[1] is PE $n, out of range: this job has $n PEs (0 to $((n - 1)))"
job 1 "$n" "$P" null && expect_err "shmem: shmem_ctx_pe_quiet: target_pes is NULL with npes 2"
job 0 "$n" "$P" none && expect_out "^pe_quiet: npes 0 and SHMEM_CTX_INVALID return at once"
finish
