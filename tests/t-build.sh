#!/bin/sh
#
# t-build.sh - what `make install` delivers: the files in DESTDIR, a shared
# library exporting exactly the functions of pshm.h, a program built against
# the installed header and pkg-config file, and an uninstall that removes
# everything it installed.

top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
[ -f Makefile ] || { echo "not configured: run ./configure first"; exit 77; }
d=$(mktemp -d "${TMPDIR:-/tmp}/insttest.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
trap 'exit 1' INT TERM HUP

failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

if ! make -s install DESTDIR="$d/root" prefix=/usr >"$d/install.log" 2>&1; then
  echo "FAIL: make install DESTDIR=$d/root prefix=/usr:"
  cat "$d/install.log"
  exit 1
fi
r=$d/root/usr
for f in include/pshm.h lib/libpshm.a lib/libpshm.so.0.1.0 lib/libpshm.so.0 lib/libpshm.so \
  lib/pkgconfig/pshm.pc; do
  [ -e "$r/$f" ] || fail "make install did not install $f"
done
for t in tools/pshm*; do
  case $t in *.c|*.o|*.d) continue ;; esac
  [ -x "$t" ] && { [ -x "$r/bin/${t#tools/}" ] || fail "make install did not install ${t#tools/}"; }
done
for m in docs/man/*.1 docs/man/*.3; do
  [ -f "$m" ] || continue
  s=${m##*.}
  [ -f "$r/share/man/man$s/${m##*/}" ] || fail "make install did not install the man page ${m##*/}"
done
grep -q '^prefix=/usr$' "$r/lib/pkgconfig/pshm.pc" || fail "pshm.pc does not say prefix=/usr: $(cat "$r/lib/pkgconfig/pshm.pc")"
grep -q '@' "$r/lib/pkgconfig/pshm.pc" && fail "pshm.pc has unsubstituted @words@: $(cat "$r/lib/pkgconfig/pshm.pc")"
if [ -e libpshm_mpi.a ]; then
  for f in include/pshm_mpi.h lib/libpshm_mpi.a lib/pkgconfig/pshm_mpi.pc; do
    [ -e "$r/$f" ] || fail "make install did not install $f (built with MPI)"
  done
  grep -q '@' "$r/lib/pkgconfig/pshm_mpi.pc" && fail "pshm_mpi.pc has unsubstituted @words@: $(cat "$r/lib/pkgconfig/pshm_mpi.pc")"
  if command -v pkg-config >/dev/null 2>&1; then
    got=$(env PKG_CONFIG_PATH=$r/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$d/root pkg-config --libs pshm_mpi) ||
      fail "pkg-config cannot read the installed pshm_mpi.pc"
    case $got in *-lpshm_mpi*-lpshm*) echo "ok: pkg-config --libs pshm_mpi: $got" ;;
    *) fail "pkg-config --libs pshm_mpi: $got" ;; esac
  fi
fi
echo "ok: make install put the headers, libraries, pshm.pc, tools and man pages in DESTDIR"

# The shared library exports the functions declared PSHM_API in pshm.h, and
# nothing else.
sed -n 's/^PSHM_API[^(]*[ *]\(pshm_[a-z0-9_]*\)(.*/\1/p' pshm/pshm.h | sort -u >"$d/api"
nm -D --defined-only "$r/lib/libpshm.so.0.1.0" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' |
  sort -u >"$d/exported"
extra=$(comm -13 "$d/api" "$d/exported")
[ -z "$extra" ] || fail "libpshm.so exports symbols that pshm.h does not declare: $extra"
[ -s "$d/api" ] || fail "found no PSHM_API function in pshm/pshm.h"
missing=$(comm -23 "$d/api" "$d/exported")
[ -z "$missing" ] || fail "declared in pshm.h but not defined in libpshm.so: $(echo $missing)"
soname=$(readelf -d "$r/lib/libpshm.so.0.1.0" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = libpshm.so.0 ] || fail "SONAME is '$soname', expected libpshm.so.0"
echo "ok: libpshm.so exports $(wc -l <"$d/exported") symbols, all declared in pshm.h; SONAME $soname"

# A program built against what was installed, shared and static.
cat >"$d/hello.c" <<'EOF'
#include <pshm.h>
#include <stdio.h>
int main(void) { printf("%s\n", pshm_version()); return 0; }
EOF
backend=$(sed -n 's/^#define PSHM_BACKEND_NAME "\(.*\)"/\1/p' config.h)
cc=$(sed -n 's/^CC := //p' Makefile)
pc="env PKG_CONFIG_PATH=$r/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$d/root pkg-config"
if command -v pkg-config >/dev/null 2>&1; then
  cflags=$($pc --cflags pshm) && libs=$($pc --libs pshm) && slibs=$($pc --libs --static pshm) ||
    fail "pkg-config cannot read the installed pshm.pc"
else
  cflags="-I$r/include" libs="-L$r/lib -lpshm" slibs="$libs -lpthread"
fi
if $cc -std=c11 -Wall -Werror $cflags -o "$d/hello" "$d/hello.c" $libs 2>"$d/cc.log"; then
  out=$(LD_LIBRARY_PATH=$r/lib "$d/hello")
  case $out in
  *"$backend"*) echo "ok: a program linked with the installed libpshm.so prints: $out" ;;
  *) fail "pshm_version() gave '$out', expected the $backend backend" ;;
  esac
else
  fail "cannot build against the installed header and library: $(cat "$d/cc.log")"
fi
# Only the private libraries: -lpshm would pick the shared one.
slibs=$(printf '%s\n' "$slibs" | sed 's/-L[^ ]*//g; s/-lpshm\( \|$\)/ /g')
if $cc -std=c11 -Wall -Werror $cflags -o "$d/hello-static" "$d/hello.c" "$r/lib/libpshm.a" $slibs 2>"$d/cc.log"; then
  if readelf -d "$d/hello-static" | grep -q 'NEEDED.*libpshm'; then
    fail "the program linked with libpshm.a needs libpshm.so"
  fi
  "$d/hello-static" >/dev/null || fail "the program linked with libpshm.a fails"
else
  fail "cannot link against the installed libpshm.a: $(cat "$d/cc.log")"
fi

if ! make -s uninstall DESTDIR="$d/root" prefix=/usr >"$d/uninstall.log" 2>&1; then
  fail "make uninstall: $(cat "$d/uninstall.log")"
fi
left=$(find "$d/root" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "ok: make uninstall removed every installed file"

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "all install checks passed"
