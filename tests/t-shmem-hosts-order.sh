#!/bin/bash
# t-shmem-hosts-order - shmem_fence toward PEs of other supernodes: data
# puts (statics, heap, nbi, 48 KiB) then a fence then a flag (put, atomic
# set, atomic add): the data is there when wait_until sees the flag; the
# acknowledgements are atomic increments waited for with wait_until
# (tests/shmem/hosts_order.c), in each layout of tests/shmem/split.sh.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/hosts_order" &&
        expect_out "^hosts_order: .* between every pair of $PES PEs"
}
per_layout run
finish
