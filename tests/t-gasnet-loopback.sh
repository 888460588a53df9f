#!/bin/bash
# t-gasnet-loopback - an AM to the sending node runs its handlers inside
# the request and reply calls, as GASNet's conduits do
# (tests/gasnet/loopback.c), SEQ and PAR, 1 to 8 nodes.
. "$(dirname "$0")/gasnet/driver.sh"
every loopback
finish
