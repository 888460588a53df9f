#!/bin/bash
# t-shmem-mpi-core-exit - ends of a job that spans supernodes, under
# mpirun (tests/shmem/mpi_core.c exit and die): shmem_global_exit(N) on
# another supernode than the PEs waiting in a barrier ends the job with
# status N (its low 8 bits, 0 included); a PE killed while the others wait
# for it (one in its supernode, one in another) ends the job with a
# non-zero status, well before the 90 s limit, and the PE of its supernode
# says that it died.
. "$(dirname "$0")/shmem/mpi_core.sh"
need_mpi
P=$B/tests/shmem/mpi_core
mpijob 7 4 PSHM_SIM_HOSTS=2 -- "$P" exit 7
mpijob 0 3 PSHM_SIM_HOSTS=3 -- "$P" exit 256
mpijob 3 3 GASNET_SUPERNODE_MAXSIZE=2 -- "$P" exit 3
mpijob nz 4 PSHM_SIM_HOSTS=2 -- "$P" die
# Rank 3's supernode peer (rank 1) sees the death through pshm.
[ "$BACKEND" = none ] || expect "died without finalizing"
if grep -q "woke without a put\|passed a barrier" "$T/out"; then
    bad "a PE went on past the dead one"
fi
finish
