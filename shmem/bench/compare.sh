#!/bin/sh
# compare.sh: shmem-bench.c built with this library's oshcc and with Open MPI's
# (and SOS's, given SOS_OSHCC and SOS_OSHRUN), run alternately in one sitting,
# one table of medians with the ratio per row and the performance targets of
# the OpenSHMEM layer marked met or not met.
#
#   shmem/bench/compare.sh [--runs N] [--quick] [--ours-only] [--hog N] [-- BENCH-ARGS]
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
# Sandia OpenSHMEM (SOS), a third column when SOS_OSHCC and SOS_OSHRUN name
# its oshcc and oshrun (both, or neither: then nothing changes). Found by
# trying SOS 1.5 over Debian 12's libfabric 1.17, started by Open MPI's
# mpirun through PMIx (configure --with-ofi --with-pmix
# --with-oshrun-launcher=mpirun):
#   - of the OFI providers only sockets offers what SOS asks (RMA, atomics,
#     scalable memory registration):
#     FI_PROVIDER=sockets unless the caller sets FI_PROVIDER; with shm or tcp
#     it stops in shmem_init ("did not find any valid fabric services");
#   - SOS_RUN_ARGS, the launcher's options before -n (default, for mpirun:
#     --allow-run-as-root --oversubscribe --bind-to none);
#   - its shmem.h marks the 1.4 active-set collectives deprecated: built
#     with -Wno-deprecated-declarations, as those rows call them on purpose.
#
# Environment: OURS_OSHCC, OURS_OSHRUN (default: shmem/oshcc and shmem/oshrun
# of the build tree, $PSHM_BUILD or the tree holding this script), OMPI_OSHCC,
# OMPI_OSHRUN (default: oshcc.openmpi / oshrun.openmpi, else oshcc / oshrun
# from PATH when they are Open MPI's), SOS_OSHCC, SOS_OSHRUN, SOS_RUN_ARGS
# (no default: SOS only when both are set), SHMEM_SYMMETRIC_SIZE (default 64M).
set -eu

runs=3
quick=0
ours_only=0
hogs=0
usage() {
    sed -n 's/^# \{0,1\}//; 2,7p' "$0"
    echo "  --runs N     alternating rounds of the implementations (1..50, default 3)"
    echo "  --quick      smaller sizes and fewer batches (a smoke run)"
    echo "  --ours-only  do not look for Open MPI (SOS still runs when SOS_OSHCC is set)"
    echo "  --hog N      run N busy-looping processes beside the benchmark (1..64):"
    echo "               a node shared with other programs; rows pingpong, barrier,"
    echo "               sbarrier unless BENCH-ARGS has --only; batches of 1000 calls,"
    echo "               their mean; no 4-PE run"
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
    --hog)
        case ${2-} in
        [1-9] | [1-5][0-9] | 6[0-4]) hogs=$2 ;;
        *) echo "compare.sh: --hog needs an integer in 1..64, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
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

# Sandia OpenSHMEM: only what the caller names.
sos_cc=${SOS_OSHCC:-}
sos_run=${SOS_OSHRUN:-}
with_sos=0
if [ -n "$sos_cc" ] || [ -n "$sos_run" ]; then
    if [ -z "$sos_cc" ] || [ -z "$sos_run" ]; then
        echo "compare.sh: SOS_OSHCC and SOS_OSHRUN go together: set both (SOS's" >&2
        echo "oshcc and oshrun, e.g. PREFIX/bin/oshcc and PREFIX/bin/oshrun) or neither." >&2
        exit 2
    fi
    for f in "$sos_cc" "$sos_run"; do
        if [ ! -x "$f" ]; then
            echo "compare.sh: SOS_OSHCC/SOS_OSHRUN: $f is not an executable file" >&2
            exit 2
        fi
    done
    with_sos=1
fi
sos_run_args=${SOS_RUN_ARGS:---allow-run-as-root --oversubscribe --bind-to none}

work=$(mktemp -d "${TMPDIR:-/tmp}/shmem-compare.XXXXXX")
hog_pids=""
# The hogs are this script's children, ended by their ids.
stop_hogs() {
    for p in $hog_pids; do kill "$p" 2>/dev/null || :; done
    hog_pids=""
}
trap 'stop_hogs; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

flags="-std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror"
"$ours_cc" $flags -o "$work/bench-ours" "$src"
[ "$ours_only" = 1 ] || "$ompi_cc" $flags -o "$work/bench-ompi" "$src"
[ "$with_sos" = 0 ] || "$sos_cc" $flags -Wno-deprecated-declarations -o "$work/bench-sos" "$src"

bargs=""
[ "$quick" = 1 ] && bargs="--max-bytes 65536 --reps 11 --batch-us 100"
# The collective rows with 4 PEs (more PEs than the 2 CPUs here, usually):
# sizes up to 64 KiB, the larger ones are in the 2-PE run.
only4="barrier|bcast|reduce"
bargs4="--max-bytes 65536"

run_one() { # round impl npes extra-args...
    round=$1 impl=$2 np=$3; shift 3
    if [ "$impl" = ours ]; then
        set -- "$ours_run" -n "$np" "$work/bench-ours" "$@"
    elif [ "$impl" = sos ]; then
        # shellcheck disable=SC2086 # the launcher's options, one word each
        set -- env FI_PROVIDER="${FI_PROVIDER:-sockets}" "$sos_run" $sos_run_args \
            -n "$np" "$work/bench-sos" "$@"
    else
        set -- "$ompi_run" --allow-run-as-root --oversubscribe --bind-to none \
            --mca osc ^rdma -n "$np" "$work/bench-ompi" "$@"
    fi
    t0=$(date +%s)
    if ! timeout 900 "$@" >"$work/out" 2>"$work/err"; then
        echo "compare.sh: failed: $*" >&2
        cat "$work/err" "$work/out" >&2
        exit 1
    fi
    echo "round $round/$runs: $impl, $np PEs: $(($(date +%s) - t0)) s" >&2
    grep -v '^#' "$work/out" | sed 1d | sed "s/^/$round,/" >>"$work/all.csv"
    grep '^#' "$work/out" | sed "s/^# /  [$impl -n $np] /" >>"$work/placement"
}

# ------------------------------------------------------------------------
# The collectives over sets and teams (shmem-bench --sets), in rounds of
# their own after the table above, with 2, 4 and 8 PEs (4 and 8 are more
# PEs than CPUs on a 2-CPU machine: the scheduler's rows as much as the
# library's). Open MPI's OSHMEM is 1.4: its run has the active-set rows
# only (s*: the call, then the set's sync a 1.4 program needs before the
# pSync is used again); ours adds the team rows (t*, back to back, as 1.5
# allows) and the active-set calls back to back (u*, --bare-sets: this
# library's pSync slots count signals, so the same pSync may be used again
# at once). The table: the team form against Open MPI's active-set form of
# the same data (target: at most 0.5x with 2 PEs, at most 1x with 4 and 8)
# and against this library's bare active-set form (target: at most 1.1x,
# the median of the same-run ratios; sync: against shmem_sync_all /
# shmem_sync, which have no pSync to spare).
# SETS=only: these rounds alone; SETS=no: not these; SET_PES: the PE counts.
set_rows='^[tsu](sync|barrier|bcast|reduce|alltoall|fcollect)$'
set_pes=${SET_PES:-"2 4 8"}

set_stage() {
    [ -n "$user_only" ] && ! printf 'tbcast\nssync\nsbarrier\ntsync\n' | grep -Eq -- "$user_only" &&
        return 0
    : >"$work/all.csv"
    : >"$work/placement"
    i=1
    while [ "$i" -le "$runs" ]; do
        order=$impls
        [ $((i % 2)) = 0 ] && order=$impls_rev
        for impl in $order; do
            form=--sets
            [ "$impl" = ours ] && form=--bare-sets
            for np in $set_pes; do
                run_one "$i" "$impl" "$np" --csv --label "$impl" $bargs --max-bytes 4096 \
                    --only "$set_rows" "$@" $form
            done
        done
        i=$((i + 1))
    done
    echo
    echo "collectives over sets and teams: $runs round(s); ns per call, the median"
    echo "over the rounds of each run's median; t/u the median of same-run ratios"
    echo "(world: every PE; stride2: PEs 0, 2, ...: PE 0 alone with 2 PEs)"
    [ "$with_sos" = 0 ] || echo "sos_set/sos_team: Sandia OpenSHMEM's s*/t* rows; t/sos: ours_team/sos_team"
    sort -u "$work/placement"
    set_table "$work/all.csv"
}

# CSV: round,impl,npes,test,target,bytes,calls,batches,median_ns,p99_ns,GBps
set_table() {
    awk -F, '
function median(list,   a, n, i, j, x) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) {
        x = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
        a[j + 1] = x
    }
    if (n == 0) return ""
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(v) { return v == "" ? "-" : sprintf("%.1f", v) }
$4 !~ /^[tsu](sync|barrier|bcast|reduce|alltoall|fcollect)$/ { next } # a caller'"'"'s --only
{
    form = substr($4, 1, 1); kind = substr($4, 2)
    row = $3 SUBSEP $5 SUBSEP kind SUBSEP $6
    if (!(row in seen)) { seen[row] = 1; rows[++nrows] = row }
    vals[$2, form, row] = vals[$2, form, row] " " $9
    ns[$1, $2, form, row] = $9
    rounds[$1] = 1
}
END {
    if (sos)
        printf "%-4s %-7s %-8s %5s %10s %10s %10s %10s %7s %7s %10s %10s %7s  %s\n", "PEs", "set", "op", "bytes",
            "ompi_set", "ours_set", "ours_bare", "ours_team", "t/ompi", "t/u", "sos_set", "sos_team", "t/sos", "targets"
    else
        printf "%-4s %-7s %-8s %5s %10s %10s %10s %10s %7s %7s  %s\n", "PEs", "set", "op", "bytes",
            "ompi_set", "ours_set", "ours_bare", "ours_team", "t/ompi", "t/u", "targets"
    for (i = 1; i <= nrows; i++) {
        row = rows[i]
        split(row, f, SUBSEP)
        os = median(vals["ompi", "s", row]); us = median(vals["ours", "s", row])
        uu = median(vals["ours", "u", row]); ut = median(vals["ours", "t", row])
        base = (f[3] == "sync") ? "s" : "u"  # the set form to hold the team form to
        list = ""
        for (r in rounds)
            if (((r, "ours", "t", row) in ns) && ((r, "ours", base, row) in ns) && ns[r, "ours", base, row] > 0)
                list = list " " ns[r, "ours", "t", row] / ns[r, "ours", base, row]
        tu = median(list)
        to = (ut != "" && os != "" && os > 0) ? ut / os : ""
        goal = ""
        if (to != "") {
            lim = (f[1] == 2) ? 0.5 : 1.0
            goal = sprintf("<= %.1fx ompi: %s", lim, to <= lim ? "met" : "NOT met")
        }
        if (tu != "")
            goal = goal sprintf("%s<= 1.1x set: %s", goal == "" ? "" : ", ", tu <= 1.1 ? "met" : "NOT met")
        if (sos) {
            ss = median(vals["sos", "s", row]); st = median(vals["sos", "t", row])
            printf "%-4s %-7s %-8s %5s %10s %10s %10s %10s %7s %7s %10s %10s %7s  %s\n", f[1], f[2], f[3], f[4],
                fmt(os), fmt(us), fmt(uu), fmt(ut), to == "" ? "-" : sprintf("%.3f", to),
                tu == "" ? "-" : sprintf("%.3f", tu), fmt(ss), fmt(st),
                (ut != "" && st != "" && st > 0) ? sprintf("%.3f", ut / st) : "-", goal
        } else
            printf "%-4s %-7s %-8s %5s %10s %10s %10s %10s %7s %7s  %s\n", f[1], f[2], f[3], f[4],
                fmt(os), fmt(us), fmt(uu), fmt(ut), to == "" ? "-" : sprintf("%.3f", to),
                tu == "" ? "-" : sprintf("%.3f", tu), goal
    }
}' sos="$with_sos" "$1"
}


# A row filter of the caller's (--only) also chooses the 4-PE rows; without
# a collective among them the 4-PE run is left out.
user_only=""
prev=""
for a in "$@"; do
    [ "$prev" = --only ] && user_only=$a
    prev=$a
done
run4=yes
if [ -n "$user_only" ]; then
    only4=$user_only
    printf 'barrier\nbcast\nreduce\n' | grep -Eq -- "$user_only" || run4=no
fi
# Beside hogs: the waits' rows, 2 PEs (4 PEs on 2 CPUs measure the
# scheduler already). A busy loop of the shell is a hog no build needs.
# A call's time then swings 1000x between the moments both PEs run and the
# others: fixed batches and their mean (a throughput), not the median of
# batches grown to 200 us (which sees only the first).
hog_only=""
if [ "$hogs" -gt 0 ]; then
    run4=no
    hog_only="--calls 1000 --reps 9 --mean"
    [ -n "$user_only" ] || hog_only="$hog_only --only ^(pingpong|barrier|sbarrier)$"
    h=0
    while [ "$h" -lt "$hogs" ]; do
        sh -c 'while :; do :; done' &
        hog_pids="$hog_pids $!"
        h=$((h + 1))
    done
fi

impls="ompi ours"
[ "$ours_only" = 1 ] && impls=ours
[ "$with_sos" = 1 ] && impls="$impls sos"
impls_rev=$(echo $impls | awk '{ for (i = NF; i > 1; i--) printf "%s ", $i; print $1 }')
[ "${SETS:-yes}" = only ] && { set_stage "$@"; exit 0; }
: >"$work/all.csv"
: >"$work/placement"
i=1
while [ "$i" -le "$runs" ]; do
    # Alternate which goes first, so a drift of the machine hits both.
    order=$impls
    [ $((i % 2)) = 0 ] && order=$impls_rev
    for impl in $order; do
        run_one "$i" "$impl" 2 --csv --label "$impl" $bargs $hog_only "$@"
        [ "$run4" = yes ] || continue
        run_one "$i" "$impl" 4 --csv --label "$impl" $bargs "$@" \
            --only "$only4" $bargs4
    done
    i=$((i + 1))
done

stop_hogs
each=median
[ "$hogs" = 0 ] || each=mean
echo "shmem-bench side by side: $runs round(s); ns per call, the median over"
echo "the rounds of each run's $each; machine-limit targets from same-run ratios"
[ "$with_sos" = 0 ] || echo "sos: Sandia OpenSHMEM ($sos_run, FI_PROVIDER=${FI_PROVIDER:-sockets}); ours/sos: ratio of the medians"
[ "$hogs" = 0 ] || echo "beside $hogs busy-looping processes (load average at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
sort -u "$work/placement"

# CSV: round,impl,npes,test,target,bytes,calls,batches,median_ns,p99_ns,GBps
awk -F, '
function median(list,   a, n, i, j, x) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) {          # insertion sort, a few values
        x = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
        a[j + 1] = x
    }
    if (n == 0) return ""
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    row = $3 SUBSEP $4 SUBSEP $5 SUBSEP $6
    if (!(row in seen)) { seen[row] = 1; rows[++nrows] = row }
    vals[$2, row] = vals[$2, row] " " $9
    ns[$1, $2, row] = $9
    rounds[$1] = 1
}
# Per round, the ratio of a row to the machine limit measured by the same
# implementation in the same round; the median of those ratios.
function limit_ratio(impl, row, lim,   r, list) {
    list = ""
    for (r in rounds)
        if (((r, impl, row) in ns) && ((r, impl, lim) in ns) && ns[r, impl, lim] > 0)
            list = list " " ns[r, impl, row] / ns[r, impl, lim]
    return median(list)
}
END {
    rt = "2" SUBSEP "rt" SUBSEP "pair" SUBSEP "64"
    if (sos)
        printf "%-4s %-8s %-7s %8s %12s %12s %9s %12s %9s  %s\n", "PEs", "test", "target", "bytes", "ompi_ns", "ours_ns", "ours/ompi", "sos_ns", "ours/sos", "target"
    else
        printf "%-4s %-8s %-7s %8s %12s %12s %9s  %s\n", "PEs", "test", "target", "bytes", "ompi_ns", "ours_ns", "ours/ompi", "target"
    for (i = 1; i <= nrows; i++) {
        row = rows[i]
        split(row, f, SUBSEP)
        o = median(vals["ompi", row]); u = median(vals["ours", row])
        ratio = (o > 0 && u > 0) ? sprintf("%.3f", u / o) : "-"
        goal = ""; ok = -1
        t = f[2]; tg = f[3]; b = f[4]
        small = (t == "p+quiet" || t == "g" || t == "fadd" || t == "cswap")
        if (small && tg == "heap") {
            goal = "<= 0.5x ompi"; if (o > 0 && u > 0) ok = (u <= 0.5 * o)
        } else if (small && tg == "static") {
            goal = ">= 10x faster"; if (o > 0 && u > 0) ok = (u * 10 <= o)
        } else if (t == "barrier") {
            x = limit_ratio("ours", row, rt)
            goal = sprintf("<= ompi, <= 1.5x rt (%sx)", x == "" ? "?" : sprintf("%.2f", x))
            if (o > 0 && u > 0 && x != "") ok = (u <= o && x <= 1.5)
        } else if (t == "putmem" && tg == "heap" && (b == 65536 || b == 1048576)) {
            x = limit_ratio("ours", row, f[1] SUBSEP "memcpy" SUBSEP "local" SUBSEP b)
            goal = sprintf(">= 0.9x memcpy (%sx)", x == "" ? "?" : sprintf("%.2f", 1 / x))
            if (x != "") ok = (1 / x >= 0.9)
        }
        if (ok == 1) goal = goal ": met"
        else if (ok == 0) goal = goal ": NOT met"
        else if (goal != "") goal = goal ": no data"
        if (sos) {
            q = median(vals["sos", row])
            printf "%-4s %-8s %-7s %8s %12s %12s %9s %12s %9s  %s\n", f[1], t, tg, b, (o > 0 ? sprintf("%.1f", o) : "-"), (u > 0 ? sprintf("%.1f", u) : "-"), ratio,
                (q > 0 ? sprintf("%.1f", q) : "-"), (q > 0 && u > 0 ? sprintf("%.3f", u / q) : "-"), goal
        } else
            printf "%-4s %-8s %-7s %8s %12s %12s %9s  %s\n", f[1], t, tg, b, (o > 0 ? sprintf("%.1f", o) : "-"), (u > 0 ? sprintf("%.1f", u) : "-"), ratio, goal
    }
}' sos="$with_sos" "$work/all.csv"

[ "${SETS:-yes}" = no ] || set_stage "$@"
