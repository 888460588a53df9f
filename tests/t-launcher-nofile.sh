#!/bin/bash
# t-launcher-nofile - pshmrun out of file descriptors (a low ulimit -n): it
# fails cleanly (status 1, no process left, nothing left behind), and its
# message says how many descriptors the job needs and to raise ulimit -n.
B=${PSHM_BUILD:-.}
P=$B/tools/pshmrun
C=$B/tests/progs/launch-child
[ -x "$P" ] && [ -x "$C" ] || { echo "FAIL: $P or $C is not built"; exit 1; }
fails=0
for lim in 12 6; do
    out=$( (ulimit -n $lim && exec timeout -s KILL 30 "$P" -n 16 "$C" ok) 2>&1)
    rc=$?
    if [ $rc != 1 ]; then
        echo "FAIL: ulimit -n $lim, pshmrun -n 16: status $rc, expected 1:"; echo "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    elif ! grep -q "Too many open files;.*raise the limit (ulimit -n" <<<"$out" ||
        ! grep -q "needs [0-9]* or more for 16 processes, but may open $lim" <<<"$out"; then
        echo "FAIL: ulimit -n $lim: the message lacks the ulimit -n advice:"; echo "$out" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok: ulimit -n $lim, pshmrun -n 16 -> 1: $(grep -m1 'ulimit -n' <<<"$out")"
    fi
done
# Enough descriptors: the same job runs.
out=$( (ulimit -n 256 && exec timeout -s KILL 30 "$P" -n 16 "$C" ok) 2>&1)
rc=$?
[ $rc = 0 ] && echo "ok: ulimit -n 256, pshmrun -n 16 -> 0" ||
    { echo "FAIL: ulimit -n 256: status $rc:"; echo "$out" | sed 's/^/    /'; fails=$((fails + 1)); }
exit $((fails > 0))
