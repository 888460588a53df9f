#!/bin/bash
# t-env-job - pshmrun and the environment of a job: a misspelt variable is
# warned about on stderr (and the job still runs), GASNET_EXITTIMEOUT and
# --exit-timeout accept exactly what the library accepts (0.1 to 600
# seconds), and a stale TMPDIR stops only the file backend, which uses it.
B=${PSHM_BUILD:-.}
P=$B/tools/pshmrun
C=$B/tests/progs/launch-child
T=$(mktemp -d "${TMPDIR:-/tmp}/t-env-job.XXXXXX" 2>/dev/null || mktemp -d /tmp/t-env-job.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fails=0
for f in "$P" "$C"; do
    [ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done
backend=$("$P" --version | sed -n 's/.*, \([a-z]*\) backend$/\1/p')

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run WANT_STATUS "MUST_GREP" "MUST_NOT_GREP" ENV... -- pshmrun args
run() {
    local want=$1 pat=$2 notpat=$3 got
    shift 3
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" timeout -s KILL 30 "$P" "$@" >"$T/out" 2>&1
    got=$?
    if [ "$got" != "$want" ]; then
        bad "${envs[*]} pshmrun $* exited $got, expected $want:"; sed 's/^/    /' "$T/out"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$T/out"; then
        bad "${envs[*]} pshmrun $*: output lacks '$pat':"; sed 's/^/    /' "$T/out"
    elif [ -n "$notpat" ] && grep -q -- "$notpat" "$T/out"; then
        bad "${envs[*]} pshmrun $*: output has '$notpat':"; sed 's/^/    /' "$T/out"
    else
        echo "ok: ${envs[*]} pshmrun $* -> $got"
    fi
}

# --- misspelt variables: a warning each, with the suggestion; the job runs
run 0 "pshmrun: warning: GASNET_PSHMNET_QUEU_DEPTH is not a variable pshm reads; did you mean GASNET_PSHMNET_QUEUE_DEPTH?" "" \
    GASNET_PSHMNET_QUEU_DEPTH=8 -- -n 2 "$C" ok
run 0 "pshmrun: warning: PSHM_SIM_HOST is not a variable pshm reads; did you mean PSHM_SIM_HOSTS?" "" \
    PSHM_SIM_HOST=2 -- -n 1 "$C" ok
# GASNet's own variables and correct names are not typos.
run 0 "" "warning" GASNET_BACKTRACE=1 GASNET_PSHMNET_QUEUE_DEPTH=8 -- -n 2 "$C" ok

# --- a GASNET_TMPDIR that does not exist fails the job (the file backend
# keeps its objects there) with its reason alone: no line about objects that
# could not be removed from it. The other backends do not use it.
if grep -q "define PSHM_BACKEND_FILE 1" "$B/config.h"; then
    run 1 "GASNET_TMPDIR=\"/nonexistent-pshm-dir\" is not valid" "could not remove" \
        GASNET_TMPDIR=/nonexistent-pshm-dir -- -n 2 "$C" ok
else
    run 0 "" "could not remove" GASNET_TMPDIR=/nonexistent-pshm-dir -- -n 2 "$C" ok
fi

# --- GASNET_EXITTIMEOUT: one range (0.1..600) for pshmrun and the library
for v in 5000 0.05 0 601 abc; do
    run 2 "GASNET_EXITTIMEOUT=\"$v\" is not valid: expected seconds from 0.1 to 600" "" \
        GASNET_EXITTIMEOUT=$v -- -n 1 "$C" ok
    run 2 "exit-timeout=\"$v\" is not valid: expected seconds from 0.1 to 600" "" \
        -- --exit-timeout "$v" -n 1 "$C" ok
done
for v in 0.1 0.5 600; do
    run 0 "" "not valid" GASNET_EXITTIMEOUT=$v -- -n 2 "$C" ok
done

# --- a stale TMPDIR: only the file backend keeps objects there
stale=$T/removed-long-ago
for var in TMPDIR GASNET_TMPDIR; do
    if [ "$backend" = file ]; then
        run 1 "$var=\"$stale\" is not valid" "" $var=$stale -- -n 2 "$C" ok
    else
        run 0 "" "not valid" $var=$stale -- -n 2 "$C" ok
    fi
done

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed ($backend backend)"
