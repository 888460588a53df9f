#!/bin/sh
# bench-runs.sh - one sitting of pshm-pingpong runs, medians per placement.
#
#   tools/bench-runs.sh [-n RUNS] [--ab OTHER_BUILD | --ab-env NAME=VALUE] [--no-chrt]
#                       [--keep DIR] -- PINGPONG_ARGS...
#
# Runs "pshmrun -n 2 pshm-pingpong PINGPONG_ARGS --csv" RUNS times (default
# 7), each under "chrt -f 1" when allowed (the run keeps other jobs off its
# CPUs for its second or so). With --ab, the build in OTHER_BUILD (a built
# tree) runs alternately with this one, so both see the same sitting; with
# --ab-env, "other" is this build with NAME=VALUE in its environment (a
# setting's A/B, e.g. PSHM_SYNERGY_MIN=0).
#
# A virtual machine may run the two CPUs on one host core (SMT siblings:
# a cache-line hand-off of tens of ns) or on two (hundreds): every figure
# changes with it, so runs are grouped by placement, judged within the
# sitting: a run whose hand-off is under half the slowest run's is "fast"
# (the host ran both CPUs on one core), the others "slow"; each group's
# limit-handoff row gives its hand-off (tens of ns: one core; hundreds:
# two), so a sitting spent wholly on one core shows only "slow" runs of a
# fast hand-off. A run during which the placement
# changed (the benchmark says so) is left out and counted. PINGPONG_ARGS
# must include the limits (--tests limits,...).
#
# Prints, per build, placement and row: the runs, the median of the runs'
# values, the median ratio to the row's floor, and the ratios' range.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
runs=7 other= otherenv= chrt=1 keep=
usage() { echo "usage: bench-runs.sh [-n RUNS] [--ab OTHER_BUILD | --ab-env NAME=VALUE] [--no-chrt] [--keep DIR] -- PINGPONG_ARGS..." >&2; exit 2; }
while [ $# -gt 0 ]; do
    case $1 in
    -n) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --ab) [ $# -ge 2 ] || usage; other=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --ab-env) [ $# -ge 2 ] || usage
        case $2 in [A-Za-z_]*=*) ;; *) echo "bench-runs.sh: --ab-env wants NAME=VALUE, not '$2'" >&2; exit 2 ;; esac
        otherenv=$2 other=$here; shift 2 ;;
    --no-chrt) chrt=0; shift ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
    esac
done
case $runs in '' | *[!0-9]* | 0) echo "bench-runs.sh: -n wants a count of runs (1 or more), not '$runs'" >&2; exit 2 ;; esac
[ $# -gt 0 ] || usage
case " $* " in *limits*) ;; *) echo "bench-runs.sh: add 'limits' to --tests: placement is judged by the hand-off" >&2; exit 2 ;; esac
for b in "$here" $other; do
    [ -x "$b/tools/pshm-pingpong" ] || { echo "bench-runs.sh: $b has no tools/pshm-pingpong: build it first" >&2; exit 2; }
done
[ "$chrt" = 1 ] && ! chrt -f 1 true 2>/dev/null && { echo "bench-runs.sh: chrt -f 1 not allowed here: running without it" >&2; chrt=0; }

if [ -n "$keep" ]; then work=$keep; mkdir -p "$work"; else
    work=$(mktemp -d "${TMPDIR:-/tmp}/bench-runs.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
# Stopped: end here (the EXIT trap cleans up), not go on to the next run.
trap 'exit 130' INT TERM HUP

i=1
while [ "$i" -le "$runs" ]; do
    for tag in this ${other:+other}; do
        if [ "$tag" = this ]; then b=$here envset=; else b=$other envset=$otherenv; fi
        out="$work/$tag.$i.csv"
        if [ "$chrt" = 1 ]; then pre="chrt -f 1"; else pre=; fi
        if ! $pre env $envset "$b/tools/pshmrun" -n 2 "$b/tools/pshm-pingpong" "$@" --csv >"$out" 2>"$work/$tag.$i.err"; then
            echo "bench-runs.sh: run $i of $b failed:" >&2; cat "$work/$tag.$i.err" >&2; exit 1
        fi
        grep -q "placed the two CPUs differently" "$work/$tag.$i.err" && mv "$out" "$out.moved"
        echo "run $i/$runs ($tag) done" >&2
    done
    i=$((i + 1))
done

echo "# bench-runs.sh: $runs run(s) per build of: pshm-pingpong $*"
echo "# this = $here${other:+, other = $other${otherenv:+ with $otherenv}}; $(cat /proc/loadavg | cut -d' ' -f1-3) load at the end"
for tag in this ${other:+other}; do
    moved=$(ls "$work" | grep -c "^$tag\..*\.moved$" || true)
    loaded=$(grep -l "other processes used" "$work"/$tag.*.err 2>/dev/null | wc -l)
    echo "# $tag: $moved run(s) left out (the placement changed during the run), $loaded run(s) beside other load (kept)"
done
awk -F, '
function sorted(s, a,   n, i, j, t) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n
}
function med(s,   a, n) { n = sorted(s, a); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function range(s,   a, n) { n = sorted(s, a); return sprintf("%.2f-%.2f", a[1], a[n]) }
FNR == 1 { file = FILENAME; sub(/.*\//, "", file); split(file, f, "."); run = f[1] "." f[2]; runs[run] = f[1]; next }
$1 == "limit-handoff" { handoff[run] = $4; if ($4 + 0 > maxh) maxh = $4 + 0 }
{
    pair = $1 SUBSEP $2
    if (!(pair in seen)) { seen[pair] = 1; pairs[++np] = pair }
    val[run, pair] = $4 != "" ? $4 : ($7 != "" ? $7 : $9)
    unit[pair] = $4 != "" ? "us" : ($7 != "" ? "GB/s" : "Mmsg/s")
    ratio[run, pair] = $14
}
END {
    print "# placement: fast = a hand-off under half the slowest run'"'"'s (one host core), slow = the others"
    printf "%-6s %-9s %-16s %8s %5s %11s %-7s %7s %12s\n", "build", "placement", "test", "size",
        "runs", "median", "unit", "ratio", "ratio range"
    nb = split("this other", builds, " "); split("slow fast", places, " ")
    for (b = 1; b <= nb; b++) for (p = 1; p <= 2; p++) for (i = 1; i <= np; i++) {
        vs = rs = ""; n = 0
        for (run in runs) {
            if (runs[run] != builds[b] || !((run, pairs[i]) in val)) continue
            if ((handoff[run] + 0 < maxh / 2 ? "fast" : "slow") != places[p]) continue
            vs = vs " " val[run, pairs[i]]; n++
            if (ratio[run, pairs[i]] != "") rs = rs " " ratio[run, pairs[i]]
        }
        if (n == 0) continue
        split(pairs[i], k, SUBSEP)
        printf "%-6s %-9s %-16s %8s %5d %11.4g %-7s %7s %12s\n", builds[b], places[p], k[1], k[2], n,
            med(vs), unit[pairs[i]], rs == "" ? "-" : sprintf("%.3f", med(rs)), rs == "" ? "-" : range(rs)
    }
}' $(ls "$work"/*.csv 2>/dev/null)
