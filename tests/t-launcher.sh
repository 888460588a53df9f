#!/bin/bash
# t-launcher - pshmrun: exit statuses, failure propagation, signal forwarding,
# command-line errors, death of the launcher, removal of a failed job's objects.
B=${PSHM_BUILD:-.}
P=$B/tools/pshmrun
C=$B/tests/progs/launch-child
T=${TMPDIR:-/tmp}/t-launcher.$$
fails=0
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

for f in "$P" "$C"; do
    if [ ! -x "$f" ]; then
        echo "FAIL: $f is not built (the Makefile builds tools/pshm*.c and tests/progs/*.c)"
        exit 1
    fi
done

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect STATUS "GREP" -- pshmrun args: runs pshmrun (30 s at most), checks
# its exit status and that its output contains GREP (if not empty).
expect() {
    local want=$1 pat=$2 got
    shift 3
    timeout -s KILL 30 "$P" "$@" >"$T/out" 2>&1
    got=$?
    if [ "$got" != "$want" ]; then
        bad "pshmrun $* exited $got, expected $want; output:"; sed 's/^/    /' "$T/out"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$T/out"; then
        bad "pshmrun $* exited $got but its output lacks '$pat':"; sed 's/^/    /' "$T/out"
    else
        ok "pshmrun $* -> $got"
    fi
}

# --- statuses of a job
expect 0 "" -- -n 4 "$C" ok
expect 0 "" -- -np 2 "$C" ok
expect 0 "" -- --np=2 "$C" ok
expect 0 "" -- -n=3 -- "$C" ok
expect 3 "rank 1 (pid [0-9]*) exited with status 3; ending the job" -- -n 3 "$C" exit 1 3
grep -q "rank 0: barrier failed: .*the job is over: rank 1 failed (exited with status 3)" \
    "$T/out" || bad "rank 0 was not told why the job is over"
expect 139 "rank 0 (pid [0-9]*) killed by signal 11" -- -n 2 "$C" signal 0 11
expect 1 "rank 1 (pid [0-9]*) exited with status 0 without calling pshm_finalize" \
    -- -n 2 "$C" nofinal 1
# A rank whose pshm_init failed is said to have failed to start, with the
# library's message; it called no pshm_abort.
expect 1 "rank [0-9] (pid [0-9]*) failed to start: pshm_init: .*GASNET_PSHMNET_QUEUE_DEPTH" \
    -- -n 2 "$C" initfail 1
! grep -q "pshm_abort" "$T/out" || bad "a failed pshm_init reported as an abort: $(cat "$T/out")"
expect 5 "rank 2 (pid [0-9]*) called pshm_abort(5)" -- -n 3 "$C" abort 2 5
# An embedding layer's words: its reason (pshm_abort_reason) and --label.
expect 6 "PE 1 (pid [0-9]*) called my_layer_exit(6); ending the job" -- --label PE -n 3 "$C" reason 1 6
expect 2 "label 'a b' is not a word" -- --label "a b" -n 3 "$C" ok
# The low byte of the code, as exit(3): 0 too (an early successful end).
expect 0 "rank 2 (pid [0-9]*) called pshm_abort(0); ending the job" -- -n 3 "$C" abort 2 0
expect 0 "rank 1 (pid [0-9]*) called pshm_abort(512)" -- -n 3 "$C" abort 1 512
expect 4 "rank 1 (pid [0-9]*) called pshm_abort(260)" -- -n 3 "$C" abort 1 260
expect 1 "rank 1 contributed 4 bytes to an exchange where rank 0 contributed 8" \
    -- -n 3 "$C" mismatch 1
grep -q "exchange failed: .*the job is over: rank 1 failed (broke the bootstrap protocol" \
    "$T/out" || bad "the ranks were not told that rank 1 broke the protocol"
expect 1 "rank 0 contributed 4 bytes to an exchange where rank 1 contributed 8" \
    -- -n 3 "$C" mismatch 0
expect 124 "longer than pshmrun's --timeout" -- --timeout 0.5 -n 2 "$C" sleep t$$
expect 0 "" -- -n 2 --hosts 2 sh -c 'test "$PSHM_SIM_HOSTS" = 2 && test "$PSHM_SIZE" = 2'

# A rank killed by SIGKILL: status 137, and the others (asleep) are ended
# within the exit timeout.
start=$(date +%s%N)
expect 137 "rank 1 (pid [0-9]*) killed by signal 9 (Killed)" \
    -- -n 3 --exit-timeout 1 "$C" signal 1 9
ms=$((($(date +%s%N) - start) / 1000000))
if [ $ms -gt 5000 ]; then bad "the job took $ms ms to end (exit timeout 1 s)"; else ok "ended in $ms ms"; fi

# --- command line: status 2 and a message
for args in "-n 0 true" "-n abc true" "-n 5abc true" "-n -1 true" "-n 4097 true" \
            "-n 2" "--bogus -n 2 true" "-n" "--timeout x -n 1 true" "--hosts 0 -n 1 true"; do
    # shellcheck disable=SC2086
    expect 2 "Try 'pshmrun --help'" -- $args
done
expect 2 "is not valid" -- -n 5abc true
expect 127 "cannot execute '/nonexistent/prog'" -- -n 2 /nonexistent/prog
echo "echo not run" >"$T/noexec" && chmod 644 "$T/noexec"
expect 126 "cannot execute '$T/noexec': Permission denied" -- -n 2 "$T/noexec"
expect 0 "Exit status" -- --help

# --- SIGINT to pshmrun reaches every process (pshmrun is signalled itself,
# not through timeout(1), which would signal the whole group too)
: >"$T/int"
"$P" -n 3 "$C" sigint >"$T/int" 2>&1 &
pid=$!
# The watchdog's sleep goes with it when the watchdog is told to stop.
(trap 'kill $s 2>/dev/null; exit 0' TERM; sleep 30 & s=$!; wait $s; kill -KILL $pid) 2>/dev/null &
watchdog=$!
for _ in $(seq 100); do
    [ "$(grep -c ready "$T/int")" = 3 ] && break
    sleep 0.1
done
kill -INT $pid
wait $pid
st=$?
kill $watchdog 2>/dev/null
n=$(grep -c "got SIGINT" "$T/int")
if [ $st = 0 ] && [ "$n" = 3 ]; then ok "SIGINT forwarded to 3 processes"
else bad "SIGINT: status $st, $n of 3 processes saw it:"; sed 's/^/    /' "$T/int"; fi

# --- SIGKILL to pshmrun: its processes die with it (PR_SET_PDEATHSIG)
word=tlauncher$$x$RANDOM
"$P" -n 3 "$C" sleep "$word" >/dev/null 2>&1 &
pid=$!
disown $pid   # no "Killed" notice from the shell
for _ in $(seq 100); do
    [ "$(pgrep -f -- "$word" | grep -vcx $pid)" -ge 3 ] && break
    sleep 0.1
done
kill -KILL $pid
for _ in $(seq 50); do
    pgrep -f -- "$word" >/dev/null || break
    sleep 0.1
done
if pgrep -f -- "$word" >/dev/null; then
    bad "processes survived pshmrun's SIGKILL: $(pgrep -f -- "$word" | tr '\n' ' ')"
    pkill -KILL -f -- "$word"
else ok "processes died with pshmrun"; fi

# --- a rank killed while it holds a named object: pshmrun removes it
backend=$("$P" --version | sed -n 's/.*, \([a-z]*\) backend.*/\1/p')
expect 137 "killed by signal 9" -- -n 2 --exit-timeout 1 "$C" leak 1
tag=$(sed -n 's/^tag \([a-z0-9]*\)$/\1/p' "$T/out")
if [ -z "$tag" ]; then bad "the leak job printed no tag"
else
    if [ "$backend" != none ] && ! grep -q "removed 1 object job $tag left behind" "$T/out"; then
        bad "pshmrun did not report removing the object of job $tag ($backend backend)"
    fi
    left=$(find /dev/shm "${GASNET_TMPDIR:-${TMPDIR:-/tmp}}" -maxdepth 1 -name "*$tag*" 2>/dev/null)
    if [ -n "$left" ]; then bad "objects of job $tag remain: $left"
    else ok "no object of job $tag remains ($backend backend)"; fi
fi

# --- -x VAR[=VALUE], as mpirun has it
export T_LAUNCHER_KEEP=kept
expect 0 "" -- -n 2 -x T_NEW=set -x T_LAUNCHER_KEEP -x T_EMPTY= \
    sh -c 'test "$T_NEW" = set && test "$T_LAUNCHER_KEEP" = kept && test "${T_EMPTY-unset}" = ""'
expect 0 "" -- -n 2 -x T_X=a=b sh -c 'test "$T_X" = a=b'
expect 2 "T_UNSET_VAR is not set in pshmrun's environment" -- -n 2 -x T_UNSET_VAR true
expect 2 "pshmrun sets PSHM_RANK" -- -n 2 -x PSHM_RANK=3 true
expect 2 "is not valid" -- -n 2 -x 1BAD=3 true
expect 2 "is not valid" -- -n 2 -x "A B=3" true
expect 2 "needs a value" -- -n 2 -x

# --- --tag-output: every line of stdout and stderr prefixed with [rank],
# written whole: each rank writes its lines in two pieces each.
expect 0 "" -- -n 4 --tag-output sh -c 'i=0; while [ $i -lt 300 ]; do
    printf "r%s-" "$PSHM_RANK"; printf "line-%s\n" $i; printf "e%s-" "$PSHM_RANK" >&2
    printf "err-%s\n" $i >&2; i=$((i + 1)); done; printf "last"'
badl=$(grep -cvE '^\[([0-3])\] ((r|e)[0-3]-(line|err)-[0-9]+|last)$' "$T/out")
mism=$(sed -nE 's/^\[([0-3])\] [re]([0-3])-.*/\1 \2/p' "$T/out" | awk '$1 != $2' | wc -l)
for r in 0 1 2 3; do
    n=$(grep -cE "^\[$r\] (r$r-line|e$r-err)-[0-9]+$" "$T/out")
    [ "$n" -eq 600 ] || bad "--tag-output: rank $r has $n whole lines, expected 600"
    grep -qx "\[$r\] last" "$T/out" || bad "--tag-output: rank $r's unfinished last line is missing"
done
if [ "$badl" -ne 0 ] || [ "$mism" -ne 0 ]; then
    bad "--tag-output: $badl malformed or mixed lines, $mism under another rank's prefix:"
    grep -vE '^\[([0-3])\] ((r|e)[0-3]-(line|err)-[0-9]+|last)$' "$T/out" | head -5
else ok "--tag-output: 4 x 601 lines each whole and under its own rank"; fi
expect 3 "rank 1 (pid [0-9]*) exited with status 3" -- -n 2 --tag-output sh -c \
    'echo "said $PSHM_RANK"; [ "$PSHM_RANK" = 1 ] && exit 3; exec sleep 5'
grep -qx "\[1\] said 1" "$T/out" || bad "--tag-output: the failing rank's output is missing"

# A reader of pshmrun's output that goes away costs the output, not the job.
timeout -s KILL 30 "$P" -n 2 --tag-output sh -c \
    'echo one; sleep 0.5; i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i + 1)); done' |
    head -n 1 >/dev/null
st=${PIPESTATUS[0]}
[ "$st" -eq 0 ] && ok "--tag-output | head -n 1: the job ends with status 0" ||
    bad "--tag-output | head -n 1: pshmrun exited $st, expected 0"

# --- each death told once, also with -v
expect 137 "" -- -v -n 3 sh -c '[ "$PSHM_RANK" = 1 ] && kill -9 $$; exec sleep 5'
n=$(grep -c "rank 1 (pid [0-9]*).*signal 9" "$T/out")
[ "$n" -eq 1 ] && ok "-v: rank 1's death told once" ||
    { bad "-v: rank 1's death told $n times:"; sed 's/^/    /' "$T/out"; }

# --- a program's usage error in a job: printed once, by rank 0, every time
for i in 1 2 3 4 5; do
    expect 2 "rank 0 (pid [0-9]*) exited with status 2" -- -n 4 "$B/tools/pshm-info" --bogus
    n=$(grep -c "unknown option '--bogus'" "$T/out")
    [ "$n" -eq 1 ] || { bad "a usage error under pshmrun -n 4 was printed $n times:"; sed 's/^/    /' "$T/out"; }
done

if [ $fails -gt 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "all launcher checks passed"
exit 0
