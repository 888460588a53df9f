#!/bin/bash
# t-shmem-hosts-ptr - shmem_ptr is a pointer for the PEs of the caller's
# supernode and NULL for the others, heap and statics, and the pointer is
# the peer's memory; every PE stays accessible (tests/shmem/hosts_ptr.c),
# in each layout of tests/shmem/split.sh.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
alone=no
grep -q "define PSHM_BACKEND_NONE 1" "$B/config.h" && alone=yes
run() {
    local how=${SPLIT_NAME#*, } k
    case $alone:$how in
    yes:*) set -- alone ;;
    no:hosts=*) k=${how#hosts=}; set -- hosts "$k" ;;
    no:maxsize=1) set -- maxsize 1 ;;
    *) bad "[$SPLIT_NAME] no rule for which PEs share memory in this layout"; return ;;
    esac
    job 0 "$PES" "$B/tests/shmem/hosts_ptr" "$@" && ok "[$SPLIT_NAME] $(grep "^hosts_ptr:" "$T/out")"
}
per_layout run
finish
