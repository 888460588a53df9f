#!/bin/bash
#
# t-manpages.sh - the documentation covers what is built:
#   - every function libpshm.so exports (and libpshm_mpi.a's pshm_*, when
#     built) has docs/man/<name>.3, and that page (after following a .so
#     link) names the function;
#   - every tool tools/pshm* that was built has docs/man/<tool>.1;
#   - an alias page is a symbolic link to the page that documents it, never
#     a ".so" stub (man -l cannot follow one outside a man tree);
#   - every page renders without a warning with "man -l PATH" run from
#     outside docs/man, and so does its installed copy, when man is installed;
#   - every variable of pshm_env_vars[] (base/env.c), every name read with
#     getenv("...") by the library, every GASNET_* or PSHM_* name read by the
#     tools, and every "GASNET_*" or "PSHM_*" string of the library sources
#     is documented in README.PSHM.
# Fails with the list of what is missing.

set -u
top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
man_dir=docs/man
missing=()
miss() { missing+=("$*"); }

# ------------------------------------------------------------ functions

if [ ! -e libpshm.so ]; then
  echo "FAIL: $top/libpshm.so is not built (run make first)"
  exit 1
fi
if ! command -v nm >/dev/null 2>&1; then
  echo "SKIP: nm (binutils) is not installed"
  exit 77
fi
funcs=$(nm -D --defined-only libpshm.so | awk '$2 == "T" { print $3 }' | sed 's/@.*//' | sort -u)
if [ -e libpshm_mpi.a ]; then
  funcs="$funcs
$(nm --defined-only libpshm_mpi.a 2>/dev/null | awk '$2 == "T" && $3 ~ /^pshm_/ { print $3 }' | sort -u)"
fi
nfuncs=$(printf '%s\n' "$funcs" | grep -c .)
if [ "$nfuncs" -lt 10 ]; then
  echo "FAIL: libpshm.so exports only $nfuncs functions; expected the pshm.h API"
  exit 1
fi

# The file a page leads to once its symbolic link (if any) is followed.
resolve() {
  if [ -L "$1" ]; then
    printf '%s/%s\n' "$(dirname "$1")" "$(readlink "$1")"
  else
    printf '%s\n' "$1"
  fi
}

for fn in $funcs; do
  page=$man_dir/$fn.3
  if [ ! -f "$page" ]; then
    miss "man page $page for exported function $fn"
    continue
  fi
  real=$(resolve "$page")
  if [ ! -f "$real" ]; then
    miss "$page links to $real, which does not exist"
  elif ! grep -q "$fn" "$real"; then
    miss "$real (the page of $fn) does not mention $fn"
  fi
done

# ---------------------------------------------------------------- tools

ntools=0
for t in tools/pshm*; do
  case $t in *.c|*.o|*.d) continue ;; esac
  [ -f "$t" ] && [ -x "$t" ] || continue
  ntools=$((ntools + 1))
  name=$(basename "$t")
  [ -f "$man_dir/$name.1" ] || miss "man page $man_dir/$name.1 for tool $t"
done

# ------------------------------------------------------------ rendering

for f in "$man_dir"/*.[0-9]; do
  [ -e "$f" ] || [ -L "$f" ] || continue
  real=$(resolve "$f")
  if [ ! -f "$real" ]; then
    miss "$f links to $real, which does not exist"
  elif [ -L "$real" ]; then
    miss "$f links to $real, itself a link: link to the page"
  fi
  grep -q '^\.so' "$f" 2>/dev/null &&
    miss "$f is a .so stub, which man -l cannot follow: make it a symbolic link to the page"
done

# render PAGE WHAT: man -l of PAGE, run from / (outside any man tree), is
# silent and shows the page's NAME section.
render() {
  local warn rc
  warn=$(cd / && LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$1" 2>&1 >"$work/page")
  rc=$?
  if [ $rc -ne 0 ] || [ -n "$warn" ]; then
    miss "$2 renders with warnings (status $rc): $(printf '%s' "$warn" | head -n 3 | tr '\n' ' ')"
  elif ! grep -q '^NAME' "$work/page"; then
    miss "$2 renders without a NAME section"
  fi
}

rendered=0
if command -v man >/dev/null 2>&1; then
  work=$(mktemp -d) || exit 1
  trap 'rm -rf "$work"' EXIT
  trap 'exit 1' INT TERM HUP
  for f in "$man_dir"/*.[0-9]; do
    [ -f "$f" ] || continue
    render "$top/$f" "$f"
    rendered=$((rendered + 1))
  done
  # As installed: every page, aliases too, renders where it lands.
  if make -s install-man DESTDIR="$work/root" mandir=/man >"$work/install.log" 2>&1; then
    # The aliases (links here) are the pages that could go wrong there.
    for f in "$work"/root/man/man*/*; do
      [ -L "$man_dir/${f##*/}" ] || continue
      grep -q '^\.so' "$f" && miss "installed ${f##*/} is a .so stub"
      render "$f" "installed ${f#"$work"/root/}"
    done
    n=$(ls "$work"/root/man/man*/ | grep -c '\.[0-9]$')
    [ "$n" -eq "$(ls "$man_dir" | grep -c '\.[0-9]$')" ] ||
      miss "make install-man installed $n pages, docs/man has $(ls "$man_dir" | grep -c '\.[0-9]$')"
  else
    miss "make install-man failed: $(tail -n 3 "$work/install.log")"
  fi
else
  echo "note: man is not installed; pages were not render-checked (install man-db groff-base)"
fi

# ---------------------------------------------------------- environment

readme=README.PSHM
srcs=$(ls common/*.[ch] base/*.[ch] pshm/*.c pshm/*.h nodemap/*.c amqueue/*.c segment/*.c 2>/dev/null)
tool_srcs=$(ls tools/*.c tools/util/*.c 2>/dev/null)
# Table entries: lines such as {"GASNET_MAX_SEGSIZE", "0.85/h", ...
vars=$(sed -n 's/^[[:space:]]*{[[:space:]]*"\([A-Z][A-Z0-9_]*\)".*/\1/p' base/env.c)
if [ -z "$vars" ]; then
  miss "no variable found in pshm_env_vars[] of base/env.c (has its layout changed?)"
fi
# The tools' own variables count; what they read for the system (PATH,
# HOME, ...) does not.
vars="$vars
$(cat $srcs | grep -o 'getenv("[A-Za-z_][A-Za-z0-9_]*")' | sed 's/getenv("\(.*\)")/\1/')
$(cat $tool_srcs | grep -o 'getenv("\(GASNET\|PSHM\)_[A-Z0-9_]*")' | sed 's/getenv("\(.*\)")/\1/')
$(cat $srcs | grep -o '"\(GASNET\|PSHM\)_[A-Z0-9_]*"' | tr -d '"')"
vars=$(printf '%s\n' "$vars" | grep . | sort -u)
nvars=$(printf '%s\n' "$vars" | grep -c .)
if [ ! -f "$readme" ]; then
  miss "$readme (the user's manual)"
else
  for v in $vars; do
    grep -qw -- "$v" "$readme" || miss "environment variable $v in $readme"
  done
fi

# --------------------------------------------------------------- result

echo "checked $nfuncs exported functions, $ntools tools, $rendered rendered pages, $nvars environment variables"
if [ ${#missing[@]} -gt 0 ]; then
  echo "FAIL: ${#missing[@]} missing:"
  printf '  %s\n' "${missing[@]}"
  exit 1
fi
echo "PASS"
exit 0
