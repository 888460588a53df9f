#!/bin/bash
# t-gasnet-exit - how a GASNet job ends (tests/gasnet/exit.c): gasnet_exit
# by every node, by one node while the others wait in a barrier, compute
# without polling, or wait in GASNET_BLOCKUNTIL; from a handler; returning
# from main; two nodes at once; SIGINT with and without a SIGQUIT handler;
# a client's atexit handler that makes a barrier: never run after
# gasnet_exit (as in GASNet), run before the layer ends on a return;
# a wait for the reply of a request that returned an error ends the job.
# The job's status is the code, every node's
# unflushed line reaches stdout, and a code of 0 ends it without a word.
. "$(dirname "$0")/gasnet/driver.sh"
lines() {
    local c
    c=$(grep -c "of $1 before" "$T/out")
    [ "$c" = "$1" ] && ok "$c nodes' unflushed lines printed" ||
        bad "$c of $1 nodes' lines reached stdout"
}
quiet() {
    [ -s "$T/err" ] && { bad "a clean end said something:"; sed 's/^/    /' "$T/err"; } ||
        ok "nothing on stderr"
}
for m in $MODES; do
    for n in $NODES; do
        P=$G/exit-$m
        gjob 0 "$n" "$P" collective 0 && { lines "$n"; quiet; }
        gjob 5 "$n" "$P" collective 5 && { lines "$n"; has err "called gasnet_exit(5)"; }
        gjob 0 "$n" "$P" return 0 && { lines "$n"; quiet; }
        gjob 3 "$n" "$P" return 3 && lines "$n"
        gjob 7 "$n" "$P" one 7 && { lines "$n"; has err "rank $((n - 1)) "; }
        gjob 9 "$n" "$P" handler 9 && lines "$n"
        gjob 4 "$n" "$P" blockuntil 4 && lines "$n"
        gjob 0 "$n" "$P" blockuntil 0 && { lines "$n"; quiet; }
        # a terminating signal runs the client's SIGQUIT handler (GASNet's rule)
        gjob 4 "$n" "$P" sigint 4 && { lines "$n"; has err "called gasnet_exit(4)"; }
        gjob 130 "$n" "$P" sigint-plain 4 && { lines "$n"; has err "signal 2"; }
        gjob 0 "$n" "$P" atexit 0 && { lines "$n"; quiet; }
        gjob 5 "$n" "$P" atexit 5 && { lines "$n"; has err "called gasnet_exit(5)"; }
        gjob 0 "$n" "$P" atexit-one 0 && { lines "$n"; quiet; }
        gjob 3 "$n" "$P" atexit-return 3 && lines "$n"
        gjob 0 "$n" "$P" atexit-return 0 && { lines "$n"; quiet;
            has out ": the atexit barrier gave GASNET_OK"; }
        [ "$n" -gt 1 ] || continue
        gjob 6 "$n" "$P" spin 6 && lines "$n"
        # the others never poll: after the grace time pshm_abort ends them
        gjob 0 "$n" "$P" spin 0 && { lines "$n"; has err "called gasnet_exit(0)"; }
        "$RUN" -n "$n" --timeout 60 "$P" two 10 >"$T/out" 2>"$T/err"
        rc=$?
        case $rc in
        10|11) ok "two nodes exiting 10 and 11 at once -> $rc" ;;
        *) bad "two nodes exiting 10 and 11 at once -> $rc"; sed 's/^/    /' "$T/err" ;;
        esac
    done
done
# A request refused (a node outside the job), its error unchecked, and a
# wait for its reply: the job ends, not hangs.
if [ "${NODES##* }" != 1 ]; then
    for m in $MODES; do
        gjob 1 2 "$G/exit-$m" lost && { has err "node 2 is not in the job";
            has err "no message came for 10 s after gasnet_AMRequestShort returned GASNET_ERR_BAD_ARG"; }
    done
fi
finish
