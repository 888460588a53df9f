#!/bin/bash
#
# t-layers.sh - every dependency of the library runs one way (docs/HACKING.md,
# "Layers"), and the tools and the other clients use only the public API:
#
#   rank -1 common/                       libc only; compiled into the library
#                                         and, apart, into the tools
#   rank 0  base/                         errors, environment, context, waits
#   rank 1  nodemap/ segment/ amqueue/    the modules: each on the base only
#   rank 2  pshm/                         the driver: init, attach, queries
#
# A file may include, and an object may call, only its own folder or a folder
# of a lower rank ("up" and "sideways" edges fail), seen two ways:
#   - #include "..." lines of every .c and .h, resolved as the compiler does
#     (the file's folder, then -I. then -Ipshm);
#   - the undefined symbols of every object (nm -u) against the folder whose
#     object defines them.
# The interface headers pshm/pshm.h, pshm/launch.h, pshm/mpi/pshm_mpi.h (the
# installed header of the MPI bootstrap) and config.h may be included
# anywhere. The clients (tools/, tools/util/, shmem/, gasnet/, pshm/mpi/)
# include only those and their own folders (the tools also common/, which
# they compile for themselves), and call only what libpshm.so exports.
#
# Also checks the checker: a made-up tree with one edge of each wrong kind
# must fail on each.

set -u
top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
if ! command -v nm >/dev/null 2>&1; then
  echo "SKIP: nm (binutils) is not installed"
  exit 77
fi

# The layer of a file (a path from the top), or "" if not the library's.
layer_of() {
  case $1 in
    pshm/pshm.h|pshm/launch.h|pshm/mpi/pshm_mpi.h|config.h) echo iface ;;
    pshm/mpi/*) echo mpi ;;
    common/*) echo common ;;
    base/*) echo base ;;
    nodemap/*) echo nodemap ;;
    segment/*) echo segment ;;
    amqueue/*) echo amqueue ;;
    pshm/*) echo pshm ;;
    tools/util/*) echo toolutil ;;
    tools/*) echo tools ;;
    shmem/*) echo shmem ;;
    gasnet/*) echo gasnet ;;
    *) echo "" ;;
  esac
}
rank_of() {
  case $1 in
    common) echo -1 ;;
    base) echo 0 ;;
    nodemap|segment|amqueue) echo 1 ;;
    pshm) echo 2 ;;
    *) echo "" ;;
  esac
}

# May a file of layer $1 use layer $2? (The symbol check passes "lib" for
# anything libpshm.so exports: clients may use that.)
allowed() {
  local from=$1 to=$2 rf rt
  [ "$from" = "$to" ] && return 0
  [ "$to" = iface ] && return 0
  [ "$from" = common ] && return 1    # libc only
  case $from in
    tools) [ "$to" = toolutil ] || [ "$to" = lib ]; return ;;
    toolutil|shmem|gasnet|mpi) [ "$to" = lib ]; return ;;
  esac
  rf=$(rank_of "$from")
  rt=$(rank_of "$to")
  [ -n "$rf" ] && [ -n "$rt" ] && [ "$rt" -lt "$rf" ]
}

# May a client of layer $1 include a header of layer $2?
client_include_ok() {
  [ "$2" = iface ] || [ "$2" = "$1" ] && return 0
  case $1/$2 in
    tools/toolutil|tools/common|toolutil/common) return 0 ;;
  esac
  return 1
}

# check_tree DIR: prints one line per wrong edge; the sources and objects
# under DIR (a build tree), libpshm.so there for the exports.
check_tree() {
  local root=$1 f dir inc target from to
  (
    cd "$root" || exit 1
    srcs=$(ls common/*.[ch] base/*.[ch] nodemap/*.[ch] segment/*.[ch] amqueue/*.[ch] pshm/*.[ch] \
              pshm/mpi/*.[ch] tools/*.c tools/util/*.[ch] shmem/*.[ch] gasnet/*.[ch] 2>/dev/null)
    # ---- includes
    for f in $srcs; do
      from=$(layer_of "$f")
      [ "$from" = iface ] && continue
      dir=${f%/*}
      sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
      while read -r inc; do
        target=""
        for cand in "$dir/$inc" "$inc" "pshm/$inc" "shmem/$inc" "pshm/mpi/$inc"; do
          if [ -e "$cand" ]; then target=$cand; break; fi
        done
        [ -n "$target" ] || continue    # generated elsewhere, or a system header
        target=$(realpath --relative-to=. "$target")
        to=$(layer_of "$target")
        [ -n "$to" ] || continue
        case $from in
          shmem|gasnet|mpi|tools|toolutil)
            client_include_ok "$from" "$to" ||
              echo "include: $f ($from) includes $target ($to): only the public headers"
            continue ;;
        esac
        allowed "$from" "$to" || echo "include: $f ($from) includes $target ($to): an edge up or sideways"
      done
    done
    # ---- symbols: who defines what, among the library's objects (an object
    # counts only if its source is still there: no stale object of a moved file)
    defs=$(mktemp) && exps=$(mktemp) && own=$(mktemp) || exit 1
    for o in common/*.o base/*.o nodemap/*.o segment/*.o amqueue/*.o pshm/*.o; do
      [ -e "$o" ] && [ -e "${o%.o}.c" ] || continue
      nm -g --defined-only "$o" | awk -v o="$o" 'NF == 3 { print $3, o }'
    done | sort -u >"$defs"
    # What the tools compile for themselves (tools/util/common_*.o, built
    # from common/): theirs to call.
    for o in tools/util/*.o; do
      [ -e "$o" ] && nm -g --defined-only "$o" | awk 'NF == 3 { print $3 }'
    done | sort -u >"$own"
    if [ -e libpshm.so ]; then
      nm -D --defined-only libpshm.so | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$exps"
    fi
    for o in common/*.o base/*.o nodemap/*.o segment/*.o amqueue/*.o pshm/*.o pshm/mpi/*.o \
             tools/*.o tools/util/*.o shmem/*.o gasnet/*.o; do
      [ -e "$o" ] && [ -e "${o%.o}.c" ] || continue
      from=$(layer_of "$o")
      # A client's weak reference links either way (pshm_mpi.c reaches
      # pshm_err so, only when linked with the static library).
      nm -u "$o" | awk -v c="$from" '!(c ~ /^(tools|toolutil|shmem|gasnet|mpi)$/ && $1 == "w") { print $NF }' |
        sort -u | join - "$defs" |
      while read -r sym def; do
        to=$(layer_of "$def")
        case $from in
          tools|toolutil)
            grep -qx -- "$sym" "$exps" || grep -qx -- "$sym" "$own" ||
              echo "symbol: $o ($from) calls $sym of $def, which libpshm.so does not export" ;;
          shmem|gasnet|mpi)
            grep -qx -- "$sym" "$exps" ||
              echo "symbol: $o ($from) calls $sym of $def, which libpshm.so does not export" ;;
          *)
            allowed "$from" "$to" || echo "symbol: $o ($from) calls $sym of $def ($to): an edge up or sideways" ;;
        esac
      done
    done
    rm -f "$defs" "$exps" "$own"
  )
}

fail=0

# ---- the checker itself, on a made-up tree: each wrong edge is seen
fake=$(mktemp -d) || exit 1
trap 'rm -rf "$fake"' EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$fake"/{base,nodemap,segment,amqueue,pshm,tools/util,shmem}
cat >"$fake/pshm/pshm.h" <<'EOF'
int pshm_public(void);
EOF
cat >"$fake/pshm/internal.h" <<'EOF'
int drv_call(void);
EOF
printf '#include "pshm.h"\nint pshm_public(void) { return 0; }\n__attribute__((visibility("hidden"))) int drv_call(void) { return 1; }\n' >"$fake/pshm/drv.c"
printf '#include "internal.h"\nint base_up(void) { return drv_call(); }\n' >"$fake/base/up.c"
printf 'int seg_side(void);\nint amq_side(void) { return seg_side(); }\n' >"$fake/amqueue/side.c"
printf '#include "segment/x.h"\nint seg_side(void) { return 2; }\n' >"$fake/segment/x.c"
printf 'int seg_side(void);\n' >"$fake/segment/x.h"
printf '#include "segment/x.h"\n' >"$fake/nodemap/inc.h"
printf '#include "internal.h"\nint main(void) { return drv_call() + pshm_public(); }\n' >"$fake/tools/pshm-x.c"
okf=1
for f in base/up pshm/drv amqueue/side segment/x tools/pshm-x; do
  cc -fPIC -fvisibility=hidden -I"$fake" -I"$fake/pshm" -c -o "$fake/$f.o" "$fake/$f.c" 2>/dev/null || okf=0
done
sed -i 's/__attribute__((visibility("hidden"))) //; s/int pshm_public/__attribute__((visibility("default"))) int pshm_public/' "$fake/pshm/drv.c"
cc -shared -fPIC -fvisibility=hidden -I"$fake/pshm" -o "$fake/libpshm.so" "$fake/pshm/drv.c" 2>/dev/null || okf=0
if [ $okf = 0 ]; then
  echo "SKIP: cannot compile the checker's own test tree with cc"
  exit 77
fi
out=$(check_tree "$fake")
for want in "include: base/up.c (base) includes pshm/internal.h (pshm)" \
            "include: nodemap/inc.h (nodemap) includes segment/x.h (segment)" \
            "include: tools/pshm-x.c (tools) includes pshm/internal.h (pshm)" \
            "symbol: base/up.o (base) calls drv_call of pshm/drv.o (pshm)" \
            "symbol: amqueue/side.o (amqueue) calls seg_side of segment/x.o (segment)" \
            "symbol: tools/pshm-x.o (tools) calls drv_call of pshm/drv.o, which libpshm.so does not export"; do
  if ! grep -qF -- "$want" <<<"$out"; then
    echo "FAIL: the checker missed: $want"
    echo "  it found:"; sed 's/^/    /' <<<"$out"
    fail=1
  fi
done
if grep -q 'pshm_public' <<<"$out"; then
  echo "FAIL: the checker flagged an exported call: $(grep pshm_public <<<"$out")"
  fail=1
fi
[ $fail = 0 ] && echo "ok: the checker finds an include and a call up, sideways, and a tool's hidden call"

# ---- the real tree
if [ ! -e libpshm.so ]; then
  echo "FAIL: $top is not built (run make first)"
  exit 1
fi
out=$(check_tree .)
if [ -n "$out" ]; then
  echo "FAIL: edges against the layering (docs/HACKING.md, \"Layers\"):"
  sed 's/^/  /' <<<"$out"
  fail=1
else
  echo "ok: every include and call runs down the layers; the clients use only pshm.h and what libpshm.so exports"
fi
exit $fail
