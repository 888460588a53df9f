#!/bin/bash
# t-pingpong - pshm-pingpong --quick runs every test and prints a row for
# each; --csv and --json parse with the right fields and record counts;
# --plot writes two SVG files; --poll-idle, --startup and --limits-only run;
# bad options exit 2 with a message. No timing is asserted.
B=${PSHM_BUILD:-.}
R=$B/tools/pshmrun
P=$B/tools/pshm-pingpong
T=${TMPDIR:-/tmp}/t-pingpong.$$
fails=0
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT

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

TESTS="limit-handoff limit-ring limit-ring-rate limit-ring-bw limit-memcpy limit-memcpy-bw
       short medium long put get flood medium-bw long-bw put-bw get-bw"
# Rows the quick sweeps give: 0, 8, 64, 4096, 65536 (bandwidth without 0).
declare -A ROWS=([limit-handoff]=1 [short]=3 [flood]=1 [limit-ring-rate]=1
                 [medium]=5 [long]=5 [put]=5 [get]=5 [limit-ring]=5 [limit-memcpy]=5
                 [medium-bw]=4 [long-bw]=4 [put-bw]=4 [get-bw]=4 [limit-ring-bw]=4 [limit-memcpy-bw]=4)

if [ $nopshm = 1 ]; then
    run 1 "$T/none" -- "$R" -n 2 "$P" --quick
    grep -q "not reachable through shared memory" "$T/none.err" || bad "no reason given without shared memory"
fi

# --- the table: a section per test, with its rows of five numbers
[ $nopshm = 1 ] || if run 0 "$T/table" -- "$R" -n 2 "$P" --quick; then
    grep -q "^# pshm-pingpong: pshm [0-9]" "$T/table" || bad "no header with the library version"
    grep -q "^# CPUs [0-9]*,[0-9]* (pinned)" "$T/table" || bad "the header does not name the CPUs"
    for t in $TESTS; do
        # rows of the section: from "# t:" to the next blank line
        n=$(awk -v t="# $t:" 'index($0, t) == 1 {on = 1; next} /^$/ {on = 0}
            on && $1 ~ /^[0-9]+$/ && NF == 5 && $2 + 0 > 0 {n++} END {print n + 0}' "$T/table")
        if [ "$n" != "${ROWS[$t]}" ]; then
            bad "table: section '$t' has $n rows with a positive median, expected ${ROWS[$t]}"
        fi
    done
    # every library row has a limit and a ratio
    n=$(awk '/^# [a-z]/ {lib = ($2 !~ /^limit-/)} lib && $1 ~ /^[0-9]+$/ && ($4 == "-" || $5 == "-") {n++}
        END {print n + 0}' "$T/table")
    [ "$n" = 0 ] && ok "every library row has a limit and a ratio" || bad "$n library rows lack a limit"
fi

# --- CSV: header, nine fields, every test, and the plot files
[ $nopshm = 1 ] || if run 0 "$T/csv" -- "$R" -n 2 "$P" --quick --csv --plot "$T/x.svg"; then
    head -1 "$T/csv" | grep -qx "test,size,unit,median,p99,limit,ratio,reps,iters" ||
        bad "CSV header is '$(head -1 "$T/csv")'"
    n=$(awk -F, 'NR > 1 && (NF != 9 || $2 !~ /^[0-9]+$/ || $4 + 0 <= 0 || $8 != 2) {n++} END {print n + 0}' "$T/csv")
    [ "$n" = 0 ] && ok "every CSV record has 9 fields, a size, a median > 0, reps 2" ||
        bad "$n CSV records are malformed"
    for t in $TESTS; do
        n=$(awk -F, -v t="$t" '$1 == t {n++} END {print n + 0}' "$T/csv")
        [ "$n" = "${ROWS[$t]}" ] || bad "CSV: $n records of '$t', expected ${ROWS[$t]}"
    done
    for f in "$T/x.svg" "$T/x-bw.svg"; do
        if [ ! -s "$f" ]; then
            bad "--plot did not write $f"
        elif ! head -c 100 "$f" | grep -q "^<?xml\|^<svg"; then
            bad "$f does not start with <?xml or <svg"
        elif ! grep -q "<polyline" "$f" || ! tail -1 "$f" | grep -q "</svg>"; then
            bad "$f has no polyline or does not end with </svg>"
        elif [ $have_py = 1 ] && ! python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$f"; then
            bad "$f is not well-formed XML"
        else
            ok "$f is an SVG plot ($(grep -c "<polyline" "$f") lines)"
        fi
    done
    grep -q "stroke-dasharray" "$T/x.svg" || bad "the latency plot draws no dashed limit"
fi

# --- JSON: parses, one record per CSV record, every field
[ $nopshm = 1 ] || if run 0 "$T/json" -- "$R" -n 2 "$P" --quick --json; then
    want=$(($(wc -l <"$T/csv") - 1))
    if [ $have_py = 1 ]; then
        python3 - "$T/json" "$want" <<'EOF' && ok "JSON parses: $want records with every field" || bad "JSON check failed"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert len(r) == int(sys.argv[2]), "%d records, expected %s" % (len(r), sys.argv[2])
for x in r:
    for k in ("test", "size", "unit", "median", "p99", "limit", "ratio", "reps", "iters"):
        assert k in x, "record %r lacks %s" % (x, k)
    assert x["median"] > 0 and x["reps"] == 2
assert d["version"] and len(d["cpus"]) == 2
EOF
    else
        n=$(grep -c '^  {"test": "[a-z-]*", "size": [0-9]*, "unit": "[A-Za-z/]*", "median": [0-9.e+-]*, "p99": [0-9.e+-]*, "limit": [0-9.e+-null]*, "ratio": [0-9.e+-null]*, "reps": 2, "iters": [0-9]*},\?$' "$T/json")
        if [ "$n" = "$want" ] && head -c1 "$T/json" | grep -q "{" && tail -1 "$T/json" | grep -q "]}$"; then
            ok "JSON (checked without python3): $n records"
        else
            bad "JSON has $n well-formed records, expected $want"
        fi
    fi
fi

# --- the other modes
if run 0 "$T/lim" -- "$P" --limits-only --quick --tests short; then
    grep -q "^# limit-handoff:" "$T/lim" && ! grep -q "^# short:" "$T/lim" ||
        bad "--limits-only printed no hand-off or ran the library"
fi
if run 0 "$T/poll" -- "$R" -n 4 "$P" --poll-idle --quick --csv; then
    [ "$(grep -c "^poll-idle,4,ns,[0-9.e+-]*,[0-9.e+-]*,,,2,10000$" "$T/poll")" = 1 ] &&
        [ "$(wc -l <"$T/poll")" = 2 ] || bad "--poll-idle: expected one record from rank 0, got: $(cat "$T/poll")"
fi
if run 0 "$T/start" -- "$R" -n 3 "$P" --startup --csv; then
    want="startup-init startup-attach startup-finalize"
    [ $nopshm = 1 ] || want="$want startup-first-msg"
    for t in $want; do
        grep -q "^$t,3,us," "$T/start" || bad "--startup printed no $t record"
    done
fi
if [ $nopshm = 0 ]; then
    run 0 "$T/sel" -- "$R" -n 2 "$P" --quick --tests short,put --sizes 0,64,1K --csv &&
        { [ "$(awk -F, '$1 == "put"' "$T/sel" | wc -l)" = 3 ] && ! grep -q "^medium," "$T/sel" ||
          bad "--tests short,put --sizes 0,64,1K did not give exactly 3 put records and no medium"; }
fi

# --- usage errors: exit 2 and a message naming the problem
usage() {
    local pat=$1
    shift
    timeout -s KILL 30 "$@" >"$T/u" 2>&1
    local got=$?
    if [ $got != 2 ] || ! grep -q -- "$pat" "$T/u"; then
        bad "$* exited $got (expected 2) with: $(head -2 "$T/u")"
    else
        ok "$* -> 2: $(head -1 "$T/u")"
    fi
}
usage "iters" "$P" --iters 5abc
usage "iters" "$P" --iters -1
usage "iters" "$P" --iters ""
usage "iters" "$P" --iters 99999999999999999999999
usage "reps" "$P" --reps 0
usage "window" "$P" --window=abc
usage "empty item" "$P" --sizes 1,,2
usage "sizes" "$P" --sizes 4Q
usage "unknown test 'foo'" "$P" --tests short,foo
usage "cpus" "$P" --cpus 0,4000
usage "CPU 1000 is not one" "$P" --cpus 0,1000
usage "unknown option '--bogus'" "$P" --bogus
usage "unexpected argument" "$P" extra
usage "exclusive" "$P" --csv --json
usage "needs a value" "$P" --iters
command -v gnuplot >/dev/null || usage "gnuplot" "$P" --plot "$T/x.png"
usage "needs exactly 2 processes" "$R" -n 3 "$P" --quick
usage "iters" "$R" -n 2 "$P" --iters x

# --- --help names every option
"$P" --help >"$T/help" 2>&1 || bad "--help exited non-zero"
for opt in --tests --quick --limits-only --poll-idle --startup --sizes --min-size --max-size \
           --segsize --iters --reps --warmup --window --cpus --no-pin --csv --json --plot --help; do
    grep -q -- "$opt" "$T/help" || bad "--help does not mention $opt"
done

[ $fails = 0 ] && echo "t-pingpong: all checks passed" && exit 0
echo "t-pingpong: $fails checks failed"
exit 1
