#!/bin/bash
# t-shmem-signal-op - shmem_signal_add and shmem_signal_set (1.6), every form,
# mixed with put-with-signal's SIGNAL_ADD on the same words, counted exactly
# (tests/shmem/signal_op.c), on 2, 3, 4 and 8 PEs; a bad PE or address ends
# the job naming the routine.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/signal_op
for n in $PES; do
    job 0 "$n" "$P" && expect_out "^signal_op: signal_add counted exactly and signal_set around the ring on $n PEs"
done
n=${PES%% *}
job 1 "$n" "$P" bad-pe && expect_err "shmem: shmem_signal_add: PE $((n + 3)) is out of range: this job has $n PEs"
job 1 "$n" "$P" not-sym && expect_err "shmem: shmem_ctx_signal_set: address 0x"
finish
