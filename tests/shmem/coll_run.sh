# coll_run.sh - sourced after driver.sh by tests/t-shmem-coll*.sh and
# t-shmem-lock*.sh.
#   coll_run PROGRAM [ARGS...]  runs tests/shmem/PROGRAM on each count of
#   $PES; each job must exit 0 and its PE 0 say "with N PEs: passed".

coll_run() {
  local n
  for n in $PES; do
    job 0 "$n" "$B/tests/shmem/$@" || continue
    if grep -q "with $n PEs: passed" "$T/out"; then
      ok "$(grep "with $n PEs: passed" "$T/out")"
    else
      bad "$* with $n PEs did not say it passed; output:"
      sed 's/^/    /' "$T/out" | tail -10
    fi
  done
}
