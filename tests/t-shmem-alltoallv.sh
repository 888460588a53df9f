#!/bin/bash
# t-shmem-alltoallv - shmemx_alltoallv and shmemx_team_alltoallv
# (tests/shmem/alltoallv.c: active sets and teams, every element checked)
# on 1, 2, 3, 4 and 8 PEs; a source range past the heap and an empty
# active set end the job with the call's message.
. "$(dirname "$0")/shmem/driver.sh"
for n in 1 $PES; do
    job 0 "$n" "$B/tests/shmem/alltoallv" && expect_out "^alltoallv: $n PEs: .* every element as sent"
done
n=${PES##* }
if [ "$n" -gt 1 ]; then
    job 1 2 "$B/tests/shmem/alltoallv" badoffset &&
        expect_err "shmem: shmemx_alltoallv: the range at 0x"
fi
job 1 "$n" "$B/tests/shmem/alltoallv" badset && expect_err "shmem: shmemx_alltoallv: PE_size is 0"
finish
