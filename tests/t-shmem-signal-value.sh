#!/bin/bash
# t-shmem-signal-value - shmem_signal_wait_until returns the value that
# satisfied it while a writer changes the signal right after
# (tests/shmem/signal_value.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/signal_value" &&
        expect_out "^signal_value: 3000 rounds, each wait returned its value, on $n PEs"
done
finish
