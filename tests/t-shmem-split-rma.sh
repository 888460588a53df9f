#!/bin/bash
# t-shmem-split-rma - t-shmem-rma's programs (every put and get form, heap and
# statics, element by element; communication contexts) with the PEs split
# into supernodes under mpirun (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/rma"
    job 0 "$PES" "$B/tests/shmem/ctx"
}
per_layout run
# The debug checks refuse nothing that is right on either path.
split_layout "${SPLIT_LAYOUTS%% *}" && {
    SHMEM_DEBUG=1 job 0 "$PES" "$B/tests/shmem/rma"
    SHMEM_DEBUG=1 job 0 "$PES" "$B/tests/shmem/ctx"
}
finish
