#!/bin/bash
# t-shmem-hosts-amo - atomics on the same variables from PEs of the target's
# supernode, from PEs of others and from the target itself, all at once:
# every AMO type and atomic, fetch and non-fetch, nbi and deprecated forms,
# heap and statics, counted exactly (tests/shmem/hosts_amo.c), in each
# layout of tests/shmem/split.sh. SHMEM_HOSTS_AMO_ITER sets the iterations.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
iter=${SHMEM_HOSTS_AMO_ITER:-200}
run() {
    job 0 "$PES" "$B/tests/shmem/hosts_amo" "$iter" &&
        grep -q "^hosts_amo: every atomic counted exactly on $PES PEs" "$T/out" &&
        ok "[$SPLIT_NAME] $(grep "^hosts_amo:" "$T/out")"
}
per_layout run
finish
