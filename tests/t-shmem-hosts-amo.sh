#!/bin/bash
# t-shmem-hosts-amo - atomics on the same variables from PEs of the target's
# supernode, from PEs of others and from the target itself, all at once:
# every AMO type and atomic, fetch and non-fetch, nbi and deprecated forms,
# heap and statics, counted exactly (tests/shmem/hosts_amo.c), in each
# layout of tests/shmem/split.sh. SHMEM_HOSTS_AMO_ITER sets the rounds.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
# Rounds per phase: enough in the first layout (two PEs in each supernode)
# for a lost update between the paths to show (a non-atomic apply at the
# target is caught every time with 200), fewer in the others.
run() {
    job 0 "$PES" "$B/tests/shmem/hosts_amo" "$iter" &&
        expect_out "^hosts_amo: every atomic counted exactly on $PES PEs"
}
iter=${SHMEM_HOSTS_AMO_ITER:-200}
split_layout "${SPLIT_LAYOUTS%% *}" && run
iter=${SHMEM_HOSTS_AMO_ITER:-40}
SPLIT_LAYOUTS=${SPLIT_LAYOUTS#* } per_layout run
finish
