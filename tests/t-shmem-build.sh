#!/bin/bash
# t-shmem-build - the wrappers and the installed layer: oshcc builds a
# program (PIE, non-PIE, against libpshmem.so) that runs under oshrun with
# its arguments passed through; -showme and its forms; usage errors of
# oshcc and oshrun, each told once; make install to a prefix gives wrappers
# that build and run from there, pshmem.pc, the headers (a profiling tool
# builds with pshmem.h), and a libpshmem.so that exports only the OpenSHMEM,
# extension and legacy names and their profiling names (and, over MPI,
# MPI_Init, MPI_Init_thread, MPI_Finalize: shmem/net_hybrid.c); uninstall
# removes it all; pshmem.pc's Cflags carry MPI's when built over it.
. "$(dirname "$0")/shmem/driver.sh"
OSHCC=$B/shmem/oshcc
SRC=$B/tests/shmem/hello_args.c
n=${PES##* }
[ "$n" -gt 2 ] || n=$PES

# build NAME [FLAGS...]: oshcc FLAGS -o $T/NAME hello_args.c
build() {
    local name=$1
    shift
    if "$OSHCC" "$@" -o "$T/$name" "$SRC" 2>"$T/cc.err"; then
        ok "oshcc $* builds"
    else
        bad "oshcc $* failed: $(cat "$T/cc.err")"
        return 1
    fi
}
check_args() {
    if grep -qF 'args: [a b] [--c] [-n]' "$T/out"; then ok "arguments passed through"
    else bad "arguments not passed through: $(cat "$T/out")"; fi
}

build pie -fPIE -pie && job 0 "$n" "$T/pie" a\ b --c -n && check_args
build nopie -fno-PIE -no-pie && job 0 "$n" "$T/nopie" a\ b --c -n && check_args
build opt -O3 -Wall -Werror -std=c11 && job 0 "$n" -- "$T/opt" a\ b --c -n && check_args
# The shared library: the program's statics are symmetric all the same.
if cc -std=c11 -I"$B/shmem/include" -o "$T/shared" "$SRC" -L"$B" -lpshmem 2>"$T/cc.err"; then
    LD_LIBRARY_PATH=$B job 0 "$n" env LD_LIBRARY_PATH="$B" "$T/shared" x && ok "libpshmem.so"
else
    bad "cannot link against libpshmem.so: $(cat "$T/cc.err")"
fi

out=$("$OSHCC" -showme -c x.c)
case $out in *"-I$B/shmem/include"*" -c x.c"*) ok "oshcc -showme -c: $out" ;; *) bad "oshcc -showme -c: $out" ;; esac
case $out in *libpshmem.a*) bad "oshcc -showme -c links: $out" ;; esac
out=$("$OSHCC" --showme x.c -o x)
case $out in *"x.c -o x $B/libpshmem.a"*) ok "oshcc --showme: $out" ;; *) bad "oshcc --showme: $out" ;; esac
# Built over MPI, MPI's compile flags follow (t-shmem-hybrid checks them).
case $("$OSHCC" -showme:compile) in
"-I$B/shmem/include" | "-I$B/shmem/include "-*) ok "-showme:compile" ;;
*) bad "-showme:compile: $("$OSHCC" -showme:compile)" ;;
esac
case $("$OSHCC" -showme:link) in "$B/libpshmem.a"*) ok "-showme:link" ;; *) bad "-showme:link" ;; esac

# A changed header rebuilds the layer and its tests (make -W: as if new).
for o in shmem/rma.o tests/shmem/rma.o; do
    if make -s -C "$B" -n -W shmem/shmem.h "$o" 2>/dev/null | grep -q -- "-o $o"; then
        ok "a change to shmem.h rebuilds $o"
    else
        bad "make would not rebuild $o after a change to shmem/shmem.h"
    fi
done

# usage errors: status 2, one line naming the problem (plus oshrun's usage line)
usage() {
    local want=$1 lines=$2
    shift 2
    "$@" >"$T/out" 2>"$T/err"
    local st=$?
    if [ "$st" = 2 ] && grep -qF -- "$want" "$T/err" && [ "$(wc -l <"$T/err")" -le "$lines" ]; then
        ok "$* -> 2: $want"
    else
        bad "$* exited $st, expected 2 with '$want' in at most $lines lines; stderr: $(cat "$T/err")"
    fi
}
usage "oshcc: no input files" 1 "$OSHCC"
usage "oshcc: unknown -showme:foo" 1 "$OSHCC" -showme:foo
usage "oshrun: give the number of PEs with -n N" 2 "$OSHRUN" "$T/pie"
usage "oshrun: -n needs the number of PEs" 2 "$OSHRUN" -n
usage "oshrun: -n: 'abc' is not a number of PEs" 2 "$OSHRUN" -n abc "$T/pie"
usage "oshrun: -n: '0' is not a number of PEs" 2 "$OSHRUN" -np 0 "$T/pie"
usage "oshrun: -n: '5000' is not a number of PEs" 2 "$OSHRUN" --np 5000 "$T/pie"
"$OSHRUN" --help >"$T/out" 2>&1 && grep -q 'Usage: oshrun -n N' "$T/out" && ok "oshrun --help" ||
    bad "oshrun --help: $(cat "$T/out")"

# make install to a prefix: the installed wrappers build and run from there.
P=$T/prefix
if make -s -C "$B" install prefix="$P" >"$T/inst.log" 2>&1; then
    for f in include/shmem.h include/shmemx.h include/pshmem.h include/mpp/shmem.h \
             include/shmem_cxx.h lib/libpshmem.a lib/libpshmem.so \
             lib/pkgconfig/pshmem.pc bin/oshcc bin/oshrun bin/oshinfo; do
        [ -e "$P/$f" ] || bad "make install did not install $f"
    done
    grep -q "^prefix=$P\$" "$P/lib/pkgconfig/pshmem.pc" || bad "pshmem.pc: $(cat "$P/lib/pkgconfig/pshmem.pc")"
    cf=$(sed -n 's/^Cflags: //p' "$P/lib/pkgconfig/pshmem.pc")
    want="-I\${includedir}$(sed -n 's/^MPI_CFLAGS_USER := \(..*\)/ \1/p' "$B/Makefile")"
    [ "$cf" = "$want" ] && ok "pshmem.pc Cflags: $cf" || bad "pshmem.pc Cflags: '$cf', expected '$want'"
    sed 's/<shmem.h>/<mpp\/shmem.h>/' "$SRC" >"$T/mpp.c"
    if "$P/bin/oshcc" -o "$T/inst" "$T/mpp.c" 2>"$T/cc.err"; then
        ok "the installed oshcc builds a program including <mpp/shmem.h>"
        OSHRUN=$P/bin/oshrun job 0 "$n" "$T/inst" a\ b --c -n && check_args
    else
        bad "the installed oshcc: $(cat "$T/cc.err")"
    fi
    # The installed pshmem.h (with shmem.h and shmemx.h): a profiling tool builds.
    if "$P/bin/oshcc" -std=c11 -Wall -Werror -o "$T/prof" "$(dirname "$SRC")/prof.c" 2>"$T/cc.err"; then
        m=${PES%% *}
        OSHRUN=$P/bin/oshrun job 0 "$m" "$T/prof" && expect_out "^prof: $m PEs: put 9"
    else
        bad "the installed oshcc does not build prof.c (pshmem.h): $(cat "$T/cc.err")"
    fi
    case $("$P/bin/oshcc" -showme x.c) in
    *"-I$P/include"*"$P/lib/libpshmem.a"*) ok "the installed oshcc uses the prefix" ;;
    *) bad "installed oshcc -showme: $("$P/bin/oshcc" -showme x.c)" ;;
    esac
    if grep -q '^CXX := .' "$B/Makefile"; then
        [ "$(readlink "$P/bin/oshc++")" = oshcc ] && ok "oshc++ installed beside oshcc" ||
            bad "make install did not install bin/oshc++"
        "$P/bin/oshc++" -o "$T/cxx" "$B/tests/shmem/cxx_generic.cpp" 2>"$T/cc.err" &&
            ok "the installed oshc++ builds a C++ program" || bad "installed oshc++: $(cat "$T/cc.err")"
    fi
    # libpshmem.so: OpenSHMEM and legacy names only.
    extra=$(nm -D --defined-only "$P/lib/libpshmem.so" | awk '$2 ~ /^[TDBRVW]$/ { sub(/@.*/, "", $3); print $3 }' |
            grep -Ev '^p?(shmem_|shmemx_|start_pes$|_my_pe$|_num_pes$|shmalloc$|shfree$|shrealloc$|shmemalign$)|^(SHMEM_CTX_DEFAULT|SHMEM_TEAM_WORLD|SHMEM_TEAM_SHARED|PSHMEM_[0-9.]*|MPI_Init|MPI_Init_thread|MPI_Finalize)$')
    [ -z "$extra" ] && ok "libpshmem.so exports only OpenSHMEM names" || bad "libpshmem.so also exports: $extra"
    nm -D --defined-only "$P/lib/libpshmem.so" | grep -q ' T shmem_long_atomic_fetch_add@' ||
        bad "libpshmem.so does not export shmem_long_atomic_fetch_add"
    make -s -C "$B" uninstall prefix="$P" >/dev/null 2>&1
    left=$(find "$P" ! -type d)
    [ -z "$left" ] && ok "make uninstall removed everything" || bad "make uninstall left: $left"
else
    bad "make install prefix=$P: $(tail -5 "$T/inst.log")"
fi
finish
