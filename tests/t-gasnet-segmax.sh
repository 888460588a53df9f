#!/bin/bash
# t-gasnet-segmax - gasnet_getMaxLocalSegmentSize() fits every node's
# segment in the memory the host has available, fixed at gasnet_init
# (tests/gasnet/segmax.c), SEQ and PAR, 1 to 8 nodes.
. "$(dirname "$0")/gasnet/driver.sh"
every segmax
finish
