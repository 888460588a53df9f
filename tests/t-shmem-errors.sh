#!/bin/bash
# t-shmem-errors - misuse is a message naming the call and the argument,
# then a non-zero exit of the whole job; shmem_global_exit's status; a PE
# killed while the others wait ends the job; zero-length calls with NULL
# are allowed; a program without shmem_finalize ends cleanly (atexit); PEs
# on another host are refused at init.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/errors_cases.sh"
for n in $PES; do
    errors_cases "$n"
done
# PEs on two (simulated) hosts, or one host split into supernodes: refused
# at init, with the reason.
if [ "$PES" != 1 ]; then
    job 1 2 --hosts 2 "$B/tests/shmem/tutorial" && expect_err "is on another host (the job spans 2 hosts)"
    GASNET_SUPERNODE_MAXSIZE=1 job 1 2 "$B/tests/shmem/tutorial" &&
        expect_err "the host is split into supernodes of 1 processes; unset GASNET_SUPERNODE_MAXSIZE or raise it to 2"
else
    job 1 2 "$B/tests/shmem/tutorial" && expect_err "pshm was built without shared memory (configure --disable-pshm)"
fi
finish
