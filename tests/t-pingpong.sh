#!/bin/bash
# t-pingpong - pshm-pingpong --quick runs every test (Medium and Long also
# through prepare/commit) and prints a row for each, each library row against the floor of the same operation with the
# better direction named; --csv and --json share one schema (python3 parses
# both: a column means one thing in every row); --plot writes two SVG files,
# and two PNGs through gnuplot when it is installed (a file name with a
# space and an apostrophe); --poll-idle, --startup (ms) and --limits-only
# run; a payload corrupted on the sender is caught and named; bad options
# exit 2 with a message (--instructions: t-pingpong-instr.sh). No timing is
# asserted.
. "$(dirname "$0")/pingpong-lib.sh"

TESTS="limit-handoff limit-ring limit-copy-flag limit-ring-rate limit-cell-rate limit-ring-bw limit-memcpy
       limit-memcpy-bw limit-copy2-bw short medium medium-prepare long long-prepare put get flood
       medium-bw long-bw put-bw get-bw"
# Rows the quick sweeps give: 0, 8, 64, 4096, 65536 (bandwidth without 0,
# the two-core copy from 4096).
declare -A ROWS=([limit-handoff]=1 [short]=3 [flood]=1 [limit-ring-rate]=1 [limit-cell-rate]=1
                 [medium]=5 [medium-prepare]=5 [long]=5 [long-prepare]=5 [put]=5 [get]=5 [limit-ring]=5 [limit-memcpy]=5
                 [limit-copy-flag]=5 [limit-copy2-bw]=2
                 [medium-bw]=4 [long-bw]=4 [put-bw]=4 [get-bw]=4 [limit-ring-bw]=4 [limit-memcpy-bw]=4)
# The floor of each library test: the same operation done by hand.
declare -A FLOOR=([short]=limit-handoff [medium]=limit-ring [long]=limit-copy-flag
                  [medium-prepare]=limit-ring [long-prepare]=limit-copy-flag
                  [put]=limit-copy-flag [get]=limit-memcpy [flood]=limit-ring-rate
                  [medium-bw]=limit-ring-bw [long-bw]=limit-memcpy-bw [put-bw]=limit-memcpy-bw
                  [get-bw]=limit-memcpy-bw [limit-copy2-bw]=limit-memcpy-bw)

if [ $nopshm = 1 ]; then
    run 1 "$T/none" -- "$R" -n 2 "$P" --quick
    grep -q "not reachable through shared memory" "$T/none.err" || bad "no reason given without shared memory"
fi

# --- the table: a section per test, with its rows of five numbers
[ $nopshm = 1 ] || if run 0 "$T/table" -- "$R" -n 2 "$P" --quick; then
    grep -q "^# pshm-pingpong: pshm [0-9]" "$T/table" || bad "no header with the library version"
    grep -q "^# CPUs [0-9]*,[0-9]* (pinned)" "$T/table" || bad "the header does not name the CPUs"
    grep -q "^# placement: .*\(SMT siblings\|distinct cores\|no topology\)" "$T/table" ||
        bad "the header does not say how the CPUs relate (kernel topology)"
    # (the note a fixed 120 ns threshold used to print)
    grep -q "behave like SMT siblings" "$T/table" && bad "the placement is judged by a fixed time"
    for t in $TESTS; do
        # rows of the section: from "# t:" to the next blank line
        n=$(awk -v t="# $t:" 'index($0, t) == 1 {on = 1; next} /^$/ {on = 0}
            on && $1 ~ /^[0-9]+$/ && NF == 5 && $2 + 0 > 0 {n++} END {print n + 0}' "$T/table")
        if [ "$n" != "${ROWS[$t]}" ]; then
            bad "table: section '$t' has $n rows with a positive median, expected ${ROWS[$t]}"
        fi
    done
    # every library row has a floor and a ratio
    n=$(awk '/^# [a-z]/ {lib = ($2 !~ /^limit-/)} lib && $1 ~ /^[0-9]+$/ && ($4 == "-" || $5 == "-") {n++}
        END {print n + 0}' "$T/table")
    [ "$n" = 0 ] && ok "every library row has a floor and a ratio" || bad "$n library rows lack a floor"
    # each section with a floor names it and the better direction
    for t in "${!FLOOR[@]}"; do
        case $t in *-bw|flood) dir=higher ;; *) dir=lower ;; esac
        grep -A2 "^# $t:" "$T/table" | grep -q "^# repetitions' value / floor: $dir is better$" &&
            grep -A1 "^# $t:" "$T/table" | grep -q "^# floor: ${FLOOR[$t]} (.*), measured beside each repetition; ratio = median of the$" ||
            bad "section '$t' does not name its floor ${FLOOR[$t]} and '$dir is better'"
    done
    grep -q "^# summary: .*floor" "$T/table" && grep -q "^Short 8 B one-way latency .* us  *lower$" "$T/table" ||
        bad "the summary does not give the floor and the better direction"
fi

# --- CSV: one schema (a column, one meaning), every test, and the plot files

[ $nopshm = 1 ] || if run 0 "$T/csv" -- "$R" -n 2 "$P" --quick --csv --plot "$T/x.svg"; then
    head -1 "$T/csv" | grep -qx "$SCHEMA" || bad "CSV header is '$(head -1 "$T/csv")'"
    if [ $have_py = 1 ]; then
        n=$(check_schema "$T/csv" csv 2) && ok "CSV: $n records in one schema, floors and ratios agree" ||
            bad "CSV schema check failed"
    fi
    for t in $TESTS; do
        n=$(awk -F, -v t="$t" '$1 == t {n++} END {print n + 0}' "$T/csv")
        [ "$n" = "${ROWS[$t]}" ] || bad "CSV: $n records of '$t', expected ${ROWS[$t]}"
        [ -z "${FLOOR[$t]}" ] ||
            [ "$(awk -F, -v t="$t" -v f="${FLOOR[$t]}" '$1 == t && $12 != f {n++} END {print n + 0}' "$T/csv")" = 0 ] ||
            bad "CSV: a '$t' record is not set against ${FLOOR[$t]}"
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

# --- JSON: the same schema, one record per CSV record
[ $nopshm = 1 ] || if run 0 "$T/json" -- "$R" -n 2 "$P" --quick --json; then
    want=$(($(wc -l <"$T/csv") - 1))
    if [ $have_py = 1 ]; then
        n=$(check_schema "$T/json" json 2) && [ "$n" = "$want" ] &&
            ok "JSON parses: $n records in the CSV's schema" || bad "JSON check failed ($n records, expected $want)"
        python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["version"] and len(d["cpus"]) == 2 and d["placement"]' "$T/json" ||
            bad "the JSON header lacks version, cpus or placement"
    else
        n=$(grep -c '^  {"test": "[a-z0-9-]*", "size_bytes": ' "$T/json")
        [ "$n" = "$want" ] && ok "JSON (checked without python3): $n records" ||
            bad "JSON has $n records, expected $want"
    fi
fi

# --- floors beside the repetitions: without the limits' sections every
# library row still has its floor, measured beside each repetition; with one
# repetition the ratio is exactly value / floor (check_schema)
[ $nopshm = 1 ] || if run 0 "$T/pair" -- "$R" -n 2 "$P" --quick --reps 1 --tests short,medium,put,flood,bw \
    --sizes 8,4096 --csv; then
    grep -q "^limit-" "$T/pair" && bad "--tests without limits printed a limits row"
    n=$(awk -F, 'NR > 1 && ($12 == "" || $18 == "" || $19 != 1) {n++} END {print n + 0}' "$T/pair")
    [ "$n" = 0 ] || bad "$n rows without a floor measured beside them (floor_paired 1)"
    [ "$(awk -F, 'NR > 1' "$T/pair" | wc -l)" = 16 ] || bad "expected 16 rows, got $(awk -F, 'NR > 1' "$T/pair" | wc -l)"
    if [ $have_py = 1 ]; then
        n=$(check_schema "$T/pair" csv 1) && ok "floors beside $n rows, ratio = value / floor" ||
            bad "paired floors: CSV check failed"
    fi
fi

# --- a plot panel no test of the run fills is not written, and says so
[ $nopshm = 1 ] || if run 0 "$T/lat" -- "$R" -n 2 "$P" --quick --iters 50 --reps 1 --tests short --sizes 8,64 --plot "$T/lat.svg"; then
    [ -s "$T/lat.svg" ] && ok "the latency plot is written" || bad "no latency plot at $T/lat.svg"
    [ -e "$T/lat-bw.svg" ] && bad "an empty bandwidth plot was written: $T/lat-bw.svg" ||
        ok "no bandwidth plot without a bandwidth test"
    grep -q "no bandwidth test ran: $T/lat-bw.svg not written" "$T/lat.err" && ok "told why" ||
        bad "not told that the bandwidth plot was left out: $(tail -3 "$T/lat.err")"
fi

# --- PNG through gnuplot: the file name and the titles are quoted for it
if [ $nopshm = 0 ] && command -v gnuplot >/dev/null; then
    mkdir -p "$T/a dir"
    png="$T/a dir/it's a plot.png"
    if run 0 "$T/png" -- "$R" -n 2 "$P" --quick --iters 50 --reps 1 --tests short,put,bw --sizes 8,4096 --plot "$png"; then
        for f in "$png" "$T/a dir/it's a plot-bw.png"; do
            if [ "$(head -c 8 "$f" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
                ok "gnuplot wrote the PNG '$f'"
            else
                bad "no PNG at '$f'"
            fi
        done
    fi
else
    echo "skip: gnuplot is not installed: the PNG path is not tested here (CI installs it)"
fi

# --- the payload is checked: a byte flipped on the sender after it filled
# its payload (a test-only variable) ends the run, naming rank, size, offset,
# expected and got
if [ $nopshm = 0 ]; then
    for c in "put:put:1:2048" "medium:medium:1:2048" "long:long:1:2048" "get:get:0:2048" \
             "medium-prepare:medium-prepare:1:2048" "long-prepare:long-prepare:1:2048" \
             "short:short:1:32" "bw:long-bw:1:2048" "bw:get-bw:0:2048"; do
        IFS=: read -r tests victim rank off <<<"$c"
        if run 1 "$T/bad" -- env PSHM_PINGPONG_TEST_CORRUPT="$victim" "$R" -n 2 "$P" --quick --iters 50 --reps 1 --tests "$tests" --sizes 4096; then
            size=4096
            [ "$victim" = short ] && size=0
            grep -q "^pshm-pingpong: rank $rank: payload check failed: test $victim, size $size, repetition 0: .*: byte at offset $off: expected 0x[0-9a-f][0-9a-f], got 0x[0-9a-f][0-9a-f]$" "$T/bad.err" ||
                bad "corrupted $victim: the message does not name rank $rank, size, offset $off, expected and got: $(head -2 "$T/bad.err")"
        fi
    done
    # and a clean run checks without complaint (the runs above passed with the check on)
    grep -q "payload check" "$T/table.err" "$T/csv.err" && bad "a clean run reported a payload error"
fi

# --- the other modes
if run 0 "$T/lim" -- "$P" --limits-only --quick --tests short; then
    grep -q "^# limit-handoff:" "$T/lim" && ! grep -q "^# short:" "$T/lim" ||
        bad "--limits-only printed no hand-off or ran the library"
    # The hand-off goes round its line pairs (one pair measured the luck of
    # where the machine homes two lines); its header says how many.
    grep -q "^# limit-handoff: .*, 64 line pairs in turn$" "$T/lim" ||
        bad "the hand-off's header does not say that it uses 64 line pairs in turn: $(grep "^# limit-handoff" "$T/lim")"
fi
if run 0 "$T/poll" -- "$R" -n 4 "$P" --poll-idle --quick --csv; then
    [ "$(grep -c "^poll-idle,,4,[0-9.e+-]*,,[0-9.e+-]*,,,,,,,,,lower,2,10000,,$" "$T/poll")" = 1 ] &&
        [ "$(wc -l <"$T/poll")" = 2 ] || bad "--poll-idle: expected one record from rank 0, got: $(cat "$T/poll")"
fi
if run 0 "$T/start" -- "$R" -n 3 "$P" --startup --csv; then
    want="startup-init startup-attach startup-finalize"
    # The floor: the same storage reserved by bare system calls, set
    # against the time to the first message (from pshm_init, from pshmrun).
    [ $nopshm = 1 ] || want="$want startup-first-msg startup-launch startup-cpu limit-reserve limit-reserve-cpu"
    for t in $want; do
        grep -q "^$t,,3,[0-9.e+-]*," "$T/start" || bad "--startup printed no $t record"
    done
    for t in startup-first-msg:limit-reserve startup-launch:limit-reserve startup-cpu:limit-reserve-cpu; do
        [ $nopshm = 1 ] || grep -q "^${t%%:*},.*,${t#*:},,[0-9.e+-]*,lower," "$T/start" ||
            bad "--startup: ${t%%:*} is not set against ${t#*:}: $(grep "^${t%%:*}," "$T/start")"
    done
    [ $nopshm = 1 ] || [ "$(nproc)" = 1 ] || grep -q "^limit-reserve-1cpu,,3,[0-9.e+-]*," "$T/start" ||
        bad "--startup printed no one-CPU floor with $(nproc) CPUs"
    [ $have_py = 1 ] && { check_schema "$T/start" csv >/dev/null || bad "--startup CSV schema"; }
fi
if run 0 "$T/startt" -- "$R" -n 2 "$P" --startup; then
    grep -q "^# pshm-pingpong --startup: .*times in ms$" "$T/startt" &&
        grep -A1 "^# startup-init:" "$T/startt" | tail -1 | grep -q "processes  *ms  *worst" ||
        bad "--startup does not report in ms: $(head -5 "$T/startt")"
fi
if [ $nopshm = 0 ]; then
    run 0 "$T/sel" -- "$R" -n 2 "$P" --quick --tests short,put --sizes 0,64,1K --csv &&
        { [ "$(awk -F, '$1 == "put"' "$T/sel" | wc -l)" = 3 ] && ! grep -q "^medium," "$T/sel" ||
          bad "--tests short,put --sizes 0,64,1K did not give exactly 3 put records and no medium"; }
fi

[ $nopshm = 1 ] || if run 0 "$T/nopin" -- "$R" -n 2 "$P" --quick --no-pin --tests short; then
    grep -q "^# placement: not pinned" "$T/nopin" || bad "--no-pin: the placement line judges CPUs it does not hold: $(grep placement "$T/nopin")"
fi

# --touch moves or drops the Medium servers' read; the payload checks still run
[ $nopshm = 1 ] || for w in after none; do
    run 0 "$T/touch" -- "$R" -n 2 "$P" --quick --tests limits,medium,medium-prepare --sizes 64,4K --touch $w || continue
    grep -q "^# --touch $w: " "$T/touch" || bad "--touch $w: the header does not say so"
    n=$(grep -c "^ *\(64\|4096\) .* [0-9.]*$" "$T/touch")
    [ "$n" = 4 ] || bad "--touch $w: expected medium and medium-prepare rows of 64 and 4096 with a ratio, got $n"
done

# --ring-slots: limit-ring of 2 slots, a 64 KiB message in both of them, held
# by --touch after until the reply went out; the Medium rows still get ratios
[ $nopshm = 1 ] || if run 0 "$T/slots" -- "$R" -n 2 "$P" --quick --tests limits,medium --sizes 4K,64K --ring-slots 2 --touch after; then
    grep -q "^# --ring-slots 2: limit-ring goes round 2 slots" "$T/slots" || bad "--ring-slots 2: the header does not say so"
    n=$(grep -c "^ *\(4096\|65536\) .* [0-9.]*$" "$T/slots")
    [ "$n" = 2 ] || bad "--ring-slots 2: expected medium rows of 4096 and 65536 with a ratio, got $n"
fi
if run 0 "$T/slots-lim" -- "$P" --limits-only --quick --sizes 64K --ring-slots 4; then
    grep -q "^# --ring-slots 4: " "$T/slots-lim" || bad "--ring-slots 4 --limits-only: the header does not say so"
fi

# --flood-floor cell: the flood is set against its own protocol alone,
# beside each repetition, and says so
[ $nopshm = 1 ] || if run 0 "$T/ffloor" -- "$R" -n 2 "$P" --quick --reps 2 --tests flood --flood-floor cell --csv; then
    [ "$(awk -F, '$1 == "flood" && $12 == "limit-cell-rate" && $14 + 0 > 0 && $19 == 1 {n++} END {print n + 0}' "$T/ffloor")" = 1 ] ||
        bad "--flood-floor cell: no flood record set against limit-cell-rate: $(grep '^flood' "$T/ffloor")"
fi
[ $nopshm = 1 ] || if run 0 "$T/ffloor-t" -- "$R" -n 2 "$P" --quick --reps 1 --tests flood --flood-floor cell; then
    grep -q "^# --flood-floor cell: the flood is set against limit-cell-rate" "$T/ffloor-t" ||
        bad "--flood-floor cell: the header does not say so"
    grep -q "^# floor: limit-cell-rate (same size), measured beside each repetition" "$T/ffloor-t" ||
        bad "--flood-floor cell: the flood section does not name limit-cell-rate"
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
usage "--touch wants before, after or none, not 'later'" "$P" --touch later
usage "--touch wants before, after or none, not ''" "$P" --touch=
usage "--ring-slots wants 2, 4 or 8, not '1'" "$P" --ring-slots 1
usage "--ring-slots wants 2, 4 or 8, not '08'" "$P" --ring-slots=08
usage "--flood-floor wants ring or cell, not 'Ring'" "$P" --flood-floor Ring
usage "--flood-floor wants ring or cell, not ''" "$P" --flood-floor=
usage "unexpected argument" "$P" extra
usage "exclusive" "$P" --csv --json
usage "exclusive" "$P" --instructions --limits-only
usage "unknown scenario 'nope'" "$P" --instr-child nope
command -v valgrind >/dev/null && usage "without pshmrun" "$R" -n 2 "$P" --instructions
usage "needs a value" "$P" --iters
command -v gnuplot >/dev/null || usage "gnuplot" "$P" --plot "$T/x.png"
# An unwritable plot path is refused before the run, not after it.
usage "--plot: cannot write /nonexistent-pshm-dir/x.svg" "$P" --plot /nonexistent-pshm-dir/x.svg
usage "needs exactly 2 processes" "$R" -n 3 "$P" --quick
usage "iters" "$R" -n 2 "$P" --iters x

# --- --help names every option
"$P" --help >"$T/help" 2>&1 || bad "--help exited non-zero"
for opt in --tests --quick --limits-only --poll-idle --startup --sizes --min-size --max-size \
           --segsize --iters --reps --warmup --window --cpus --no-pin --csv --json --plot --help \
           --instructions --touch --ring-slots --flood-floor --procs --scenarios --idle --incast; do
    grep -q -- "$opt" "$T/help" || bad "--help does not mention $opt"
done
for t in medium-prepare long-prepare; do
    grep -q -- "$t" "$T/help" || bad "--help does not name the test $t"
done

[ $fails = 0 ] && echo "t-pingpong: all checks passed" && exit 0
echo "t-pingpong: $fails checks failed"
exit 1
