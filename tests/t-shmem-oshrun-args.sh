#!/bin/bash
# t-shmem-oshrun-args - the launcher spellings OpenSHMEM users bring from
# Sandia OpenSHMEM's and Open MPI's launchers: -nN, -ppn, -genv, --bind-to
# with --report-bindings, --map-by, a program found without ./, --version;
# and the refusals that say what to do instead: -ppn that needs more hosts,
# a mapping pshmrun does not have, a program linked with Open MPI's
# OpenSHMEM, a program whose shared library the loader cannot find.
. "$(dirname "$0")/shmem/driver.sh"
OSHCC=$B/shmem/oshcc
SRC=$B/tests/shmem/hello_args.c
n=${PES%% *}

"$OSHCC" -o "$T/hello" "$SRC" 2>"$T/cc.err" || { bad "oshcc: $(cat "$T/cc.err")"; finish; }

# refused STATUS TEXT ARGS...: oshrun ARGS exits STATUS and says TEXT.
refused() {
    local want=$1 text=$2 got
    shift 2
    "$OSHRUN" "$@" >"$T/out" 2>"$T/err"
    got=$?
    if [ "$got" = "$want" ] && grep -qF -- "$text" "$T/err"; then
        ok "oshrun $* -> $got: $text"
    else
        bad "oshrun $* exited $got (expected $want) with: $(cat "$T/err")"
    fi
}

job 0 "$n" "$T/hello" a && grep -q 'args: \[a\]' "$T/out" && ok "hello ran"
# -nN as one word, as pshmrun and mpirun take it.
"$OSHRUN" "-n$n" --timeout 60 "$T/hello" x >"$T/out" 2>"$T/err" && grep -q 'args: \[x\]' "$T/out" \
    && ok "oshrun -n$n" || bad "oshrun -n$n: $(cat "$T/err")"
# A program in the current directory, named without ./ (as mpirun finds it).
(cd "$T" && "$OSHRUN" -n "$n" --timeout 60 hello y >out 2>err) && grep -q 'args: \[y\]' "$T/out" \
    && ok "oshrun -n $n hello (no ./)" || bad "oshrun -n $n hello: $(cat "$T/err")"
if [ "$PES" != 1 ]; then
    # -ppn that covers every PE on this host; -genv sets a variable.
    "$OSHRUN" -ppn 2 -n 2 -genv SHMEM_INFO 1 --timeout 60 "$T/hello" z >"$T/out" 2>"$T/err"
    if grep -q 'args: \[z\]' "$T/out" && grep -q SHMEM_SYMMETRIC_SIZE "$T/out"; then
        ok "oshrun -ppn 2 -n 2 -genv SHMEM_INFO 1"
    else
        bad "-ppn/-genv: $(cat "$T/out" "$T/err")"
    fi
    refused 2 "-ppn 1 with -n 2 needs 2 hosts" -ppn 1 -n 2 "$T/hello"
    # Binding: every PE on a CPU of the launcher's mask, told on stderr.
    "$OSHRUN" -n 2 --bind-to core --report-bindings --map-by core --timeout 60 \
        sh -c 'grep Cpus_allowed_list /proc/self/status' >"$T/out" 2>"$T/err"
    want=$(grep Cpus_allowed_list /proc/self/status | awk '{print $2}')
    if [ "$(grep -c 'bound to CPU' "$T/err")" = 2 ] && [ "$(wc -l <"$T/out")" = 2 ] &&
       ! grep -qF "$want" "$T/out" || [ "$(nproc)" = 1 ]; then
        ok "--bind-to core: $(tr '\n' ' ' <"$T/out")"
    else
        bad "--bind-to core: stdout $(cat "$T/out"), stderr $(cat "$T/err"), the mask is $want"
    fi
fi
# docs/shmem.md's "oshrun -n 4 --mpi ./prog" runs as written on this host,
# whatever its CPUs (mpirun is told to oversubscribe, as pshmrun does).
# Only in a layer built over MPI (the Makefile's SHMEM_MPIRUN line is there
# in every build, empty without MPI).
if [ "$PES" != 1 ] && grep -q '^SHMEM_MPI := 1' "$B/Makefile"; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
        "$OSHRUN" -n 4 --mpi --timeout 60 "$T/hello" m >"$T/out" 2>"$T/err"
    [ $? = 0 ] && grep -q 'args: \[m\]' "$T/out" && ok "oshrun -n 4 --mpi on $(nproc) CPUs" ||
        bad "oshrun -n 4 --mpi: $(tail -5 "$T/err")"
fi
refused 2 "--map-by numa" -n 2 --map-by numa "$T/hello"
refused 2 "is not a binding" -n 2 --bind-to socket "$T/hello"
"$OSHRUN" --version >"$T/out" 2>&1 && grep -q '^oshrun (pshm OpenSHMEM)' "$T/out" \
    && ok "oshrun --version: $(head -1 "$T/out")" || bad "oshrun --version: $(cat "$T/out")"

# A shared library the loader cannot find is named before the start.
mkdir -p "$T/lib"
if cc -shared -fPIC -o "$T/lib/libpshmtestdep.so" -x c - <<<'int pshmtestdep(void) { return 0; }' &&
   cc -o "$T/needs" -x c - -L"$T/lib" -lpshmtestdep <<<'int pshmtestdep(void); int main(void) { return pshmtestdep(); }'; then
    refused 2 "needs libpshmtestdep.so, which the dynamic loader does not find" -n 2 "$T/needs"
else
    bad "cannot build the program with a shared library"
fi
# A program of Open MPI's OpenSHMEM is refused, naming both libraries.
if [ -x /usr/bin/oshcc ] && /usr/bin/oshcc -o "$T/ompi" "$B/tests/shmem/hello_args.c" 2>/dev/null &&
   ldd "$T/ompi" 2>/dev/null | grep -q liboshmem; then
    refused 2 "linked against Open MPI's OpenSHMEM" -n 2 "$T/ompi"
else
    echo "note: Open MPI's oshcc is not installed: the mix check is not run"
fi
finish
