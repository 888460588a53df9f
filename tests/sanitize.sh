# sanitize.sh - sourced by the sanitizer tests (t-tsan.sh, t-asan.sh): builds
# the library's sources and one C test with a -fsanitize flag, and runs the
# test under pshmrun. Not a test itself (the runner runs tests/t-* only).
#
#   san_setup FLAG          cd to the build tree, make $d; exit 77 with the
#                           reason when the backend or the compiler cannot
#   san_build TEST FLAGS..  builds tests/TEST.c into $d/TEST (exit 1 on error)
#   san_run NPROCS TEST     runs it under pshmrun; status in $san_status,
#                           output in $d/run.log

san_setup() {
  top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
  cd "$top" || exit 1
  [ -f Makefile ] || { echo "skip: not configured: run ./configure first"; exit 77; }
  cc=$(sed -n 's/^CC := //p' Makefile)
  cc=${cc:-cc}
  backend=$(sed -n 's/^BACKEND := //p' Makefile)
  [ "$backend" = none ] && { echo "skip: built with --disable-pshm, no two processes share memory"; exit 77; }
  d=$(mktemp -d "${TMPDIR:-/tmp}/santest.XXXXXX") || exit 1
  trap 'rm -rf "$d"' EXIT
  trap 'exit 1' INT TERM HUP
  # A compiler that accepts the flag may still lack the runtime: link and run.
  printf 'int main(void) { return 0; }\n' >"$d/probe.c"
  if ! $cc "$1" "$d/probe.c" -o "$d/probe" >"$d/probe.log" 2>&1 ||
    ! "$d/probe" >>"$d/probe.log" 2>&1; then
    echo "skip: $cc cannot build and run a $1 program (no runtime for it; on Debian:" \
      "apt-get install libtsan2 / libasan8 for gcc; clang ships its own):"
    sed 's/^/  /' "$d/probe.log" | head -5
    exit 77
  fi
}

san_build() {
  t=$1
  shift
  # shellcheck disable=SC2086
  if ! $cc -std=c11 -D_GNU_SOURCE "$@" -g -O1 -I. -Ipshm -o "$d/$t" common/*.c base/*.c pshm/*.c nodemap/*.c \
    amqueue/*.c segment/segment.c "segment/$backend.c" tests/helpers.c "tests/$t.c" \
    -lrt -lpthread >"$d/build.log" 2>&1; then
    echo "FAIL: building $t with $*:"
    cat "$d/build.log"
    exit 1
  fi
}

san_run() {
  tools/pshmrun --timeout 100 -n "$1" -- "$d/$2" >"$d/run.log" 2>&1
  san_status=$?
  # Some kernels place mappings where a sanitizer cannot shadow them: run it
  # again without address randomization.
  if grep -q "unexpected memory mapping\|Shadow memory range" "$d/run.log" &&
    command -v setarch >/dev/null; then
    setarch "$(uname -m)" -R tools/pshmrun --timeout 100 -n "$1" -- "$d/$2" >"$d/run.log" 2>&1
    san_status=$?
  fi
}

#   san_verdict TEST TOOL FLAG  exit 1 with the report if the run failed or
#                               TOOL (ThreadSanitizer, ...) reported, else 0
san_verdict() {
  if [ "$san_status" -ne 0 ] || grep -q "$2" "$d/run.log"; then
    echo "FAIL: $1 under $2 (status $san_status):"
    grep -v '^$' "$d/run.log" | head -60
    exit 1
  fi
  cat "$d/run.log"
  echo "$1 ran without a $2 report ($cc $3)"
  exit 0
}
