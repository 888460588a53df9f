#!/bin/bash
# t-shmem-split-global-exit - t-shmem-global-exit's cases with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh): shmem_global_exit(N)
# from the last PE ends the job with N & 255, 0 included, while the PEs of
# every supernode wait, and no PE outlives the job.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
P=$B/tests/shmem/errors

# gone N: every "pid P" the last job printed is a process that has ended.
gone() {
    local pid n=0 left=""
    for pid in $(sed -n 's/^pid //p' "$T/out"); do
        n=$((n + 1))
        kill -0 "$pid" 2>/dev/null && left="$left $pid"
    done
    [ "$n" = "$1" ] || { bad "[$SPLIT_NAME] $n PEs printed their pid, expected $1"; return; }
    [ -z "$left" ] && ok "[$SPLIT_NAME] no PE outlives the job" ||
        bad "[$SPLIT_NAME] PE processes still running after the job:$left"
}
run() {
    local code
    for code in 0 7 256 $((256 + 3)); do
        job $((code & 255)) "$PES" "$P" global-exit "$code" && gone "$PES"
    done
}
per_layout run
finish
