/*
 * rma.c - put and get, every form: typed, sized, memory, single element,
 * strided, non-blocking. To a PE of my supernode they are copies between
 * this process's memory and the target's copy of the symmetric object,
 * mapped here; the non-blocking forms are complete on return too (quiet
 * then has nothing left to wait for but the ordering of the stores, see
 * order.c). To a PE of another supernode the address translation finds no
 * mapping and the operation goes through MPI (net_rma.c).
 *
 * A zero-length transfer returns before any address check (specification).
 * The symmetric range is checked in every build (one compare more than a
 * single element): a bad address ends this job, never reaches another
 * process's memory. SHMEM_DEBUG adds the NULL and overlap checks.
 */
#include "shmem_internal.h"

#include <string.h>

static void debug_checks(const char *call, void *dest, const void *src, size_t n,
                         const void *remote)
{
    shm_check_null(call, "dest", dest, n);
    shm_check_null(call, "source", src, n);
    /* A copy within one process's memory must not overlap itself. */
    if ((const char *)dest < (const char *)remote + n && (const char *)remote < (const char *)dest + n &&
        dest != remote)
        shm_fatal(call, "source [%p, +%zu) and dest [%p, +%zu) overlap", src, n, dest, n);
}

/* nelems * size, which must not wrap (a wrapped count would pass the range
 * check and copy the wrong amount). */
static inline size_t count_bytes(const char *call, size_t nelems, size_t size)
{
    if (SHM_UNLIKELY(nelems > SIZE_MAX / size))
        shm_fatal(call, "nelems %zu of %zu bytes each is more than the address space", nelems,
                  size);
    return nelems * size;
}

/* The slow paths, out of line so that the fast path keeps no frame: the
 * checks (a bad PE or range ends the job), the debug mode's, then the copy,
 * or MPI for a PE of another supernode. */
static __attribute__((noinline, cold)) void put_slow(const char *call, void *dest,
                                                     const void *src, size_t n, int pe, int nbi)
{
    void *r = shm_range_or_net(call, dest, n, pe);

    if (SHM_UNLIKELY(shm_sym.debug))
        debug_checks(call, r != NULL ? r : dest, src, n, r != NULL ? src : NULL);
    if (r != NULL)
        memcpy(r, src, n);
    else
        shm_net_put(dest, src, n, pe, nbi);
}

static __attribute__((noinline, cold)) void get_slow(const char *call, void *dest,
                                                     const void *src, size_t n, int pe, int nbi)
{
    const void *r = shm_range_or_net(call, src, n, pe);

    if (SHM_UNLIKELY(shm_sym.debug))
        debug_checks(call, dest, r != NULL ? r : src, n, r);
    if (r != NULL)
        memcpy(dest, r, n);
    else
        shm_net_get(dest, src, n, pe, nbi);
}

static inline void put_bytes(const char *call, void *dest, const void *src, size_t nelems,
                             size_t size, int pe, int nbi)
{
    size_t n = count_bytes(call, nelems, size);
    void *r;

    if (n == 0)
        return;
    r = shm_fast_range(dest, n, pe);
    if (SHM_LIKELY(r != NULL && !shm_sym.debug))
        memcpy(r, src, n);
    else
        put_slow(call, dest, src, n, pe, nbi);
}

void shm_put_bytes(const char *call, void *dest, const void *src, size_t nelems, size_t size,
                   int pe)
{
    put_bytes(call, dest, src, nelems, size, pe, 0);
}

static inline void get_bytes(const char *call, void *dest, const void *src, size_t nelems,
                             size_t size, int pe, int nbi)
{
    size_t n = count_bytes(call, nelems, size);
    const void *r;

    if (n == 0)
        return;
    r = shm_fast_range(src, n, pe);
    if (SHM_LIKELY(r != NULL && !shm_sym.debug))
        memcpy(dest, r, n);
    else
        get_slow(call, dest, src, n, pe, nbi);
}

/* Strided copy of nblocks blocks of bsize elements of `size` bytes
 * (shmem_internal.h); strides in elements. The first and last remote
 * block bound the remote range. */
void shm_strided(const char *call, int is_put, void *dest, const void *src, ptrdiff_t dst,
                 ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size, int pe)
{
    ptrdiff_t rst = is_put ? dst : sst;
    size_t arst = rst < 0 ? (size_t)0 - (size_t)rst : (size_t)rst, blk;
    const char *sym = is_put ? (const char *)dest : (const char *)src, *lo, *hi;
    char *r;

    if (nblocks == 0 || bsize == 0)
        return;
    blk = count_bytes(call, bsize, size);
    /* (nblocks - 1) * stride * size plus a block must fit a ptrdiff_t: no
     * wrapped span. */
    if (SHM_UNLIKELY(nblocks > (size_t)PTRDIFF_MAX / size || blk > (size_t)PTRDIFF_MAX / 2 ||
                     (arst != 0 && arst > (size_t)PTRDIFF_MAX / 2 / size / nblocks)))
        shm_fatal(call, "%zu blocks of %zu elements with stride %td of %zu-byte elements span "
                  "more than the address space", nblocks, bsize, rst, size);
    lo = sym;
    hi = sym + (ptrdiff_t)(nblocks - 1) * rst * (ptrdiff_t)size;
    if (hi < lo) {
        const char *t = lo;
        lo = hi;
        hi = t;
    }
    r = shm_range_or_net(call, lo, (size_t)(hi - lo) + blk, pe);
    if (SHM_UNLIKELY(shm_sym.debug)) {
        shm_check_null(call, "dest", dest, nblocks);
        shm_check_null(call, "source", src, nblocks);
    }
    if (r == NULL) {
        if (is_put)
            shm_net_iput(dest, src, dst, sst, bsize, nblocks, size, pe);
        else
            shm_net_iget(dest, src, dst, sst, bsize, nblocks, size, pe);
        return;
    }
    r += sym - lo;
    if (is_put) {
        const char *s = src;
        for (size_t i = 0; i < nblocks; i++, r += dst * (ptrdiff_t)size, s += sst * (ptrdiff_t)size)
            memcpy(r, s, blk);
    } else {
        char *d = dest;
        for (size_t i = 0; i < nblocks; i++, d += dst * (ptrdiff_t)size, r += sst * (ptrdiff_t)size)
            memcpy(d, r, blk);
    }
}

/* Single elements: one store or load through a volatile pointer, so that the
 * access is one instruction of the element's width, never split or merged. */
#define RMA_TYPED(N, T)                                                          \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe)        \
    {                                                                            \
        put_bytes("shmem_" #N "_put", dest, source, nelems, sizeof(T), pe, 0);  \
    }                                                                            \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe)        \
    {                                                                            \
        get_bytes("shmem_" #N "_get", dest, source, nelems, sizeof(T), pe, 0);  \
    }                                                                            \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe)    \
    {                                                                            \
        put_bytes("shmem_" #N "_put_nbi", dest, source, nelems, sizeof(T), pe, 1); \
    }                                                                            \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe)    \
    {                                                                            \
        get_bytes("shmem_" #N "_get_nbi", dest, source, nelems, sizeof(T), pe, 1); \
    }                                                                            \
    static __attribute__((noinline, cold)) void p_slow_##N(T *dest, T value, int pe) \
    {                                                                            \
        put_slow("shmem_" #N "_p", dest, &value, sizeof(T), pe, 0);              \
    }                                                                            \
    static __attribute__((noinline, cold)) T g_slow_##N(const T *source, int pe) \
    {                                                                            \
        T v;                                                                     \
        get_slow("shmem_" #N "_g", &v, source, sizeof(T), pe, 0);                \
        return v;                                                                \
    }                                                                            \
    void shmem_##N##_p(T *dest, T value, int pe)                                 \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_LIKELY(p != NULL))                                               \
            *(volatile T *)p = value;                                            \
        else                                                                     \
            p_slow_##N(dest, value, pe);                                         \
    }                                                                            \
    T shmem_##N##_g(const T *source, int pe)                                     \
    {                                                                            \
        const T *p = shm_fast(source, pe);                                       \
        if (SHM_LIKELY(p != NULL))                                               \
            return *(const volatile T *)p;                                       \
        return g_slow_##N(source, pe);                                           \
    }                                                                            \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                          size_t nelems, int pe)                                 \
    {                                                                            \
        shm_strided("shmem_" #N "_iput", 1, dest, source, dst, sst, 1, nelems, sizeof(T), pe); \
    }                                                                            \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                          size_t nelems, int pe)                                 \
    {                                                                            \
        shm_strided("shmem_" #N "_iget", 0, dest, source, dst, sst, 1, nelems, sizeof(T), pe); \
    }
SHMEM_RMA_TYPES(RMA_TYPED)

#define RMA_SIZED(S)                                                             \
    void shmem_put##S(void *dest, const void *source, size_t nelems, int pe)     \
    {                                                                            \
        put_bytes("shmem_put" #S, dest, source, nelems, S / 8, pe, 0);           \
    }                                                                            \
    void shmem_get##S(void *dest, const void *source, size_t nelems, int pe)     \
    {                                                                            \
        get_bytes("shmem_get" #S, dest, source, nelems, S / 8, pe, 0);           \
    }                                                                            \
    void shmem_put##S##_nbi(void *dest, const void *source, size_t nelems, int pe) \
    {                                                                            \
        put_bytes("shmem_put" #S "_nbi", dest, source, nelems, S / 8, pe, 1);    \
    }                                                                            \
    void shmem_get##S##_nbi(void *dest, const void *source, size_t nelems, int pe) \
    {                                                                            \
        get_bytes("shmem_get" #S "_nbi", dest, source, nelems, S / 8, pe, 1);    \
    }                                                                            \
    void shmem_iput##S(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                       size_t nelems, int pe)                                    \
    {                                                                            \
        shm_strided("shmem_iput" #S, 1, dest, source, dst, sst, 1, nelems, S / 8, pe);  \
    }                                                                            \
    void shmem_iget##S(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, \
                       size_t nelems, int pe)                                    \
    {                                                                            \
        shm_strided("shmem_iget" #S, 0, dest, source, dst, sst, 1, nelems, S / 8, pe);  \
    }
SHMEM_RMA_SIZES(RMA_SIZED)

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
    put_bytes("shmem_putmem", dest, source, nelems, 1, pe, 0);
}
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
    get_bytes("shmem_getmem", dest, source, nelems, 1, pe, 0);
}
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    put_bytes("shmem_putmem_nbi", dest, source, nelems, 1, pe, 1);
}
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
    get_bytes("shmem_getmem_nbi", dest, source, nelems, 1, pe, 1);
}
