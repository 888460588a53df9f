#!/bin/sh
# compare.sh: shmem-bench.c built with this library's oshcc and with Open MPI's,
# run alternately in one sitting, one table of medians with the ratio per row
# and the performance targets of the OpenSHMEM layer marked met or not met.
#
#   shmem/bench/compare.sh [--runs N] [--quick] [--ours-only] [-- BENCH-ARGS]
#
# Open MPI (Debian 12: apt-get install -y openmpi-bin libopenmpi-dev), what its
# OSHMEM needs to run here, found by trying:
#   - the only SPML Debian builds is ucx (oshmem_info | grep spml); UCX picks
#     its shared-memory transports (posix/sysv mm, cma) by itself, no UCX_TLS;
#   - --mca osc ^rdma: without it every PE dies with SIGSEGV in shmem_finalize;
#   - as root: --allow-run-as-root plus OMPI_ALLOW_RUN_AS_ROOT=1 and
#     OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;
#   - --oversubscribe for more PEs than cores, --bind-to none so that both
#     implementations are placed the same way: by the benchmark itself, PE i
#     on the i-th CPU (see its --no-pin).
# Open MPI reaches static variables by emulation through its progress engine;
# the benchmark's target PE waits in shmem_barrier_all, which makes progress.
#
# Environment: OURS_OSHCC, OURS_OSHRUN (default: shmem/oshcc and shmem/oshrun
# of the build tree, $PSHM_BUILD or the tree holding this script), OMPI_OSHCC,
# OMPI_OSHRUN (default: oshcc.openmpi / oshrun.openmpi, else oshcc / oshrun
# from PATH when they are Open MPI's), SHMEM_SYMMETRIC_SIZE (default 64M).
set -eu

runs=3
quick=0
ours_only=0
usage() {
    sed -n 's/^# \{0,1\}//; 2,6p' "$0"
    echo "  --runs N     alternating rounds of both implementations (1..50, default 3)"
    echo "  --quick      smaller sizes and fewer batches (a smoke run)"
    echo "  --ours-only  do not look for Open MPI"
    echo "  BENCH-ARGS   passed to shmem-bench (see its --help)"
}
while [ $# -gt 0 ]; do
    case $1 in
    --runs)
        case ${2-} in
        [1-9] | [1-4][0-9] | 50) runs=$2 ;;
        *) echo "compare.sh: --runs needs an integer in 1..50, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
    --quick) quick=1; shift ;;
    --ours-only) ours_only=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) echo "compare.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
top=${PSHM_BUILD:-$(cd "$here/../.." && pwd)}
src=$here/shmem-bench.c
ours_cc=${OURS_OSHCC:-$top/shmem/oshcc}
ours_run=${OURS_OSHRUN:-$top/shmem/oshrun}
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-64M}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

for f in "$ours_cc" "$ours_run"; do
    if [ ! -x "$f" ]; then
        echo "compare.sh: $f is missing: build the tree first (./configure && make)," >&2
        echo "or point OURS_OSHCC and OURS_OSHRUN at an installed oshcc and oshrun." >&2
        exit 2
    fi
done

# Open MPI's wrappers: Debian names them *.openmpi behind the alternatives.
is_ompi() { "$1" --showme:version 2>/dev/null | grep -q "Open SHMEM\|Open MPI"; }
ompi_cc=${OMPI_OSHCC:-}
ompi_run=${OMPI_OSHRUN:-}
if [ "$ours_only" = 0 ] && [ -z "$ompi_cc" ]; then
    for c in oshcc.openmpi oshcc; do
        p=$(command -v $c 2>/dev/null) || continue
        if is_ompi "$p"; then ompi_cc=$p; break; fi
    done
    for c in oshrun.openmpi oshrun; do
        p=$(command -v $c 2>/dev/null) || continue
        if [ "$p" != "$ours_run" ] && "$p" --version 2>&1 | grep -q "OpenRTE\|Open MPI"; then
            ompi_run=$p; break
        fi
    done
fi
if [ "$ours_only" = 0 ] && { [ -z "$ompi_cc" ] || [ -z "$ompi_run" ]; }; then
    echo "compare.sh: Open MPI's oshcc/oshrun not found; to compare, install it:" >&2
    echo "    apt-get update && apt-get install -y openmpi-bin libopenmpi-dev" >&2
    echo "compare.sh: running this library alone." >&2
    ours_only=1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/shmem-compare.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

flags="-std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror"
"$ours_cc" $flags -o "$work/bench-ours" "$src"
[ "$ours_only" = 1 ] || "$ompi_cc" $flags -o "$work/bench-ompi" "$src"

bargs=""
[ "$quick" = 1 ] && bargs="--max-bytes 65536 --reps 11 --batch-us 100"
# The collective rows with 4 PEs (more PEs than the 2 CPUs here, usually).
only4="barrier|bcast|reduce"

run_one() { # impl npes extra-args...
    impl=$1 np=$2; shift 2
    if [ "$impl" = ours ]; then
        set -- "$ours_run" -n "$np" "$work/bench-ours" "$@"
    else
        set -- "$ompi_run" --allow-run-as-root --oversubscribe --bind-to none \
            --mca osc ^rdma -n "$np" "$work/bench-ompi" "$@"
    fi
    if ! timeout 900 "$@" >"$work/out" 2>"$work/err"; then
        echo "compare.sh: failed: $*" >&2
        cat "$work/err" "$work/out" >&2
        exit 1
    fi
    grep -v '^#' "$work/out" | sed 1d >>"$work/all.csv"
    grep '^#' "$work/out" | sed "s/^# /  [$impl -n $np] /" >>"$work/placement"
}

impls="ompi ours"
[ "$ours_only" = 1 ] && impls=ours
: >"$work/all.csv"
: >"$work/placement"
i=1
while [ "$i" -le "$runs" ]; do
    # Alternate which goes first, so a drift of the machine hits both.
    order=$impls
    [ $((i % 2)) = 0 ] && [ "$ours_only" = 0 ] && order="ours ompi"
    for impl in $order; do
        echo "round $i/$runs: $impl, 2 PEs" >&2
        run_one "$impl" 2 --csv --label "$impl" $bargs "$@"
        echo "round $i/$runs: $impl, 4 PEs" >&2
        run_one "$impl" 4 --csv --label "$impl" --only "$only4" $bargs "$@"
    done
    i=$((i + 1))
done

echo "shmem-bench side by side: $runs round(s), medians of the per-run medians (ns per call)"
sort -u "$work/placement"

# key = npes,test,target,bytes; median over runs per implementation.
sort -t, -k1,1 -k2,2n -k3,3 -k4,4 -k5,5n -k8,8g "$work/all.csv" | awk -F, '
function flush() {
    if (n == 0) return
    med[pk] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    n = 0
}
# First the unsorted file, for the order of the rows as the benchmark ran them.
NR == FNR {
    rk = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
    if (!(rk in seen)) { seen[rk] = 1; rows[++nrows] = rk }
    next
}
{
    k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
    if (k != pk) { flush(); pk = k }
    v[++n] = $8
}
END {
    flush()
    # Machine limits from the same sitting: the round trip of every 2-PE run
    # of both implementations, and the memcpy of the run being judged.
    rt = med["ours" SUBSEP 2 SUBSEP "rt" SUBSEP "pair" SUBSEP 64]
    if (("ompi" SUBSEP 2 SUBSEP "rt" SUBSEP "pair" SUBSEP 64) in med)
        rt = (rt + med["ompi" SUBSEP 2 SUBSEP "rt" SUBSEP "pair" SUBSEP 64]) / 2
    printf "%-4s %-8s %-7s %8s %12s %12s %9s  %s\n", "PEs", "test", "target", "bytes", "ompi_ns", "ours_ns", "ours/ompi", "target"
    for (i = 1; i <= nrows; i++) {
        split(rows[i], f, SUBSEP)
        o = med["ompi" SUBSEP rows[i]]; u = med["ours" SUBSEP rows[i]]
        ratio = (o > 0 && u > 0) ? sprintf("%.3f", u / o) : "-"
        goal = ""; ok = -1
        t = f[2]; tg = f[3]; b = f[4]
        if ((t == "p+quiet" || t == "g" || t == "fadd" || t == "cswap") && tg == "heap") {
            goal = "<= 0.5x ompi"; if (o > 0 && u > 0) ok = (u <= 0.5 * o)
        } else if ((t == "p+quiet" || t == "g" || t == "fadd" || t == "cswap") && tg == "static") {
            goal = ">= 10x faster"; if (o > 0 && u > 0) ok = (u * 10 <= o)
        } else if (t == "barrier" && (f[1] == 2 || f[1] == 4)) {
            goal = sprintf("<= ompi, <= 1.5x rt (%.0f ns)", 1.5 * rt)
            if (o > 0 && u > 0 && rt > 0) ok = (u <= o && u <= 1.5 * rt)
        } else if (t == "putmem" && tg == "heap" && (b == 65536 || b == 1048576)) {
            mc = med["ours" SUBSEP f[1] SUBSEP "memcpy" SUBSEP "local" SUBSEP b]
            goal = sprintf(">= 0.9x memcpy (%.0f ns)", mc)
            if (u > 0 && mc > 0) ok = (u * 0.9 <= mc)
        }
        if (ok == 1) goal = goal ": met"
        else if (ok == 0) goal = goal ": NOT met"
        else if (goal != "") goal = goal ": no data"
        printf "%-4s %-8s %-7s %8s %12s %12s %9s  %s\n", f[1], t, tg, b, (o > 0 ? sprintf("%.1f", o) : "-"), (u > 0 ? sprintf("%.1f", u) : "-"), ratio, goal
    }
}' "$work/all.csv" -
