#!/bin/bash
# t-shmem-split-session - t-shmem-session's program with the PEs split into
# supernodes under mpirun (tests/shmem/split.sh): the session's atomics to
# other supernodes are shipped through MPI and completed by the quiet after
# it, which the session does not change.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/session" &&
        expect_out "^session: 4000 xor updates per PE in a batch session, every table entry checked, on $PES PEs"
}
per_layout run
finish
