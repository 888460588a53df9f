# driver.sh - sourced by the tests/t-gasnet-*.sh drivers: finds the build,
# the node counts (1, 2, 4 and 8; 1 without shared memory), runs GASNet jobs
# under pshmrun and checks their status and words.

B=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
G=$B/tests/gasnet
RUN=$B/tools/pshmrun
T=$(mktemp -d "${TMPDIR:-/tmp}/t-gasnet.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fails=0
if ! grep -q '^GASNET := yes' "$B/Makefile" 2>/dev/null; then
    echo "SKIP: the GASNet layer is not built (configured with --disable-gasnet)"
    exit 77
fi
if grep -q "define PSHM_BACKEND_NONE 1" "$B/config.h" 2>/dev/null; then
    NODES="1"
    echo "note: built without shared memory (--disable-pshm): jobs of 1 node only"
else
    NODES="1 2 4 8"
fi
MODES="seq par"
# A self-started job (GASNET_PSHM_NODES) finds this build's launcher.
export PSHMRUN=$RUN

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# gjob WANT N PROGRAM [ARGS...]: PROGRAM on N nodes (60 s at most), its
# output in $T/out and $T/err, exiting WANT.
gjob() {
    local want=$1 n=$2 got
    shift 2
    "$RUN" -n "$n" --timeout 60 "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" != "$want" ]; then
        bad "pshmrun -n $n ${*#$B/} exited $got, expected $want; stdout, stderr:"
        tail -n 15 "$T/out" "$T/err" | sed 's/^/    /'
        return 1
    fi
    ok "pshmrun -n $n ${*#$B/} -> $got"
}

# has FILE TEXT: the last job's FILE (out or err) has TEXT.
has() {
    if grep -qF -- "$2" "$T/$1"; then
        ok "std$1 has: $2"
    else
        bad "std$1 lacks '$2'; it was:"
        sed 's/^/    /' "$T/$1" | tail -n 10
    fi
}

# every NAME: tests/gasnet/NAME-seq and NAME-par on every node count, each
# ending with "ok: NAME on N nodes".
every() {
    local m n
    for m in $MODES; do
        for n in $NODES; do
            gjob 0 "$n" "$G/$1-$m" && has out "ok: $1 on $n nodes"
        done
    done
}

finish() {
    [ "$fails" = 0 ] || { echo "$fails check(s) failed"; exit 1; }
    exit 0
}
