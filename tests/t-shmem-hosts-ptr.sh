#!/bin/bash
# t-shmem-hosts-ptr - shmem_ptr is a pointer for the PEs of the caller's
# supernode and NULL for the others, heap and statics, and the pointer is
# the peer's memory; every PE stays accessible (tests/shmem/hosts_ptr.c),
# in each layout of tests/shmem/split.sh.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/hosts_ptr" && ok "[$SPLIT_NAME] $(grep "^hosts_ptr:" "$T/out")"
}
per_layout run
finish
