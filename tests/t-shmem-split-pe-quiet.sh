#!/bin/bash
# t-shmem-split-pe-quiet - t-shmem-pe-quiet's program with the PEs split into
# supernodes under mpirun (tests/shmem/split.sh): to a PE of another
# supernode pe_quiet must flush the windows and wait for the atomics, since
# the flag put that follows it reaches the target apart from them. (With
# pe_quiet's MPI part removed, 4 PEs on 2 and on 4 hosts failed in round 1,
# on the signal and the counter, 2026-12-02.)
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() { job 0 "$PES" "$B/tests/shmem/pe_quiet" && expect_out "^pe_quiet: 20 rounds .* on $PES PEs"; }
per_layout run
finish
