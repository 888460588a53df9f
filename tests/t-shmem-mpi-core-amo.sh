#!/bin/bash
# t-shmem-mpi-core-amo - atomics between supernodes (tests/shmem/mpi_core.c
# amo and compute): PE 0's objects hit from PEs of its supernode (CPU
# atomics) and of others (shipped to PE 0) at once, counted exactly; a
# remote atomic wakes a wait_until; a PE waiting in a barrier answers; a
# PE computing without calling the library answers through the progress
# thread, and does not without it.
. "$(dirname "$0")/shmem/mpi_core.sh"
need_mpi
P=$B/tests/shmem/mpi_core
mpijob 0 4 PSHM_SIM_HOSTS=2 -- "$P" amo && expect "ok: amo on 4 PEs"
mpijob 0 5 PSHM_SIM_HOSTS=4 -- "$P" amo && expect "ok: amo on 5 PEs"
mpijob 0 3 GASNET_SUPERNODE_MAXSIZE=2 SHMEM_PROGRESS_INTERVAL=0 -- "$P" amo &&
    expect "ok: amo on 3 PEs"
mpijob 0 4 PSHM_SIM_HOSTS=2 -- "$P" compute && expect "ok: compute on 4 PEs"
mpijob 0 4 PSHM_SIM_HOSTS=2 SHMEM_PROGRESS_INTERVAL=100 -- "$P" compute &&
    expect "ok: compute on 4 PEs"
# Without the thread the computing PE answers nobody until it calls the
# library: it gives up after 2 s and says so.
mpijob nz 2 PSHM_SIM_HOSTS=2 SHMEM_PROGRESS_INTERVAL=0 -- "$P" compute 2 &&
    expect "2 s without the others' atomics"
finish
