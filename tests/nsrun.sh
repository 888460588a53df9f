#!/bin/bash
#
# nsrun.sh - runs one test inside private IPC and mount namespaces (started by
# runtests.sh as `unshare --ipc --mount --propagation private nsrun.sh ...`).
#
#   nsrun.sh REPORT TIMEOUT TMPDIR COMMAND...
#
# Inside, /dev/shm and TMPDIR are fresh tmpfs mounts and the SysV namespace is
# empty, so every object the test makes is its own and nobody else's object
# is ever seen, judged or removed: make check passes beside other jobs. After
# the test, the objects still lying there are written to REPORT (one line
# each) before the namespaces, and with them the objects, go away.
set -u
report=$1 timeout_s=$2 tdir=$3
shift 3

# A tmpfs needs no size: it takes only what is written, up to half of RAM
# (tests that need a small store mount their own).
mount -t tmpfs -o mode=1777 pshm-test-shm /dev/shm || exit 125
mount -t tmpfs -o mode=0700 pshm-test-tmp "$tdir" || exit 125
export TMPDIR=$tdir
[ -n "${GASNET_TMPDIR:-}" ] && export GASNET_TMPDIR=$tdir

timeout -k 5 "$timeout_s" "$@" </dev/null
rc=$?

# Everything here is the test's: any pshm-named object, any SysV segment.
{
  for f in /dev/shm/pshm* "$tdir"/pshm*; do
    { [ -e "$f" ] || [ -L "$f" ]; } && ls -ld "$f"
  done
  [ -r /proc/sysvipc/shm ] &&
    awk 'NR > 1 { printf "SysV segment shmid %s key 0x%08x, %s bytes, creator pid %s, %s attached\n", $2, $1, $4, $5, $7 }' /proc/sysvipc/shm
} >"$report" 2>/dev/null
exit $rc
