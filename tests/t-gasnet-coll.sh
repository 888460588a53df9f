#!/bin/bash
# t-gasnet-coll - gasnet_coll_broadcast from every root, every size class
# (tests/gasnet/coll.c), SEQ and PAR, 1 to 8 nodes.
. "$(dirname "$0")/gasnet/driver.sh"
every coll
finish
