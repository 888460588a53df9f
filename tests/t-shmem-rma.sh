#!/bin/bash
# t-shmem-rma - every put and get form on every RMA type, heap and statics,
# element by element (tests/shmem/rma.c), and through communication
# contexts (tests/shmem/ctx.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/rma"
    job 0 "$n" "$B/tests/shmem/ctx"
done
# The debug checks (SHMEM_DEBUG) refuse nothing that is right.
SHMEM_DEBUG=1 job 0 "${PES##* }" "$B/tests/shmem/rma"
SHMEM_DEBUG=1 job 0 "${PES##* }" "$B/tests/shmem/ctx"
job 1 1 "$B/tests/shmem/ctx" bad-options && expect_err "shmem: shmem_ctx_create: options 0x100000: unknown bits"
finish
