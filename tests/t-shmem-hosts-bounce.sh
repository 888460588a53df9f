#!/bin/bash
# t-shmem-hosts-bounce - blocking puts to PEs of other supernodes leave
# from the layer's bounce ring (no MPI_Win_flush_local up to 2 KiB), and a
# quiet flushes only the windows and the PE the puts went to
# (tests/shmem/net_bounce.c counts the flush calls); every byte is checked
# at its target.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
# No progress thread: nothing but the puts and the quiets flushes.
if split_layout 3:maxsize=1 && SPLIT_ENV+=("SHMEM_PROGRESS_INTERVAL=0") &&
    job 0 3 "$B/tests/shmem/net_bounce"; then
    expect_out "^net_bounce: 1000 blocking 8-byte puts with no local flush"
fi
finish
