#!/bin/bash
# t-shmem-mpi-core-oshrun - oshrun's choice of launcher: pshmrun by
# default; mpirun with --mpi, OSHRUN_LAUNCHER=mpirun or a host file, with
# -x, --oversubscribe, --hosts K and the program's arguments passed on;
# usage errors (exit 2, one message) for a launcher that cannot be, and for
# --mpi in a library built without MPI; SHMEM_PROGRESS_INTERVAL parsed
# strictly in either build.
. "$(dirname "$0")/shmem/mpi_core.sh"
O=$B/shmem/oshrun
P=$B/tests/shmem/mpi_core
H=$B/tests/shmem/hello_args

# osh WANT [VAR=VALUE...] -- OSHRUN-ARGS...: output in $T/out.
osh() {
    local want=$1 got
    local -a envs=()
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    env "${envs[@]}" timeout -k 10 90 "$O" "$@" >"$T/out" 2>&1
    got=$?
    if [ "$got" != "$want" ]; then
        bad "${envs[*]} oshrun ${*#$B/} exited $got, expected $want; output:"
        tail -15 "$T/out" | sed 's/^/    /'
        return 1
    fi
    ok "${envs[*]} oshrun ${*#$B/} -> $got"
}

# SHMEM_PROGRESS_INTERVAL: digits only, 0..10000000, or shmem_init refuses.
for v in abc 1ms 1K -5 "" 10000001 " 5"; do
    osh 1 "SHMEM_PROGRESS_INTERVAL=$v" -- -n 1 "$H" &&
        expect "SHMEM_PROGRESS_INTERVAL='$v' is not a period"
done
osh 0 SHMEM_PROGRESS_INTERVAL=0 -- -n 1 "$H"
osh 0 SHMEM_PROGRESS_INTERVAL=10000000 -- -n 1 "$H"

if [ "$SHMEM_MPI" != 1 ]; then
    osh 2 -- -n 2 --mpi "$H" && expect "this OpenSHMEM library was built without MPI"
    osh 2 OSHRUN_LAUNCHER=mpirun -- -n 2 "$H" && expect "built without MPI"
    finish
fi
[ -n "$MPIRUN" ] || { echo "SKIP: no mpirun or mpiexec in PATH"; exit 77; }
[ "$OPENMPI" = 1 ] || { echo "SKIP: the mpirun options checked are Open MPI's"; exit 77; }

# pshmrun by default: one supernode (except on the none backend, one PE).
if [ "$BACKEND" != none ]; then
    osh 0 -- -n 3 "$P" rma && expect "local PEs of PE 0: 3"
    # --hosts under pshmrun: refused at init, naming the way out.
    osh 1 -- -n 2 --hosts 2 "$P" rma && expect "start it with mpirun (oshrun --mpi)"
fi
osh 0 -- -n 4 --mpi --hosts 2 "$P" rma && expect "ok: rma on 4 PEs"
[ "$BACKEND" = none ] || expect "local PEs of PE 0: 2"
osh 0 OSHRUN_LAUNCHER=mpirun -- -n 2 --oversubscribe -x PSHM_SIM_HOSTS=2 "$P" amo &&
    expect "ok: amo on 2 PEs (1 local)"
echo "localhost slots=8" >"$T/hosts"
osh 0 -- -n 2 --hostfile "$T/hosts" -x PSHM_SIM_HOSTS=2 -- "$H" 'a b' -n "c'd" &&
    expect "args: [a b] [-n] [c'd]"
# Usage errors: told once, status 2.
osh 2 OSHRUN_LAUNCHER=pshmrun -- -n 2 --mpi "$H" &&
    expect "oshrun: --mpi needs mpirun, but OSHRUN_LAUNCHER=pshmrun asks for pshmrun"
osh 2 OSHRUN_LAUNCHER=srun -- -n 2 "$H" && expect "OSHRUN_LAUNCHER='srun' is not a launcher"
osh 2 OSHRUN_MPIRUN=/nonexistent/mpirun -- -n 2 --mpi "$H" &&
    expect "cannot run /nonexistent/mpirun (set OSHRUN_MPIRUN"
osh 2 -- -n 2 --hostfile && expect "oshrun: --hostfile needs its argument"
osh 2 -- --mpi "$H" && expect "give the number of PEs with -n N"
osh 2 -- -n 2 --mpi --hosts 0 "$H" && expect "--hosts: '0' is not a number of simulated hosts"
finish
