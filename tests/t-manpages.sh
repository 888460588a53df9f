#!/bin/bash
#
# t-manpages.sh - the documentation covers what is built:
#   - every function libpshm.so exports (and libpshm_mpi.a's pshm_*, when
#     built) has docs/man/<name>.3, and that page (after following a .so
#     link) names the function;
#   - every tool tools/pshm* that was built has docs/man/<tool>.1;
#   - every page renders without a warning (man --warnings), when man is
#     installed; every .so link leads to an existing page in any case;
#   - every variable of pshm_env_vars[] (pshm/env.c), every name read with
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

# The file a page leads to once its ".so man3/x.3" link (if any) is followed.
resolve() {
  local f=$1 target
  target=$(sed -n '1s/^\.so[[:space:]]\{1,\}//p' "$f")
  if [ -n "$target" ]; then
    printf '%s/%s\n' "$man_dir" "$(basename "$target")"
  else
    printf '%s\n' "$f"
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
  [ -f "$f" ] || continue
  real=$(resolve "$f")
  [ -f "$real" ] || miss "$f links to $real, which does not exist"
done

rendered=0
if command -v man >/dev/null 2>&1; then
  # .so links name man3/<page>: render from a directory where that resolves.
  work=$(mktemp -d) || exit 1
  trap 'rm -rf "$work"' EXIT
  ln -s "$top/$man_dir" "$work/man1"
  ln -s "$top/$man_dir" "$work/man3"
  for f in "$man_dir"/*.[0-9]; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    sec=man${name##*.}
    [ -e "$work/$sec" ] || ln -s "$top/$man_dir" "$work/$sec"
    warn=$(cd "$work" && LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$sec/$name" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -ne 0 ] || [ -n "$warn" ]; then
      miss "$f renders with warnings (status $rc): $(printf '%s' "$warn" | head -n 3 | tr '\n' ' ')"
    fi
    rendered=$((rendered + 1))
  done
else
  echo "note: man is not installed; pages were not render-checked (install man-db groff-base)"
fi

# ---------------------------------------------------------- environment

readme=README.PSHM
srcs=$(ls pshm/*.c pshm/*.h nodemap/*.c amqueue/*.c segment/*.c 2>/dev/null)
tool_srcs=$(ls tools/*.c tools/util/*.c 2>/dev/null)
# Table entries: lines such as {"GASNET_MAX_SEGSIZE", "0.85/h", ...
vars=$(sed -n 's/^[[:space:]]*{[[:space:]]*"\([A-Z][A-Z0-9_]*\)".*/\1/p' pshm/env.c)
if [ -z "$vars" ]; then
  miss "no variable found in pshm_env_vars[] of pshm/env.c (has its layout changed?)"
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
