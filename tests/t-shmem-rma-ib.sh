#!/bin/bash
# t-shmem-rma-ib - shmem_ibput and shmem_ibget (1.6): every type, the sized,
# context and C11 forms, heap and statics, element by element
# (tests/shmem/rma_ib.c), on 2, 3, 4 and 8 PEs; a stride below the block
# size or a bad PE ends the job naming the routine and the value, and a
# zero-length transfer returns before any check.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/rma_ib
for n in $PES; do
    job 0 "$n" "$P" && expect_out "^rma_ib: ibput and ibget, every form and type, checked element by element on $n PEs"
done
SHMEM_DEBUG=1 job 0 "${PES##* }" "$P"
n=${PES%% *}
job 1 "$n" "$P" bad-dst && expect_err "shmem: shmem_long_ibput: dst 2 is less than bsize 3"
job 1 "$n" "$P" bad-sst && expect_err "shmem: shmem_ctx_ibget64: sst 3 is less than bsize 4"
job 1 "$n" "$P" neg-sst && expect_err "shmem: shmem_long_ibget: sst -4 is less than bsize 4"
job 1 "$n" "$P" bad-pe && expect_err "shmem: shmem_long_ibput: PE $n is out of range: this job has $n PEs (0 to $((n - 1)))"
job 0 "$n" "$P" zero && expect_out "^rma_ib: zero-length transfers return before any check"
finish
