#!/bin/bash
# t-shmem-rma - every put and get form on every RMA type, heap and statics,
# element by element (tests/shmem/rma.c), on 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
for n in $PES; do
    job 0 "$n" "$B/tests/shmem/rma"
done
finish
