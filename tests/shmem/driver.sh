# driver.sh - sourced by the tests/t-shmem-*.sh drivers: finds the build,
# chooses the PE counts, runs jobs under oshrun and checks their status.
#
# PE counts: 2, 3, 4 and 8 (more PEs than cores: the waits must yield).
# Without shared memory between processes (--disable-pshm) a job can only
# have one PE, so the programs run with 1.

B=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
OSHRUN=$B/shmem/oshrun
T=$(mktemp -d "${TMPDIR:-/tmp}/t-shmem.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fails=0

if ! grep -q '^SHMEM := yes' "$B/Makefile" 2>/dev/null; then
    echo "SKIP: the OpenSHMEM layer is not built (configured with --disable-shmem)"
    exit 77
fi
[ -x "$OSHRUN" ] || { echo "FAIL: $OSHRUN is not built"; exit 1; }
if grep -q "define PSHM_BACKEND_NONE 1" "$B/config.h" 2>/dev/null; then
    PES="1"
    echo "note: built without shared memory (--disable-pshm): jobs of 1 PE only"
else
    PES="2 3 4 8"
fi
# A small heap keeps 8-PE jobs quick to set up; one test uses the default.
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE-16M}

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# show_output: the last job's stdout and stderr, indented; a long one by its
# first and last lines, so that the first error (often an abort's cause,
# followed by the launcher's long notices) is kept.
show_output() {
    local f n
    for f in "$T/out" "$T/err"; do
        [ -s "$f" ] || continue
        echo "  std${f##*/}:"
        n=$(wc -l <"$f")
        if [ "$n" -le 40 ]; then
            sed 's/^/    /' "$f"
        else
            head -n 15 "$f" | sed 's/^/    /'
            echo "    [... $((n - 35)) lines ...]"
            tail -n 20 "$f" | sed 's/^/    /'
        fi
    done
}

# job WANT N PROGRAM [ARGS...]: runs PROGRAM on N PEs (60 s at most), its
# output in $T/out and $T/err; checks that the job exits WANT ("nz": any
# failure status but the timeout's 124).
job() {
    local want=$1 n=$2 got
    shift 2
    "$OSHRUN" -n "$n" --timeout 60 "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$want" = nz ] && [ "$got" != 0 ] && [ "$got" != 124 ]; then
        :
    elif [ "$got" != "$want" ]; then
        bad "oshrun -n $n $* exited $got, expected $want; output:"
        show_output
        return 1
    fi
    ok "oshrun -n $n $* -> $got"
}

# expect_out REGEX: the last job's stdout has a line matching REGEX (a
# program that exits 0 without its closing line fails the test).
expect_out() {
    if grep -q -- "$1" "$T/out"; then
        ok "${SPLIT_NAME:+[$SPLIT_NAME] }$(grep -m1 -- "$1" "$T/out")"
    else
        bad "expected a line matching '$1'; stdout was:"
        sed 's/^/    /' "$T/out" | tail -10
    fi
}

# expect_err TEXT: the last job's stderr has TEXT.
expect_err() {
    if grep -qF -- "$1" "$T/err"; then
        ok "message: $1"
    else
        bad "expected the message '$1'; stderr was:"
        sed 's/^/    /' "$T/err" | tail -10
    fi
}

# cxx_build NAME: builds tests/shmem/NAME.cpp with oshc++ -Wall -Wextra
# -Werror into $T/NAME; skips the test when there is no C++ compiler, and
# ends it failed when the program does not compile.
cxx_build() {
    if ! grep -q '^CXX := .' "$B/Makefile"; then
        echo "SKIP: configured without a C++ compiler (no oshc++)"
        exit 77
    fi
    if "$B/shmem/oshc++" -Wall -Wextra -Werror -o "$T/$1" "$B/tests/shmem/$1.cpp" 2>"$T/cc.err"; then
        ok "oshc++ builds $1.cpp"
    else
        bad "oshc++ failed: $(head -5 "$T/cc.err")"
        finish
    fi
}

finish() {
    [ "$fails" = 0 ] || { echo "$fails check(s) failed"; exit 1; }
    exit 0
}
