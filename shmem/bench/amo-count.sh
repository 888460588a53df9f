#!/bin/sh
# amo-count.sh: the instructions a fetch_add shipped to another supernode
# costs its requester and its target (callgrind), the polls that found
# nothing taken out, for this build and, with --ab, another one.
#
#   shmem/bench/amo-count.sh [--calls N] [--runs N] [--ab OTHER_BUILD]
#
# shmem-count.c runs N fetch_adds from PE 0 to PE 1 on two simulated hosts
# (PSHM_SIM_HOSTS=2, under mpirun) while PE 1 waits in shmem_barrier_all.
# One rank runs under callgrind at a time (collection inside
# shmem_long_atomic_fetch_add on PE 0, inside shmem_barrier_all on PE 1),
# the other at full speed, so that the answer or the next request is
# mostly there already when the measured rank looks. A poll that found
# nothing costs a test call's own instructions plus an engine run that
# matched no message (each at its mean of the run); they are taken out,
# and of --runs runs per rank the one with the fewest engine runs per
# fetch_add is kept (the fewer idle polls, the less their estimate
# weighs). Counts of Open MPI's functions (opal_progress, ob1's match)
# name Open MPI 4.x; with another MPI only the totals mean anything.
#
# Environment: PSHM_BUILD (default: the tree holding this script), MPIRUN.
set -eu

calls=5000
runs=3
other=
usage() { sed -n 's/^# \{0,1\}//; 2,6p' "$0"; }
while [ $# -gt 0 ]; do
    case $1 in
    --calls)
        case ${2-} in
        [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9]) calls=$2 ;;
        *) echo "amo-count.sh: --calls needs an integer in 100..99999, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
    --runs)
        case ${2-} in
        [1-9]) runs=$2 ;;
        *) echo "amo-count.sh: --runs needs an integer in 1..9, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
    --ab)
        [ -n "${2-}" ] && [ -x "$2/shmem/oshcc" ] ||
            { echo "amo-count.sh: --ab needs a built tree (with shmem/oshcc), got '${2-}'" >&2; exit 2; }
        other=$(cd "$2" && pwd)
        shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "amo-count.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
top=${PSHM_BUILD:-$(cd "$here/../.." && pwd)}
name=amo-count.sh
. "$here/mpi_env.sh"
for tool in valgrind callgrind_annotate; do
    command -v $tool >/dev/null ||
        { echo "amo-count.sh: no $tool (apt-get install -y valgrind)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/shmem-amo-count.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# One run: RANK under callgrind, the other natively -> $work/cg.out. The
# function is toggled under both its names: callgrind names a routine after
# its profiling name, pshmem_X (shmem_X is an alias), in a build that has it.
cat >"$work/cg.sh" <<EOF
#!/bin/sh
case \${OMPI_COMM_WORLD_RANK:-\${PMI_RANK:-0}} in
\$CG_RANK) exec valgrind -q --tool=callgrind --collect-atstart=no \\
     --toggle-collect=\$CG_FN --toggle-collect=p\$CG_FN --callgrind-out-file="$work/cg.out" "\$@" 2>"$work/cg.err" ;;
*) exec "\$@" ;;
esac
EOF
chmod +x "$work/cg.sh"

# summary FILE: "engine-runs-per-call work-per-call total tests runs sends starts irecvs match serve"
summary() {
    callgrind_annotate --inclusive=yes --threshold=100 --tree=caller "$1" 2>/dev/null |
        awk -v n="$calls" -v total="$(sed -n 's/^summary: *//p' "$1")" '
        /^ *[0-9,]+ \([ 0-9.]+%\) +[<*] / {
            ir = $1; gsub(",", "", ir)
            rest = $0; sub(/^ *[0-9,]+ \([ 0-9.]+%\) +/, "", rest)
            if (substr(rest, 1, 1) == "<") {
                if (match(rest, /\([0-9,]+x\)/)) { c = substr(rest, RSTART + 1, RLENGTH - 3); gsub(",", "", c); pend += c }
                next
            }
            split(rest, w, " "); name = w[2]; sub(/.*:/, "", name)
            incl[name] += ir; cnt[name] += pend; pend = 0
        }
        END {
            tc = cnt["PMPI_Test"] + cnt["PMPI_Testsome"]; ti = incl["PMPI_Test"] + incl["PMPI_Testsome"]
            pc = cnt["opal_progress"]; pi = incl["opal_progress"]
            mc = cnt["mca_pml_ob1_recv_frag_callback_match"]; mi = incl["mca_pml_ob1_recv_frag_callback_match"]
            idle = (tc && pc) ? (pc - mc) * ((pi - mi) / pc + (ti - pi) / tc) : 0
            printf "%.2f %.0f %.0f %.2f %.0f %.0f %.0f %.0f %.0f %.0f\n", pc / n, (total - idle) / n, total / n,
                tc / n, tc ? (ti - pi) / tc : 0, cnt["PMPI_Send"] ? incl["PMPI_Send"] / cnt["PMPI_Send"] : 0,
                cnt["PMPI_Start"] ? incl["PMPI_Start"] / cnt["PMPI_Start"] : 0,
                cnt["PMPI_Irecv"] ? incl["PMPI_Irecv"] / cnt["PMPI_Irecv"] : 0,
                mc ? mi / mc : 0, cnt["serve_one"] ? incl["serve_one"] / cnt["serve_one"] : 0
        }'
}

# measure TREE LABEL: the kept run of each rank, one line each.
measure() {
    tree=$1 label=$2
    "$tree/shmem/oshcc" -std=c11 -D_GNU_SOURCE -O2 -g -o "$work/count-$label" "$here/shmem-count.c"
    for rank in 0 1; do
        fn=shmem_long_atomic_fetch_add
        [ "$rank" = 1 ] && fn=shmem_barrier_all
        best=
        i=1
        while [ "$i" -le "$runs" ]; do
            rm -f "$work/cg.out"
            if ! CG_RANK=$rank CG_FN=$fn PSHM_SIM_HOSTS=2 timeout 600 "$mpirun" $mpiopts -np 2 \
                "$work/cg.sh" "$work/count-$label" fadd "$calls" 1 >"$work/out" 2>&1 ||
                [ ! -s "$work/cg.out" ]; then
                echo "amo-count.sh: the callgrind run failed ($label, rank $rank):" >&2
                cat "$work/out" "$work/cg.err" >&2 2>/dev/null
                exit 1
            fi
            line=$(summary "$work/cg.out")
            if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
                best=$line
            fi
            i=$((i + 1))
        done
        echo "$label $rank $best"
    done
}

{
    measure "$top" this
    [ -z "$other" ] || measure "$other" B
} | awk -v calls="$calls" -v runs="$runs" -v other="$other" '
BEGIN {
    printf "instructions per shipped fetch_add (callgrind, %d calls, best of %d runs per rank)%s\n",
        calls, runs, other == "" ? "" : "; B: " other
    printf "%-5s %-9s %8s %8s %7s %7s %6s %6s %6s %6s %6s %6s\n", "build", "rank", "work", "total",
        "tests", "engines", "test", "Send", "Start", "Irecv", "match", "serve"
}
{
    printf "%-5s %-9s %8s %8s %7s %7s %6s %6s %6s %6s %6s %6s\n", $1, $2 == 0 ? "requester" : "target",
        $4, $5, $6, $3, $7, $8, $9, $10, $11, $12
}
END {
    print "work: per fetch_add, idle polls taken out; total: as collected; tests, engines: test"
    print "calls and engine runs per fetch_add; test: a test call outside the engine; Send,"
    print "Start, Irecv, match (ob1 matching a message), serve (the target applying, answering"
    print "and restarting its receive): per call, 0 where none was made"
}'
