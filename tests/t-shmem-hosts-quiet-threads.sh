#!/bin/bash
# t-shmem-hosts-quiet-threads - shmem_quiet from two threads of a PE toward
# a PE of another supernode: the second quiet returns only after the first
# has completed the operation (put_nbi, atomic add) both were ordered after,
# the first held inside its completion by the layer's test hook
# (tests/shmem/quiet_threads.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
split_layout 2:hosts=2 || finish
for op in put add; do
    job 0 2 "$B/tests/shmem/quiet_threads" "$op" &&
        expect_out "^quiet_threads: $op: the second quiet returned after the first completed"
done
finish
