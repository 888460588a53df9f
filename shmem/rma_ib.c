/*
 * rma_ib.c - the interleaved block transfers of OpenSHMEM 1.6: shmem_ibput
 * and shmem_ibget, typed, sized and with a context. nblocks blocks of
 * bsize elements; block i is at dest + i * dst and source + i * sst
 * elements. They are iput and iget with blocks for elements (rma.c's
 * shm_strided, the MPI path of net_rma.c for a PE of another supernode),
 * with the specification's condition on the strides: both at least bsize,
 * so that blocks do not overlap (a stride of bsize is contiguous data).
 *
 * Completion as iput and iget: ibput returns once the source may be
 * reused (to a PE of another supernode, after a local flush), ibget once
 * the data is in dest. A zero-length transfer (bsize or nblocks 0) returns
 * before any check, as every put and get does.
 */
#include "team.h"

static void ib(const char *call, int is_put, void *dest, const void *src, ptrdiff_t dst,
               ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size, int pe)
{
    if (nblocks == 0 || bsize == 0)
        return;
    if (SHM_UNLIKELY(dst < 0 || (size_t)dst < bsize))
        shm_fatal(call, "dst %td is less than bsize %zu: the stride between dest's blocks must "
                  "be at least the block size", dst, bsize);
    if (SHM_UNLIKELY(sst < 0 || (size_t)sst < bsize))
        shm_fatal(call, "sst %td is less than bsize %zu: the stride between source's blocks "
                  "must be at least the block size", sst, bsize);
    shm_strided(call, is_put, dest, src, dst, sst, bsize, nblocks, size, pe);
}

/* The context names an ordering scope (ctx.c) and the team whose PE
 * numbers pe is (ctx_pe, team.h): otherwise the forms with one do what the
 * forms without do. */
#define IB_TYPED(N, T)                                                           \
    void shmem_##N##_ibput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                           size_t n, int pe)                                     \
    { ib("shmem_" #N "_ibput", 1, d, s, dst, sst, b, n, sizeof(T), pe); }        \
    void shmem_##N##_ibget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                           size_t n, int pe)                                     \
    { ib("shmem_" #N "_ibget", 0, d, s, dst, sst, b, n, sizeof(T), pe); }        \
    void shmem_ctx_##N##_ibput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst,   \
                               ptrdiff_t sst, size_t b, size_t n, int pe)        \
    { ib("shmem_ctx_" #N "_ibput", 1, d, s, dst, sst, b, n, sizeof(T), CTX_PE(#N "_ibput")); } \
    void shmem_ctx_##N##_ibget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst,   \
                               ptrdiff_t sst, size_t b, size_t n, int pe)        \
    { ib("shmem_ctx_" #N "_ibget", 0, d, s, dst, sst, b, n, sizeof(T), CTX_PE(#N "_ibget")); }
SHMEM_RMA_TYPES(IB_TYPED)

#define IB_SIZED(S)                                                              \
    void shmem_ibput##S(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                        size_t n, int pe)                                        \
    { ib("shmem_ibput" #S, 1, d, s, dst, sst, b, n, S / 8, pe); }                \
    void shmem_ibget##S(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                        size_t n, int pe)                                        \
    { ib("shmem_ibget" #S, 0, d, s, dst, sst, b, n, S / 8, pe); }                \
    void shmem_ctx_ibput##S(shmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, \
                            ptrdiff_t sst, size_t b, size_t n, int pe)           \
    { ib("shmem_ctx_ibput" #S, 1, d, s, dst, sst, b, n, S / 8, CTX_PE("ibput" #S)); }   \
    void shmem_ctx_ibget##S(shmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, \
                            ptrdiff_t sst, size_t b, size_t n, int pe)           \
    { ib("shmem_ctx_ibget" #S, 0, d, s, dst, sst, b, n, S / 8, CTX_PE("ibget" #S)); }
SHMEM_RMA_SIZES(IB_SIZED)
