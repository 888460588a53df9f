#!/bin/bash
# t-gasnet-barrier - the split-phase barrier's ids and mismatch cases
# (tests/gasnet/barrier.c), wait and try.
. "$(dirname "$0")/gasnet/driver.sh"
every barrier
finish
