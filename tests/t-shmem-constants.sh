#!/bin/bash
# t-shmem-constants - the library constants of OpenSHMEM 1.6, teams aside:
# types and values checked at compile time, the version and vendor string
# at run time (tests/shmem/constants.c).
. "$(dirname "$0")/shmem/driver.sh"
job 0 "${PES%% *}" "$B/tests/shmem/constants" &&
    expect_out "^constants: OpenSHMEM 1.6, every 1.6 constant (teams aside) checked"
finish
