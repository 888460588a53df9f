#!/bin/bash
# t-gasnet-rma - every GASNet put, get, value and memset form, blocking and
# non-blocking, and the sync calls, byte by byte (tests/gasnet/rma.c), through
# gasnet.h's inline forms and through the library's functions (rma_fn.c).
. "$(dirname "$0")/gasnet/driver.sh"
every rma
every rma_fn
finish
