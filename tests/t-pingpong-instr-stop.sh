#!/bin/bash
# t-pingpong-instr-stop - pshm-pingpong --instructions leaves no callgrind
# files behind when its reader stops early or SIGTERM cuts it short (apart
# from t-pingpong-instr, whose two full runs are enough for one test).
. "$(dirname "$0")/pingpong-lib.sh"

if [ $nopshm = 0 ] && command -v valgrind >/dev/null; then
    # a reader that stops early, or a SIGTERM during the jobs, leaves no callgrind files
    mkdir -p "$T/ti"
    TMPDIR=$T/ti timeout -s KILL 60 "$P" --instructions | head -1 >/dev/null
    TMPDIR=$T/ti timeout -s KILL 60 "$P" --instructions >/dev/null 2>&1 &
    pid=$!
    # The signal must land while a job runs (its files exist), not after
    # the whole run ended: on a quiet machine that takes under 2 s.
    for _ in $(seq 3000); do
        [ -n "$(ls -A "$T/ti")" ] && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    kill -TERM $pid
    wait $pid
    got=$?
    [ $got = 143 ] || bad "--instructions ended by SIGTERM exited $got, expected 143 (the signal's)"
    [ -z "$(ls -A "$T/ti")" ] && ok "--instructions left no files behind when cut short" ||
        bad "--instructions cut short left files behind: $(ls -A "$T/ti")"
else
    echo "SKIP: no valgrind, or no shared memory (--disable-pshm): nothing to cut short"
    exit 77
fi

[ $fails = 0 ] && echo "t-pingpong-instr-stop: all checks passed" && exit 0
echo "t-pingpong-instr-stop: $fails checks failed"
exit 1
