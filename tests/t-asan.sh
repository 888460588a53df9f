#!/bin/sh
#
# t-asan.sh - collectives refused inside a handler leave the context intact:
# tests/t-am-inhandler.c (pshm_finalize, pshm_barrier and pshm_node_barrier
# called from a handler, then a poll, traffic and a finalize; a barrier that
# meets a bad message) is built with -fsanitize=address and run under
# pshmrun: any AddressSanitizer report (a use after free, an overflow) fails
# the test. Skips (77) when the compiler has no AddressSanitizer runtime
# (Debian: libasan8 for gcc 12) or with --disable-pshm.

. "$(dirname "$0")/sanitize.sh"
san_setup -fsanitize=address
san_build t-am-inhandler -fsanitize=address -fno-omit-frame-pointer
ASAN_OPTIONS="detect_leaks=0 $ASAN_OPTIONS" san_run 3 t-am-inhandler
san_verdict t-am-inhandler AddressSanitizer -fsanitize=address
