/*
 * net.h - what the files of the MPI side (net*.c) share: the windows, the
 * atomics' service, the progress thread. Included only when PSHMEM_HAVE_MPI.
 */
#ifndef PSHMEM_NET_H
#define PSHMEM_NET_H

#include "shmem_internal.h"

/* One window per symmetric area, over my own copy: displacement unit 1, a
 * target's displacement is the offset in the area (the same in every PE).
 * Passive target, MPI_Win_lock_all once at init. */
extern MPI_Win shm_win[SHM_NAREAS] SHM_HIDDEN;
/* Marks shm_net_pending (a relaxed or: quiet reads it with a plain load). */
static inline void shm_net_mark(int what)
{
    if ((__atomic_load_n(&shm_net_pending, __ATOMIC_RELAXED) & what) == 0)
        __atomic_fetch_or(&shm_net_pending, what, __ATOMIC_RELAXED);
}

/* net_amo.c: the atomics' own communicator, the posted receive. */
void shm_amo_init(void) SHM_HIDDEN;
void shm_amo_fini(void) SHM_HIDDEN;
/* net_thread.c: the progress thread (SHMEM_PROGRESS_INTERVAL). */
void shm_thread_start(int mpi_level) SHM_HIDDEN;
void shm_thread_stop(void) SHM_HIDDEN;
/* The area and offset of [sym, sym + n) in my copy; the job ends, naming
 * `call`, if it is not symmetric (a single element's last byte past the
 * area's end, which the fast path's one-byte check lets through). */
int shm_net_area(const char *call, const void *sym, size_t n, size_t *off) SHM_HIDDEN;
/* Ends the job, naming the MPI call that failed and MPI's words for it. */
_Noreturn void shm_mpi_fail(const char *call, const char *mpi_call, int mrc) SHM_HIDDEN;

#endif /* PSHMEM_NET_H */
