#!/bin/bash
# t-shmem-bench - shmem/bench/shmem-bench.c builds with the build tree's
# oshcc as its README says (no extra defines, warning-free under -std=c11
# -Wall -Wextra -Werror) and runs under oshrun -n 2 with its smallest
# options: exit 0 (it checks the targets of its atomics and puts itself),
# and exactly the expected rows, in CSV and in the table; --peer; the
# collective rows over sets and teams (--sets, --bare-sets: each checks its
# last call's dest), on 2 and on 4 PEs (where the strided team has 2).
# barrier-count.sh, with valgrind: a count for each barrier form.
# Speed is not judged here (make bench-shmem does that).
. "$(dirname "$0")/shmem/driver.sh"
SRC=$(cd "$(dirname "$0")/.." && pwd)/shmem/bench/shmem-bench.c
[ -f "$SRC" ] || { echo "FAIL: $SRC not found"; exit 1; }
n=2
[ "$PES" = 1 ] && n=1   # --disable-pshm: no point-to-point rows then
OPTS=(--max-bytes 16 --reps 3 --batch-us 10)

# The rows "test target bytes" of a run with OPTS on $n PEs.
expected() {
    local t b
    if [ "$n" -gt 1 ]; then
        echo "rt pair 64"
    fi
    for b in 8 16; do echo "memcpy local $b"; done
    if [ "$n" -gt 1 ]; then
        for t in heap static; do
            for op in p+quiet g fadd cswap; do echo "$op $t 8"; done
        done
        for op in putmem getmem; do
            for t in heap static; do
                for b in 8 16; do echo "$op $t $b"; done
            done
        done
        echo "pingpong heap 8"
    fi
    echo "barrier all 0"
    echo "sbarrier all 0"
    for b in 8 16; do echo "bcast heap $b"; echo "reduce heap $b"; done
}

# same_rows WHAT FILE: FILE holds exactly the expected rows, once each.
same_rows() {
    if diff <(expected | sort) <(sort "$2") >"$T/diff"; then
        ok "$1: the $(wc -l <"$2") expected rows"
    else
        bad "$1: rows differ from those expected (< expected, > got):"
        sed 's/^/    /' "$T/diff"
    fi
}

if ! "$B/shmem/oshcc" -std=c11 -O2 -Wall -Wextra -Werror -o "$T/bench" "$SRC" 2>"$T/cc.err"; then
    bad "oshcc does not build shmem-bench.c:"
    sed 's/^/    /' "$T/cc.err" | head -10
    finish
fi
ok "oshcc builds shmem-bench.c"

if job 0 "$n" "$T/bench" --csv "${OPTS[@]}"; then
    head=impl,npes,test,target,bytes,calls_per_batch,batches,median_ns,p99_ns,median_GBps
    grep -qxF "$head" "$T/out" && ok "CSV header" || bad "no CSV header line '$head'"
    # Data lines: 10 fields, this job's PE count, 3 batches, numbers.
    grep -v -e '^#' -e "^$head\$" "$T/out" >"$T/csv"
    awk -F, -v n="$n" 'NF != 10 || $2 != n || $7 != 3 || $8 !~ /^[0-9.]+$/ || $8 <= 0 ||
        $9 !~ /^[0-9.]+$/ || $10 !~ /^[0-9.]+$/ { print "bad line: " $0 }' "$T/csv" >"$T/badlines"
    [ -s "$T/badlines" ] && bad "malformed CSV lines: $(cat "$T/badlines")" || ok "CSV lines well formed"
    cut -d, -f3-5 "$T/csv" | tr , ' ' >"$T/rows"
    same_rows CSV "$T/rows"
fi

if job 0 "$n" "$T/bench" "${OPTS[@]}"; then
    # The table: a header line "test target bytes calls ...", then the rows.
    awk '/^test +target +bytes/ { t = 1; next } t && NF == 7 { print $1, $2, $3 }' \
        "$T/out" >"$T/rows"
    same_rows table "$T/rows"
fi

# The set rows "test target bytes" of --bare-sets with OPTS.
set_expected() {
    local c f k b
    echo "sbarrier all 0" # the 1.4 row of shmem_barrier on a pSync, which ^[tsu] matches too
    for c in world stride2; do
        echo "tsync $c 0"; echo "ssync $c 0"; echo "sbarrier $c 0"
        for b in 8 16; do
            for k in bcast reduce alltoall fcollect; do
                for f in t s u; do echo "$f$k $c $b"; done
            done
        done
    done
}
for np in "$n" 4; do
    [ "$PES" = 1 ] && [ "$np" = 4 ] && continue
    if job 0 "$np" "$T/bench" --csv --bare-sets --only '^[tsu]' "${OPTS[@]}"; then
        grep -v -e '^#' -e '^impl,' "$T/out" | cut -d, -f3-5 | tr , ' ' >"$T/rows"
        if diff <(set_expected | sort) <(sort "$T/rows") >"$T/diff"; then
            ok "--bare-sets, $np PEs: the $(wc -l <"$T/rows") set and team rows"
        else
            bad "--bare-sets, $np PEs: rows differ from those expected (< expected, > got):"
            sed 's/^/    /' "$T/diff"
        fi
    fi
done
# --sets: the team and synced set rows, no bare ones; --max-bytes 8: one size.
if job 0 "$n" "$T/bench" --sets --only 'bcast' --max-bytes 8 --reps 3 --batch-us 10; then
    awk '/^test +target +bytes/ { t = 1; next } t && NF == 7 { print $1, $2, $3 }' "$T/out" >"$T/rows"
    [ "$(sort "$T/rows" | tr '\n' ,)" = "bcast heap 8,sbcast stride2 8,sbcast world 8,tbcast stride2 8,tbcast world 8," ] &&
        ok "--sets --only bcast: the rows asked for" || bad "--sets --only bcast rows: $(cat "$T/rows")"
fi

job 2 "$n" "$T/bench" --reps 0 && expect_err "--reps"
# --peer: the point-to-point rows go to that PE, which must be in the job.
if [ "$n" -gt 1 ]; then
    job 2 2 "$T/bench" --peer 2 "${OPTS[@]}" && expect_err "shmem-bench: --peer 2: the job has PEs 0..1"
    if job 0 3 "$T/bench" --peer 2 --only '^(rt|fadd)$' "${OPTS[@]}"; then
        grep -q "^PE0 -> PE2: shared memory" "$T/out" && ok "--peer 2: PE0 -> PE2" ||
            bad "--peer 2: no line 'PE0 -> PE2: shared memory': $(cat "$T/out")"
        awk '/^test +target +bytes/ { t = 1; next } t && NF == 7 { print $1, $2, $3 }' "$T/out" >"$T/rows"
        [ "$(sort "$T/rows" | tr '\n' ,)" = "fadd heap 8,fadd static 8,rt pair 64," ] &&
            ok "--peer 2 --only: the rows asked for" || bad "--peer 2 --only rows: $(cat "$T/rows")"
    fi
fi
# barrier-count.sh (make bench-shmem's instruction counts): a row of
# numbers per barrier form, with valgrind.
if [ "$n" -gt 1 ] && command -v valgrind >/dev/null 2>&1; then
    S=$(dirname "$SRC")
    if PSHM_BUILD=$B sh "$S/barrier-count.sh" --calls 100 --pes 2 >"$T/out" 2>"$T/err"; then
        rows=$(grep -cE '^shmem_[a-z_]+(\([^)]*\))? +[0-9]+\.[0-9]$' "$T/out")
        [ "$rows" = 8 ] && ok "barrier-count.sh: 8 forms counted" ||
            bad "barrier-count.sh: $rows rows of counts, not 8: $(cat "$T/out")"
    else
        bad "barrier-count.sh failed: $(cat "$T/err" "$T/out")"
    fi
fi
finish
