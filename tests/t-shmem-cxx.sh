#!/bin/bash
# t-shmem-cxx - a C++ OpenSHMEM program: oshc++ (and its other names oshCC,
# oshcxx) builds tests/shmem/cxx_generic.cpp, whose generic calls resolve
# through shmem.h's overloads (every family of its C11 section: RMA, ibput/
# ibget, atomics blocking, nbi and deprecated, signals, waits and tests with
# their vector forms, the team collectives), and it runs with its results
# checked, warning-free (-Wall -Wextra -Werror); the
# header also compiles as C++ with clang++ when there is one; oshcc's
# questions to the compiler (-v, --version) need no main; -show and
# --showme:version are understood.
. "$(dirname "$0")/shmem/driver.sh"
SRC=$B/tests/shmem/cxx_generic.cpp

if ! grep -q '^CXX := .' "$B/Makefile"; then
    echo "SKIP: configured without a C++ compiler (no oshc++)"
    exit 77
fi
for name in oshc++ oshCC oshcxx; do
    if "$B/shmem/$name" -Wall -Wextra -Werror -o "$T/$name" "$SRC" 2>"$T/cc.err"; then
        ok "$name builds a C++ program"
    else
        bad "$name failed: $(cat "$T/cc.err")"
    fi
done
for n in $PES; do
    job 0 "$n" "$T/oshc++" && expect_out "cxx_generic: $n PEs ok"
done
if command -v clang++ >/dev/null 2>&1; then
    clang++ -std=c++11 -Wall -Wextra -Werror -I"$B/shmem/include" -c -o "$T/clang.o" "$SRC" 2>"$T/cc.err" &&
        ok "shmem.h compiles as C++11 with clang++" || bad "clang++: $(cat "$T/cc.err")"
fi
"$B/shmem/oshcc" -v >"$T/v" 2>&1 && grep -qi "version" "$T/v" && ok "oshcc -v" || bad "oshcc -v: $(cat "$T/v")"
"$B/shmem/oshcc" --version >"$T/v" 2>&1 && ok "oshcc --version" || bad "oshcc --version: $(cat "$T/v")"
case $("$B/shmem/oshcc" -show x.c -o x) in *"x.c -o x $B/libpshmem.a"*) ok "oshcc -show" ;; *) bad "oshcc -show" ;; esac
case $("$B/shmem/oshc++" -show x.cc) in *"-I$B/shmem/include"*" x.cc"*) ok "oshc++ -show" ;; *) bad "oshc++ -show: $("$B/shmem/oshc++" -show x.cc)" ;; esac
case $("$B/shmem/oshcc" --showme:version) in "oshcc: pshm OpenSHMEM "*) ok "--showme:version" ;; *) bad "--showme:version" ;; esac
[ "$("$B/shmem/oshcc" -compile_info)" = "$("$B/shmem/oshcc" -showme:compile)" ] && ok "-compile_info" ||
    bad "-compile_info: $("$B/shmem/oshcc" -compile_info)"
"$B/shmem/oshcc" -showme:bogus >/dev/null 2>"$T/err"; [ $? = 2 ] && grep -q "unknown -showme:bogus" "$T/err" \
    && ok "-showme:bogus refused" || bad "-showme:bogus: $(cat "$T/err")"
finish
