# pingpong-lib.sh - what the pshm-pingpong tests share: paths, a scratch
# directory removed at exit, bad/ok/run, and the CSV/JSON schema check.
# Sourced by t-pingpong.sh and t-pingpong-instr.sh.
B=${PSHM_BUILD:-.}
R=$B/tools/pshmrun
P=$B/tools/pshm-pingpong
T=${TMPDIR:-/tmp}/$(basename "$0" .sh).$$
fails=0
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

for f in "$R" "$P"; do
    [ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done

bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
have_py=0
python3 -c 'import json' 2>/dev/null && have_py=1

# run WANT OUT -- command...: runs (60 s at most) and checks the exit status.
run() {
    local want=$1 out=$2 got
    shift 3
    timeout -s KILL 60 "$@" >"$out" 2>"$out.err"
    got=$?
    if [ "$got" != "$want" ]; then
        bad "$* exited $got, expected $want; output:"
        sed 's/^/    /' "$out" "$out.err" | tail -20
        return 1
    fi
    ok "$* -> $got"
}

# Without shared memory (--disable-pshm) only the machine's limits, the modes
# and the usage errors can be checked.
nopshm=0
grep -q "define PSHM_BACKEND_NONE 1" "$B/config.h" 2>/dev/null && nopshm=1


SCHEMA="test,size_bytes,processes,median_us,p99_us,worst_us,median_GBps,worst_GBps,median_Mmsgps,worst_Mmsgps,instructions,floor,floor_size_bytes,ratio,better,reps,iters,floor_median,floor_paired"
# check_schema FILE FORMAT [REPS]: python3 reads CSV or JSON and checks that
# every row has every column, that only the columns of its unit hold values,
# that floors name a row of the same file, and ratio = median / floor.
check_schema() {
    python3 - "$@" <<'PY'
import csv, json, math, sys
f, fmt = sys.argv[1], sys.argv[2]
reps = int(sys.argv[3]) if len(sys.argv) > 3 else None
cols = "test,size_bytes,processes,median_us,p99_us,worst_us,median_GBps,worst_GBps,median_Mmsgps,worst_Mmsgps,instructions,floor,floor_size_bytes,ratio,better,reps,iters,floor_median,floor_paired".split(",")
if fmt == "csv":
    rd = csv.reader(open(f))
    head = next(rd)
    assert head == cols, "CSV header %r" % head
    rows = []
    for rec in rd:
        assert len(rec) == len(cols), "record %r has %d fields" % (rec, len(rec))
        rows.append({c: (v if v != "" else None) for c, v in zip(cols, rec)})
else:
    d = json.load(open(f))
    rows = d["results"]
    for r in rows:
        assert list(r) == cols, "record keys %r" % list(r)
    rows = [{c: (None if r[c] is None else str(r[c])) for c in cols} for r in rows]
assert rows, "no records"
num = lambda v: float(v)
byname = {(r["test"], r["size_bytes"]): r for r in rows}
for r in rows:
    t = r["test"]
    vals = [c for c in cols[3:11] if r[c] is not None]
    units = {c.split("_")[-1] for c in vals}
    assert len(units) == 1, "%s: values in more than one unit, or none: %r" % (t, vals)
    u = units.pop()
    med = "instructions" if u == "instructions" else "median_" + u
    assert med in vals, "%s: no %s" % (t, med)
    for c in vals:
        assert num(r[c]) > 0, "%s: %s = %r" % (t, c, r[c])
    assert r["p99_us"] is None or r["worst_us"] is None, "%s: p99 and worst in one row" % t
    assert r["size_bytes"] is None or int(r["size_bytes"]) >= 0
    assert int(r["processes"]) >= 1 and int(r["reps"]) >= 1 and int(r["iters"]) >= 1
    if reps is not None:
        assert int(r["reps"]) == reps, "%s: reps %s" % (t, r["reps"])
    want = "higher" if u in ("GBps", "Mmsgps") else "lower"
    assert r["better"] == want, "%s: better %r, expected %s" % (t, r["better"], want)
    if r["floor"] is not None:
        assert num(r["floor_median"]) > 0 and num(r["ratio"]) > 0, "%s: floor or ratio not positive" % t
        if r["floor_paired"] == "0":
            # the floor is a row of the file, and the ratio its medians'
            fl = byname.get((r["floor"], r["floor_size_bytes"]))
            assert fl is not None, "%s: floor %s at %s is not a row" % (t, r["floor"], r["floor_size_bytes"])
            assert math.isclose(num(fl[med]), num(r["floor_median"]), rel_tol=1e-3), "%s: floor_median" % t
            ratio = num(r[med]) / num(fl[med])
        else:
            # measured beside each repetition: the median of their ratios,
            # which is value / floor when there is one repetition
            assert r["floor_paired"] == "1", "%s: floor_paired %r" % (t, r["floor_paired"])
            ratio = num(r[med]) / num(r["floor_median"]) if int(r["reps"]) == 1 else num(r["ratio"])
        assert math.isclose(ratio, num(r["ratio"]), rel_tol=1e-3), "%s: ratio %s, expected %g" % (t, r["ratio"], ratio)
    else:
        assert r["ratio"] is None and r["floor_median"] is None and r["floor_paired"] is None, \
            "%s: a ratio without a floor" % t
print(len(rows))
PY
}
