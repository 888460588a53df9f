#!/bin/sh
#
# t-configure.sh - ./configure rejects bad options clearly and changes
# nothing, tolerates autoconf's flags, and writes what it was asked for.
# Runs in a temporary copy of the source tree: the build tree is never
# reconfigured.

. "$(dirname "$0")/treecopy.sh" cfgtest

# The shell every Debian /bin/sh is: configure must not need bash.
if command -v dash >/dev/null 2>&1; then shell=dash; else shell=sh; fi

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run ARGS...: runs configure; $rc and $out (stdout+stderr) hold the result.
run() {
  out=$("$shell" ./configure "$@" 2>&1)
  rc=$?
}

# expect_error PATTERN ARGS...: configure fails, says "configure: error:"
# with PATTERN (fixed string), and leaves config.h and Makefile as they were.
expect_error() {
  pat=$1
  shift
  sum_before=$(cat config.h Makefile | cksum)
  run "$@"
  if [ $rc -eq 0 ]; then
    fail "./configure $* succeeded; expected an error about '$pat'"
  elif ! printf '%s\n' "$out" | grep -q '^configure: error: '; then
    fail "./configure $*: no 'configure: error:' line in: $out"
  elif ! printf '%s\n' "$out" | grep -F -q -- "$pat"; then
    fail "./configure $*: the error does not mention '$pat': $out"
  elif [ "$(cat config.h Makefile | cksum)" != "$sum_before" ]; then
    fail "./configure $* failed but changed config.h or Makefile"
  else
    echo "ok: ./configure $* -> $(printf '%s\n' "$out" | grep '^configure: error:')"
  fi
}

has() { grep -F -q -- "$2" "$1" || { fail "$1 lacks '$2'"; return 1; }; }
hasnt() { ! grep -F -q -- "$2" "$1" || { fail "$1 has '$2'"; return 1; }; }

# --- a good configuration, with quoting that config.h must escape
run --enable-pshm-sysv '--prefix=/opt/p q"r\s' 'CFLAGS=-O1 -g'
[ $rc -eq 0 ] || { echo "FAIL: ./configure --enable-pshm-sysv failed: $out"; exit 1; }
has config.h '#define PSHM_BACKEND_SYSV 1'
has config.h '#define PSHM_BACKEND_NAME "sysv"'
for b in POSIX FILE NONE; do has config.h "#define PSHM_BACKEND_$b 0"; done
has config.h '#define PSHM_CONFIGURE_ARGS'
has config.h '#define PSHM_CACHE_LINE'
has config.h '#define PSHM_VERSION "0.1.0"'
has Makefile 'BACKEND := sysv'
has Makefile 'OPTFLAGS := -O2 -g'
has Makefile 'CFLAGS := -O1 -g'
has config.log 'shmget'
printf '%s\n' "$out" | grep -q '^ *backend *sysv$' || fail "the summary does not name the backend: $out"
printf '%s\n' "$out" | grep -q '^ *prefix *' || fail "the summary does not name the prefix: $out"

# The recorded command line and prefix are C strings with the exact text.
cat >"$work/args.c" <<'EOF'
#include <stdio.h>
#include "config.h"
int main(void) { printf("%s\n%s\n", PSHM_CONFIGURE_ARGS, PSHM_PREFIX); return 0; }
EOF
if ${CC:-cc} -I. -o "$work/args" "$work/args.c" 2>"$work/args.err"; then
  got=$("$work/args")
  want="--enable-pshm-sysv '--prefix=/opt/p q\"r\\s' 'CFLAGS=-O1 -g'
/opt/p q\"r\\s"
  [ "$got" = "$want" ] || fail "config.h strings: expected
$want
got
$got"
else
  fail "config.h does not compile: $(cat "$work/args.err")"
fi
echo "ok: config.h, Makefile and the summary for --enable-pshm-sysv"

# --- errors: clear, non-zero, nothing changed
expect_error "both given" --enable-pshm-posix --enable-pshm-sysv
expect_error "--enable-pshm-file" --enable-pshm-sysv --enable-pshm-file
expect_error "--disable-pshm" --disable-pshm --enable-pshm-sysv
expect_error "--disable-pshm" --enable-pshm-file --disable-pshm
expect_error "unknown shared-memory backend" --enable-pshm-foo
expect_error "/nonexistent/mpicc" --with-mpi=/nonexistent/mpicc
expect_error "/nonexistent" CC=/nonexistent
expect_error "no-such-compiler-x" CC=no-such-compiler-x
expect_error "--enable-shmem=maybe" --enable-shmem=maybe
sum_before=$(cat config.h Makefile | cksum)
out=$(CC=/nonexistent/cc "$shell" ./configure 2>&1)
rc=$?
if [ $rc -eq 0 ] || ! printf '%s\n' "$out" | grep -q '^configure: error: .*/nonexistent/cc'; then
  fail "CC=/nonexistent/cc from the environment: rc=$rc: $out"
elif [ "$(cat config.h Makefile | cksum)" != "$sum_before" ]; then
  fail "a failed configure changed config.h or Makefile"
else
  echo "ok: CC from the environment is used and checked"
fi

# --- an unknown flag warns and goes on
run --frobnicate
if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q 'warning:.*--frobnicate'; then
  fail "--frobnicate: expected a warning and success, got rc=$rc: $out"
else
  echo "ok: --frobnicate warns and configure succeeds"
fi

# --- autoconf's flags are accepted silently and the directories used
run --build=x86_64-linux-gnu --host=x86_64-linux-gnu --target=x86_64-linux-gnu \
  --libdir=/opt/x/lib64 --sysconfdir=/etc --localstatedir=/var --cache-file=/dev/null \
  --srcdir=. --enable-silent-rules --disable-dependency-tracking --disable-maintainer-mode \
  --mandir=/opt/x/man --includedir=/opt/x/inc
if [ $rc -ne 0 ]; then
  fail "autoconf flags rejected: $out"
elif printf '%s\n' "$out" | grep -q 'warning'; then
  fail "autoconf flags warned about: $out"
else
  has Makefile 'libdir = /opt/x/lib64'
  has Makefile 'mandir = /opt/x/man'
  has Makefile 'includedir = /opt/x/inc'
  has config.h '#define PSHM_BACKEND_POSIX 1'
  echo "ok: autoconf flags accepted, directories recorded"
fi

# --- the other backends and the debug build
run --enable-pshm-file
[ $rc -eq 0 ] && has config.h '#define PSHM_BACKEND_FILE 1' || fail "--enable-pshm-file: $out"
run --disable-pshm --enable-debug
if [ $rc -eq 0 ]; then
  has config.h '#define PSHM_BACKEND_NONE 1'
  has config.h '#define PSHM_BACKEND_NAME "none"'
  has config.h '#define PSHM_DEBUG 1'
  has Makefile 'OPTFLAGS := -O0 -g'
else
  fail "--disable-pshm --enable-debug: $out"
fi
run --without-mpi
[ $rc -eq 0 ] && has config.h '#define PSHM_HAVE_MPI 0' || fail "--without-mpi: $out"
# --- the OpenSHMEM layer: built by default, left out on request
run
[ $rc -eq 0 ] && has Makefile 'SHMEM := yes' || fail "default: $out"
for f in --disable-shmem --enable-shmem=no; do
  run $f
  [ $rc -eq 0 ] && has Makefile 'SHMEM := no' || fail "$f: $out"
done
run --enable-shmem=yes
[ $rc -eq 0 ] && has Makefile 'SHMEM := yes' || fail "--enable-shmem=yes: $out"
run --help
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--enable-pshm-sysv' || fail "--help: rc=$rc: $out"
echo "ok: --enable-pshm-file, --disable-pshm --enable-debug, --without-mpi, --help"

# --- GASNet's spellings of the backend, and --enable-X=yes|no
# backend_is EXPECTED ARGS...: configure succeeds and chose EXPECTED.
backend_is() {
  want=$1
  shift
  run "$@"
  if [ $rc -ne 0 ]; then
    fail "./configure $*: expected the $want backend, got rc=$rc: $out"
  elif ! grep -q "^#define PSHM_BACKEND_NAME \"$want\"$" config.h; then
    fail "./configure $*: expected the $want backend, config.h says $(grep BACKEND_NAME config.h)"
  else
    echo "ok: ./configure $* -> $want"
  fi
}
# (--without-mpi: the MPI probe is the slowest, and not what is tested here.)
backend_is posix --enable-pshm --without-mpi
backend_is none --disable-pshm --without-mpi
backend_is sysv --enable-pshm --disable-pshm-posix --enable-pshm-sysv --without-mpi
backend_is file --enable-pshm --disable-pshm-posix --enable-pshm-file --without-mpi
# The default build has no -Werror (the Makefile of the last run).
has Makefile 'WERROR := ' && hasnt Makefile 'WERROR := -Werror' ||
  fail "the default build must not use -Werror: $(grep -n Werror Makefile)"
backend_is sysv --enable-pshm=yes --enable-pshm-posix=no --enable-pshm-sysv=yes \
  --enable-debug=yes --enable-werror=yes --without-mpi
has config.h '#define PSHM_DEBUG 1'
has Makefile 'WERROR := -Werror'
printf '%s\n' "$out" | grep -q -- '-Werror' || fail "the --enable-werror summary lacks -Werror: $out"
expect_error "contradict" --disable-pshm --enable-pshm
expect_error "contradict" --enable-pshm --disable-pshm
expect_error "contradict" --enable-pshm=yes --enable-pshm=no
expect_error "contradict" --enable-pshm-sysv --disable-pshm-sysv
expect_error "leaves no shared-memory backend" --disable-pshm-posix
expect_error "expected --enable-pshm=yes or --enable-pshm=no" --enable-pshm=maybe
expect_error "takes no value" --disable-pshm=yes
expect_error "--enable-pshm-file" --disable-pshm-posix --enable-pshm-sysv --enable-pshm-file

# --- MPI: a "wrapper" that writes no program is refused
expect_error "/bin/true" --with-mpi=/bin/true
expect_error "$(command -v true)" MPICC=true --with-mpi

echo "ok: -Werror by --enable-werror only"

# --- cross-compiling runs nothing it builds. The compiler here is a wrapper
# whose programs, if run, leave a mark and fail.
cat >"$work/xcc" <<EOF
#!/bin/sh
out=""; prev=""
for a; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
${CC:-cc} "\$@" || exit \$?
[ -n "\$out" ] || exit 0
printf '#!/bin/sh\\ntouch $work/ran\\nexit 1\\n' >"\$out"
chmod +x "\$out"
EOF
chmod +x "$work/xcc"
rm -f "$work/ran"
run CC="$work/xcc" --host=aarch64-linux-gnu --build=x86_64-linux-gnu --without-mpi
if [ $rc -ne 0 ]; then
  fail "cross-compiling: configure failed: $out"
elif [ -e "$work/ran" ]; then
  fail "cross-compiling: configure ran a program it built"
else
  has config.h '#define PSHM_CACHE_LINE 64'
  printf '%s\n' "$out" | grep -q 'cache-line size.*cross-compiling' ||
    fail "cross-compiling: the cache-line result does not say it was not probed: $out"
  echo "ok: cross-compiling runs nothing, the cache line is the documented 64"
fi
run CC="$work/xcc" --host=aarch64-linux-gnu --build=x86_64-linux-gnu --without-mpi --with-cache-line=128
[ $rc -eq 0 ] && [ ! -e "$work/ran" ] && has config.h '#define PSHM_CACHE_LINE 128' ||
  fail "--with-cache-line=128 when cross-compiling: rc=$rc: $out"
expect_error "--with-cache-line=48" --with-cache-line=48
expect_error "--host" CC="$work/xcc" --without-mpi

if [ $failures -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all configure checks passed"
exit 0
