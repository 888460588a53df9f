# mpi_env.sh - sourced by the scripts that run the layer under mpirun
# (compare-mpi.sh, amo-count.sh), with $name (the script's name) and $top
# (the build tree) set: ends the script if the tree is not built over MPI
# or there is no mpirun, else sets $mpirun and $mpiopts and the
# environment of a job of its own (nothing of a surrounding job's).
if ! grep -q '^SHMEM_MPI := 1' "$top/Makefile" 2>/dev/null || [ ! -x "$top/shmem/oshcc" ]; then
    echo "$name: $top is not built with the OpenSHMEM layer over MPI:" >&2
    echo "install MPI (apt-get install -y openmpi-bin libopenmpi-dev), then" >&2
    echo "./configure --with-mpi && make" >&2
    exit 2
fi
mpirun=${MPIRUN:-mpirun}
command -v "$mpirun" >/dev/null || { echo "$name: no $mpirun in PATH" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-16M}
unset PSHM_SIM_HOSTS GASNET_SUPERNODE_MAXSIZE PSHM_RANK PSHM_SIZE PSHM_JOB_TAG PSHM_BOOT_FD
mpiopts="--oversubscribe --bind-to none"
"$mpirun" --version 2>&1 | grep -q "Open MPI" && mpiopts="--allow-run-as-root $mpiopts"
