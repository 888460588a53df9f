# mpi_core.sh - sourced by tests/t-shmem-mpi-core-*.sh: the OpenSHMEM layer
# between supernodes, under mpirun, with the job split over simulated hosts
# (PSHM_SIM_HOSTS) or supernodes (GASNET_SUPERNODE_MAXSIZE). On the none
# backend (--disable-pshm) every PE is a supernode of its own, so every
# operation goes through MPI.

B=${PSHM_BUILD:-$(cd "$(dirname "$0")/.." && pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/t-shmem-mpi.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
finish() {
    [ "$fails" = 0 ] || { echo "$fails check(s) failed"; exit 1; }
    exit 0
}

if ! grep -q '^SHMEM := yes' "$B/Makefile" 2>/dev/null; then
    echo "SKIP: the OpenSHMEM layer is not built (configured with --disable-shmem)"
    exit 77
fi
SHMEM_MPI=0
grep -q '^SHMEM_MPI := 1' "$B/Makefile" && SHMEM_MPI=1
MPIRUN=$(command -v mpirun || command -v mpiexec)
OPENMPI=0
[ -n "$MPIRUN" ] && "$MPIRUN" --version 2>&1 | grep -q "Open MPI" && OPENMPI=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Not under pshmrun: the bootstrap is MPI's.
unset PSHM_RANK PSHM_SIZE PSHM_JOB_TAG PSHM_BOOT_FD
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE-16M}
BACKEND=$(sed -n 's/^#define PSHM_BACKEND_NAME "\(.*\)"/\1/p' "$B/config.h")

# need_mpi: skips (77) unless the layer was built over MPI and mpirun runs.
need_mpi() {
    if [ "$SHMEM_MPI" != 1 ]; then
        echo "SKIP: the OpenSHMEM layer was built without MPI"
        exit 77
    fi
    [ -n "$MPIRUN" ] || { echo "SKIP: no mpirun or mpiexec in PATH"; exit 77; }
}

# mpijob WANT NP VAR=VALUE... -- PROGRAM [ARGS...]: runs PROGRAM on NP PEs
# under mpirun (90 s at most) with the variables given, output in $T/out;
# WANT is the exit status expected ("nz": any failure but the timeout's).
mpijob() {
    local want=$1 np=$2 got desc
    local -a envs=()
    shift 2
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    desc="${envs[*]} mpirun -np $np ${*#$B/}"
    local -a args=()
    if [ "$OPENMPI" = 1 ]; then
        args=(--oversubscribe -np "$np")
        for e in "${envs[@]}"; do args+=(-x "$e"); done
    else   # MPICH (hydra)
        args=(-n "$np")
        for e in "${envs[@]}"; do args+=(-genv "${e%%=*}" "${e#*=}"); done
    fi
    # SIGTERM first: mpirun then ends its processes; SIGKILL 10 s later.
    local start=$SECONDS
    env "${envs[@]}" timeout -k 10 90 "$MPIRUN" "${args[@]}" "$@" >"$T/out" 2>&1
    got=$?
    if [ $((SECONDS - start)) -ge 90 ]; then
        bad "$desc was stopped after 90 s (a PE waits forever?); output:"
        tail -20 "$T/out" | sed 's/^/    /'
        return 1
    fi
    if [ "$want" = nz ] && [ "$got" != 0 ]; then
        :
    elif [ "$got" != "$want" ]; then
        bad "$desc exited $got, expected $want; output:"
        tail -20 "$T/out" | sed 's/^/    /'
        return 1
    fi
    ok "$desc -> $got"
}

# expect TEXT: the last job's output has TEXT.
expect() {
    if grep -qF -- "$1" "$T/out"; then
        ok "output has: $1"
    else
        bad "expected '$1' in the output:"
        tail -20 "$T/out" | sed 's/^/    /'
    fi
}
