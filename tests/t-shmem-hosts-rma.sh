#!/bin/bash
# t-shmem-hosts-rma - puts and gets between every pair of PEs in one job, so
# that each PE uses both paths at once: every RMA type; contiguous, p/g,
# strided and nbi forms; putmem/getmem; heap and statics; element by element
# (tests/shmem/hosts_rma.c), in each layout of tests/shmem/split.sh.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/hosts_rma" &&
        expect_out "^hosts_rma: every form and type between every pair of $PES PEs"
}
per_layout run
finish
