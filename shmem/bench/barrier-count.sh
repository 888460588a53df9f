#!/bin/sh
# barrier-count.sh: the instructions per call of every barrier form, on PE 0
# under callgrind, the other PEs at full speed (shmem-count.c), with 2, 4 and
# 8 PEs (more PEs than CPUs is fine: a count does not depend on time).
#
#   shmem/bench/barrier-count.sh [--calls N] [--pes "2 4 8"]
#
# Collection is inside the routine only, under both its names (shmem_X and
# its profiling name pshmem_X, which callgrind reports), and not inside the
# out-of-line rest of a barrier whose signal had not come when it looked
# (coll_dbar_rest, sync_rest: the wait's polls, which depend on time): the
# count is that of a call whose peers were there, plus the entry of those
# that were not (the fractions).
# Environment: PSHM_BUILD (the build tree, default the one holding this script).
set -eu

calls=20000
pes="2 4 8"
while [ $# -gt 0 ]; do
    case $1 in
    --calls)
        case ${2-} in
        [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9] | \
            [1-9][0-9][0-9][0-9][0-9][0-9]) calls=$2 ;;
        *) echo "barrier-count.sh: --calls needs an integer in 1..999999, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
    --pes)
        for n in ${2-}; do
            case $n in
            [2-9] | [1-5][0-9] | 6[0-4]) ;;
            *) echo "barrier-count.sh: --pes needs PE counts in 2..64, got '${2-}'" >&2; exit 2 ;;
            esac
        done
        [ -n "${2-}" ] || { echo "barrier-count.sh: --pes needs PE counts" >&2; exit 2; }
        pes=$2
        shift 2 ;;
    -h | --help) sed -n 's/^# \{0,1\}//; 2,6p' "$0"; exit 0 ;;
    *) echo "barrier-count.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done

here=$(cd "$(dirname "$0")" && pwd)
top=${PSHM_BUILD:-$(cd "$here/../.." && pwd)}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "# barrier instruction counts left out: valgrind is not installed (apt-get install -y valgrind)"
    exit 0
fi
for f in "$top/shmem/oshcc" "$top/shmem/oshrun"; do
    [ -x "$f" ] || { echo "barrier-count.sh: $f is missing: build the tree first" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/barrier-count.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
"$top/shmem/oshcc" -O2 -o "$work/shmem-count" "$here/shmem-count.c"
cat >"$work/cg.sh" <<EOF
#!/bin/sh
# PE 0 alone under callgrind: the others run at full speed.
f=\$1
shift
case \${PSHM_RANK:-0} in
0) exec valgrind -q --tool=callgrind --collect-atstart=no \\
     --toggle-collect=\$f --toggle-collect=p\$f \\
     --toggle-collect=coll_dbar_rest --toggle-collect='sync_rest*' \\
     --callgrind-out-file="$work/cg.out" "\$@" 2>"$work/cg.err" ;;
*) exec "\$@" ;;
esac
EOF
chmod +x "$work/cg.sh"
count() { # npes op function -> instructions per call
    rm -f "$work/cg.out"
    if ! "$top/shmem/oshrun" -n "$1" "$work/cg.sh" "$3" "$work/shmem-count" "$2" "$calls" 1 \
        >"$work/out" 2>"$work/err" || [ ! -s "$work/cg.out" ]; then
        echo "barrier-count.sh: the callgrind run failed: oshrun -n $1 shmem-count $2 $calls 1" >&2
        cat "$work/err" "$work/out" "$work/cg.err" >&2 2>/dev/null
        exit 1
    fi
    ir=$(sed -n 's/^summary: *//p' "$work/cg.out")
    awk -v ir="${ir:-0}" -v n="$calls" 'BEGIN { printf "%.1f", ir / n }'
}
echo "instructions per call on PE 0 (callgrind, $calls calls, the waits' polls left out)"
printf '%-34s' "form"
for n in $pes; do printf ' %8s' "$n PEs"; done
echo
for row in "barrier_all shmem_barrier_all shmem_barrier_all" \
    "sync_all shmem_sync_all shmem_sync_all" \
    "barrier shmem_barrier shmem_barrier(all, pSync)" \
    "sync shmem_sync shmem_sync(all, pSync)" \
    "barrier_s2 shmem_barrier shmem_barrier(0, 1, n/2, pSync)" \
    "sync_s2 shmem_sync shmem_sync(0, 1, n/2, pSync)" \
    "team_sync shmem_team_sync shmem_team_sync(WORLD)" \
    "team_sync_s2 shmem_team_sync shmem_team_sync(stride 2)"; do
    set -- $row
    op=$1 fn=$2
    shift 2
    printf '%-34s' "$*"
    for n in $pes; do printf ' %8s' "$(count "$n" "$op" "$fn")"; done
    echo
done
