#!/bin/sh
#
# t-check-backends.sh - make check-backends leaves the tree configured and
# built for the default backend: afterwards the tools are the default's and
# run without another make. Runs in a temporary copy of the source tree,
# with one backend (none, the one that differs most) and one test.

. "$(dirname "$0")/treecopy.sh" cbtest
# The copy builds twice: only the test it runs, to stay fast.
find tests -name 't-*.c' ! -name t-nodemap.c -exec rm -f {} +
rm -rf tests/mpi tests/progs tests/gasnet

PSHM_CHECK_BACKENDS=--disable-pshm PSHM_CHECK_TESTS=t-nodemap \
  bash tests/check-backends.sh --without-mpi CFLAGS=-O0 >"$work/cb.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || ! grep -q '^1 passed, 0 failed, 0 skipped$' "$work/cb.log"; then
  echo "FAIL: check-backends (none only, t-nodemap) exited $rc:"; cat "$work/cb.log"; exit 1
fi
echo "ok: check-backends ran the none backend"

failures=0
grep -q '^#define PSHM_BACKEND_NAME "posix"$' config.h ||
  { echo "FAIL: config.h is not the default's: $(grep BACKEND_NAME config.h)"; failures=1; }
v=$(tools/pshmrun --version 2>&1)
case $v in
*posix*) echo "ok: tools/pshmrun --version: $v" ;;
*) echo "FAIL: after check-backends tools/pshmrun is not the default's build: $v"; failures=1 ;;
esac
if make -q all >/dev/null 2>&1; then
  echo "ok: make has nothing left to build"
else
  echo "FAIL: after check-backends, make still has something to build"; failures=1
fi
out=$(timeout 60 tools/pshmrun -n 2 docs/examples/hello 2>&1)
rc=$?
if [ $rc -ne 0 ] || [ "$(printf '%s\n' "$out" | grep -c 'hello from rank')" -ne 2 ]; then
  echo "FAIL: tools/pshmrun -n 2 docs/examples/hello after check-backends: exit $rc: $out"; failures=1
else
  echo "ok: tools/pshmrun -n 2 docs/examples/hello works without make"
fi
exit $failures
