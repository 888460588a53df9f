/*
 * coll_alltoall.c - the alltoall kernel, and shmem_alltoall32/64 and
 * shmem_alltoalls32/64 on it.
 *
 * Member i's block j (of its source) lands in member j's dest as block i.
 * Every member pulls the blocks meant for it, between a sync that says all
 * sources are in place and one that says nobody still reads them; each
 * starts with the member after itself, so the members read different
 * sources at once. The strided form moves elements one by one; the plain
 * form is the strided one with strides 1, block by block with memcpy.
 *
 * Across supernodes: each member pulls the blocks of its own supernode's
 * members as above; each leader sends every other leader one message with
 * the blocks its members have for that supernode's members, and writes the
 * blocks it receives straight into its members' dests (they are inside the
 * call, waiting in the second sync).
 */
#include "coll.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes from the first to the last element of `count` elements `stride`
 * elements apart. */
static size_t span(const char *call, size_t count, ptrdiff_t stride, size_t esize)
{
    if (count == 0)
        return 0;
    return coll_bytes(call, 1 + coll_bytes(call, count - 1, (size_t)stride), esize);
}

/* Element by element with a constant size, so that each copy is one load
 * and one store. */
#define COPY_STRIDED_(W)                                                          \
    for (size_t e = 0; e < n; e++)                                                \
        memcpy(d + (size_t)dst * e * (W), s + (size_t)sst * e * (W), (W))

static void copy_strided(char *d, ptrdiff_t dst, const char *s, ptrdiff_t sst, size_t n,
                         size_t esize)
{
    if (dst == 1 && sst == 1) {
        memcpy(d, s, n * esize);
        return;
    }
    switch (esize) {
    case 1: COPY_STRIDED_(1); break;
    case 2: COPY_STRIDED_(2); break;
    case 4: COPY_STRIDED_(4); break;
    case 8: COPY_STRIDED_(8); break;
    case 16: COPY_STRIDED_(16); break;
    default: COPY_STRIDED_(esize); break;
    }
}

/* The leader's part across supernodes. */
static void leader_alltoalls(const char *call, char *dest, const char *source, ptrdiff_t dst,
                             ptrdiff_t sst, size_t nelems, size_t esize, size_t dspan,
                             size_t sspan, coll_span_t *sp)
{
    const coll_set_t *l = &sp->local;
    int me = sp->node, nn = sp->nnodes, m = l->size;
    size_t blk = coll_bytes(call, nelems, esize), dblk = blk * (size_t)dst,
           sblk = blk * (size_t)sst;
    size_t all = coll_bytes(call, coll_bytes(call, (size_t)m, (size_t)(sp->size - m)), blk);
    size_t *len = calloc(2 * (size_t)nn, sizeof(size_t));
    void **buf = calloc(2 * (size_t)nn, sizeof(void *));
    char *out = malloc(all ? all : 1), *in = malloc(all ? all : 1), *o = out, *r = in;

    if (len == NULL || buf == NULL || out == NULL || in == NULL)
        shm_fatal(call, "out of memory for 2 x %zu bytes of an alltoall between supernodes",
                  all);
    /* To supernode g: for each of my members a, for each of g's members b,
     * a's block b; from g: for each of g's members, my members' blocks. */
    for (int g = 0; g < nn; g++) {
        size_t bytes = blk * (size_t)m * (size_t)(sp->first[g + 1] - sp->first[g]);

        if (g == me)
            continue;
        buf[g] = o;
        buf[nn + g] = r;
        len[g] = len[nn + g] = bytes;
        for (int a = 0; a < m; a++) {
            const char *src = shm_remote_range(call, source, sspan, coll_pe(l, a));

            for (int j = sp->first[g]; j < sp->first[g + 1]; j++, o += blk)
                copy_strided(o, 1, src + (size_t)sp->idx[j] * sblk, sst, nelems, esize);
        }
        r += bytes;
    }
    coll_net_exchange(call, sp, COLL_STEP_DATA, buf, len, buf + nn, len + nn);
    for (int g = 0; g < nn; g++) {
        if (g == me)
            continue;
        r = buf[nn + g];
        for (int j = sp->first[g]; j < sp->first[g + 1]; j++)
            for (int b = 0; b < m; b++, r += blk)
                copy_strided((char *)shm_remote_range(call, dest, dspan, coll_pe(l, b)) +
                                 (size_t)sp->idx[j] * dblk,
                             dst, r, 1, nelems, esize);
    }
    free(in);
    free(out);
    free(buf);
    free(len);
}

void coll_alltoalls_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                        const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                        size_t esize, long *pSync)
{
    const coll_set_t *l;
    size_t all, dspan, sspan;

    if (dst < 1)
        shm_fatal(call, "dst is %td; the dest stride must be at least 1", dst);
    if (sst < 1)
        shm_fatal(call, "sst is %td; the source stride must be at least 1", sst);
    if (nelems == 0)
        return;
    all = coll_bytes(call, nelems, (size_t)s->size);
    dspan = span(call, all, dst, esize);
    sspan = span(call, all, sst, esize);
    shm_remote_range(call, dest, dspan, shm.me);
    shm_remote_range(call, source, sspan, shm.me);
    /* Strided objects may interleave without sharing an element. */
    if (dst == 1 && sst == 1)
        coll_check_overlap(call, dest, dspan, source, sspan);
    l = sp != NULL ? &sp->local : s;
    /* Every source (of my supernode) is in place after this. */
    coll_sync(call, l, pSync);
    for (int k = 1; k <= l->size; k++) {
        int a = (l->me + k) % l->size, i = sp != NULL ? sp->idx[sp->first[sp->node] + a] : a;
        const char *src = a == l->me ? source : shm_remote_range(call, source, sspan, coll_pe(l, a));

        copy_strided((char *)dest + (size_t)i * nelems * (size_t)dst * esize, dst,
                     src + (size_t)s->me * nelems * (size_t)sst * esize, sst, nelems, esize);
    }
    if (sp != NULL && l->me == 0)
        leader_alltoalls(call, dest, source, dst, sst, nelems, esize, dspan, sspan, sp);
    /* Nobody reads this member's source after this (and every block has
     * reached its dest). */
    coll_sync(call, l, pSync);
}

static void alltoalls_set(const char *call, void *dest, const void *source, ptrdiff_t dst,
                          ptrdiff_t sst, size_t nelems, size_t esize, int PE_start,
                          int logPE_stride, int PE_size, long *pSync)
{
    coll_set_t s;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    coll_alltoalls_run(call, &s, coll_span(call, &s), dest, source, dst, sst, nelems, esize,
                       pSync);
}

void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync)
{
    alltoalls_set("shmem_alltoall32", dest, source, 1, 1, nelems, 4, PE_start, logPE_stride,
                  PE_size, pSync);
}

void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start,
                      int logPE_stride, int PE_size, long *pSync)
{
    alltoalls_set("shmem_alltoall64", dest, source, 1, 1, nelems, 8, PE_start, logPE_stride,
                  PE_size, pSync);
}

void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    alltoalls_set("shmem_alltoalls32", dest, source, dst, sst, nelems, 4, PE_start,
                  logPE_stride, PE_size, pSync);
}

void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems, int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    alltoalls_set("shmem_alltoalls64", dest, source, dst, sst, nelems, 8, PE_start,
                  logPE_stride, PE_size, pSync);
}
