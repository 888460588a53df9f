/*
 * coll_alltoall.c - shmem_alltoall32/64 and shmem_alltoalls32/64.
 *
 * Member i's block j (of its source) lands in member j's dest as block i.
 * Every member pulls the blocks meant for it, between a sync that says all
 * sources are in place and one that says nobody still reads them; each
 * starts with the member after itself, so the members read different
 * sources at once. The strided form moves elements one by one; the plain
 * form is the strided one with strides 1, block by block with memcpy.
 */
#include "coll.h"

#include <stdint.h>
#include <string.h>

/* Bytes from the first to the last element of `count` elements `stride`
 * elements apart. */
static size_t span(const char *call, size_t count, ptrdiff_t stride, size_t esize)
{
    if (count == 0)
        return 0;
    return coll_bytes(call, 1 + coll_bytes(call, count - 1, (size_t)stride), esize);
}

static void copy_strided(char *d, ptrdiff_t dst, const char *s, ptrdiff_t sst, size_t n,
                         size_t esize)
{
    if (dst == 1 && sst == 1) {
        memcpy(d, s, n * esize);
    } else if (esize == 4) {
        for (size_t e = 0; e < n; e++)
            memcpy(d + (size_t)dst * e * 4, s + (size_t)sst * e * 4, 4);
    } else {
        for (size_t e = 0; e < n; e++)
            memcpy(d + (size_t)dst * e * 8, s + (size_t)sst * e * 8, 8);
    }
}

static void coll_alltoalls(const char *call, void *dest, const void *source, ptrdiff_t dst,
                           ptrdiff_t sst, size_t nelems, size_t esize, int PE_start,
                           int logPE_stride, int PE_size, long *pSync)
{
    coll_set_t s;
    size_t all, dspan, sspan;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    if (dst < 1)
        shm_fatal(call, "dst is %td; the dest stride must be at least 1", dst);
    if (sst < 1)
        shm_fatal(call, "sst is %td; the source stride must be at least 1", sst);
    if (nelems == 0)
        return;
    all = coll_bytes(call, nelems, (size_t)s.size);
    dspan = span(call, all, dst, esize);
    sspan = span(call, all, sst, esize);
    shm_remote_range(call, dest, dspan, shm.me);
    shm_remote_range(call, source, sspan, shm.me);
    /* Strided objects may interleave without sharing an element. */
    if (dst == 1 && sst == 1)
        coll_check_overlap(call, dest, dspan, source, sspan);
    /* Every source is in place after this. */
    coll_sync(call, &s, pSync);
    for (int k = 1; k <= s.size; k++) {
        int i = (s.me + k) % s.size;
        const char *src = i == s.me ? source : shm_remote_range(call, source, sspan, coll_pe(&s, i));

        copy_strided((char *)dest + (size_t)i * nelems * (size_t)dst * esize, dst,
                     src + (size_t)s.me * nelems * (size_t)sst * esize, sst, nelems, esize);
    }
    /* Nobody reads this member's source after this. */
    coll_sync(call, &s, pSync);
}

void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync)
{
    coll_alltoalls("shmem_alltoall32", dest, source, 1, 1, nelems, 4, PE_start, logPE_stride,
                   PE_size, pSync);
}

void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync)
{
    coll_alltoalls("shmem_alltoall64", dest, source, 1, 1, nelems, 8, PE_start, logPE_stride,
                   PE_size, pSync);
}

void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    coll_alltoalls("shmem_alltoalls32", dest, source, dst, sst, nelems, 4, PE_start,
                   logPE_stride, PE_size, pSync);
}

void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    coll_alltoalls("shmem_alltoalls64", dest, source, dst, sst, nelems, 8, PE_start,
                   logPE_stride, PE_size, pSync);
}
