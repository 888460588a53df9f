#!/bin/bash
# t-shmem-tcoll-scan.sh - the team sum inscan and exscan on every type,
# on WORLD, SHARED and strided, reversed and list teams, every element
# checked (tests/shmem/tcoll_scan.c).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/coll_run.sh"
coll_run tcoll_scan
finish
