#!/bin/bash
# t-gasnet-rma - every GASNet put, get, value and memset form, blocking and
# non-blocking, and the sync calls, byte by byte (tests/gasnet/rma.c).
. "$(dirname "$0")/gasnet/driver.sh"
every rma
finish
