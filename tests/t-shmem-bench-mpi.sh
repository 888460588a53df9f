#!/bin/bash
# t-shmem-bench-mpi - the benchmark programs of the path between supernodes
# build and run with their smallest options (speed is not judged here:
# make bench-shmem-mpi does that): mpi-rma-bench builds with the MPI wrapper
# warning-free and prints exactly its five rows (CSV and table) between two
# ranks, refusing a peer outside the job; shmem-count runs each operation
# in a split job to a PE of its supernode and to one of another, checking
# what it left; compare-mpi.sh makes its table from a kept sitting as it
# should (per-round ratios, placements) and refuses a bad option (--runs 0,
# --ab without a build, --from-csv of no file); amo-count.sh refuses bad options too and, with valgrind, counts
# a fetch_add's instructions on both ranks (100 calls, one run each).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
S=$(cd "$(dirname "$0")/.." && pwd)/shmem/bench
MPICC=$(sed -n 's/^MPICC := //p' "$B/Makefile")

if $MPICC -std=c11 -O2 -Wall -Wextra -Werror -o "$T/mpi-rma-bench" "$S/mpi-rma-bench.c" 2>"$T/cc.err"; then
    ok "$MPICC builds mpi-rma-bench.c"
    mrb() { timeout -k 10 60 "$MPIRUN" "${MPIOPTS[@]}" -np "$1" "$T/mpi-rma-bench" "${@:2}" >"$T/out" 2>"$T/err"; }
    if mrb 2 --csv --reps 3 --batch-us 10; then
        grep -v '^#' "$T/out" | sed 1d | cut -d, -f1-5 >"$T/rows"
        want=$'mpi,2,put+flush,win,8\nmpi,2,get+flush,win,8\nmpi,2,fop+flush,win,8\nmpi,2,cas+flush,win,8\nmpi,2,send+recv,win,8'
        [ "$(cat "$T/rows")" = "$want" ] && ok "mpi-rma-bench --csv: the five rows" ||
            bad "mpi-rma-bench --csv rows: $(cat "$T/out")"
        grep -qx "impl,npes,test,target,bytes,calls_per_batch,batches,median_ns,p99_ns,median_GBps" "$T/out" &&
            ok "mpi-rma-bench --csv: shmem-bench's header" || bad "mpi-rma-bench --csv: no header"
    else
        bad "mpi-rma-bench --csv exited non-zero: $(cat "$T/err" "$T/out" | tail -5)"
    fi
    if mrb 2 --reps 3 --batch-us 10; then
        [ "$(awk '/^test +target/ { t = 1; next } t && NF == 6 { print $1 }' "$T/out" | tr '\n' ' ')" = \
          "put+flush get+flush fop+flush cas+flush send+recv " ] && ok "mpi-rma-bench: the table" ||
            bad "mpi-rma-bench table: $(cat "$T/out")"
    else
        bad "mpi-rma-bench exited non-zero: $(cat "$T/err" "$T/out" | tail -5)"
    fi
    if mrb 2 --csv --reps 3 --batch-us 10 --thread serialized; then
        grep -q "^# mpi-rma-bench: .*thread level serialized or more" "$T/out" &&
            ok "mpi-rma-bench --thread serialized: MPI_THREAD_SERIALIZED" ||
            bad "mpi-rma-bench --thread serialized: $(head -2 "$T/out")"
    else
        bad "mpi-rma-bench --thread serialized exited non-zero: $(cat "$T/err" "$T/out" | tail -5)"
    fi
    mrb 2 --thread multiple; st=$?
    [ "$st" != 0 ] && grep -q "mpi-rma-bench: --thread takes single or serialized, got 'multiple'" "$T/err" &&
        ok "mpi-rma-bench --thread multiple: refused" ||
        bad "mpi-rma-bench --thread multiple exited $st: $(cat "$T/err")"
    mrb 2 --peer 2; st=$?
    [ "$st" != 0 ] && grep -q "mpi-rma-bench: --peer 2" "$T/err" && ok "mpi-rma-bench --peer 2 on 2 ranks: refused" ||
        bad "mpi-rma-bench --peer 2 on 2 ranks exited $st: $(cat "$T/err")"
else
    bad "$MPICC does not build mpi-rma-bench.c: $(head -5 "$T/cc.err")"
fi

if "$B/shmem/oshcc" -std=c11 -O2 -Wall -Wextra -Werror -o "$T/shmem-count" "$S/shmem-count.c" 2>"$T/cc.err"; then
    split_layout 3:hosts=2 # PE 2 shares PE 0's host (with shared memory), PE 1 does not
    for op in p g fadd; do
        for peer in 1 2; do
            job 0 3 "$T/shmem-count" "$op" 100 "$peer" || continue
            what="(no shared memory)"
            [ "$peer" = 2 ] && [ "$SPLIT_ALONE" = no ] && what="(shared memory)"
            grep -qF "shmem-count: 100 x $op, PE 0 -> PE $peer $what" "$T/out" && ok "shmem-count $op to PE $peer $what" ||
                bad "shmem-count $op to PE $peer: $(cat "$T/out")"
        done
    done
else
    bad "oshcc does not build shmem-count.c: $(head -5 "$T/cc.err")"
fi

# The table of a kept sitting: net/MPI is the median over the rounds of
# each round's ratio (1.11 here, where the ratio of the medians is 1.00;
# net/ser 1.00 against MPI at MPI_THREAD_SERIALIZED),
# and a sitting splits into two placements only where its hand-offs differ
# by 2.5x or more.
cat >"$T/kept.csv" <<'CSV'
round,label,npes,test,target,bytes,calls,batches,median_ns,p99_ns,GBps
1,net,2,rt,pair,64,512,11,400,410,0.1
1,net,2,p+quiet,heap,8,256,11,1000,1100,0.01
1,mpi,2,put+flush,win,8,256,11,900,950,0
1,mpis,2,put+flush,win,8,256,11,1000,1050,0
2,net,2,rt,pair,64,512,11,420,430,0.1
2,net,2,p+quiet,heap,8,256,11,1000,1100,0.01
2,mpi,2,put+flush,win,8,256,11,1100,1150,0
2,mpis,2,put+flush,win,8,256,11,1000,1050,0
3,net,2,rt,pair,64,512,11,450,460,0.1
3,net,2,p+quiet,heap,8,256,11,3000,3100,0.01
3,mpi,2,put+flush,win,8,256,11,1000,1050,0
3,mpis,2,put+flush,win,8,256,11,1000,1050,0
CSV
if sh "$S/compare-mpi.sh" --from-csv "$T/kept.csv" >"$T/out" 2>"$T/err" &&
    grep -q "^one placement (hand-offs 400-450 ns" "$T/out" &&
    grep -Eq "^p\+quiet +heap +8 .* put\+flush +1000 +1\.11 +1\.00 " "$T/out"; then
    ok "compare-mpi.sh --from-csv: one placement, net/MPI the median of the rounds' ratios"
else
    bad "compare-mpi.sh --from-csv: expected one placement and net/MPI 1.11; got: $(cat "$T/out" "$T/err")"
fi
# A lone stalled round (a hand-off 5x the others) is no placement.
cp "$T/kept.csv" "$T/stall.csv"
printf '4,net,2,rt,pair,64,512,11,2000,2100,0.1\n' >>"$T/stall.csv"
if sh "$S/compare-mpi.sh" --from-csv "$T/stall.csv" >"$T/out" 2>"$T/err" &&
    grep -q "^one placement (hand-offs 400-2000 ns" "$T/out"; then
    ok "compare-mpi.sh --from-csv: a lone stalled run makes no placement of its own"
else
    bad "compare-mpi.sh --from-csv: expected one placement with a stalled run; got: $(cat "$T/out" "$T/err")"
fi
# Two rounds with a hand-off 4x faster are a placement of their own.
printf '4,net,2,rt,pair,64,512,11,100,110,0.1\n4,net,2,p+quiet,heap,8,256,11,500,510,0.01\n4,mpi,2,put+flush,win,8,256,11,400,410,0\n' >>"$T/kept.csv"
printf '5,net,2,rt,pair,64,512,11,110,120,0.1\n5,net,2,p+quiet,heap,8,256,11,550,560,0.01\n5,mpi,2,put+flush,win,8,256,11,400,410,0\n' >>"$T/kept.csv"
if sh "$S/compare-mpi.sh" --from-csv "$T/kept.csv" >"$T/out" 2>"$T/err" &&
    grep -q "^fast placement (hand-offs 100-110 ns: one host core).*net 2 mpi 2 run" "$T/out" &&
    grep -q "^slow placement (hand-offs 400-450 ns).*net 3 mpi 3 mpis 3 run" "$T/out" &&
    grep -Eq "^p\+quiet +heap +8 .* put\+flush +400 +1\.31 " "$T/out"; then
    ok "compare-mpi.sh --from-csv: two runs 4x faster are a placement of their own"
else
    bad "compare-mpi.sh --from-csv: expected a fast placement of rounds 4 and 5 (1.31); got: $(cat "$T/out" "$T/err")"
fi
sh "$S/compare-mpi.sh" --from-csv "$T/none.csv" >"$T/out" 2>"$T/err"; st=$?
[ "$st" = 2 ] && grep -qF "compare-mpi.sh: --from-csv needs a file kept by --keep, got '$T/none.csv'" "$T/err" &&
    ok "compare-mpi.sh --from-csv of no file: refused" || bad "compare-mpi.sh --from-csv $T/none.csv exited $st: $(cat "$T/err")"
sh "$S/compare-mpi.sh" --runs 0 >"$T/out" 2>"$T/err"; st=$?
[ "$st" = 2 ] && grep -q "compare-mpi.sh: --runs needs an integer in 1..50, got '0'" "$T/err" &&
    ok "compare-mpi.sh --runs 0: refused" || bad "compare-mpi.sh --runs 0 exited $st: $(cat "$T/err")"
sh "$S/compare-mpi.sh" --ab "$T/none" >"$T/out" 2>"$T/err"; st=$?
[ "$st" = 2 ] && grep -qF "compare-mpi.sh: --ab needs a built tree (with shmem/oshcc), got '$T/none'" "$T/err" &&
    ok "compare-mpi.sh --ab with no build there: refused" || bad "compare-mpi.sh --ab $T/none exited $st: $(cat "$T/err")"

for args in "--calls 5|--calls needs an integer in 100..99999, got '5'" \
    "--runs 0|--runs needs an integer in 1..9, got '0'" \
    "--ab $T/none|--ab needs a built tree (with shmem/oshcc), got '$T/none'" \
    "--bogus|unknown option '--bogus'"; do
    sh "$S/amo-count.sh" ${args%%|*} >"$T/out" 2>"$T/err"; st=$?
    [ "$st" = 2 ] && grep -qF "amo-count.sh: ${args#*|}" "$T/err" &&
        ok "amo-count.sh ${args%%|*}: refused" || bad "amo-count.sh ${args%%|*} exited $st: $(cat "$T/err")"
done
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
    if PSHM_BUILD="$B" sh "$S/amo-count.sh" --calls 100 --runs 1 >"$T/out" 2>"$T/err"; then
        # build, rank, then ten figures: work and total > 0, the requester's Send > 0.
        awk '$1 == "this" && NF == 12 && $3 + 0 > 0 && $4 + 0 > 0 { n[$2]++; if ($2 == "requester") s = $8 }
             END { exit !(n["requester"] == 1 && n["target"] == 1 && s + 0 > 0) }' "$T/out" &&
            ok "amo-count.sh --calls 100 --runs 1: a row per rank" ||
            bad "amo-count.sh rows: $(cat "$T/out")"
    else
        bad "amo-count.sh --calls 100 --runs 1 failed: $(tail -5 "$T/err" "$T/out")"
    fi
else
    echo "(amo-count.sh's run left out: no valgrind)"
fi
finish
