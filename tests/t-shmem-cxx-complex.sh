#!/bin/bash
# t-shmem-cxx-complex - shmem.h declares the complex reductions and scans
# for C++ too (g++ and clang++ take C's _Complex): tests/shmem/cxx_complex.cpp
# builds with oshc++ warning-free and its results are checked at every PE
# count; shmem.h and pshmem.h compile as C++ under -pedantic -Werror with
# each C++ compiler there is.
. "$(dirname "$0")/shmem/driver.sh"

cxx_build cxx_complex
for n in $PES; do
    job 0 "$n" "$T/cxx_complex" && expect_out "cxx_complex: $n PEs ok"
done
printf '#include <pshmem.h>\nint main() { auto f = &shmem_complexd_sum_reduce; auto g = &pshmem_complexf_prod_reduce; return !(f && g); }\n' >"$T/p.cpp"
for cxx in g++ clang++; do
    command -v $cxx >/dev/null 2>&1 || continue
    $cxx -std=c++11 -pedantic -Wall -Wextra -Werror -I"$B/shmem" -c -o "$T/p.o" "$T/p.cpp" 2>"$T/cc.err" &&
        ok "shmem.h and pshmem.h: $cxx -pedantic quiet" || bad "$cxx -pedantic: $(head -5 "$T/cc.err")"
done
finish
