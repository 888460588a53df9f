#!/bin/bash
# t-shmem-split-coll-sync-turns - t-shmem-coll-sync-turns's program with the
# PEs split into supernodes under mpirun (tests/shmem/split.sh): each
# supernode's members signal through pSync around the leaders' messages.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
per_layout coll_run coll_sync_turns
finish
