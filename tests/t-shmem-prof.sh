#!/bin/bash
# t-shmem-prof - the profiling interface (tests/shmem/prof.c): a tool that
# defines shmem_long_put, shmem_barrier_all, shmem_malloc and shmem_quiet
# and calls their pshmem_ names counts exactly the program's own calls and
# the data still arrives, linked every way a tool is: in the program
# against libpshmem.a (make's build) and against libpshmem.so; as an
# archive of its own before libpshmem.a (the specification's
# "cc ... -lmyprof -lpsma -lsma"); preloaded (LD_PRELOAD) into a program
# linked against libpshmem.so. Without a tool shmem_pcontrol does nothing.
# pshmem.h declares every routine of shmem.h, and the libraries define the
# two names of each (nm).
. "$(dirname "$0")/shmem/driver.sh"
S=$(cd "$(dirname "$0")/.." && pwd)/tests/shmem/prof.c
CC=$(sed -n 's/^CC := //p' "$B/Makefile")
cflags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$B/shmem/include")
n=${PES##* }

# run LABEL [ENV...] PROG [ARGS]: the job on 2 and on the largest PE count.
run() {
    local label=$1 m
    shift
    for m in ${PES%% *} $n; do
        job 0 "$m" "$@" && expect_out "^prof: $m PEs: " && echo "   ($label)"
    done
}

run "tool in the program, libpshmem.a" "$B/tests/shmem/prof"

if $CC "${cflags[@]}" -o "$T/shared" "$S" -L"$B" -lpshmem 2>"$T/cc.err"; then
    run "tool in the program, libpshmem.so" env LD_LIBRARY_PATH="$B" "$T/shared"
    ldd "$T/shared" | grep -q "libpshmem.so" && ok "linked against libpshmem.so" ||
        bad "$T/shared is not linked against libpshmem.so: $(ldd "$T/shared")"
else
    bad "cannot build prof.c against libpshmem.so: $(cat "$T/cc.err")"
fi

# The tool in an archive of its own, before the library's (oshcc puts
# libpshmem.a last).
if $CC "${cflags[@]}" -DPROF_TOOL_ONLY -c -o "$T/tool.o" "$S" 2>"$T/cc.err" &&
    ar crs "$T/libmyprof.a" "$T/tool.o" &&
    "$B/shmem/oshcc" "${cflags[@]}" -DPROF_NO_TOOL -o "$T/archive" "$S" "$T/libmyprof.a" 2>"$T/cc.err"; then
    run "tool archive, then libpshmem.a" "$T/archive"
else
    bad "cannot link the tool's archive before libpshmem.a: $(cat "$T/cc.err")"
fi

# The tool preloaded: its shmem_X interposes libpshmem.so's.
if $CC "${cflags[@]}" -DPROF_TOOL_ONLY -fPIC -shared -o "$T/libmyprof.so" "$S" -L"$B" -lpshmem 2>"$T/cc.err" &&
    $CC "${cflags[@]}" -DPROF_NO_TOOL -o "$T/plain" "$S" -L"$B" -lpshmem 2>"$T/cc.err"; then
    run "tool preloaded, libpshmem.so" env LD_LIBRARY_PATH="$B" LD_PRELOAD="$T/libmyprof.so" "$T/plain"
    job 0 "${PES%% *}" env LD_LIBRARY_PATH="$B" "$T/plain" notool &&
        expect_out "^prof: ${PES%% *} PEs: no tool"
else
    bad "cannot build the preloaded tool: $(cat "$T/cc.err")"
fi

# Every routine pshmem.h declares is defined under both names in both
# libraries: weak shmem_X in the archive, both exported by the .so.
decl=$(grep -oE '[ *]p[a-z_0-9]+\(' "$B/shmem/include/pshmem.h" | tr -d ' *(' | sort -u)
nd=$(echo "$decl" | wc -l)
[ "$nd" -gt 1000 ] && ok "pshmem.h declares $nd routines" || bad "pshmem.h declares only $nd routines"
for lib in libpshmem.a libpshmem.so; do
    if [ $lib = libpshmem.a ]; then syms=$(nm "$B/$lib" 2>/dev/null | awk 'NF == 3 && ($2 == "T" || $2 == "W") { print $2, $3 }')
    else syms=$(nm -D --defined-only "$B/$lib" | awk 'NF == 3 && $2 == "T" { print "T", $3 }' | sed 's/@.*//'); fi
    missing=$(comm -23 <(echo "$decl") <(echo "$syms" | awk '{ print $2 }' | sort -u) | head -5)
    [ -z "$missing" ] && ok "$lib defines every pshmem.h name" || bad "$lib lacks: $missing"
    plain=$(echo "$decl" | sed 's/^p//')
    missing=$(comm -23 <(echo "$plain") <(echo "$syms" | awk '{ print $2 }' | sort -u) | head -5)
    [ -z "$missing" ] && ok "$lib defines every routine's own name" || bad "$lib lacks: $missing"
    if [ $lib = libpshmem.a ]; then
        strong=$(echo "$syms" | awk '$1 == "T" { print $2 }' | sort -u | comm -12 - <(echo "$plain") | head -3)
        [ -z "$strong" ] && ok "libpshmem.a: every shmem_X is weak" || bad "libpshmem.a: not weak: $strong"
    fi
done
finish
