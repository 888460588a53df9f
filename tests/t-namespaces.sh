#!/bin/bash
# t-namespaces - processes of one host in different PID namespaces (as
# containers sharing /dev/shm are) must not form a supernode: a pid from the
# other namespace names another process, so a death would go unnoticed (the
# survivor waited for ever) or a live rank be taken for dead. pshm_init fails
# on every rank with EXDEV naming both ranks and the fix, in bounded time.
# The same for IPC namespaces with the sysv backend (a peer's shmid names
# another segment here); posix and file jobs do not care about IPC
# namespaces. One PID namespace for the whole job works. Needs root.
B=${PSHM_BUILD:-.}
P=$B/tools/pshmrun
F=$B/tests/progs/fault
T=$(mktemp -d /tmp/t-namespaces.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fails=0
[ -x "$P" ] && [ -x "$F" ] || { echo "FAIL: $P or $F is not built"; exit 1; }
backend=$("$P" --version | sed -n 's/.*, \([a-z]*\) backend$/\1/p')
if [ "$backend" = none ]; then
    echo "skip: --disable-pshm: every process is a supernode of one"; exit 77
fi
if [ "$(id -u)" != 0 ] || ! unshare --pid --fork --kill-child true 2>/dev/null ||
    ! unshare --ipc true 2>/dev/null; then
    echo "skip: needs root and unshare --pid --fork --kill-child and --ipc"; exit 77
fi

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# job WANT "PATTERN" SECONDS RANK1_WRAPPER -- fault args: runs a 2-rank job whose
# rank 1 starts under RANK1_WRAPPER (a command prefix, "" for none).
job() {
    local want=$1 pat=$2 limit=$3 wrap=$4 start end got
    shift 5
    start=$(date +%s)
    GASNET_EXITTIMEOUT=30 timeout -s KILL 60 "$P" -n 2 sh -c '
        if [ "$PSHM_RANK" = 1 ] && [ -n "$W" ]; then exec $W "$@"; fi
        exec "$@"' sh "$F" "$@" >"$T/out" 2>&1 </dev/null &
    # W is read by the shell of each rank.
    wait $!
    got=$?
    end=$(date +%s)
    if [ "$got" != "$want" ]; then
        bad "rank 1 under '$wrap', fault $*: status $got, expected $want:"; sed 's/^/    /' "$T/out"
    elif [ -n "$pat" ] && ! grep -q -- "$pat" "$T/out"; then
        bad "rank 1 under '$wrap', fault $*: the output lacks '$pat':"; sed 's/^/    /' "$T/out"
    elif [ $((end - start)) -gt "$limit" ]; then
        bad "rank 1 under '$wrap', fault $*: took $((end - start)) s (at most $limit)"
    else
        echo "ok: rank 1 under '$wrap', fault $* -> $got in $((end - start)) s"
    fi
}
export W

# A dead peer in another PID namespace: before pshm refused the placement,
# rank 0 watched a pid of its own namespace and never saw rank 1 die.
W="unshare --pid --fork --kill-child"
job 1 "share a host but not a PID namespace" 20 "$W" -- kill barrier 1
# Live ranks, one of them elsewhere: refused too (never "died").
job 1 "share a host but not a PID namespace" 20 "$W" -- none barrier 0
grep -q "died" "$T/out" && bad "a live rank was reported dead: $(grep died "$T/out")"

# The whole job in one new PID namespace: works.
W=""
GASNET_EXITTIMEOUT=30 timeout -s KILL 60 unshare --pid --fork --kill-child "$P" -n 2 "$F" none barrier 0 >"$T/out" 2>&1
got=$?
[ $got = 0 ] && echo "ok: a job inside one new PID namespace -> 0" ||
    { bad "a job inside one new PID namespace exited $got:"; sed 's/^/    /' "$T/out"; }

# IPC namespaces: refused by sysv only.
W="unshare --ipc"
if [ "$backend" = sysv ]; then
    job 1 "share a host but not an IPC namespace" 20 "$W" -- none barrier 0
else
    job 0 "" 20 "$W" -- none barrier 0
fi

[ $fails -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed ($backend backend)"
