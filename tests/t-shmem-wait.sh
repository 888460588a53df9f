#!/bin/bash
# t-shmem-wait - waits woken by remote puts and atomics, test and the array
# forms (tests/shmem/wait.c), and put with signal (tests/shmem/signal.c),
# on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/wait"
    job 0 "$n" "$B/tests/shmem/signal"
done
job 1 1 "$B/tests/shmem/signal" bad-op &&
    expect_err "shmem: shmem_long_put_signal: sig_op 7 is neither SHMEM_SIGNAL_SET (0) nor SHMEM_SIGNAL_ADD (1)"
finish
