#!/bin/bash
# t-gasnet-init - gasnet_init, gasnet_attach and the queries
# (tests/gasnet/init.c) at 1 to 8 nodes; attach's refusals and a put outside
# a segment, in their words; a job started without a launcher by
# GASNET_PSHM_NODES (as GASNet's smp conduit) and by gasnetrun_smp.
. "$(dirname "$0")/gasnet/driver.sh"
every init
P=$G/init-seq
gjob 0 1 "$P" refuse-page && has err "segsize 4097 is not a multiple of GASNET_PAGESIZE (4096)"
gjob 0 1 "$P" refuse-index && has err "has index 127: a client's indices are 128..255"
gjob 0 1 "$P" refuse-twice && has err "handler index 140 is given twice"
gjob 0 1 "$P" refuse-big && has err "is more than gasnet_getMaxLocalSegmentSize()"
gjob 1 1 "$P" bad-put && has err "gasnet_put (node 0 of 1): [0x"
has err "is not in node 0's segment"
gjob 1 1 "$P" bad-node && has err "gasnet_get_val (node 0 of 1): node 1 is not in the job (nodes 0..0)"
gjob 1 1 "$P" early-get && has err "gasnet_get (node 0 of 1): called before gasnet_attach: attach first"

# No launcher: GASNET_PSHM_NODES=N starts N nodes under pshmrun.
for n in $NODES; do
    GASNET_PSHM_NODES=$n "$P" >"$T/out" 2>"$T/err"
    rc=$?
    [ $rc = 0 ] && ok "GASNET_PSHM_NODES=$n init-seq -> 0" || bad "GASNET_PSHM_NODES=$n init-seq -> $rc"
    has out "ok: init on $n nodes"
done
GASNET_PSHM_NODES=${NODES##* } "$G/exit-par" collective 6 >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 6 ] && ok "a self-started job's status is its gasnet_exit code (6)" ||
    bad "a self-started job exiting 6 -> $rc"
GASNET_PSHM_NODES=two "$P" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] && ok "GASNET_PSHM_NODES=two is refused" || bad "GASNET_PSHM_NODES=two -> $rc"
has err "GASNET_PSHM_NODES"

# gasnetrun_smp of the build tree
GR=$B/gasnet/gasnetrun_smp
n=${NODES##* }
"$GR" -n "$n" "$P" >"$T/out" 2>"$T/err" && has out "ok: init on $n nodes" ||
    bad "gasnetrun_smp -n $n init-seq failed: $(cat "$T/err")"
"$GR" -n "$n" -- "$G/exit-seq" one 3 >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 3 ] && ok "gasnetrun_smp passes the job's status (3)" || bad "gasnetrun_smp status $rc, expected 3"
"$GR" "$P" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] && ok "gasnetrun_smp without -n -> 2" || bad "gasnetrun_smp without -n -> $rc"
has err "give the number of nodes with -n N"
"$GR" -n 2 -N 3 "$P" >"$T/out" 2>"$T/err"
has err "this GASNet runs on one host"
# Nodes that share no memory: the words say why and what to do.
if [ "$NODES" = 1 ]; then
    gjob 1 2 "$P"; has err "pshm was built without shared memory (configure --disable-pshm)"
else
    gjob 1 2 --hosts 2 "$P"; has err "this GASNet runs the nodes of one host"
fi
finish
