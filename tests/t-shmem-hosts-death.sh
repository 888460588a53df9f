#!/bin/bash
# t-shmem-hosts-death - a PE killed on another (simulated) host while the
# others wait on it (wait_until, barrier, a get loop, an atomic loop;
# tests/shmem/hosts_die.c) ends the job with a non-zero status within
# BOUND seconds, and no PE is left running (split_gone), in each layout of
# tests/shmem/split.sh. The victim is the last PE: another host than PE 0's.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
BOUND=30

run() {
    local how what
    for how in $waits; do
        split_run "$PES" "$B/tests/shmem/hosts_die" "$how" $((PES - 1))
        what="[$SPLIT_NAME] PE $((PES - 1)) killed, the others in '$how'"
        if [ "$SPLIT_STATUS" = 0 ] || [ "$SPLIT_STATUS" = 124 ] || [ "$SPLIT_SECONDS" -gt "$BOUND" ]; then
            bad "$what: the job exited $SPLIT_STATUS after $SPLIT_SECONDS s (expected non-zero within $BOUND s); output:"
            sed 's/^/    /' "$T/out" "$T/err" | tail -15
            [ -s "$T/hang" ] && { echo "  the processes a second before the timeout:"; cat "$T/hang"; }
            continue
        fi
        if [ "$SPLIT_PIDS" != "$PES" ]; then
            bad "$what: $SPLIT_PIDS of $PES PEs started"
        elif ! split_gone; then
            bad "$what: PEs still running 10 s after the job:$SPLIT_LEFT"
        elif grep -q "returned from the wait" "$T/out"; then
            bad "$what: a PE went on: $(grep "returned from the wait" "$T/out" | head -1)"
        else
            ok "$what: exit $SPLIT_STATUS after $SPLIT_SECONDS s, no PE left"
        fi
    done
}
# Every wait in the first layout, those that call the dead PE in the others.
waits="wait barrier get amo"
split_layout "${SPLIT_LAYOUTS%% *}" && run
waits="get amo"
SPLIT_LAYOUTS=${SPLIT_LAYOUTS#* } per_layout run
finish
