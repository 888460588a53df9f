#!/bin/bash
# t-shmem-init-once - a failure at shmem_init that every PE meets alike (a
# heap that cannot be created, PEs on another host or supernode, a build
# without shared memory) is told once, by PE 0, not once per PE; the job
# ends with status 1 and oshrun names PE 0 as the one that ended it.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/tutorial

. "$(dirname "$0")/shmem/errors_cases.sh"

# once N TEXT: told once (told_once), and oshrun blames PE 0 in its words.
once() {
    told_once "$1" "$2"
    grep -q "PE 0 (pid [0-9]*) stopped in shmem_init at the error told above" "$T/err" &&
        ok "$1 PEs: oshrun names PE 0" || bad "$1 PEs: oshrun does not name PE 0: $(cat "$T/err")"
}

if [ "$PES" = 1 ]; then
    for n in 2 4 8; do
        job 1 "$n" "$P" && once "$n" "pshm was built without shared memory"
    done
    finish
fi
for n in $PES; do
    SHMEM_SYMMETRIC_SIZE=1T job 1 "$n" "$P" && once "$n" "asks for a symmetric heap of"
    job 1 "$n" --hosts 2 "$P" && once "$n" "is on another host"
    GASNET_SUPERNODE_MAXSIZE=1 job 1 "$n" "$P" && once "$n" "the host is split into supernodes"
done
finish
