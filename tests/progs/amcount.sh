#!/bin/sh
# amcount.sh [N] - instructions per AM operation, counted by callgrind over
# the public calls only (pshm_am_request_short and pshm_poll, handlers and
# replies inside them included), with the workloads of amcount.c:
#   rt    one round trip: request, dispatch, reply, the requester's receipt
#   idle  one pshm_poll that finds nothing, P = 2
# Run from the top of a build tree; needs valgrind.
n=${1:-1000}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
for mode in rt idle; do
    GASNET_PSHMNET_QUEUE_DEPTH=$((n > 64 ? n : 64)) tools/pshmrun -n 2 \
        valgrind --tool=callgrind --collect-atstart=no \
        --toggle-collect=pshm_am_request_short --toggle-collect=pshm_poll \
        --callgrind-out-file="$dir/$mode.%q{PSHM_RANK}" tests/progs/amcount $mode "$n" \
        >"$dir/$mode.log" 2>&1 || { cat "$dir/$mode.log"; exit 1; }
    total=0
    for r in 0 1; do
        ir=$(sed -n 's/^summary: *//p' "$dir/$mode.$r")
        total=$((total + ${ir:-0}))
    done
    echo "$mode: $total instructions / $n = $(awk "BEGIN { printf \"%.1f\", $total / $n }") per operation"
done
