#!/bin/bash
# t-shmem-init-multi - 1.6's repeated initialization and finalization
# (tests/shmem/init_multi.c): three initializations, two finalizes that are
# barriers and a last that ends the library, shmem_query_initialized at
# each step, then the library initialized again and used, on 2, 3, 4 and 8
# PEs; a program that leaves a finalize out is ended by its exit.
. "$(dirname "$0")/shmem/driver.sh"
P=$B/tests/shmem/init_multi
for n in $PES; do
    job 0 "$n" "$P" && expect_out "^init_multi: 3 initializations, 3 finalizes (2 of them barriers), then again, on $n PEs"
done
job 0 "${PES%% *}" "$P" forget && expect_out "^init_multi: one finalize missing, left to the exit"
finish
