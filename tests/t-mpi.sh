#!/bin/bash
# t-mpi - the MPI bootstrap: tests/mpi/t-mpi-boot under mpirun, 4 ranks on 2
# simulated hosts. Skipped (77) when the build has no MPI.
B=${PSHM_BUILD:-.}
bin=$B/tests/mpi/t-mpi-boot
if ! grep -q '^#define PSHM_HAVE_MPI 1' "$B/config.h" 2>/dev/null; then
    echo "skip: configured without MPI"
    exit 77
fi
if [ ! -x "$bin" ]; then
    echo "FAIL: configured with MPI but $bin is not built"
    exit 1
fi
run=$(command -v mpirun || command -v mpiexec)
if [ -z "$run" ]; then
    echo "skip: no mpirun or mpiexec in PATH"
    exit 77
fi
if "$run" --version 2>&1 | grep -q "Open MPI"; then
    set -- --allow-run-as-root --oversubscribe -np 4 -x PSHM_SIM_HOSTS=2
else   # MPICH (hydra)
    set -- -n 4 -genv PSHM_SIM_HOSTS 2
fi
# Not under pshmrun: the bootstrap is MPI's.
unset PSHM_RANK PSHM_SIZE PSHM_JOB_TAG PSHM_BOOT_FD
out=$(PSHM_SIM_HOSTS=2 timeout -s KILL 90 "$run" "$@" "$bin" 2>&1)
st=$?
echo "$out"
n=$(grep -c "read rank [0-9]'s" <<<"$out")
if [ $st != 0 ] || [ "$n" != 4 ]; then
    echo "FAIL: mpirun exited $st and $n of 4 ranks passed"
    exit 1
fi
echo "ok: 4 MPI ranks on 2 simulated hosts"

# The bootstrap's messages with the shared library: built here against
# libpshm.so (the tests link libpshm.a), one rank.
mpicc=$(sed -n 's/^MPICC := //p' "$B/Makefile")
T=${TMPDIR:-/tmp}/t-mpi.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
if ! $mpicc -std=c11 -D_GNU_SOURCE -I"$B/pshm" -I"$B/pshm/mpi" -o "$T/errors-shared" \
        "$B/tests/mpi/errors-shared.c" "$B/libpshm_mpi.a" -L"$B" -lpshm -Wl,-rpath,"$(cd "$B" && pwd)"; then
    echo "FAIL: cannot build tests/mpi/errors-shared.c against libpshm.so"
    exit 1
fi
ldd "$T/errors-shared" | grep -q "libpshm.so" || { echo "FAIL: errors-shared is not linked with libpshm.so"; exit 1; }
if "$run" --version 2>&1 | grep -q "Open MPI"; then set -- --allow-run-as-root -np 1; else set -- -n 1; fi
timeout -s KILL 60 "$run" "$@" "$T/errors-shared" || { echo "FAIL: errors-shared (above)"; exit 1; }
exit 0
