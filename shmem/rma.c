/*
 * rma.c - put and get, every form: typed, sized, memory, single element,
 * strided, non-blocking. To a PE of my supernode they are copies between
 * this process's memory and the target's copy of the symmetric object,
 * mapped here; the non-blocking forms are complete on return too (quiet
 * then has nothing left to wait for but the ordering of the stores, see
 * order.c). To a PE of another supernode the address translation finds no
 * mapping and the operation goes through MPI (net_rma.c). Both through the
 * transport seam (xport.h): this file is the routines' front, their checks
 * of the counts and the seam's calls.
 *
 * A zero-length transfer returns before any address check (specification).
 * The symmetric range is checked in every build (one compare more than a
 * single element): a bad address ends this job, never reaches another
 * process's memory. SHMEM_DEBUG adds the NULL and overlap checks.
 */
#include "xport.h"

static inline void put_bytes(const char *call, void *dest, const void *src, size_t nelems,
                             size_t size, int pe, int nbi)
{
    size_t n = shm_xp_bytes(call, nelems, size);

    if (n != 0)
        shm_xp_put(call, dest, src, n, pe, nbi);
}

void shm_put_bytes(const char *call, void *dest, const void *src, size_t nelems, size_t size,
                   int pe)
{
    put_bytes(call, dest, src, nelems, size, pe, 0);
}

static inline void get_bytes(const char *call, void *dest, const void *src, size_t nelems,
                             size_t size, int pe, int nbi)
{
    size_t n = shm_xp_bytes(call, nelems, size);

    if (n != 0)
        shm_xp_get(call, dest, src, n, pe, nbi);
}

/* Single elements: the seam's element put and get (SHM_XP_ELEM). */
SHMEM_RMA_TYPES(SHM_XP_ELEM)

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
    void shmem_##N##_p(T *dest, T value, int pe)                                 \
    {                                                                            \
        shm_xp_p_##N("shmem_" #N "_p", dest, value, pe);                         \
    }                                                                            \
    T shmem_##N##_g(const T *source, int pe)                                     \
    {                                                                            \
        return shm_xp_g_##N("shmem_" #N "_g", source, pe);                       \
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
