#!/bin/sh
# compare-mpi.sh: the OpenSHMEM layer's two paths side by side, in one sitting,
# under mpirun: PE 0 -> PE 1 in one supernode (shared memory), PE 0 -> PE 1 on
# two simulated hosts (MPI), and MPI's own one-sided calls between the same
# two processes (mpi-rma-bench.c), with the ratio of the MPI path to MPI
# itself (target: at most 1.2x; net/MPI against MPI at MPI_THREAD_SINGLE,
# net/ser against MPI at MPI_THREAD_SERIALIZED, the level the layer asks
# for with its progress thread); then, with valgrind, the instructions per
# call of the shared-memory path in a one-host job and in a split job.
#
#   shmem/bench/compare-mpi.sh [--runs N] [--quick] [--no-instructions]
#                              [--ab OTHER_BUILD] [--no-chrt] [--keep FILE]
#   shmem/bench/compare-mpi.sh --from-csv FILE
#
# Each round runs, in turns (the order alternates, so a drift of the machine
# hits all): shmem-bench on 2 PEs in one supernode, shmem-bench on 2 PEs with
# PSHM_SIM_HOSTS=2, mpi-rma-bench on 2 ranks at MPI_THREAD_SINGLE and at
# MPI_THREAD_SERIALIZED, and shmem-bench on 3 PEs with
# PSHM_SIM_HOSTS=2 and --peer 2 (PE 2 shares PE 0's simulated host: the
# shared-memory path inside a split job; 3 processes on 2 CPUs, so read its
# times as an indication; the instruction counts are the exact comparison).
# Every process is pinned by the benchmarks themselves (rank i on the i-th
# CPU), mpirun binds nothing; each rank runs under "chrt -f 1" when allowed
# (the ranks, not mpirun: its helpers would spin at that priority too;
# not in a run of more ranks than CPUs, which SCHED_FIFO would not share),
# which keeps other jobs off their CPUs for the run's few seconds. With
# --ab, the layer of the build in OTHER_BUILD (a built tree) runs on two
# supernodes in each round too ("net B"), after or before this one's.
#
# A virtual machine may run the two CPUs on one host core (SMT siblings)
# or on two, and may change between runs: every figure changes with it.
# Each run is placed by the cache-line hand-off between CPUs 0 and 1 (the
# rt row of its own shmem-bench run on 2 PEs, or, for mpi-rma-bench, which
# has none, and the split run, whose rt is between PEs of one CPU, that of
# the same round's run on two supernodes, taken beside it), judged within
# the sitting: where the sorted hand-offs have a gap of 2x or more with at
# least two runs on each side, those under it are "fast" (one core), the
# others "slow"; else all runs are of one placement (a lone stalled run
# does not split a sitting in two). So MPI's runs and the layer's are placed alike
# even when all the runs of one kind fell in one placement. The table,
# per placement: medians over the runs of each run's median, ns per call,
# and net/MPI, the median over the rounds of the ratio of the layer's run
# to MPI's run of the same round (the two side by side), both of that
# placement.
#
# Environment: PSHM_BUILD (the build tree; default: the tree holding this
# script), MPIRUN (default mpirun), OMPI_MCA_* as Open MPI reads them.
set -eu

runs=3
quick=0
instr=1
other=
chrt=1
keep=
from=
usage() {
    sed -n 's/^# \{0,1\}//; 2,13p' "$0"
    echo "  --runs N           rounds (1..50, default 3)"
    echo "  --quick            fewer and shorter batches (a smoke run)"
    echo "  --no-instructions  leave out the callgrind counts"
    echo "  --ab OTHER_BUILD   also the layer of that built tree between supernodes"
    echo "  --no-chrt          ranks at normal priority"
    echo "  --keep FILE        keep the sitting's runs (CSV) in FILE"
    echo "  --from-csv FILE    no runs: the table of the runs kept in FILE"
}
while [ $# -gt 0 ]; do
    case $1 in
    --runs)
        case ${2-} in
        [1-9] | [1-4][0-9] | 50) runs=$2 ;;
        *) echo "compare-mpi.sh: --runs needs an integer in 1..50, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
    --quick) quick=1; shift ;;
    --no-instructions) instr=0; shift ;;
    --ab)
        [ -n "${2-}" ] && [ -x "$2/shmem/oshcc" ] ||
            { echo "compare-mpi.sh: --ab needs a built tree (with shmem/oshcc), got '${2-}'" >&2; exit 2; }
        other=$(cd "$2" && pwd)
        shift 2 ;;
    --no-chrt) chrt=0; shift ;;
    --keep)
        [ -n "${2-}" ] || { echo "compare-mpi.sh: --keep needs a file name" >&2; exit 2; }
        keep=$2
        shift 2 ;;
    --from-csv)
        [ -n "${2-}" ] && [ -r "$2" ] && grep -q '^round,label,' "$2" ||
            { echo "compare-mpi.sh: --from-csv needs a file kept by --keep, got '${2-}'" >&2; exit 2; }
        from=$2
        shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "compare-mpi.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/shmem-compare-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# The CSV of a sitting: a header, then one line a row of a run:
# round,label,npes,test,target,bytes,calls,batches,median_ns,p99_ns,GBps
# (label: shm, net, netb, mpi or split), what --keep writes.
csv_head="round,label,npes,test,target,bytes,calls,batches,median_ns,p99_ns,GBps"

# table CSV: the table of a sitting, per placement.
table() {
awk -F, -v other="$other" '
NR == 1 { next }
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
# The MPI call that is the floor of each row of the layer.
function floor_of(t) {
    if (t == "p+quiet" || t == "putmem") return "put+flush"
    if (t == "g" || t == "getmem") return "get+flush"
    if (t == "fadd") return "fop+flush"
    if (t == "cswap") return "cas+flush"
    return ""
}
# The median over the rounds of the ratio of label lab'"'"'s row to the call
# fl of MPI'"'"'s run base (mpi, or mpis: MPI at the layer'"'"'s thread level)
# within each round (the two runs side by side), both placed at pl.
function round_ratio(lab, row, fl, pl, base,   run, rk, mr, rl) {
    rl = ""
    for (run in runs) {
        split(run, rk, SUBSEP)
        if (rk[2] != lab || place[run] != pl || !((run, row) in val)) continue
        mr = rk[1] SUBSEP base
        if (fl != "" && (mr in runs) && place[mr] == pl && ((mr, fl) in floorv) && floorv[mr, fl] + 0 > 0)
            rl = rl " " val[run, row] / floorv[mr, fl]
    }
    return rl == "" ? "-" : sprintf("%.2f", median(rl))
}
{
    run = $1 SUBSEP $2
    key = $4 SUBSEP $5 SUBSEP $6
    if ($2 != "mpi" && $2 != "mpis" && !(key in seen)) { seen[key] = 1; rows[++nrows] = key }
    val[run, key] = $9
    if ($2 == "mpi" || $2 == "mpis") floorv[run, $4] = $9
    runs[run] = $2
    # The hand-off between CPUs 0 and 1 of the 2-PE runs places every run.
    if ($4 == "rt" && ($2 == "shm" || $2 == "net" || $2 == "netb")) {
        hand[run] = $9
        hs[++nh] = $9 + 0
    }
}
END {
    # Two placements only where the sorted hand-offs have a gap of 2x or
    # more with at least two runs on each side (one host core against two;
    # a lone stalled run is no placement); the line between them is the
    # geometric mean of the gap'"'"'s ends. Else every run is of one placement.
    for (i = 2; i <= nh; i++) {
        x = hs[i]
        for (j = i - 1; j >= 1 && hs[j] > x; j--) hs[j + 1] = hs[j]
        hs[j + 1] = x
    }
    split_at = 0
    gap = 2
    for (i = 2; i + 2 <= nh + 0; i++)
        if (hs[i] > 0 && hs[i + 1] / hs[i] >= gap) {
            gap = hs[i + 1] / hs[i]
            split_at = sqrt(hs[i] * hs[i + 1])
        }
    np = split("slow fast", places, " ")
    for (run in runs) {
        split(run, rk, SUBSEP)
        h = (run in hand) ? hand[run] : ((rk[1], "net") in hand) ? hand[rk[1], "net"] : hand[rk[1], "shm"]
        place[run] = h + 0 < split_at ? "fast" : "slow"
        if (run in hand) {
            if (!((place[run], "lo") in hr) || h + 0 < hr[place[run], "lo"]) hr[place[run], "lo"] = h + 0
            if (h + 0 > hr[place[run], "hi"]) hr[place[run], "hi"] = h + 0
        }
    }
    for (p = 1; p <= np; p++) {
        n = 0
        for (run in runs) if (place[run] == places[p]) n++
        if (n == 0) continue
        if (split_at == 0)
            printf "\none placement (hand-offs %.0f-%.0f ns, no gap of 2x between two runs or more on each side):", hr["slow", "lo"], hr["slow", "hi"]
        else
            printf "\n%s placement (hand-offs %.0f-%.0f ns%s):", places[p], hr[places[p], "lo"], hr[places[p], "hi"],
                places[p] == "fast" ? ": one host core" : ""
        for (run in runs) if (place[run] == places[p]) cnt[places[p], runs[run]]++
        split("shm split net netb mpi mpis", labs, " ")
        for (l = 1; l <= 6; l++) if (cnt[places[p], labs[l]]) printf " %s %d", labs[l], cnt[places[p], labs[l]]
        printf " run(s)\n"
        printf "%-8s %-7s %5s %9s %9s %9s %9s  %-10s %8s %8s %8s%s  %s\n", "test", "target", "bytes",
            "shm", "split-shm", "net", "net B", "MPI itself", "MPI_ns", "net/MPI", "net/ser", other == "" ? "" : "  B/MPI", "target"
        for (i = 1; i <= nrows; i++) {
            split(rows[i], f, SUBSEP)
            fl = floor_of(f[1])
            delete lists
            for (run in runs) {
                if (place[run] != places[p]) continue
                if ((run, rows[i]) in val) lists[runs[run]] = lists[runs[run]] " " val[run, rows[i]]
                if (runs[run] == "mpi" && fl != "" && ((run, fl) in floorv)) lists["floor"] = lists["floor"] " " floorv[run, fl]
            }
            m = median(lists["floor"]); x = round_ratio("net", rows[i], fl, places[p], "mpi")
            goal = (x != "-" && f[1] != "rt") ? sprintf("<= 1.2x: %s", x <= 1.2 ? "met" : "NOT met") : ""
            printf "%-8s %-7s %5s %9s %9s %9s %9s  %-10s %8s %8s %8s%s  %s\n", f[1], f[2], f[3],
                median(lists["shm"]), median(lists["split"]), median(lists["net"]),
                other == "" ? "-" : median(lists["netb"]), (fl == "" ? "-" : fl), (fl == "" || m == "" ? "-" : m), x,
                round_ratio("net", rows[i], fl, places[p], "mpis"),
                other == "" ? "" : sprintf("  %7s", round_ratio("netb", rows[i], fl, places[p], "mpi")), goal
        }
        # The floor of a shipped atomic: two matched messages of MPI.
        delete lists
        for (run in runs)
            if (place[run] == places[p] && ((run, "send+recv") in floorv))
                lists[runs[run]] = lists[runs[run]] " " floorv[run, "send+recv"]
        if (lists["mpi"] != "")
            printf "MPI two-sided round trip (send+recv, 32 B out, 8 B back): %s ns\n", median(lists["mpi"])
        if (lists["mpis"] != "")
            printf "  the same at MPI_THREAD_SERIALIZED: %s ns\n", median(lists["mpis"])
    }
}' "$1"
}

if [ -n "$from" ]; then
    echo "OpenSHMEM over MPI, both paths: the runs kept in $from, ns per call"
    [ -z "$other" ] && grep -q '^[0-9]*,netb,' "$from" && other="(net B)"
    table "$from"
    exit 0
fi

top=${PSHM_BUILD:-$(cd "$here/../.." && pwd)}
oshcc=$top/shmem/oshcc
name=compare-mpi.sh
. "$here/mpi_env.sh"
mpicc=$(sed -n 's/^MPICC := //p' "$top/Makefile")

flags="-std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror"
"$oshcc" $flags -o "$work/shmem-bench" "$here/shmem-bench.c"
$mpicc $flags -o "$work/mpi-rma-bench" "$here/mpi-rma-bench.c"
[ -n "$other" ] && "$other/shmem/oshcc" $flags -o "$work/shmem-bench-b" "$here/shmem-bench.c"
rt=
if [ "$chrt" = 1 ]; then
    if chrt -f 1 true 2>/dev/null; then rt="chrt -f 1"; else
        echo "compare-mpi.sh: chrt -f 1 not allowed here: ranks at normal priority" >&2; fi
fi

bargs="--max-bytes 8"
[ "$quick" = 1 ] && bargs="$bargs --reps 11 --batch-us 100"
only='^(rt|p\+quiet|g|fadd|cswap|putmem|getmem)$'

# run ROUND LABEL NP HOSTS PROGRAM ARGS...: one job, its CSV lines kept.
run() {
    round=$1 label=$2 np=$3 hosts=$4
    shift 4
    t0=$(date +%s)
    # More ranks than CPUs: no chrt (SCHED_FIFO does not share a CPU).
    pre=$rt
    [ "$np" -gt "$(nproc)" ] && pre=
    if ! env ${hosts:+PSHM_SIM_HOSTS=$hosts} timeout 900 "$mpirun" $mpiopts -np "$np" \
        $pre "$@" --csv --label "$label" >"$work/out" 2>"$work/err"; then
        echo "compare-mpi.sh: failed: ${hosts:+PSHM_SIM_HOSTS=$hosts }$mpirun -np $np $*" >&2
        cat "$work/err" "$work/out" >&2
        exit 1
    fi
    echo "round $round/$runs: $label: $(($(date +%s) - t0)) s" >&2
    grep -v '^#' "$work/out" | sed 1d | sed "s/^/$round,/" >>"$work/all.csv"
    grep '^#' "$work/out" | sed "s/^# /  [$label] /" >>"$work/placement"
}

echo "$csv_head" >"$work/all.csv"
: >"$work/placement"
i=1
while [ "$i" -le "$runs" ]; do
    order="shm net ${other:+netb} mpi mpis split"
    [ $((i % 2)) = 0 ] && order="split mpis mpi ${other:+netb} net shm"
    for what in $order; do
        case $what in
        shm) run "$i" shm 2 "" "$work/shmem-bench" --only "$only" $bargs ;;
        net) run "$i" net 2 2 "$work/shmem-bench" --only "$only" $bargs ;;
        netb) run "$i" netb 2 2 "$work/shmem-bench-b" --only "$only" $bargs ;;
        mpi) run "$i" mpi 2 "" "$work/mpi-rma-bench" $(echo "$bargs" | sed 's/--max-bytes 8//') ;;
        mpis) run "$i" mpis 2 "" "$work/mpi-rma-bench" --thread serialized \
            $(echo "$bargs" | sed 's/--max-bytes 8//') ;;
        split) run "$i" split 3 2 "$work/shmem-bench" --peer 2 --only "$only" $bargs ;;
        esac
    done
    i=$((i + 1))
done

echo "OpenSHMEM over MPI, both paths: $runs round(s)${rt:+ (ranks under $rt)}, ns per call"
echo "(medians over the runs of each run's median, per placement); net/MPI: the"
echo "median over the rounds of the ratio of the layer's run to MPI's run of the"
echo "same round${other:+; net B: the layer of $other}"
sort -u "$work/placement"
table "$work/all.csv"
[ -n "$keep" ] && cp "$work/all.csv" "$keep"

[ "$instr" = 1 ] || exit 0
if ! command -v valgrind >/dev/null 2>&1; then
    echo "# instruction counts left out: valgrind is not installed (apt-get install -y valgrind)"
    exit 0
fi
# Instructions per call on PE 0 (callgrind, collection inside the called
# functions only), PE 0 -> a peer of its supernode: a one-host job under
# oshrun, a one-supernode job under mpirun, and a split job (PE 2 shares
# PE 0's simulated host) under mpirun; and, for scale, PE 0 -> PE 1 of
# another supernode. Each function under both its names: callgrind names it
# after pshmem_X, of which shmem_X is an alias (docs/shmem.md "Profiling").
"$oshcc" $flags -o "$work/shmem-count" "$here/shmem-count.c"
calls=15000
cat >"$work/cg.sh" <<EOF
#!/bin/sh
# PE 0 alone under callgrind: the others run at full speed.
case \${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-\${PSHM_RANK:-0}}} in
0) exec valgrind -q --tool=callgrind --collect-atstart=no \\
     --toggle-collect=shmem_long_p --toggle-collect=shmem_quiet \\
     --toggle-collect=shmem_long_g --toggle-collect=shmem_long_atomic_fetch_add \\
     --toggle-collect=pshmem_long_p --toggle-collect=pshmem_quiet \\
     --toggle-collect=pshmem_long_g --toggle-collect=pshmem_long_atomic_fetch_add \\
     --callgrind-out-file="$work/cg.out" "\$@" 2>"$work/cg.err" ;;
*) exec "\$@" ;;
esac
EOF
chmod +x "$work/cg.sh"
count() { # label launcher... -> "label p g fadd"
    label=$1
    shift
    line=$label
    for op in p g fadd; do
        rm -f "$work/cg.out"
        if ! "$@" "$work/cg.sh" "$work/shmem-count" "$op" "$calls" "$peer" >"$work/out" 2>"$work/err" ||
            [ ! -s "$work/cg.out" ]; then
            echo "compare-mpi.sh: the callgrind run failed: $* shmem-count $op $calls $peer" >&2
            cat "$work/err" "$work/out" "$work/cg.err" >&2 2>/dev/null
            exit 1
        fi
        ir=$(sed -n 's/^summary: *//p' "$work/cg.out")
        line="$line $(awk -v ir="${ir:-0}" -v n="$calls" 'BEGIN { printf "%.1f", ir / n }')"
    done
    echo "$line"
}
echo
echo "instructions per call on PE 0 (callgrind, $calls calls; p includes shmem_quiet)"
printf '%-48s %8s %8s %8s\n' "job" "p+quiet" "g" "fadd"
{
    peer=1
    count "one host (oshrun -n 2), PE 0 -> PE 1" "$top/shmem/oshrun" -n 2
    count "one supernode (mpirun -np 2), PE 0 -> PE 1" "$mpirun" $mpiopts -np 2
    peer=2
    count "split (mpirun -np 3, 2 hosts), PE 0 -> PE 2" env PSHM_SIM_HOSTS=2 "$mpirun" $mpiopts -np 3
    peer=1
    count "split (mpirun -np 3, 2 hosts), PE 0 -> PE 1 (MPI)" env PSHM_SIM_HOSTS=2 "$mpirun" $mpiopts -np 3
} | awk '{ n = NF; printf "%-48s %8s %8s %8s\n", substr($0, 1, length($0) - length($(n-2) " " $(n-1) " " $n) - 1), $(n-2), $(n-1), $n }'
