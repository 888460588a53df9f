#!/bin/sh
# barrier-count.sh [P...] - instructions per shmem_barrier_all and per
# shmem_team_sync of PE 0 at P PEs (default 2 16 64), under callgrind with
# collection inside the call (both its names, docs/shmem.md "Profiling")
# and a count per call (--dump-after): PE 0 alone runs under valgrind and
# sleeps 20 ms before each call, so the other PEs, at full speed, are in
# each call before it and it does not wait; the median of 50 calls is printed (shmem-count's own
# shmem_barrier_all before and after them left out). Needs a built tree (PSHM_BUILD, default: this script's ../..)
# and valgrind.
here=$(cd "$(dirname "$0")" && pwd)
top=${PSHM_BUILD:-$(cd "$here/../.." && pwd)}
command -v valgrind >/dev/null 2>&1 || { echo "barrier-count.sh: needs valgrind" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pshm-barrier-count.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
"$top/shmem/oshcc" -std=c11 -D_GNU_SOURCE -O2 -o "$work/shmem-count" "$here/shmem-count.c" || exit 1
calls=50
[ $# -gt 0 ] || set -- 2 16 64
printf '%6s %16s %16s\n' PEs barrier_all team_sync
for p in "$@"; do
    line=$(printf '%6s' "$p")
    for op in barrier_all team_sync; do
        rm -f "$work"/cg.out*
        cat >"$work/cg.sh" <<EOS
#!/bin/sh
case \${PSHM_RANK:-0} in
0) exec valgrind -q --tool=callgrind --collect-atstart=no \\
     --toggle-collect=pshmem_$op --toggle-collect=shmem_$op --dump-after=pshmem_$op \\
     --callgrind-out-file="$work/cg.out" "\$@" 2>"$work/cg.err" ;;
*) exec "\$@" ;;
esac
EOS
        chmod +x "$work/cg.sh"
        if ! "$top/shmem/oshrun" -n "$p" "$work/cg.sh" "$work/shmem-count" "$op" "$calls" 1 20000 \
            >"$work/out" 2>&1; then
            echo "barrier-count.sh: the job of $p PEs failed:" >&2
            cat "$work/out" "$work/cg.err" >&2
            exit 1
        fi
        # cg.out.N: the N-th call (barrier_all: N = 1 is the start's)
        first=1
        [ $op = barrier_all ] && first=2
        v=$(for n in $(seq $first $((calls + first - 1))); do
                sed -n 's/^\(summary\|totals\): *//p' "$work/cg.out.$n" | head -1
            done | sort -n | awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : "none"}')
        line="$line $(printf '%16s' "$v")"
    done
    echo "$line"
done
