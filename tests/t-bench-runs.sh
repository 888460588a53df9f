#!/bin/bash
# t-bench-runs - tools/bench-runs.sh runs pshm-pingpong several times (and
# alternately with another build under --ab), leaves out the runs it is
# told moved, and prints per build and placement the median of the runs'
# values, which must equal the median recomputed here from the CSV files it
# kept; bad options exit 2 with a message. No timing is asserted.
. "$(dirname "$0")/pingpong-lib.sh"
S=$B/tools/bench-runs.sh

run 2 "$T/n0" -- "$S" -n 0 -- --tests limits,short
grep -q "wants a count of runs" "$T/n0.err" || bad "-n 0 not explained"
run 2 "$T/nolim" -- "$S" -n 1 -- --tests short
grep -q "add 'limits'" "$T/nolim.err" || bad "missing limits not explained"
run 2 "$T/noab" -- "$S" -n 1 --ab "$T/nowhere" -- --tests limits,short
run 2 "$T/badenv" -- "$S" -n 1 --ab-env NOVALUE -- --tests limits,short
grep -q "wants NAME=VALUE" "$T/badenv.err" || bad "--ab-env without a value not explained"
run 2 "$T/noargs" -- "$S" -n 1
grep -q "^usage: bench-runs.sh" "$T/noargs.err" || bad "no usage line"

if [ $nopshm = 1 ]; then
    [ $fails = 0 ] || exit 1
    echo "skip: --disable-pshm: pshm-pingpong has no peer to measure"; exit 77
fi

# Two runs of each of two "builds" (this tree twice), alternating.
if run 0 "$T/out" -- "$S" -n 2 --no-chrt --ab "$B" --keep "$T/k" -- --tests limits,short --quick --reps 3; then
    for tag in this other; do
        n=$(ls "$T/k" | grep -c "^$tag\.[12]\.csv$")
        m=$(ls "$T/k" | grep -c "^$tag\.[12]\.csv\.moved")
        [ $((n + m)) = 2 ] || bad "$tag: $n kept + $m moved runs, expected 2 in all"
        # Runs of short/8 printed for this build, over both placements.
        got=$(awk -v t=$tag '$1 == t && $3 == "short" && $4 == 8 {s += $5} END {print s + 0}' "$T/out")
        [ "$got" = "$n" ] || bad "$tag: short 8 B counted in $got run(s), $n kept"
        [ $have_py = 1 ] && [ "$n" -gt 0 ] || continue
        # The median over the kept runs of one placement, recomputed.
        python3 - "$T/k" "$T/out" "$tag" <<'PY' || bad "$tag: the printed median is not the runs' median"
import csv, glob, statistics, sys
k, out, tag = sys.argv[1:]
runs = {}
for f in glob.glob(f"{k}/{tag}.*.csv"):
    rows = {(r["test"], r["size_bytes"]): r for r in csv.DictReader(open(f))}
    runs[f] = (float(rows[("limit-handoff", "56")]["median_us"]), float(rows[("short", "8")]["median_us"]))
allh = [h for f in glob.glob(f"{k}/*.csv") for r in csv.DictReader(open(f)) if r["test"] == "limit-handoff" for h in [float(r["median_us"])]]
maxh = max(allh)
for line in open(out):
    w = line.split()
    if len(w) > 5 and w[0] == tag and w[2] == "short" and w[3] == "8":
        vals = [v for h, v in runs.values() if (h < maxh / 2) == (w[1] == "fast")]
        want = statistics.median(vals)
        if abs(float(w[5]) - want) > 1e-3 * want:
            print(f"FAIL: {tag} {w[1]}: printed {w[5]}, runs {vals} give {want}")
            sys.exit(1)
PY
    done
    grep -q "^# this: [0-9]* run(s) left out" "$T/out" || bad "no count of left-out runs"
fi
# Stopped (TERM) during a sitting: it ends after the run under way and
# leaves nothing in its temporary directory.
mkdir "$T/tmp"
TMPDIR=$T/tmp "$S" -n 500 --no-chrt -- --tests limits,short --quick --reps 3 >"$T/stop.out" 2>"$T/stop.err" &
spid=$!
for _ in $(seq 300); do
    grep -q "^run 1/500 (this) done" "$T/stop.err" && break
    sleep 0.1
done
grep -q "^run 1/500 (this) done" "$T/stop.err" || bad "no run finished in 30 s: $(cat "$T/stop.err")"
kill -TERM "$spid"
for _ in $(seq 300); do kill -0 "$spid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$spid" 2>/dev/null; then
    bad "bench-runs.sh still runs 30 s after TERM"
    kill -KILL "$spid"
fi
wait "$spid"
[ $? = 130 ] || bad "a stopped bench-runs.sh did not exit with 130"
left=$(ls -A "$T/tmp")
[ -z "$left" ] || bad "a stopped bench-runs.sh left $left in its temporary directory"

# A setting's A/B: "other" is this build with the variable set (a bad
# value makes pshm-pingpong fail, which must stop the sitting).
if run 0 "$T/env" -- "$S" -n 1 --no-chrt --ab-env PSHM_SYNERGY_MIN=0 -- --tests limits,short --quick --reps 3; then
    grep -q "other = .* with PSHM_SYNERGY_MIN=0" "$T/env" || bad "--ab-env: the header does not name the setting"
    grep -q "^other .* short " "$T/env" || bad "--ab-env: no rows for the other run"
fi
if run 1 "$T/envbad" -- "$S" -n 1 --no-chrt --ab-env GASNET_PSHMNET_QUEUE_DEPTH=banana -- --tests limits,short --quick; then
    grep -q "run 1 of .* failed" "$T/envbad.err" || bad "--ab-env: a failing run not reported"
    grep -q "^build  *placement  *test" "$T/out" || bad "no table header"
fi
[ $fails = 0 ]
