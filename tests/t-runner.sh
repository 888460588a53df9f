#!/bin/bash
#
# t-runner.sh - the test runner judges only its own tests' objects: objects
# another program makes while a test runs are neither blamed on the test nor
# removed, and a test's own leftovers (POSIX, temporary directory, SysV) and
# left-over processes still fail it. A runner stopped mid-test ends the test
# and leaves nothing in its temporary directory.
set -u
top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1
command -v unshare >/dev/null && command -v ipcmk >/dev/null || { echo "SKIP: needs unshare and ipcmk (util-linux)"; exit 77; }
unshare --ipc --mount --propagation private sh -c 'mount -t tmpfs p /dev/shm' 2>/dev/null ||
  { echo "SKIP: cannot make private namespaces here (not root?)"; exit 77; }

T=$(mktemp -d "${TMPDIR:-/tmp}/t-runner.XXXXXX") || exit 1
foreign=/dev/shm/pshm.t-runner-foreign.$$
shmid=""
cleanup() {
  rm -rf "$T" "$foreign"
  [ -n "$shmid" ] && ipcrm -m "$shmid" 2>/dev/null
  rm -f tests/logs/runner-probe-*.log
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
fail=0
bad() { echo "FAIL: $*"; fail=1; }

probe() { # NAME BODY: a test script outside tests/
  printf '#!/bin/bash\n%s\n' "$2" >"$T/runner-probe-$1.sh"
  chmod +x "$T/runner-probe-$1.sh"
}
probe quiet 'sleep 2; exit 0'
probe leak-posix ': > /dev/shm/pshm.leak; exit 0'
probe leak-tmp ': > "$TMPDIR/pshm.leak"; exit 0'
probe leak-sysv 'ipcmk -M 4096 >/dev/null; exit 0'
probe process 'sleep 60 & exit 0'
probe slow 'sleep 30; exit 0'

# 1. Another program's objects appear while a test runs.
PSHM_TEST_TIMEOUT=30 bash tests/runtests.sh "$T/runner-probe-quiet.sh" >"$T/quiet.out" 2>&1 &
pid=$!
sleep 0.5
: >"$foreign"
shmid=$(ipcmk -M 4096 | awk '{ print $NF }')
wait $pid
out=$(cat "$T/quiet.out")
echo "$out"
echo "$out" | grep -q '^PASS runner-probe-quiet.sh' || bad "a test was blamed for another program's objects"
[ -e "$foreign" ] || bad "the runner removed another program's file $foreign"
ipcs -m -i "$shmid" >/dev/null 2>&1 || bad "the runner removed another program's SysV segment $shmid"

# 2. A test's own leftovers and processes fail it.
for p in leak-posix leak-tmp leak-sysv process; do
  out=$(PSHM_TEST_TIMEOUT=30 bash tests/runtests.sh "$T/runner-probe-$p.sh" 2>&1)
  echo "$out"
  case $p in
  process) want='left processes running' ;;
  *) want='left shared-memory objects behind' ;;
  esac
  echo "$out" | grep -q "^FAIL runner-probe-$p.sh.*$want" || bad "$p: expected FAIL ... $want"
  echo "$out" | tail -n 1 | grep -qx '0 passed, 1 failed, 0 skipped' || bad "$p: wrong summary"
done
[ -e /dev/shm/pshm.leak ] && bad "a test's leftover escaped its namespace"

# 3. A runner stopped (TERM) while a test runs ends the test and leaves
# nothing in its temporary directory (the test's own, made per test).
mkdir "$T/tmp"
env -u GASNET_TMPDIR TMPDIR="$T/tmp" PSHM_TEST_TIMEOUT=60 bash tests/runtests.sh \
  "$T/runner-probe-slow.sh" >"$T/int.out" 2>&1 &
pid=$!
for _ in $(seq 100); do
  ls "$T/tmp" | grep -q '^runtests\.' && break
  sleep 0.1
done
ls "$T/tmp" | grep -q '^runtests\.' || bad "the runner made no temporary directory for its test"
kill -TERM "$pid"
wait "$pid"
rc=$?
cat "$T/int.out"
[ "$rc" = 130 ] || bad "a stopped runner exited with $rc, not 130"
grep -q '^runtests: interrupted' "$T/int.out" || bad "a stopped runner did not say so"
for _ in $(seq 50); do
  pgrep -f "$T/runner-probe-slow.sh" >/dev/null || break
  sleep 0.1
done
pgrep -f "$T/runner-probe-slow.sh" >/dev/null && bad "the stopped runner's test still runs"
left=$(ls -A "$T/tmp")
[ -z "$left" ] || bad "a stopped runner left $left in its temporary directory"

[ $fail = 0 ] && echo "ok: foreign objects untouched, own leftovers and processes caught, a stopped runner cleans up"
exit $fail
