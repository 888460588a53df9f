#!/bin/bash
# t-shmem-split-wait - t-shmem-wait's programs (waits woken by remote puts and
# atomics, the array forms, put with signal) with the PEs split into
# supernodes under mpirun (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    job 0 "$PES" "$B/tests/shmem/wait"
    job 0 "$PES" "$B/tests/shmem/signal"
}
per_layout run
finish
