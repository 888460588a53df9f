#!/bin/bash
# t-fault-launch - under pshmrun, one rank fails (SIGKILL, SIGSEGV, SIGBUS,
# SIGABRT, exit 0 without finalize, exit 3, pshm_abort(5)) at each phase of a
# job (before init, after init, in attach between creation and unlink, and
# while the others wait in a barrier, a full queue, pshm_wait_until, a poll
# loop, or AM traffic). Each time: pshmrun's status is the failure's, every
# survivor notices by itself (they ignore SIGTERM) with an error naming the
# failed rank, the job ends well within the exit timeout, and no object of
# the job is left. Also: random SIGKILLs during start-up with 64 MiB
# segments, a brief SIGSTOP is not a death, a rank killed while it reserves
# a large segment leaves objects that carry their header (pshm-cleanup can
# tell whose they are), and the launcher killed with SIGKILL takes its
# processes with it and its watchdog removes every object of the job.
# Built with --disable-pshm (every process a supernode of one, no traffic
# between processes), only the cases that need no shared memory run.
B=${PSHM_BUILD:-.}
P=$B/tools/pshmrun
F=$B/tests/progs/fault
C=$B/tools/pshm-cleanup
T=$(mktemp -d "${TMPDIR:-/tmp}/t-fault-launch.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
NP=3
ET=40          # exit timeout: survivors that do not notice would take this long
BOUND_MS=20000 # noticing takes milliseconds; half of ET tells the two apart
               # even on a loaded machine, where a job took over 4 s to end
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

for f in "$P" "$F" "$C"; do
    [ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# left TAG: objects of job TAG still in /dev/shm, SysV IPC, the temp dir.
left() { "$F" count "$1"; }

status_of() {
    case $1 in
    kill) echo 137 ;; segv) echo 139 ;; bus) echo 135 ;; abrt) echo 134 ;;
    exit0) echo 1 ;; code) echo 3 ;; abort) echo 5 ;; *) echo 0 ;;
    esac
}

# run HOW PHASE VICTIM [SEGSIZE]: one job, every check.
run() {
    local how=$1 phase=$2 victim=$3 seg=${4:-1048576} want rc t0 ms tag r n
    want=$(status_of "$how")
    t0=$(now_ms)
    timeout -s KILL 90 "$P" -v -n $NP --exit-timeout $ET "$F" "$how" "$phase" "$victim" "$seg" \
        >"$T/out" 2>&1
    rc=$?
    ms=$(($(now_ms) - t0))
    tag=$(sed -n 's/^pshmrun: job \([a-z0-9]*\):.*/\1/p' "$T/out" | head -n 1)
    local what="$how at $phase (rank $victim of $NP)"
    if [ "$rc" != "$want" ]; then
        bad "$what: pshmrun exited $rc, expected $want"; sed 's/^/    /' "$T/out"; return
    fi
    if [ $ms -ge $BOUND_MS ]; then
        bad "$what: the job took $ms ms to end (bound $BOUND_MS ms)"; sed 's/^/    /' "$T/out"
        return
    fi
    if [ -z "$tag" ]; then
        bad "$what: no tag printed"; return
    fi
    n=$(left "$tag")
    if [ "$n" != 0 ]; then
        bad "$what: $n object(s) of job $tag left behind"; return
    fi
    # Survivors report by themselves and name the failed rank (not a rank
    # that merely ended after noticing). Not at random moments in start-up.
    if [ "$want" != 0 ] && [ "$phase" != startup ]; then
        for ((r = 0; r < NP; r++)); do
            [ $r = "$victim" ] && continue
            # Before init a survivor may still be starting: SIGTERM ends it.
            [ "$phase" = preinit ] && ! grep -q "rank $r: " "$T/out" && continue
            if ! grep -q "rank $r: .*rank $victim[ )]" "$T/out"; then
                bad "$what: rank $r did not report an error naming rank $victim:"
                sed 's/^/    /' "$T/out"
                return
            fi
        done
    fi
    ok "$what: status $rc in $ms ms, nothing left"
}

shared=1
case $("$P" --version) in *"none backend"*) shared=0 ;; esac
if [ $shared = 1 ]; then
    phases="preinit init create barrier queue wait poll traffic"
else
    # No objects (create never unlinks) and no peer in the supernode to
    # wait for or send to: only the bootstrap notices, and pshm_barrier of
    # a supernode of one returns at once (the survivors then finalize).
    phases="preinit init barrier"
    echo "note: built without shared memory: create, queue, wait, poll, traffic skipped"
fi
for how in kill segv bus abrt exit0 code abort; do
    for phase in $phases; do
        run $how $phase 1
    done
done
if [ $shared = 1 ]; then
    # Rank 0 owns the AM region too: its death at creation leaves two names.
    run kill create 0
    run segv create 0
fi
# Random moments of start-up, 64 MiB segments: creation, attach, unlink.
for i in 1 2 3 4 5 6; do run kill startup $((i % NP)) 67108864; done
# Stopped 0.7 s (under the exit timeout) is not dead: the job succeeds.
run stop barrier 1
[ $shared = 1 ] && run stop traffic 2

# gone MARK: waits up to 5 s for every process whose command line holds MARK
# to end; 0 if they did.
gone() {
    for ((k = 0; k < 50; k++)); do
        pgrep -f "$1" >/dev/null || return 0
        sleep 0.1
    done
    return 1
}

# --- a rank killed while it reserves its segment: pshmrun is stopped so
# that nothing is removed yet; every object of the job must carry its header
# (written before the storage is reserved), so pshm-cleanup knows it.
if [ $shared = 1 ]; then
    seen=0 f0=$fails
    for i in 1 2 3 4 5 6; do
        mark=h$$x$i
        "$P" -v -n 1 "$F" none wait -1 268435456 "$mark" >"$T/out" 2>&1 &
        lp=$!
        sleep 0.0$((RANDOM % 10))
        kill -STOP $lp
        # Its children: the watchdog and the rank (maybe not yet exec'd).
        rk=""
        for c in $(pgrep -P $lp); do
            [ "$(cat /proc/$c/comm 2>/dev/null)" = pshmrun-watch ] || rk=$c
        done
        if [ -z "$rk" ]; then   # stopped before the fork: nothing to see
            kill -KILL $lp
            kill -CONT $lp
            wait $lp 2>/dev/null
            gone "$mark" || bad "processes of a SIGKILLed pshmrun still run 5 s later"
            continue
        fi
        kill -KILL $rk
        for ((k = 0; k < 50; k++)); do
            # Dead: gone, or a zombie of the stopped pshmrun (unmapped).
            [ "$(awk '{ print $3 }' /proc/$rk/stat 2>/dev/null)" != R ] &&
                [ "$(awk '{ print $3 }' /proc/$rk/stat 2>/dev/null)" != S ] &&
                [ "$(awk '{ print $3 }' /proc/$rk/stat 2>/dev/null)" != D ] && break
            sleep 0.1
        done
        tag=$(sed -n 's/^pshmrun: job \([a-z0-9]*\):.*/\1/p' "$T/out" | head -n 1)
        "$C" -l -v -j "$tag" >"$T/list" 2>&1
        n=$(left "$tag")
        seen=$((seen + n))
        kill -CONT $lp
        wait $lp 2>/dev/null
        gone "$mark" || bad "processes of job $tag still run 5 s after it ended"
        if grep -q "no header" "$T/list"; then
            bad "rank killed while reserving: an object of job $tag has no header:"
            sed 's/^/    /' "$T/list"
        elif [ "$(grep -c '^stale' "$T/list")" != "$n" ]; then
            bad "rank killed while reserving: $n object(s) of job $tag, pshm-cleanup -l lists:"
            sed 's/^/    /' "$T/list"
        fi
        [ "$(left "$tag")" = 0 ] || bad "pshmrun left objects of job $tag"
    done
    [ $fails = $f0 ] && ok "rank killed while reserving: $seen object(s) found, each with its header"
fi

# --- the launcher killed with SIGKILL at a random moment of start-up: its
# processes die with it (PR_SET_PDEATHSIG) and its watchdog, once they are
# gone, removes what they created. Nothing may be left.
cleaned=0
for i in 1 2 3 4 5 6; do
    mark=m$$x$i
    "$P" -v -n $NP "$F" none wait -1 67108864 "$mark" >"$T/out" 2>&1 &
    lp=$!
    # From the tag line on (printed before the first rank starts): a kill
    # earlier than that could not show the tag to look for.
    for ((k = 0; k < 100; k++)); do
        grep -q '^pshmrun: job ' "$T/out" && break
        sleep 0.02
    done
    sleep 0.0$((RANDOM % 10))
    kill -KILL $lp
    wait $lp 2>/dev/null
    tag=$(sed -n 's/^pshmrun: job \([a-z0-9]*\):.*/\1/p' "$T/out" | head -n 1)
    # The ranks and the watchdog (same command line as pshmrun).
    if ! gone "$mark"; then
        bad "processes of a SIGKILLed pshmrun still run 5 s later"
        pkill -KILL -f "$mark"
        continue
    fi
    [ -n "$tag" ] || { bad "pshmrun -v did not print the job tag"; continue; }
    n=$(left "$tag")
    if [ "$n" != 0 ]; then
        bad "launcher SIGKILLed: $n object(s) of job $tag left behind"
        "$F" purge "$tag" $NP >/dev/null
        continue
    fi
    grep -q "its watchdog removed" "$T/out" && cleaned=$((cleaned + 1))
    ok "launcher SIGKILLed: its processes died, nothing left"
done
echo "launcher SIGKILL: the watchdog removed objects in $cleaned of 6 runs, nothing left in any"

if [ $fails -gt 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "all fault checks passed"
