#!/bin/bash
# t-pingpong-procs - pshm-pingpong at more than 2 processes: --instructions
# --procs (the idle poll and the queued round trip with ranks 0 and 1
# counted and the others idle, either way they idle; the incast per
# message; the barrier of a process that arrives last), the timed --incast
# row, and the usage errors of the new options. Counts are checked for
# their rows, their processes and their sense (the idle poll reads a line
# per incoming queue: it cannot cost less with more processes).
. "$(dirname "$0")/pingpong-lib.sh"

# col FILE TEST PROCS: the instruction count of that row ("" when absent)
col() { awk -F, -v t="$2" -v p="$3" '$1 == t && $3 == p {print $11}' "$1"; }
count_ok() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN {exit !(v != "" && v + 0 >= lo && v + 0 <= hi)}'; }

if [ $nopshm = 0 ] && command -v valgrind >/dev/null; then
    if run 0 "$T/w" -- "$P" --instructions --procs 2,4 --csv &&
        run 0 "$T/p" -- "$P" --instructions --procs 4 --idle poll --csv; then
        for t in instr-short-burst instr-poll-idle; do
            for p in 2 4; do
                v=$(col "$T/w" $t $p)
                count_ok "$v" 10 100000 && ok "$t at P = $p: $v" || bad "$t at P = $p is '$v', not a count"
            done
            # the same work whichever way the others idle
            [ "$(col "$T/w" $t 4)" = "$(col "$T/p" $t 4)" ] &&
                ok "$t at P = 4: the same count with the others in pshm_poll" ||
                bad "$t at P = 4: $(col "$T/w" $t 4) with the others in pshm_wait_until, $(col "$T/p" $t 4) in pshm_poll"
        done
        awk -v a="$(col "$T/w" instr-poll-idle 2)" -v b="$(col "$T/w" instr-poll-idle 4)" \
            'BEGIN {exit !(b + 0 >= a + 0)}' || bad "the idle poll costs less at P = 4 than at P = 2"
        [ "$(wc -l <"$T/w")" = 5 ] || bad "--procs 2,4: expected 4 records, got: $(cat "$T/w")"
        [ $have_py = 1 ] && { check_schema "$T/w" csv >/dev/null || bad "--procs CSV schema"; }
    fi
    if run 0 "$T/ib" -- "$P" --instructions --procs 2,4 --scenarios incast,barrier --csv; then
        for p in 2 4; do
            v=$(col "$T/ib" instr-incast $p)
            count_ok "$v" 20 10000 && ok "instr-incast at P = $p: $v" || bad "instr-incast at P = $p is '$v'"
            v=$(col "$T/ib" instr-barrier $p)
            count_ok "$v" 20 100000 && ok "instr-barrier at P = $p: $v" || bad "instr-barrier at P = $p is '$v'"
        done
        [ "$(grep -c "^instr-incast,8,[24],.*,lower,1,\(500\|1500\),," "$T/ib")" = 2 ] ||
            bad "instr-incast: operations are not 500 messages per sender: $(grep incast "$T/ib")"
    fi
else
    echo "skip: valgrind is not installed (or no shared memory): no counts here (CI installs it)"
fi

# --- the timed incast: one row, from rank 0, the job's processes in it
if [ $nopshm = 0 ]; then
    if run 0 "$T/inc" -- "$R" -n 3 "$P" --incast --quick --csv; then
        [ "$(grep -c "^incast,,3,,,,,,[0-9.e+-]*,[0-9.e+-]*,,,,,higher,2,4000,,$" "$T/inc")" = 1 ] &&
            [ "$(wc -l <"$T/inc")" = 2 ] && ok "--incast: one row of 3 processes" ||
            bad "--incast: expected one record of 3 processes from rank 0, got: $(cat "$T/inc")"
        [ $have_py = 1 ] && { check_schema "$T/inc" csv >/dev/null || bad "--incast CSV schema"; }
    fi
    run 2 "$T/inc1" -- "$R" -n 1 "$P" --incast &&
        grep -q "needs 2 processes or more" "$T/inc1.err" || bad "--incast at -n 1: no reason given"
fi

# --- usage: the options go with --instructions, and say what is wrong
run 2 "$T/u1" -- "$P" --procs 4 && grep -q "go with --instructions" "$T/u1.err" ||
    bad "--procs without --instructions: no reason given"
run 2 "$T/u2" -- "$P" --instructions --procs 4 --scenarios wait &&
    grep -q "does not run with 4 processes" "$T/u2.err" || bad "--scenarios wait at 4: no reason given"
run 2 "$T/u3" -- "$P" --instructions --scenarios nosuch && grep -q "unknown scenario 'nosuch'" "$T/u3.err" ||
    bad "--scenarios nosuch: no reason given"
run 2 "$T/u4" -- "$P" --instructions --idle sleep && grep -q "wait or poll" "$T/u4.err" ||
    bad "--idle sleep: no reason given"
run 2 "$T/u5" -- "$P" --instructions --procs 1 || bad "--procs 1 accepted"
run 2 "$T/u6" -- "$P" --instructions --procs 4x || bad "--procs 4x accepted"

[ $fails = 0 ] && echo "t-pingpong-procs: all checks passed" && exit 0
echo "t-pingpong-procs: $fails checks failed"
exit 1
