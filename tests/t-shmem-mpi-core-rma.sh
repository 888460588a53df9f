#!/bin/bash
# t-shmem-mpi-core-rma - put and get between supernodes through MPI
# (tests/shmem/mpi_core.c rma): every form, heap and statics, up to 1 MiB,
# every byte checked, put with signal, shmem_ptr NULL exactly for the PEs
# of other supernodes. Under mpirun with 4 PEs over 2 and 4 simulated
# hosts, 3 PEs in supernodes of at most 2, one supernode (no MPI traffic),
# without the progress thread, and with SHMEM_DEBUG.
. "$(dirname "$0")/shmem/mpi_core.sh"
need_mpi
P=$B/tests/shmem/mpi_core
mpijob 0 4 PSHM_SIM_HOSTS=2 -- "$P" rma && expect "ok: rma on 4 PEs"
[ "$BACKEND" = none ] || expect "local PEs of PE 0: 2"
mpijob 0 4 PSHM_SIM_HOSTS=4 -- "$P" rma && expect "local PEs of PE 0: 1"
mpijob 0 3 GASNET_SUPERNODE_MAXSIZE=2 -- "$P" rma && expect "ok: rma on 3 PEs"
mpijob 0 2 SHMEM_PROGRESS_INTERVAL=0 SHMEM_DEBUG=1 PSHM_SIM_HOSTS=2 -- "$P" rma &&
    expect "local PEs of PE 0: 1"
# One supernode: shared memory only, as under oshrun.
if [ "$BACKEND" != none ]; then
    mpijob 0 3 -- "$P" rma && expect "local PEs of PE 0: 3"
fi
finish
