#!/bin/bash
# t-store-words - a store too small for the queues and the segments asked:
# the message names the request, the store's free space and how to enlarge
# it, besides lowering the queues (with a 1 MiB /dev/shm and temporary
# directory in a private mount namespace, and 8 MiB segments asked). Needs
# root.
B=${PSHM_BUILD:-.}
if [ "$(id -u)" != 0 ] || ! unshare --mount --propagation private true 2>/dev/null; then
    echo "skip: needs root and unshare --mount"; exit 77
fi
if ! grep -q "define PSHM_BACKEND_POSIX 1\|define PSHM_BACKEND_FILE 1" "$B/config.h" 2>/dev/null; then
    echo "skip: the store is a tmpfs only for the posix and file backends"; exit 77
fi
d=$(mktemp -d "${TMPDIR:-/tmp}/t-store-words.XXXXXX") || exit 1
trap 'rmdir "$d"' EXIT
unshare --mount --propagation private bash -s "$B" "$d" <<'INNER'
B=$1 d=$2
mount -t tmpfs -o size=1m,mode=1777 pshm-small /dev/shm || exit 1
mount -t tmpfs -o size=1m,mode=0700 pshm-small "$d" || exit 1
export TMPDIR=$d GASNET_TMPDIR=$d
out=$(timeout -k 5 60 "$B/tools/pshmrun" -n 2 "$B/tools/pshm-pingpong" --quick --segsize 8M 2>&1)
rc=$?
fails=0
want() {
    if printf '%s\n' "$out" | grep -qF -- "$1"; then echo "ok: says: $1"
    else echo "FAIL: the message lacks '$1':"; printf '%s\n' "$out" | sed 's/^/    /'; fails=$((fails + 1)); fi
}
[ $rc = 1 ] && echo "ok: the job failed (1)" || { echo "FAIL: exited $rc, expected 1"; fails=$((fails + 1)); }
want "each asked for a segment of 8.0 MiB"
want "free)"
want "or lower the queues (GASNET_PSHMNET_QUEUE_DEPTH="
case $(sed -n 's/^#define PSHM_BACKEND_NAME "\(.*\)"/\1/p' "$B/config.h") in
posix) want "enlarge it beyond its 1.0 MiB by what is short" ;;
file) want "free space in GASNET_TMPDIR ($d)" ;;
esac
exit $((fails > 0))
INNER
