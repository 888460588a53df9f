#!/bin/sh
#
# t-tsan.sh - PSHM_INIT_THREADS is free of data races: the library and
# tests/t-am-threads.c (3 processes x 3 threads sending, polling and
# replying at once) are built with -fsanitize=thread and run under pshmrun;
# any ThreadSanitizer report fails the test. Skips (77) when the compiler has
# no ThreadSanitizer runtime (Debian: apt-get install libtsan2 for gcc 12;
# clang ships its own) or with --disable-pshm (no shared queues).

. "$(dirname "$0")/sanitize.sh"
san_setup -fsanitize=thread
san_build t-am-threads -fsanitize=thread
TSAN_OPTIONS="halt_on_error=1 exitcode=66 $TSAN_OPTIONS" san_run 3 t-am-threads
san_verdict t-am-threads ThreadSanitizer -fsanitize=thread
