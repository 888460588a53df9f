#!/bin/bash
# t-gasnet-vis - the vector, indexed and strided puts and gets of
# gasnet_vis.h, every form, byte by byte against a serial model
# (tests/gasnet/vis.c), and the refused calls in their words.
. "$(dirname "$0")/gasnet/driver.sh"
every vis
P=$G/vis-seq
gjob 1 1 "$P" v-size && has err "gasnet_putv_bulk (node 0 of 1): the destination list holds 16 bytes in 2 regions, the source list 17 bytes in 1: the two must hold the same total"
gjob 1 1 "$P" v-seg && has err "gasnet_putv_bulk" && has err "is not in node 0's segment"
gjob 1 1 "$P" i-len0 && has err "gasnet_puti_bulk (node 0 of 1): dstlen is 0"
gjob 1 1 "$P" i-seg && has err "gasnet_geti_bulk" && has err "is not in node 0's segment"
gjob 1 1 "$P" s-stride && has err "gasnet_puts_bulk (node 0 of 1): dststrides[0] is 3, less than the 5 bytes of the level below"
gjob 1 1 "$P" s-seg && has err "gasnet_gets_bulk" && has err "is not in node 0's segment"
gjob 1 1 "$P" node && has err "gasnet_puts_bulk (node 0 of 1): node 7 is not in the job (nodes 0..0)"
finish
