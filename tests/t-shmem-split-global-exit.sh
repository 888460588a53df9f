#!/bin/bash
# t-shmem-split-global-exit - t-shmem-global-exit's cases with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh): shmem_global_exit(N)
# from the last PE ends the job with N & 255, 0 included, while the PEs of
# every supernode wait, and no PE outlives the job (split_gone).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
P=$B/tests/shmem/errors

gone() {
    if [ "$SPLIT_PIDS" != "$PES" ]; then
        bad "[$SPLIT_NAME] $SPLIT_PIDS PEs printed their pid, expected $PES"
    elif split_gone; then
        ok "[$SPLIT_NAME] no PE outlives the job"
    else
        bad "[$SPLIT_NAME] PE processes still running 10 s after the job:$SPLIT_LEFT"
    fi
}
# Every code in the first layout, one in the others.
run() {
    local code
    for code in $codes; do
        job $((code & 255)) "$PES" "$P" global-exit "$code" && gone
    done
}
codes="0 7 256 $((256 + 3))"
split_layout "${SPLIT_LAYOUTS%% *}" && run
codes=$((256 + 3))
SPLIT_LAYOUTS=${SPLIT_LAYOUTS#* } per_layout run
finish
