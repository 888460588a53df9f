#!/bin/bash
# t-shmem-global-exit - shmem_global_exit(N) ends the job with N & 255, as
# exit(3) does, 0 included (OpenSHMEM 1.4 section 9.1.4: the status returned
# to the environment is the one passed); oshrun still reports the early end,
# and no PE and no shared-memory object outlives the job.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/errors

# gone: every "pid P" the last job printed is a process that has ended, and
# pshm-cleanup finds no object of the job (its tag, from oshrun -v).
gone() {
    local pid tag n=0
    for pid in $(sed -n 's/^pid //p' "$T/out"); do
        n=$((n + 1))
        kill -0 "$pid" 2>/dev/null && bad "PE process $pid still runs after the job"
    done
    [ "$n" = "$1" ] || bad "$n PEs printed their pid, expected $1"
    tag=$(sed -n 's/^pshmrun: job \([^:]*\):.*/\1/p' "$T/err" | head -1)
    if [ -z "$tag" ]; then
        bad "no job tag in oshrun -v's output"
    elif ! "$B/tools/pshm-cleanup" --list --job "$tag" | grep -qx "no pshm objects found"; then
        bad "objects of job $tag left behind:"
        "$B/tools/pshm-cleanup" --list --job "$tag" | sed 's/^/    /'
    fi
    if grep -q "left behind" "$T/err"; then
        bad "oshrun removed objects the job left behind"
    else
        ok "no PE and no object outlives job $tag"
    fi
}

for n in $PES; do
    for code in 0 7 256 $((256 + 3)); do
        job $((code & 255)) "$n" -v "$P" global-exit "$code" &&
            expect_err "called shmem_global_exit($code); ending the job" &&
            expect_err "PE " &&
            gone "$n"
    done
done
finish
