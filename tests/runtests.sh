#!/bin/bash
#
# runtests.sh - runs the tests from the top of the build tree.
#
#   tests/runtests.sh [t-NAME ...]     (default: every tests/t-* program and
#                                       tests/t-*.sh; the MPI programs in
#                                       tests/mpi/ are driven by t-mpi.sh)
#
# Each test runs with PSHM_BUILD=<top> and a timeout (PSHM_TEST_TIMEOUT
# seconds, default 120). As root (or wherever unshare may make namespaces),
# each test runs in private IPC and mount namespaces with its own /dev/shm and
# temporary directory (tests/nsrun.sh): every shared-memory object there is
# the test's own, a test that leaves one behind fails, and no other program's
# objects are seen, judged or removed, so make check runs beside other jobs.
# Without namespaces, pshm* objects in /dev/shm and the temporary directory and
# SysV segments are listed before and after each test; new ones whose creator
# is not running elsewhere fail the test, and are left in place (they might
# be another job's).
# Full output goes to tests/logs/<name>.log. The last line is
# "N passed, N failed, N skipped"; the exit status is 1 if any test failed.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export PSHM_BUILD=$top
timeout_s=${PSHM_TEST_TIMEOUT:-120}
case $timeout_s in
''|*[!0-9]*|0) echo "runtests: PSHM_TEST_TIMEOUT must be a positive number of seconds, not '$timeout_s'" >&2; exit 2 ;;
esac
tmpdir=${GASNET_TMPDIR:-${TMPDIR:-/tmp}}
logdir=tests/logs
mkdir -p "$logdir"

# ------------------------------------------------------------------ leftovers

# One line per object: "<kind> <id>", ids stable while the object lives.
snapshot() {
  local f
  for f in /dev/shm/pshm* "$tmpdir"/pshm*; do
    # -L too: a dangling link with a pshm name is a leftover as well.
    { [ -e "$f" ] || [ -L "$f" ]; } && echo "file $f"
  done
  if [ -r /proc/sysvipc/shm ]; then
    awk 'NR > 1 { print "sysv " $2 }' /proc/sysvipc/shm
  elif command -v ipcs >/dev/null 2>&1; then
    ipcs -m 2>/dev/null | awk '$1 ~ /^0x/ { print "sysv " $2 }'
  fi
}

# Pid of an object's creator: the pid field of the pshm header (offset 24),
# or the SysV creator pid; empty if unknown.
creator() {
  case $1 in
  file) od -An -t d4 -j 24 -N 4 "$2" 2>/dev/null | tr -d ' ' ;;
  sysv) awk -v id="$2" 'NR > 1 && $2 == id { print $5 }' /proc/sysvipc/shm 2>/dev/null ;;
  esac
}

describe() {
  case $1 in
  file) ls -l "$2" 2>/dev/null || echo "$2" ;;
  sysv) awk -v id="$2" 'NR > 1 && $2 == id { printf "SysV segment shmid %s key 0x%08x, %s bytes, creator pid %s, %s attached\n", $2, $1, $4, $5, $7 }' /proc/sysvipc/shm 2>/dev/null ;;
  esac
}


# Processes still in session $1 (the test's): "pid args" lines.
survivors() {
  # Zombies are gone already (only their parent's wait is missing).
  ps -e -o pid=,sid=,stat=,args= 2>/dev/null |
    awk -v s="$1" '$2 == s && $3 !~ /^Z/ { $2 = ""; $3 = ""; print }'
}

# Objects in $2 (after) and not in $1 (before), unless their creator is
# alive outside the test's session $3 (another job on this machine).
leftovers() {
  local kind id pid
  comm -13 <(printf '%s\n' "$1" | sort) <(printf '%s\n' "$2" | sort) |
    while read -r kind id; do
      [ -n "$kind" ] || continue
      pid=$(creator "$kind" "$id")
      if [ -n "$pid" ] && [ "$pid" -gt 0 ] 2>/dev/null && kill -0 "$pid" 2>/dev/null &&
        [ "$(ps -o sid= -p "$pid" 2>/dev/null | tr -d ' ')" != "$3" ]; then
        continue
      fi
      echo "$kind $id"
    done
}

# ------------------------------------------------------------------ running

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fs", b - a }'; }

tests=()
if [ $# -gt 0 ]; then
  for a in "$@"; do
    a=${a#./}
    case $a in
    /*|tests/*) ;;
    *) a=tests/$a ;;
    esac
    if [ ! -e "$a" ] && [ -e "$a.sh" ]; then a=$a.sh; fi
    tests+=("$a")
  done
else
  for f in tests/t-*; do
    case $f in
    *.sh) tests+=("$f") ;;
    *.c|*.o|*.d|*.log) ;;
    *) [ -f "$f" ] && [ -x "$f" ] && tests+=("$f") ;;
    esac
  done
fi

# t-mpi.sh runs mpirun; Open MPI refuses root unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

setsid=""
command -v setsid >/dev/null 2>&1 && setsid=setsid

# Private namespaces when they can be made (root, or user namespaces):
# probed once with the same mounts nsrun.sh makes.
isolate=0
if [ "${PSHM_TEST_ISOLATE:-1}" != 0 ] && command -v unshare >/dev/null 2>&1 &&
  unshare --ipc --mount --propagation private \
    sh -c 'mount -t tmpfs pshm-probe /dev/shm' >/dev/null 2>&1; then
  isolate=1
fi
[ $isolate = 1 ] || echo "runtests: no private namespaces (not root?): leftovers are judged machine-wide and left in place"

sid="" tdir=""
# A stopped runner ends its test and removes the test's temporary directory.
# Every process of the test's session is told, not only its process group:
# timeout(1) in nsrun.sh runs the test in a group of its own.
stop_test() {
  local p
  [ -n "$sid" ] || return 0
  kill -TERM -- "-$sid" 2>/dev/null
  for p in $(survivors "$sid" | awk '{ print $1 }'); do kill -TERM "$p" 2>/dev/null; done
  [ -n "$tdir" ] && rm -rf "$tdir"
  return 0
}
trap 'stop_test; echo "runtests: interrupted"; exit 130' INT TERM HUP

passed=0
failed=0
skipped=0
for t in "${tests[@]}"; do
  name=$(basename "$t")
  log=$logdir/$name.log
  if [ ! -e "$t" ]; then
    echo "FAIL $name: $t does not exist (not built?)"
    failed=$((failed + 1))
    continue
  fi
  case $t in
  *.sh) if [ -x "$t" ]; then cmd=("$t"); else cmd=(sh "$t"); fi ;;
  *) cmd=("$t") ;;
  esac

  start=$(now)
  # A session of its own (no job control here, so setsid does not fork and
  # the session id is $!): processes the test leaves running are found.
  if [ $isolate = 1 ]; then
    tdir=$(mktemp -d "$tmpdir/runtests.XXXXXX") || exit 1
    report=$logdir/$name.objects
    : >"$report"
    $setsid unshare --ipc --mount --propagation private \
      tests/nsrun.sh "$report" "$timeout_s" "$tdir" "${cmd[@]}" >"$log" 2>&1 &
  else
    before=$(snapshot)
    $setsid timeout -k 5 "$timeout_s" "${cmd[@]}" </dev/null >"$log" 2>&1 &
  fi
  sid=$!
  wait $sid
  rc=$?
  end=$(now)
  took=$(elapsed "$start" "$end")
  procs=""
  [ -n "$setsid" ] && procs=$(survivors "$sid")
  if [ -n "$procs" ]; then
    # Give exiting processes a moment before calling them leftovers.
    sleep 1
    procs=$(survivors "$sid")
  fi
  if [ $isolate = 1 ]; then
    left=$(cat "$report")
    rm -f "$report"
  else
    left=$(leftovers "$before" "$(snapshot)" "$sid")
  fi

  why=""
  case $rc in
  0) result=PASS ;;
  77) result=SKIP; why=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1) ;;
  124|137)
    result=FAIL
    # 137 is also a test killed by SIGKILL before its time was up.
    if [ $rc = 124 ] || awk -v a="$start" -v b="$end" -v t="$timeout_s" 'BEGIN { exit !(b - a >= t) }'; then
      why="timed out after $timeout_s s (PSHM_TEST_TIMEOUT)"
    else
      why="killed by signal 9"
    fi ;;
  *)
    result=FAIL
    if [ $rc -gt 128 ]; then why="killed by signal $((rc - 128))"; else why="exit status $rc"; fi ;;
  esac
  if [ -n "$procs" ]; then
    [ $result = FAIL ] && why="$why; " || why=""
    result=FAIL
    why="${why}left processes running"
  fi
  if [ -n "$left" ]; then
    [ $result = FAIL ] && why="$why; " || why=""
    result=FAIL
    why="${why}left shared-memory objects behind"
  fi

  case $result in
  PASS) echo "PASS $name ($took)"; passed=$((passed + 1)) ;;
  SKIP) echo "SKIP $name${why:+: $why}"; skipped=$((skipped + 1)) ;;
  FAIL)
    echo "FAIL $name ($took): $why"
    # The test's own failure lines first (they may lie above the tail).
    grep -m 5 -E '^(FAIL|.*[^A-Za-z]FAIL[: ])' "$log" | sed 's/^/    ! /'
    tail -n 20 "$log" | sed 's/^/    | /'
    echo "    (full output: $log)"
    failed=$((failed + 1)) ;;
  esac
  if [ -n "$procs" ]; then
    while read -r pid args; do
      echo "    leftover process $pid: $args"
      kill -KILL "$pid" 2>/dev/null
    done <<<"$procs"
    { echo "runtests: processes killed after the test:"; echo "$procs"; } >>"$log"
  fi
  if [ -n "$left" ]; then
    if [ $isolate = 1 ]; then
      # They went away with the test's namespaces.
      printf '%s\n' "$left" | sed 's/^/    leftover: /'
    else
      while read -r kind id; do
        echo "    leftover (left in place): $(describe "$kind" "$id")"
      done <<<"$left"
    fi
    { echo "runtests: leftovers after the test:"; echo "$left"; } >>"$log"
  fi
  # The private temporary directory (its tmpfs went with the namespace).
  [ $isolate = 1 ] && rm -rf "$tdir"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
