#!/bin/bash
# t-shmem-putx-signal - Cray's put with signal (shmemx.h; tests/shmem/
# putx_signal.c: typed, sized, mem and _nb forms around a ring, the signal
# set and not added, every element checked) on 1, 2, 3, 4 and 8 PEs under
# oshrun, then split into supernodes under mpirun (the data and the signal
# through MPI), when the layer is built with it.
. "$(dirname "$0")/shmem/driver.sh"
for n in 1 $PES; do
    job 0 "$n" "$B/tests/shmem/putx_signal" && expect_out "^putx_signal: $n PEs: 9 forms"
done
if grep -q '^SHMEM_MPI := 1' "$B/Makefile" 2>/dev/null; then
    . "$(dirname "$0")/shmem/split.sh"
    run() { job 0 "$PES" "$B/tests/shmem/putx_signal" && expect_out "every element and signal as put"; }
    per_layout run
fi
finish
