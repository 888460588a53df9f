/*
 * order.c - shmem_fence, shmem_quiet and the cache routines (no-ops).
 *
 * Every put, get and atomic of this layer is a load, store, memcpy or atomic
 * instruction on memory this process has mapped, finished when the call
 * returns; what remains is the order in which other PEs see the stores.
 *
 * x86-64 (TSO): ordinary stores become visible in program order, but a
 * store may wait in the store buffer after a later load has been served, and
 * the non-temporal stores glibc's memcpy uses for large copies are weakly
 * ordered. The compiler may also reorder or merge plain stores across calls
 * it can see through. Hence:
 *   fence: a release fence (stops the compiler; free on TSO) plus SFENCE,
 *          which orders any non-temporal stores before later stores: puts
 *          to a PE arrive before the puts that follow the fence.
 *   quiet: a sequentially consistent fence (MFENCE or a locked instruction):
 *          every earlier store is globally visible before any later load or
 *          store, so a flag put after quiet is never seen before the data,
 *          and a get after quiet cannot be served ahead of an earlier put.
 * Other architectures get the same from the C11 fences alone.
 *
 * Toward PEs of other supernodes (net*.c) both are a quiet: the windows
 * flushed (MPI orders nothing between two puts without it) and every
 * non-fetching atomic acknowledged. The load of shm_net_pending is an
 * acquire (a plain load on x86): reading 0 after another thread's quiet
 * cleared SHM_NET_BUSY, this one is ordered after that completion. A fence
 * could be cheaper only where MPI offered ordering without completion,
 * which it does not for put.
 */
#include "xport.h"

int shm_net_pending;

/* Both are the transport seam's (xport.h): the mapped part, then MPI's. */
void shmem_fence(void)
{
    shm_xp_fence();
}

void shmem_quiet(void)
{
    shm_xp_quiet();
}

/* Cache management: memory is coherent here; kept for old programs. */
void shmem_clear_cache_inv(void) {}
void shmem_set_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }
