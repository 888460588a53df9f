#!/bin/bash
# t-shmem-hosts-nompi - a program built against the layer without MPI
# (configure --without-mpi, in a temporary copy of the tree) refuses a job
# whose PEs are not all in one supernode, with a message that says why and
# what to do: oshrun --hosts 2 (simulated hosts under pshmrun) ends at init
# with status 1; oshrun --mpi is refused by oshrun (status 2); started by
# mpirun, where each process would otherwise be a job of its own, it ends
# with a non-zero status and the message instead of running alone.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
. "$(dirname "$0")/treecopy.sh" nompi
if ! ./configure --without-mpi CFLAGS=-O0 >"$work/conf.log" 2>&1 ||
    ! make -j2 -s libpshmem.a tools/pshmrun shmem/oshrun tests/shmem/tutorial >"$work/make.log" 2>&1; then
    bad "the layer without MPI does not build:"
    tail -5 "$work/conf.log" "$work/make.log" | sed 's/^/    /'
    finish
fi
grep -q '^SHMEM_MPI := 1' Makefile &&
    bad "configure --without-mpi still builds the layer over MPI: $(grep '^SHMEM_MPI' Makefile)"
P=$work/tests/shmem/tutorial
OSHRUN=$work/shmem/oshrun

"$OSHRUN" -n 2 --hosts 2 "$P" >"$T/out" 2>"$T/err"
st=$?
[ "$st" = 1 ] && grep -q "shmem: shmem_init: PE 1 is on another host .*built without MPI.*--with-mpi" "$T/err" &&
    ok "oshrun -n 2 --hosts 2: refused at init" || bad "oshrun -n 2 --hosts 2 exited $st: $(cat "$T/err")"
"$OSHRUN" --mpi -n 2 "$P" >"$T/out" 2>"$T/err"
st=$?
[ "$st" = 2 ] && grep -q "oshrun: --mpi: this OpenSHMEM library was built without MPI" "$T/err" &&
    ok "oshrun --mpi: refused" || bad "oshrun --mpi exited $st: $(cat "$T/err")"
split_layout 2:hosts=2
split_run 2 "$P"
[ "$SPLIT_STATUS" != 0 ] && [ "$SPLIT_STATUS" != 124 ] && grep -q "shmem: shmem_init: .*without MPI" "$T/err" &&
    ok "mpirun -np 2: refused at init" ||
    bad "mpirun -np 2 of a program built without MPI exited $SPLIT_STATUS (expected non-zero, with a 'shmem: shmem_init: ... without MPI' message): $(cat "$T/out" "$T/err" | head -5)"
finish
