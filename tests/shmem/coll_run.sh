# coll_run.sh - sourced by tests/t-shmem-coll*.sh and t-shmem-lock*.sh.
#   coll_run PROGRAM [ARGS...]  runs tests/shmem/PROGRAM under the build
#   tree's oshrun with 2, 3, 4 and 8 PEs; each run must exit 0 and print
#   "with N PEs: passed". Sets `failed` to 1 on a failure.

top=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
oshrun=$top/shmem/oshrun
failed=0
if [ ! -x "$oshrun" ]; then
  echo "SKIP: $oshrun is not built (configure --disable-shmem?)"
  exit 77
fi

coll_run() {
  local prog=$1 out rc n
  shift
  for n in 2 3 4 8; do
    out=$("$oshrun" -n "$n" --timeout 100 "$top/tests/shmem/$prog" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | tail -n 25
    if [ "$rc" -ne 0 ]; then
      echo "FAIL: $prog $* with $n PEs exited with status $rc"
      failed=1
    elif ! printf '%s\n' "$out" | grep -q "with $n PEs: passed"; then
      echo "FAIL: $prog $* with $n PEs did not say it passed"
      failed=1
    fi
  done
}
