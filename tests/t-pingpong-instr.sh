#!/bin/bash
# t-pingpong-instr - pshm-pingpong --instructions (callgrind) gives counts,
# the same ones twice, in the one CSV schema; without valgrind it exits 1
# with a message. Apart from t-pingpong, and the early ends apart from this
# (t-pingpong-instr-stop), so that each stays well within the runner's
# timeout on a loaded machine: each full run is 16 processes under
# callgrind, most of it valgrind's start-up.
. "$(dirname "$0")/pingpong-lib.sh"

# --- instruction counts under callgrind: numbers, the same twice
if [ $nopshm = 0 ] && command -v valgrind >/dev/null; then
    if run 0 "$T/in1" -- "$P" --instructions --csv && run 0 "$T/in2" -- "$P" --instructions --csv; then
        for t in instr-short-burst instr-short-burst-any instr-poll-idle instr-pingpong instr-wait-turn \
                 instr-pingpong-prepare instr-pingpong-medium instr-pingpong-medium-any; do
            v=$(awk -F, -v t="$t" '$1 == t {print $11}' "$T/in1")
            awk -v v="$v" 'BEGIN {exit !(v + 0 > 10 && v + 0 < 100000)}' ||
                bad "--instructions: $t is '$v', not a count"
        done
        # A handler of any count, once a count was sent to it, costs what
        # one of that exact count does (the fast keys of the send and the
        # poll): no more than 1 instruction apart per round trip.
        for t in instr-short-burst instr-pingpong-medium; do
            awk -F, -v t="$t" '$1 == t {e = $11} $1 == t "-any" {a = $11}
                END {exit !(e > 0 && a > 0 && a - e <= 1)}' "$T/in1" &&
                ok "--instructions: $t-any costs what $t does" ||
                bad "--instructions: $t-any costs more than $t: $(grep "^$t" "$T/in1" | cut -d, -f1,11 | tr '\n' ' ')"
        done
        ! grep -q "no call of" "$T/in1.err" ||
            bad "--instructions: the library's paced liveness check was not found: $(cat "$T/in1.err")"
        cmp -s "$T/in1" "$T/in2" && ok "--instructions: the same counts twice: $(cut -d, -f1,11 "$T/in1" | tail -n +2 | tr '\n' ' ')" ||
            bad "--instructions gave different counts: $(diff "$T/in1" "$T/in2" | tr '\n' ' ')"
        [ $have_py = 1 ] && { check_schema "$T/in1" csv >/dev/null || bad "--instructions CSV schema"; }
    fi
else
    echo "skip: valgrind is not installed: --instructions is not tested here (CI installs it)"
    [ $nopshm = 1 ] || run 1 "$T/in1" -- env PATH=/nonexistent "$P" --instructions
fi

[ $fails = 0 ] && echo "t-pingpong-instr: all checks passed" && exit 0
echo "t-pingpong-instr: $fails checks failed"
exit 1
