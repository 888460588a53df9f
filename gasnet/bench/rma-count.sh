#!/bin/sh
# rma-count.sh: instructions per call of the GASNet layer's small puts and
# gets (8 bytes) on node 0 under callgrind, node 1 at full speed: gasnet.h's
# inline forms (what a client compiles) beside the library's functions.
#
#   gasnet/bench/rma-count.sh [--calls N]
#
# Environment: PSHM_BUILD (the build tree, default the one holding this script).
set -eu

calls=100000
while [ $# -gt 0 ]; do
    case $1 in
    --calls)
        case ${2-} in
        [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9] | [1-9][0-9][0-9][0-9][0-9] | \
            [1-9][0-9][0-9][0-9][0-9][0-9]) calls=$2 ;;
        *) echo "rma-count.sh: --calls needs an integer in 1..999999, got '${2-}'" >&2; exit 2 ;;
        esac
        shift 2 ;;
    -h | --help) sed -n 's/^# \{0,1\}//; 2,6p' "$0"; exit 0 ;;
    *) echo "rma-count.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
top=${PSHM_BUILD:-$(cd "$here/../.." && pwd)}
if ! command -v valgrind >/dev/null 2>&1; then
    echo "# GASNet RMA instruction counts left out: valgrind is not installed (apt-get install -y valgrind)"
    exit 0
fi
mak=$top/gasnet/include/smp-conduit/smp-seq.mak
[ -f "$mak" ] && [ -f "$top/libgasnet-smp-seq.a" ] ||
    { echo "rma-count.sh: $mak or libgasnet-smp-seq.a is missing: build the tree first" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rma-count.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# Built as a client builds: the fragment's compiler and flags.
cat >"$work/Makefile" <<EOF2
include $mak
all: inline functions
inline: $here/rma-count.c
	\$(GASNET_CC) \$(GASNET_CPPFLAGS) \$(GASNET_CFLAGS) -o \$@ \$< \$(GASNET_LDFLAGS) \$(GASNET_LIBS)
functions: $here/rma-count.c
	\$(GASNET_CC) \$(GASNET_CPPFLAGS) \$(GASNET_CFLAGS) -DRMA_COUNT_FUNCTIONS -o \$@ \$< \$(GASNET_LDFLAGS) \$(GASNET_LIBS)
EOF2
make -s -C "$work" all
cat >"$work/cg.sh" <<EOF2
#!/bin/sh
case \${PSHM_RANK:-0} in
0) exec valgrind -q --tool=callgrind --collect-atstart=no --toggle-collect='rma_*' \\
     --callgrind-out-file="$work/cg.\$(basename "\$1")" "\$@" 2>"$work/cg.err" ;;
*) exec "\$@" ;;
esac
EOF2
chmod +x "$work/cg.sh"
for b in inline functions; do
    if ! "$top/tools/pshmrun" -n 2 "$work/cg.sh" "$work/$b" "$calls" >"$work/out" 2>"$work/err"; then
        echo "rma-count.sh: the callgrind run of $b failed" >&2
        cat "$work/err" "$work/cg.err" >&2 2>/dev/null
        exit 1
    fi
done
echo "instructions per call on node 0 (callgrind, $calls calls of 8 bytes)"
printf '%-28s %8s %10s\n' form inline function
for f in put get put_nbi put_val get_val get_nb; do
    row=""
    for b in inline functions; do
        ir=$(callgrind_annotate --inclusive=yes "$work/cg.$b" 2>/dev/null |
            awk -v f="rma_$f" '$0 ~ ":"f"[ .]" { gsub(",", "", $1); print $1; exit }')
        row="$row $(awk -v ir="${ir:-0}" -v n="$calls" 'BEGIN { printf "%.1f", ir / n }')"
    done
    case $f in
    get_nb) name="gasnet_get_nb + wait_syncnb" ;;
    *) name="gasnet_$f" ;;
    esac
    # shellcheck disable=SC2086
    printf '%-28s %8s %10s\n' "$name" $row
done
