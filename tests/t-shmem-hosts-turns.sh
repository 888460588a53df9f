#!/bin/bash
# t-shmem-hosts-turns - a PE waiting for the answer of an atomic it shipped
# to another supernode: the answer comes into the thread's persistent
# receive (one MPI_Start per atomic, no MPI_Irecv), and the wait tests it
# and the receive of the requests others send it with MPI_Test, by turns
# (tests/shmem/net_turns.c counts the layer's MPI calls); the fetched
# values are exact.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
# No progress thread: its serving would test the receive of requests between the turns.
line="net_turns: 2000 fetch_adds, [0-9]* MPI_Test by turns on the answer and the receive of requests, one MPI_Start each, no other test call"
if split_layout 2:hosts=2 && SPLIT_ENV+=("SHMEM_PROGRESS_INTERVAL=0") &&
    job 0 2 "$B/tests/shmem/net_turns" 2000; then
    if grep -q "^$line" "$T/out"; then
        ok "$(grep '^net_turns:' "$T/out")"
    else
        bad "expected a line '$line'; output:"
        sed 's/^/    /' "$T/out" | tail -10
    fi
fi
finish
