/*
 * coll_reduce.c - every shmem_TYPE_OP_to_all, from one kernel.
 *
 * Reduce-scatter, then all-gather:
 *   1. sync: every source is in place, and nobody still reads the slices of
 *      an earlier reduction;
 *   2. member m combines slice m (ceil(nreduce / PE_size) elements) of all
 *      members' sources, in member order, block by block in a buffer on the
 *      stack, and stores it where the others will read it;
 *   3. sync: every slice is done, and no source is read any more, so dest
 *      may now be written even when it is the source;
 *   4. every member copies every slice into its dest.
 * Small slices (up to SHMEM_REDUCE_MIN_WRKDATA_SIZE elements, all a program
 * must give pWrk whatever nreduce is, and all many give it) go through pWrk.
 * Larger ones go straight into the owner's dest, where only the owner reads
 * its source's slice; a third sync then keeps dest from being reused by its
 * PE while others still copy from it. Each slice is combined once, so every
 * member gets the same bits, floating point included. The typed entry points
 * differ only in the combining function, generated below from one macro per
 * operator.
 */
#include "coll.h"

#include <stdlib.h>
#include <string.h>

typedef void (*coll_combine_fn)(void *acc, const void *in, size_t n);

/* Bytes combined per pass over the sources: the accumulator stays in L1. */
#define COLL_REDUCE_BLOCK 8192u

/* Elements [*lo, *hi) of member i's slice. */
static void slice_of(size_t nreduce, size_t chunk, int i, size_t *lo, size_t *hi)
{
    *lo = chunk * (size_t)i;
    *hi = *lo + chunk < nreduce ? *lo + chunk : nreduce;
    if (*lo > *hi)
        *lo = *hi;
}

/* The reduction within the set s (all members mapped here). */
static void reduce_local(const char *call, void *dest, const void *source, int nreduce,
                         size_t esize, coll_combine_fn combine, const coll_set_t *s,
                         void *pWrk, long *pSync)
{
    _Alignas(64) unsigned char acc[COLL_REDUCE_BLOCK];
    size_t per = COLL_REDUCE_BLOCK / esize, n = (size_t)nreduce * esize, chunk, lo, hi;
    int in_wrk;

    if (s->size == 1) {
        if (dest != source)
            memcpy(dest, source, n);
        return;
    }
    chunk = ((size_t)nreduce + (size_t)s->size - 1) / (size_t)s->size;
    in_wrk = chunk <= SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    if (in_wrk)
        shm_remote_range(call, pWrk, chunk * esize, shm.me);
    slice_of((size_t)nreduce, chunk, s->me, &lo, &hi);

    coll_sync(call, s, pSync);
    for (size_t b = lo; b < hi; b += per) {
        size_t cnt = hi - b < per ? hi - b : per;

        for (int i = 0; i < s->size; i++) {
            const char *src = i == s->me ? source : shm_remote_range(call, source, n, coll_pe(s, i));

            if (i == 0)
                memcpy(acc, src + b * esize, cnt * esize);
            else
                combine(acc, src + b * esize, cnt);
        }
        memcpy(in_wrk ? (char *)pWrk + (b - lo) * esize : (char *)dest + b * esize, acc,
               cnt * esize);
    }
    coll_sync(call, s, pSync);
    for (int k = 1; k < s->size; k++) {
        int i = (s->me + k) % s->size;
        size_t l, h;

        slice_of((size_t)nreduce, chunk, i, &l, &h);
        if (l == h)
            continue;
        const char *w = in_wrk ? shm_remote_range(call, pWrk, (h - l) * esize, coll_pe(s, i))
                               : (char *)shm_remote_range(call, dest, n, coll_pe(s, i)) + l * esize;
        memcpy((char *)dest + l * esize, w, (h - l) * esize);
    }
    if (in_wrk) {
        if (hi > lo)
            memcpy((char *)dest + lo * esize, pWrk, (hi - lo) * esize);
    } else {
        /* Nobody copies from this PE's dest after this. */
        coll_sync(call, s, pSync);
    }
}

/* Across supernodes: each supernode reduces its members' sources into
 * their dests as above; the leaders swap these partial results (one
 * message per pair of leaders) and each combines all of them in the order
 * of the supernodes (by their lowest member), so every leader gets the same
 * bits; the members copy their leader's dest. */
static void reduce_span(const char *call, void *dest, const void *source, int nreduce,
                        size_t esize, coll_combine_fn combine, coll_span_t *sp, void *pWrk,
                        long *pSync)
{
    const coll_set_t *l = &sp->local;
    size_t n = (size_t)nreduce * esize;

    reduce_local(call, dest, source, nreduce, esize, combine, l, pWrk, pSync);
    if (l->me == 0) {
        int nn = sp->nnodes;
        char *part = malloc(coll_bytes(call, (size_t)nn, n));
        size_t *len = malloc((size_t)nn * sizeof(size_t));
        void **buf = malloc(2 * (size_t)nn * sizeof(void *));

        if (part == NULL || len == NULL || buf == NULL)
            shm_fatal(call, "out of memory for %d partial results of %zu bytes", nn, n);
        for (int g = 0; g < nn; g++) {
            buf[g] = dest;
            buf[nn + g] = part + (size_t)g * n;
            len[g] = n;
        }
        coll_net_exchange(call, sp, COLL_STEP_DATA, buf, len, buf + nn, len);
        memcpy(part + (size_t)sp->node * n, dest, n);
        memcpy(dest, part, n);
        for (int g = 1; g < nn; g++)
            combine(dest, part + (size_t)g * n, (size_t)nreduce);
        free(buf);
        free(len);
        free(part);
    }
    coll_fanout(call, l, 0, dest, dest, n, pSync, 0, NULL, 0);
}

static void coll_reduce(const char *call, void *dest, const void *source, int nreduce,
                        size_t esize, coll_combine_fn combine, int PE_start, int logPE_stride,
                        int PE_size, void *pWrk, long *pSync)
{
    coll_set_t s;
    coll_span_t *sp;
    size_t n;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    if (nreduce < 0)
        shm_fatal(call, "nreduce is %d; it must be 0 or more", nreduce);
    if (nreduce == 0)
        return;
    n = coll_bytes(call, (size_t)nreduce, esize);
    shm_remote_range(call, dest, n, shm.me);
    shm_remote_range(call, source, n, shm.me);
    if (dest != source)
        coll_check_overlap(call, dest, n, source, n);
    sp = coll_span(call, &s);
    if (sp != NULL)
        reduce_span(call, dest, source, nreduce, esize, combine, sp, pWrk, pSync);
    else
        reduce_local(call, dest, source, nreduce, esize, combine, &s, pWrk, pSync);
}

/* r = a OP b. Signed integers wrap (two's complement) instead of overflowing. */
#define COLL_AND(r, a, b) ((r) = (a) & (b))
#define COLL_OR(r, a, b) ((r) = (a) | (b))
#define COLL_XOR(r, a, b) ((r) = (a) ^ (b))
#define COLL_MIN(r, a, b) ((r) = (b) < (a) ? (b) : (a))
#define COLL_MAX(r, a, b) ((r) = (b) > (a) ? (b) : (a))
#define COLL_SUM(r, a, b) ((r) = (a) + (b))
#define COLL_PROD(r, a, b) ((r) = (a) * (b))
#define COLL_ISUM(r, a, b) ((void)__builtin_add_overflow(a, b, &(r)))
#define COLL_IPROD(r, a, b) ((void)__builtin_mul_overflow(a, b, &(r)))

#define COLL_REDUCE_DEF(OP, COMBINE, N, T)                                            \
    static void coll_##N##_##OP(void *acc, const void *in, size_t n)                \
    {                                                                                \
        T *x = acc;                                                                  \
        const T *y = in;                                                             \
        for (size_t i = 0; i < n; i++) {                                             \
            T r;                                                                     \
            COMBINE(r, x[i], y[i]);                                                  \
            x[i] = r;                                                                \
        }                                                                            \
    }                                                                                \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync) \
    {                                                                                \
        coll_reduce("shmem_" #N "_" #OP "_to_all", dest, source, nreduce, sizeof(T),  \
                    coll_##N##_##OP, PE_start, logPE_stride, PE_size, pWrk, pSync);  \
    }

#define COLL_AND_(N, T) COLL_REDUCE_DEF(and, COLL_AND, N, T)
#define COLL_OR_(N, T) COLL_REDUCE_DEF(or, COLL_OR, N, T)
#define COLL_XOR_(N, T) COLL_REDUCE_DEF(xor, COLL_XOR, N, T)
#define COLL_MIN_(N, T) COLL_REDUCE_DEF(min, COLL_MIN, N, T)
#define COLL_MAX_(N, T) COLL_REDUCE_DEF(max, COLL_MAX, N, T)
#define COLL_ISUM_(N, T) COLL_REDUCE_DEF(sum, COLL_ISUM, N, T)
#define COLL_IPROD_(N, T) COLL_REDUCE_DEF(prod, COLL_IPROD, N, T)
#define COLL_SUM_(N, T) COLL_REDUCE_DEF(sum, COLL_SUM, N, T)
#define COLL_PROD_(N, T) COLL_REDUCE_DEF(prod, COLL_PROD, N, T)

/* The arithmetic types that are not integers (shmem.h lists them with the
 * integers, whose sum and product must wrap). */
#if !defined(__STDC_NO_COMPLEX__)
#define COLL_REAL_TYPES(X)                                                           \
    X(float, float) X(double, double) X(longdouble, long double)                    \
    X(complexf, float _Complex) X(complexd, double _Complex)
#else
#define COLL_REAL_TYPES(X) X(float, float) X(double, double) X(longdouble, long double)
#endif

SHMEM_REDUCE_BITWISE_TYPES(COLL_AND_)
SHMEM_REDUCE_BITWISE_TYPES(COLL_OR_)
SHMEM_REDUCE_BITWISE_TYPES(COLL_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(COLL_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(COLL_MAX_)
SHMEM_REDUCE_BITWISE_TYPES(COLL_ISUM_)
SHMEM_REDUCE_BITWISE_TYPES(COLL_IPROD_)
COLL_REAL_TYPES(COLL_SUM_)
COLL_REAL_TYPES(COLL_PROD_)

void coll_reduce_and_long(const char *call, long *dest, const long *source, int nreduce,
                          const coll_set_t *s, coll_span_t *sp, void *pWrk, long *pSync)
{
    if (sp != NULL)
        reduce_span(call, dest, source, nreduce, sizeof(long), coll_long_and, sp, pWrk, pSync);
    else
        reduce_local(call, dest, source, nreduce, sizeof(long), coll_long_and, s, pWrk, pSync);
}
