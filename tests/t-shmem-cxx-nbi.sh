#!/bin/bash
# t-shmem-cxx-nbi - the C++ overloads of the generic forms 1.5 and 1.6 add
# (nonblocking fetching atomics, ibput/ibget, signal updates with a
# context): tests/shmem/cxx_nbi.cpp builds with oshc++ warning-free and its
# results are checked at every PE count.
. "$(dirname "$0")/shmem/driver.sh"

if ! grep -q '^CXX := .' "$B/Makefile"; then
    echo "SKIP: configured without a C++ compiler (no oshc++)"
    exit 77
fi
if "$B/shmem/oshc++" -Wall -Wextra -Werror -o "$T/cxx_nbi" "$B/tests/shmem/cxx_nbi.cpp" 2>"$T/cc.err"; then
    ok "oshc++ builds cxx_nbi.cpp"
else
    bad "oshc++ failed: $(head -5 "$T/cc.err")"
    finish
fi
for n in $PES; do
    job 0 "$n" "$T/cxx_nbi" && expect_out "cxx_nbi: $n PEs ok"
done
finish
