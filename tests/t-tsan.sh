#!/bin/sh
#
# t-tsan.sh - PSHM_INIT_THREADS is free of data races: the library and
# tests/t-am-threads.c (3 processes x 3 threads sending, polling and
# replying at once) are built with -fsanitize=thread and run under pshmrun;
# any ThreadSanitizer report fails the test. Skips (77) when the compiler has
# no ThreadSanitizer runtime (Debian: apt-get install libtsan2 for gcc 12;
# clang ships its own) or with --disable-pshm (no shared queues).

top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
[ -f Makefile ] || { echo "skip: not configured: run ./configure first"; exit 77; }
cc=$(sed -n 's/^CC := //p' Makefile)
backend=$(sed -n 's/^BACKEND := //p' Makefile)
[ "$backend" = none ] && { echo "skip: built with --disable-pshm, no queues shared by threads"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/tmp}/tsantest.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
trap 'exit 1' INT TERM HUP

# A compiler that accepts the flag may still lack the runtime: link and run.
printf 'int main(void) { return 0; }\n' >"$d/probe.c"
if ! ${cc:-cc} -fsanitize=thread "$d/probe.c" -o "$d/probe" >"$d/probe.log" 2>&1 ||
  ! "$d/probe" >>"$d/probe.log" 2>&1; then
  echo "skip: ${cc:-cc} cannot build and run a -fsanitize=thread program (no ThreadSanitizer" \
    "runtime; on Debian: apt-get install libtsan2):"
  sed 's/^/  /' "$d/probe.log" | head -5
  exit 77
fi

srcs="pshm/*.c nodemap/*.c amqueue/*.c segment/segment.c segment/$backend.c tests/helpers.c"
# shellcheck disable=SC2086
if ! ${cc:-cc} -std=c11 -D_GNU_SOURCE -fsanitize=thread -g -O1 -I. -Ipshm -o "$d/t-am-threads" \
  $srcs tests/t-am-threads.c -lrt -lpthread >"$d/build.log" 2>&1; then
  echo "FAIL: building t-am-threads with -fsanitize=thread:"
  cat "$d/build.log"
  exit 1
fi

run() {
  TSAN_OPTIONS="halt_on_error=1 exitcode=66 $TSAN_OPTIONS" "$@" \
    tools/pshmrun --timeout 100 -n 3 -- "$d/t-am-threads" >"$d/run.log" 2>&1
}
run; st=$?
# Some kernels place mappings where this runtime cannot shadow them: run it
# again without address randomization.
if grep -q "unexpected memory mapping" "$d/run.log" && command -v setarch >/dev/null; then
  run setarch "$(uname -m)" -R; st=$?
fi
if [ $st -ne 0 ] || grep -q "ThreadSanitizer" "$d/run.log"; then
  echo "FAIL: t-am-threads under ThreadSanitizer (status $st):"
  grep -v '^$' "$d/run.log" | head -60
  exit 1
fi
cat "$d/run.log"
echo "t-am-threads ran without a ThreadSanitizer report (${cc:-cc} -fsanitize=thread)"
exit 0
