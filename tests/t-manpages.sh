#!/bin/bash
#
# t-manpages.sh - the documentation covers what is built:
#   - every function libpshm.so exports (and libpshm_mpi.a's pshm_*, when
#     built) has docs/man/<name>.3, and that page (after following a .so
#     link) names the function;
#   - every OpenSHMEM routine the built shmem.h and shmemx.h declare has
#     docs/man/<name>.3, whose page names it in NAME or SYNOPSIS (as
#     shmem_TYPENAME_put names shmem_int_put when the page lists int);
#   - every tool tools/pshm* that was built has docs/man/<tool>.1;
#   - an alias page is a symbolic link, in docs/man, to the page that
#     documents it, never a ".so" stub (man -l cannot follow one outside a
#     man tree); make install-man installs it as the same link;
#   - every page renders without a warning with "man -l PATH" run from
#     outside docs/man, and so does each installed page through an installed
#     link to it, when man is installed;
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

# ------------------------------------------------------ OpenSHMEM routines

# Every routine the installed shmem.h and shmemx.h declare (SHMEM_API_ ...
# name(...)) or define as a C11 generic form (#define shmem_name(...)) has
# docs/man/<name>.3, a page or a link to one, whose NAME or SYNOPSIS names
# it: literally, or as a form with placeholders (shmem_TYPENAME_put,
# shmem_putSIZE, shmem_TYPENAME_OP_reduce) whose every placeholder the
# section fills with one of its own words (the type table, "8, 16, 32"...).
shmem_hdrs="shmem/include/shmem.h shmem/include/shmemx.h"
nshmem=0
if [ -f shmem/include/shmem.h ] && [ -f shmem/include/shmemx.h ]; then
  work_s=$(mktemp -d) || exit 1
  # One declaration a line: join, then split at each ';'.
  cat $shmem_hdrs | tr '\n' ' ' | tr ';' '\n' | grep -o 'SHMEM_API_[^(]*(' |
    sed 's/[[:space:]]*($//; s/.*[^A-Za-z0-9_]//' >"$work_s/names"
  grep -ho '^#define shmemx\{0,1\}_[a-z0-9_]*(' $shmem_hdrs | sed 's/^#define //; s/($//' >>"$work_s/names"
  sort -u "$work_s/names" | grep -v '^__' >"$work_s/sorted"
  nshmem=$(grep -c . "$work_s/sorted")
  [ "$nshmem" -ge 1000 ] ||
    miss "shmem.h and shmemx.h declare only $nshmem routines; expected the OpenSHMEM 1.6 API (has their layout changed?)"
  # "name page" for each routine, the page its docs/man/name.3 leads to
  # (links whose page is missing are named below, with the others).
  find "$man_dir" -maxdepth 1 -name '*.3' -printf '%f %l\n' |
    awk -v list="$work_s/sorted" '
      FILENAME != list { n = $1; sub(/\.3$/, "", n); to[n] = ($2 == "") ? $1 : $2; next }
      !($1 in to) { print "- " $1; next }
      { print $1, to[$1] }' - "$work_s/sorted" >"$work_s/all"
  while read -r fn page; do
    [ "$fn" = - ] && miss "man page $man_dir/$page.3 for OpenSHMEM routine $page"
  done <"$work_s/all"
  grep -v '^- ' "$work_s/all" | while read -r fn page; do
    [ -f "$man_dir/$page" ] && printf '%s %s\n' "$fn" "$page"
  done >"$work_s/pairs"
  pages=$(cut -d' ' -f2 "$work_s/pairs" | sort -u | sed "s|^|$man_dir/|")
  # shellcheck disable=SC2086
  unnamed=$(awk -v pairs="$work_s/pairs" '
    # The text of a roff line: the font macros joined as they print.
    function text(line,   m, rest, out, arg, n, i, sep) {
      if (line ~ /^\.(B|I|BI|IB|BR|RB|IR|RI)([ \t]|$)/) {
        m = line; sub(/[ \t].*/, "", m)
        rest = substr(line, length(m) + 1)
        sep = (m == ".B" || m == ".I") ? " " : ""
        out = ""; n = 0
        while (rest != "") {
          sub(/^[ \t]+/, "", rest)
          if (rest == "") break
          if (substr(rest, 1, 1) == "\"") {
            rest = substr(rest, 2); i = index(rest, "\"")
            if (i == 0) i = length(rest) + 1
            arg = substr(rest, 1, i - 1); rest = substr(rest, i + 1)
          } else {
            i = match(rest, /[ \t]/)
            if (i == 0) { arg = rest; rest = "" }
            else { arg = substr(rest, 1, i - 1); rest = substr(rest, i) }
          }
          out = out (n++ ? sep : "") arg
        }
        line = out
      } else if (line ~ /^[.\047]/)
        return ""
      gsub(/\\f[BIRP]/, "", line); gsub(/\\-/, "-", line); gsub(/\\&/, "", line)
      return line
    }
    FILENAME != pairs && FNR == 1 { page = FILENAME; sub(/.*\//, "", page); keep = 0 }
    FILENAME != pairs && /^\.SH/ { keep = ($0 ~ /^\.SH[ \t]+"?(NAME|SYNOPSIS)/); next }
    FILENAME != pairs && keep { body[page] = body[page] " " text($0); next }
    FILENAME == pairs && FNR == 1 { for (p in body) forms(p) }
    FILENAME == pairs { if (!((($2, $1) in named))) print $1 " (" $2 ")" }
    # named[page, name]: every name the page gives, placeholders filled.
    function forms(p,   n, t, nt, tok, i, j, k, w, nw, pre, pat, np, parts, a, b) {
      t = body[p]
      # "int8 .. int64" is int8, int16, int32 and int64.
      while (match(t, /[a-z]*8 \.\. [a-z]*64/)) {
        pre = substr(t, RSTART, RLENGTH); sub(/8 .*/, "", pre)
        t = substr(t, 1, RSTART - 1) " " pre "8 " pre "16 " pre "32 " pre "64 " substr(t, RSTART + RLENGTH)
      }
      nt = split(t, tok, /[^A-Za-z0-9_]+/)
      nw = 0; np = 0
      for (i = 1; i <= nt; i++) {
        if (tok[i] == "") continue
        if (tok[i] ~ /TYPENAME|TYPE|SIZE|OP/) {
          pat = tok[i]; gsub(/TYPENAME|TYPE|SIZE|OP/, "\001", pat); pats[++np] = pat
        } else {
          named[p, tok[i]] = 1
          if (tok[i] ~ /^[a-z0-9]+$/ && !((p, "w", tok[i]) in seen)) { seen[p, "w", tok[i]] = 1; words[++nw] = tok[i] }
        }
      }
      for (k = 1; k <= np; k++) {
        n = split(pats[k], parts, "\001")
        if (n == 2) {
          for (a = 1; a <= nw; a++) named[p, parts[1] words[a] parts[2]] = 1
        } else if (n == 3) {
          for (a = 1; a <= nw; a++)
            for (b = 1; b <= nw; b++)
              named[p, parts[1] words[a] parts[2] words[b] parts[3]] = 1
        }
      }
    }' $pages "$work_s/pairs")
  if [ -n "$unnamed" ]; then
    while read -r u; do
      miss "the page of OpenSHMEM routine $u does not name it in NAME or SYNOPSIS"
    done <<EOF
$unnamed
EOF
  fi
  rm -rf "$work_s"
else
  echo "note: the OpenSHMEM layer is not built (configure --disable-shmem?); its pages were not checked"
fi

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

# Some 2000 links: read with one find, checked without a process each.
links=$(find "$man_dir" -maxdepth 1 -type l -name '*.[0-9]' -printf '%f %l\n')
while read -r f to; do
  [ -n "$f" ] || continue
  case $to in
  */*) miss "$man_dir/$f links to $to: link to a page of the same directory, by its name" ;;
  *) if [ ! -f "$man_dir/$to" ]; then
       miss "$man_dir/$f links to $to, which does not exist"
     elif [ -L "$man_dir/$to" ]; then
       miss "$man_dir/$f links to $to, itself a link: link to the page"
     fi ;;
  esac
done <<EOF
$links
EOF
while read -r f; do
  [ -n "$f" ] && miss "$f is a .so stub, which man -l cannot follow: make it a symbolic link to the page"
done <<EOF
$(find "$man_dir" -maxdepth 1 -type f -name '*.[0-9]' -exec grep -l '^\.so' {} +)
EOF

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
  # The pages themselves; a link shows what its page shows (checked above).
  for f in "$man_dir"/*.[0-9]; do
    [ -f "$f" ] && [ ! -L "$f" ] || continue
    render "$top/$f" "$f"
    rendered=$((rendered + 1))
  done
  # As installed: each page a copy of its source, each alias the same link
  # to it, and each page renders where it lands through one of its links.
  if make -s install-man DESTDIR="$work/root" mandir=/man >"$work/install.log" 2>&1; then
    inst=$(find "$work"/root/man/man* -mindepth 1 -maxdepth 1 -type l -printf '%f %l\n' | sort)
    [ "$inst" = "$(printf '%s\n' "$links" | sort)" ] ||
      miss "the installed links are not those of $man_dir: $(diff <(printf '%s\n' "$links" | sort) <(printf '%s\n' "$inst") | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
    for f in "$work"/root/man/man*/*; do
      [ -L "$f" ] && continue
      cmp -s "$f" "$man_dir/${f##*/}" || miss "installed ${f#"$work"/root/} is not a copy of $man_dir/${f##*/}"
    done
    while read -r f to; do
      [ -n "$f" ] && [ ! -e "$work/shown.$to" ] || continue
      : >"$work/shown.$to"
      g=$(ls -d "$work"/root/man/man*/"$f")
      if [ ! -f "$g" ] || [ -L "${g%/*}/$to" ]; then
        miss "installed ${g#"$work"/root/} links to $to, which is not an installed page"
      else
        render "$g" "installed ${g#"$work"/root/}"
      fi
    done <<EOF
$inst
EOF
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

echo "checked $nfuncs exported functions, $nshmem OpenSHMEM routines, $ntools tools, $rendered rendered pages, $nvars environment variables"
if [ ${#missing[@]} -gt 0 ]; then
  echo "FAIL: ${#missing[@]} missing:"
  printf '  %s\n' "${missing[@]}"
  exit 1
fi
echo "PASS"
exit 0
