#!/bin/bash
# t-shmem-split-errors - t-shmem-errors's and t-shmem-init-once's cases with
# the PEs split into supernodes under mpirun (tests/shmem/split.sh): misuse
# is the same message and the same status whichever path the target PE is
# on (a put of a stack address to a PE of another supernode is refused
# before it leaves), shmem_global_exit's status, zero-length calls, the
# atexit finalize, the tutorial program, a PE killed while the others wait;
# a heap that cannot be created is told once, by PE 0.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/errors_cases.sh"
# Every case in the first layout; a failure every PE meets at init in the
# last too (supernodes of one).
split_layout "${SPLIT_LAYOUTS%% *}" && errors_cases "$PES"
run() {
    SHMEM_SYMMETRIC_SIZE=1T job 1 "$PES" "$B/tests/shmem/tutorial" &&
        told_once "[$SPLIT_NAME] $PES" "asks for a symmetric heap of"
}
run
split_layout "${SPLIT_LAYOUTS##* }" && run
finish
