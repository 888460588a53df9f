#!/bin/bash
# t-shmem-hosts-turns - a PE waiting for the answer of an atomic it shipped
# to another supernode tests MPI once per turn: its own requests and the
# receive of the requests others send it in one MPI_Testsome
# (tests/shmem/net_turns.c counts the layer's MPI test calls), and the
# fetched values are exact.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
# No progress thread: its serving would make a turn fall back to testing apart.
split_layout 2:hosts=2 && SPLIT_ENV+=("SHMEM_PROGRESS_INTERVAL=0") &&
    job 0 2 "$B/tests/shmem/net_turns" 2000 &&
    grep -q "^net_turns: 2000 fetch_adds, [0-9]* MPI_Testsome, no other test call" "$T/out" &&
    ok "$(grep '^net_turns:' "$T/out")"
finish
