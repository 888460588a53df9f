#!/bin/bash
# t-shmem-errors - misuse is a message naming the call and the argument,
# then a non-zero exit of the whole job; shmem_global_exit's status; a PE
# killed while the others wait ends the job; zero-length calls with NULL
# are allowed; a program without shmem_finalize ends cleanly (atexit); PEs
# on another host are refused at init.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/errors
for n in $PES; do
    job 1 "$n" "$P" before-init && expect_err "shmem: shmem_int_p: called before shmem_init"
    job 1 "$n" "$P" pe-range && expect_err "shmem: shmem_int_p: PE $n is out of range: this job has $n PEs"
    job 1 "$n" "$P" not-symmetric && expect_err "is not symmetric"
    SHMEM_DEBUG=1 job 1 "$n" "$P" null && expect_err "shmem: shmem_putmem: source is NULL with 4"
    job 1 "$n" "$P" bad-cmp && expect_err "shmem: shmem_long_wait_until: cmp 42 is not a comparison"
    job 1 "$n" "$P" bad-free && expect_err "shmem: shmem_free:"
    job 1 "$n" "$P" overflow && expect_err "shmem: shmem_long_put: nelems $(( (1 << 62) - 1 )) of 8 bytes each is more than the address space"
    job 1 "$n" "$P" iput-span && expect_err "shmem: shmem_int_iput: the range at"
    job 1 "$n" "$P" range && expect_err "shmem: shmem_putmem: the range at"
    SHMEM_DEBUG=1 job 0 "$n" "$P" zero-length
    job 7 "$n" "$P" global-exit 7
    job 3 "$n" "$P" global-exit 3
    job 0 "$n" "$P" no-finalize
    job 0 "$n" "$B/tests/shmem/tutorial"
    if [ "$n" -gt 1 ]; then
        # Killed (137), or a survivor's report of the death (1) first.
        job nz "$n" "$P" die && expect_err "rank $((n - 1))"
    fi
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
