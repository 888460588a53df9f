#!/bin/bash
# t-shmem-cxx-nbi - the C++ overloads of the generic forms 1.5 and 1.6 add
# (nonblocking fetching atomics, ibput/ibget, signal updates with a
# context): tests/shmem/cxx_nbi.cpp builds with oshc++ warning-free and its
# results are checked at every PE count.
. "$(dirname "$0")/shmem/driver.sh"

cxx_build cxx_nbi
for n in $PES; do
    job 0 "$n" "$T/cxx_nbi" && expect_out "cxx_nbi: $n PEs ok"
done
finish
