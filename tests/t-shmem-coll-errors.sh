#!/bin/bash
# t-shmem-coll-errors.sh - a misused collective or lock ends the job with a
# non-zero status and a message naming the call and the bad value; a PE that
# dies while the others wait in a barrier, a reduction or a lock ends the job
# instead of leaving them waiting (tests/shmem/coll_errors.c).
. "$(dirname "$0")/shmem/driver.sh"

P=${PES%% *} # 2, or 1 without shared memory

# expect N MODE TEXT: the job fails with TEXT on stderr, and no PE went on.
expect() {
  job nz "$1" "$B/tests/shmem/coll_errors" "$2" || return
  expect_err "$3"
  if grep -q "returned" "$T/out"; then
    bad "$2: a PE went on after the error:"
    sed 's/^/    /' "$T/out" | head -5
  fi
}

expect "$P" stride "shmem: shmem_barrier: logPE_stride is -1"
expect "$P" size "shmem: shmem_sync: PE_size is 0"
expect "$P" range "shmem: shmem_barrier: the active set (PE_start 0, logPE_stride 0, PE_size $((P + 1))) ends at PE $P"
[ "$P" -gt 1 ] &&
  expect "$P" member "shmem: shmem_long_sum_to_all: PE 0 is not in the active set (PE_start 1, logPE_stride 0, PE_size $((P - 1)))"
expect "$P" root "shmem: shmem_broadcast64: PE_root is $P"
expect "$P" psync "shmem: shmem_barrier:"
expect "$P" nreduce "shmem: shmem_long_max_to_all: nreduce is -1"
expect "$P" overlap "shmem: shmem_fcollect64: dest"
expect "$P" strides "shmem: shmem_alltoalls64: dst is 0"
expect "$P" clear "does not hold the lock"
expect "$P" relock "shmem: shmem_set_lock: PE 0 already holds the lock"
expect "$P" retest "shmem: shmem_test_lock: PE 0 already holds the lock"
for n in $PES; do
  [ "$n" = 3 ] && continue
  for m in die-barrier die-reduce die-lock; do
    job nz "$n" "$B/tests/shmem/coll_errors" "$m"
  done
done
finish
