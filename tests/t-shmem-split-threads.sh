#!/bin/bash
# t-shmem-split-threads - t-shmem-threads's program (SHMEM_THREAD_MULTIPLE:
# atomics and waits from four threads per PE) with the PEs split into
# supernodes under mpirun (tests/shmem/split.sh).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() { job 0 "$PES" "$B/tests/shmem/threads"; }
per_layout run
finish
