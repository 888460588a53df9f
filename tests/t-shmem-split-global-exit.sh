#!/bin/bash
# t-shmem-split-global-exit - t-shmem-global-exit's cases with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh): shmem_global_exit(N)
# from the last PE ends the job with N & 255, 0 included, while the PEs of
# every supernode wait, and no PE outlives the job (split_gone); with an
# MPI_Abort that never returns, the PE ends the job itself after 10 s,
# and with one that is slow to end it with 0, it waits.
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

# shim NAME LINE...: the C source LINEs built into $T/NAME.so, an MPI_Abort
# to interpose with LD_PRELOAD; a shim that does not build fails the test.
cc=$(sed -n 's/^CC := //p' "$B/Makefile")
shim() {
    local n=$1
    shift
    printf '%s\n' '#define _GNU_SOURCE' '#include <dlfcn.h>' '#include <unistd.h>' \
        'int MPI_Abort(void *c, int e);' "$@" >"$T/$n.c"
    ${cc:-cc} -shared -fPIC -o "$T/$n.so" "$T/$n.c" -ldl 2>"$T/$n.log" && return
    bad "cannot build the $n MPI_Abort: $(head -3 "$T/$n.log")"
    return 1
}

# A launcher that misses the abort: MPI_Abort (interposed) never returns.
# The PE ends itself with the code 10 s later, and its exit ends the job
# with that code; without that the job would hang until the test's timeout.
if shim hang 'int MPI_Abort(void *c, int e) { (void)c, (void)e; for (;;) pause(); }' &&
    split_layout "${SPLIT_LAYOUTS%% *}"; then
    SPLIT_ENV+=("LD_PRELOAD=$T/hang.so")
    SPLIT_NAME="$SPLIT_NAME, MPI_Abort never returns"
    job 7 "$PES" "$P" global-exit 7 && gone
    grep -q "exited with non-zero status\|exit code\|Exit code" "$T/out" "$T/err" ||
        bad "[$SPLIT_NAME] the job did not end through the PE's exit:$(tail -5 "$T/err")"
    [ "$SPLIT_SECONDS" -ge 9 ] || bad "[$SPLIT_NAME] the job ended in $SPLIT_SECONDS s: MPI_Abort was not the one interposed"
fi

# A slow launcher with a status of 0: MPI_Abort (interposed) takes 12 s,
# then aborts. The PE must not end itself first: mpirun would take an exit
# of 0 without MPI_Finalize for a failure and end the job with 1.
if shim slow 'int MPI_Abort(void *c, int e) {' \
    '    int (*real)(void *, int) = (int (*)(void *, int))dlsym(RTLD_NEXT, "MPI_Abort");' \
    '    sleep(12);' \
    '    return real(c, e);' \
    '}' && split_layout "${SPLIT_LAYOUTS%% *}"; then
    SPLIT_ENV+=("LD_PRELOAD=$T/slow.so")
    SPLIT_NAME="$SPLIT_NAME, MPI_Abort takes 12 s"
    job 0 "$PES" "$P" global-exit 256 && gone
    [ "$SPLIT_SECONDS" -ge 11 ] || bad "[$SPLIT_NAME] the job ended in $SPLIT_SECONDS s: MPI_Abort was not the one interposed"
fi
finish
