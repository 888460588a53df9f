#!/bin/bash
# t-smallstore - tests that need a lot of shared memory adapt to the store
# they find, or skip with the reason (77), never fail: t-crossmap and
# t-limits run with a 256 MiB tmpfs as the temporary directory (and as
# /dev/shm), in a private mount namespace. Needs root.
B=${PSHM_BUILD:-.}
if [ "$(id -u)" != 0 ] || ! unshare --mount --propagation private true 2>/dev/null; then
    echo "skip: needs root and unshare --mount"; exit 77
fi
for t in t-crossmap t-limits; do
    [ -x "$B/tests/$t" ] || { echo "FAIL: $B/tests/$t is not built"; exit 1; }
done
d=$(mktemp -d "${TMPDIR:-/tmp}/t-smallstore.XXXXXX") || exit 1
trap 'rmdir "$d"' EXIT
unshare --mount --propagation private bash -s "$B" "$d" <<'INNER'
B=$1 d=$2
mount -t tmpfs -o size=256m,mode=1777 pshm-small /dev/shm || exit 1
mount -t tmpfs -o size=256m,mode=0700 pshm-small "$d" || exit 1
export TMPDIR=$d GASNET_TMPDIR=$d
fails=0
for t in t-crossmap t-limits; do
    out=$(cd "$B" && PSHM_BUILD=$B timeout -k 5 300 "tests/$t" 2>&1)
    rc=$?
    case $rc in
    0) echo "ok: $t passed with a 256 MiB store" ;;
    77) echo "ok: $t skipped with a 256 MiB store: $(echo "$out" | grep -v '^$' | tail -n 1)" ;;
    *) echo "FAIL: $t exited $rc with a 256 MiB store:"; echo "$out" | tail -n 20 | sed 's/^/    /'
       fails=$((fails + 1)) ;;
    esac
    echo "$out" | grep -i "store allows\|^skip" | sed 's/^/    /'
done
exit $((fails > 0))
INNER
