#!/bin/bash
# t-shmem-coll-errors.sh - a misused collective or lock ends the job with a
# non-zero status and a message naming the call and the bad value; a PE that
# dies while the others wait in a barrier, a reduction or a lock ends the job
# instead of leaving them waiting (tests/shmem/coll_errors.c).
. "$(dirname "$0")/shmem/coll_run.sh"

expect() { # PES MODE TEXT
  local out rc
  out=$("$oshrun" -n "$1" --timeout 60 "$top/tests/shmem/coll_errors" "$2" 2>&1)
  rc=$?
  if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
    echo "FAIL: $2 with $1 PEs: exit status $rc, expected a failure"
    failed=1
  elif ! printf '%s\n' "$out" | grep -qF -- "$3"; then
    echo "FAIL: $2 with $1 PEs: no line with '$3' in:"
    printf '%s\n' "$out" | head -n 10
    failed=1
  elif printf '%s\n' "$out" | grep -q "returned"; then
    echo "FAIL: $2 with $1 PEs: a PE went on after the error:"
    printf '%s\n' "$out" | head -n 10
    failed=1
  else
    echo "ok: $2 with $1 PEs: status $rc, '$3'"
  fi
}

expect 2 stride "shmem: shmem_barrier: logPE_stride is -1"
expect 3 size "shmem: shmem_sync: PE_size is 0"
expect 2 range "shmem: shmem_barrier: the active set (PE_start 0, logPE_stride 0, PE_size 3) ends at PE 2"
expect 2 member "shmem: shmem_long_sum_to_all: PE 0 is not in the active set (PE_start 1, logPE_stride 0, PE_size 1)"
expect 2 root "shmem: shmem_broadcast64: PE_root is 2"
expect 2 psync "shmem: shmem_barrier:"
expect 2 nreduce "shmem: shmem_long_max_to_all: nreduce is -1"
expect 2 overlap "shmem: shmem_fcollect64: dest"
expect 2 strides "shmem: shmem_alltoalls64: dst is 0"
expect 2 clear "does not hold the lock"
expect 2 relock "shmem: shmem_set_lock: PE 0 already holds the lock"
expect 2 retest "shmem: shmem_test_lock: PE 0 already holds the lock"
for n in 2 4; do
  expect $n die-barrier "exited with status 5"
  expect $n die-reduce "exited with status 5"
done
expect 3 die-lock "exited with status 5"
exit $failed
