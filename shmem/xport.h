/*
 * xport.h - the transport seam: the one set of calls through which every
 * routine of the layer that moves data or synchronizes reaches another PE.
 *
 *   put, get       shm_xp_put, shm_xp_get (contiguous), shm_xp_p_N and
 *                  shm_xp_g_N (one element, SHM_XP_ELEM), shm_strided
 *   atomic         shm_xp_amo (by code), shm_xp_amo_slow (amo.c's typed
 *                  fast paths miss into it), shm_xp_signal
 *   fence, quiet   shm_xp_fence, shm_xp_quiet, shm_xp_pe_quiet
 *   barrier        shm_xp_barrier: quiet, then a synchronization
 *
 * Two implementations under it:
 *   mapped  the target shares my supernode: its copy is mapped here and
 *           the operation is a copy, load, store or CPU atomic on it
 *           (shm_map_*, inline below, and amo.c's per-type instructions);
 *   MPI     a PE of another supernode: the windows and the shipped atomics
 *           (shm_net_*, out of line, net*.c).
 * The choice is the address translation (shm_fast, shm_fast_range): a hit
 * is the mapped path, inline in the caller, with no other test; a miss
 * goes out of line to the seam's slow entry (xport.c), which checks the
 * arguments (a bad PE or address ends the job naming the routine) and then
 * takes one path or the other. Only xport.[ch] and net*.c ask which path a
 * PE is on.
 *
 * The rule, written once: a barrier implies quiet (shm_xp_barrier). Every
 * barrier that completes this PE's operations (shmem_barrier_all,
 * shmem_barrier, the allocator's and init's and finalize's shm_barrier)
 * is a shm_xp_barrier over its own synchronization; a sync that does not
 * (shmem_sync_all, shmem_sync, shmem_team_sync) calls that synchronization
 * alone.
 */
#ifndef PSHMEM_XPORT_H
#define PSHMEM_XPORT_H

#include "shmem_internal.h"

#include "amo_apply.h"

#include <stdatomic.h>
#include <string.h>

/* ---- the mapped implementation: p is this process's pointer to the
 * target's copy (the translation's hit) ---- */

/* The signal word's update of put-with-signal and shmem_signal_set/add:
 * set a release store, add a locked add (a waiter's acquire load pairs
 * with either). after_put: a release fence first, so the data's stores
 * are ordered before the signal's (a compiler barrier on x86-64; glibc's
 * memcpy fences its own non-temporal stores). */
static inline void shm_map_signal(uint64_t *sig, uint64_t v, int add, int after_put)
{
    if (after_put)
        atomic_thread_fence(memory_order_release);
    if (add)
        __atomic_fetch_add(sig, v, __ATOMIC_SEQ_CST);
    else
        __atomic_store_n(sig, v, __ATOMIC_RELEASE);
}

/* fence: a release fence (the compiler; free on TSO) plus SFENCE, which
 * orders any non-temporal stores before later stores. quiet: a
 * sequentially consistent fence: every earlier store is globally visible
 * before any later load or store (order.c says why each suffices). */
static inline void shm_map_fence(void)
{
    atomic_thread_fence(memory_order_release);
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_sfence();
#endif
}

static inline void shm_map_quiet(void)
{
    atomic_thread_fence(memory_order_seq_cst);
}

/* ---- the seam's out-of-line entries (xport.c): checks, then one path ---- */

void shm_xp_put_slow(const char *call, void *dest, const void *src, size_t n, int pe, int nbi)
    SHM_HIDDEN;
void shm_xp_get_slow(const char *call, void *dest, const void *src, size_t n, int pe, int nbi)
    SHM_HIDDEN;
/* The atomic `op` (enum shm_aop) on PE pe's `size`-byte (4 or 8) object at
 * sym; the old value in the low bytes. fetching: the caller wants it (the
 * MPI path waits for the answer only then; quiet completes the others). */
uint64_t shm_xp_amo_slow(const char *call, const void *sym, int pe, int op, size_t size,
                         uint64_t val, uint64_t cond, int fetching) SHM_HIDDEN;
void shm_xp_signal_slow(const char *call, uint64_t *sig_addr, uint64_t signal, int add, int pe,
                        int after_put) SHM_HIDDEN;
/* shmem_pe_quiet once its arguments are checked. */
void shm_xp_pe_quiet(const int *pes, size_t npes) SHM_HIDDEN;
/* The layer's own barrier of all PEs, without the quiet (pshm's, or MPI's
 * that serves other PEs' atomics while it waits); shm_barrier is it with
 * the quiet. The job ends if it fails. */
void shm_xp_sync_all(void) SHM_HIDDEN;

/* ---- the seam's calls ---- */

/* nelems * size, which must not wrap (a wrapped count would pass the range
 * check and move the wrong amount). */
static inline size_t shm_xp_bytes(const char *call, size_t nelems, size_t size)
{
    if (SHM_UNLIKELY(nelems > SIZE_MAX / size))
        shm_fatal(call, "nelems %zu of %zu bytes each is more than the address space", nelems,
                  size);
    return nelems * size;
}

static inline void shm_xp_put(const char *call, void *dest, const void *src, size_t n, int pe,
                              int nbi)
{
    void *r = shm_fast_range(dest, n, pe);

    if (SHM_LIKELY(r != NULL && !shm_sym.debug))
        memcpy(r, src, n);
    else
        shm_xp_put_slow(call, dest, src, n, pe, nbi);
}

static inline void shm_xp_get(const char *call, void *dest, const void *src, size_t n, int pe,
                              int nbi)
{
    const void *r = shm_fast_range(src, n, pe);

    if (SHM_LIKELY(r != NULL && !shm_sym.debug))
        memcpy(dest, r, n);
    else
        shm_xp_get_slow(call, dest, src, n, pe, nbi);
}

/* One element of type T: one store or load through a volatile pointer, so
 * that the access is one instruction of the element's width, never split
 * or merged. The misses are out of line and take the value by value, so
 * that the fast path keeps no frame. */
#define SHM_XP_ELEM(N, T)                                                        \
    static __attribute__((noinline, cold)) void shm_xp_p_slow_##N(const char *call, T *dest, \
                                                                  T value, int pe) \
    {                                                                            \
        shm_xp_put_slow(call, dest, &value, sizeof(T), pe, 0);                   \
    }                                                                            \
    static __attribute__((noinline, cold)) T shm_xp_g_slow_##N(const char *call, \
                                                               const T *source, int pe) \
    {                                                                            \
        T v;                                                                     \
        shm_xp_get_slow(call, &v, source, sizeof(T), pe, 0);                     \
        return v;                                                                \
    }                                                                            \
    static inline void shm_xp_p_##N(const char *call, T *dest, T value, int pe)  \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_LIKELY(p != NULL))                                               \
            *(volatile T *)p = value;                                            \
        else                                                                     \
            shm_xp_p_slow_##N(call, dest, value, pe);                            \
    }                                                                            \
    static inline T shm_xp_g_##N(const char *call, const T *source, int pe)      \
    {                                                                            \
        const T *p = shm_fast(source, pe);                                       \
        if (SHM_LIKELY(p != NULL))                                               \
            return *(const volatile T *)p;                                       \
        return shm_xp_g_slow_##N(call, source, pe);                              \
    }

/* An atomic by its code on a 4- or 8-byte object (the layer's own users:
 * locks), the mapped path's instruction being amo_apply.h's; amo.c's typed
 * routines inline their own instruction and miss into shm_xp_amo_slow. */
static inline uint64_t shm_xp_amo(const char *call, const void *sym, int pe, int op, size_t size,
                                  uint64_t val, uint64_t cond, int fetching)
{
    void *p = shm_fast(sym, pe);

    if (SHM_LIKELY(p != NULL))
        return shm_amo_apply(p, size, op, val, cond);
    return shm_xp_amo_slow(call, sym, pe, op, size, val, cond, fetching);
}

/* shmem_signal_set/add (after_put 0) and put-with-signal's update, once
 * its data is put (after_put 1: ordered after the data on either path). */
static inline void shm_xp_signal(const char *call, uint64_t *sig_addr, uint64_t signal, int add,
                                 int pe, int after_put)
{
    uint64_t *sig = shm_fast(sig_addr, pe);

    if (SHM_UNLIKELY(sig == NULL))
        shm_xp_signal_slow(call, sig_addr, signal, add, pe, after_put);
    else
        shm_map_signal(sig, signal, add, after_put);
}

/* Both: the mapped part, then MPI's only if this PE issued through MPI
 * since the last quiet (one load and compare otherwise). Toward MPI a
 * fence is a quiet (MPI orders nothing between two puts without a flush).
 * The acquire pairs with another thread's quiet (order.c). */
static inline void shm_xp_fence(void)
{
    shm_map_fence();
    if (SHM_UNLIKELY(__atomic_load_n(&shm_net_pending, __ATOMIC_ACQUIRE)))
        shm_net_quiet();
}

static inline void shm_xp_quiet(void)
{
    shm_map_quiet();
    if (SHM_UNLIKELY(__atomic_load_n(&shm_net_pending, __ATOMIC_ACQUIRE)))
        shm_net_quiet();
}

/* A barrier implies quiet: this PE's puts, gets and atomics (either path)
 * are complete before any PE leaves sync, a synchronization that completes
 * nothing by itself. The one place the rule is written. */
static inline void shm_xp_barrier(void (*sync)(void *), void *arg)
{
    shm_xp_quiet();
    sync(arg);
}

#endif /* PSHMEM_XPORT_H */
