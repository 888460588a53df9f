/*
 * coll_reduce.c - every shmem_TYPE_OP_to_all of OpenSHMEM 1.4 over active
 * sets, into the heap or static arrays (argument "heap" or "static").
 *
 * The values are small integers (exact in every real and complex type, no
 * overflow in short), so each member's result is compared exactly, element
 * by element, with the fold over the members computed here; bytes past
 * nreduce and every byte of a non-member's dest must be untouched. Sizes 1,
 * 7 and 100 (more elements than members, fewer, and a lone one), 7 and 100
 * in place (dest == source), with one pSync and one pWrk for every call; pWrk
 * past SHMEM_REDUCE_MIN_WRKDATA_SIZE elements must stay untouched, as many
 * programs declare it that size whatever nreduce is.
 */
#include "coll_test.h"

#include <complex.h>
#include <stdint.h>

#define NMAX 100
#define ESIZE_MAX 32 /* long double and double complex take 16; room to spare */

static _Alignas(64) unsigned char s_src[NMAX * ESIZE_MAX], s_dest[NMAX * ESIZE_MAX],
    s_wrk[NMAX * ESIZE_MAX];
static long s_psync[SHMEM_REDUCE_SYNC_SIZE];
static unsigned char *src, *dest, *wrk;
static long *pSync;
static int me;
static const int sizes[] = {1, 7, NMAX};

/* The values each class of operator reduces: member pe, element i. */
#define V_BITS(pe, i) (((pe) * 0x1357 + (i) * 0x2469 + 0x55) & 0x7fff)
#define V_MINMAX(pe, i) ((((pe) * 7 + (i) * 13) % 41) - 20)
#define V_SUM(pe, i) ((((pe) * 5 + (i) * 3) % 11) - 5)
#define V_PROD(pe, i) (((pe) + (i)) % 4 == 3 ? -2 : 1 + ((pe) + (i)) % 3)
#define V_CSUM(pe, i) (V_SUM(pe, i) + I * ((((pe) + 2 * (i)) % 7) - 3))
#define V_CPROD(pe, i) (((pe) + (i)) % 3 == 0 ? 1 + I : ((pe) + (i)) % 3 == 1 ? 2 : -I)

#define F_AND(a, b) ((a) & (b))
#define F_OR(a, b) ((a) | (b))
#define F_XOR(a, b) ((a) ^ (b))
#define F_MIN(a, b) ((b) < (a) ? (b) : (a))
#define F_MAX(a, b) ((b) > (a) ? (b) : (a))
#define F_SUM(a, b) ((a) + (b))
#define F_PROD(a, b) ((a) * (b))

static int check_bytes(const unsigned char *p, size_t from, size_t to, const char *what,
                       const char *name, const ct_set_t *s, int n)
{
    for (size_t b = from; b < to; b++)
        if (p[b] != 0xa5) {
            CT_CHECK(0, "%s set (%d,%d,%d) nreduce %d: byte %zu of %s changed to %#x", name,
                     s->start, s->log, s->size, n, b, what, p[b]);
            return 1;
        }
    return 0;
}

#define T_REDUCE(N, T, OP, F, V)                                                         \
    static void t_##N##_##OP(const ct_set_t *s)                                         \
    {                                                                                    \
        const char *name = "shmem_" #N "_" #OP "_to_all";                                \
        int idx = ct_index(s, me);                                                       \
        for (int k = 0; k < 5; k++) {                                                    \
            int n = k < 3 ? sizes[k] : sizes[k - 2], inplace = k >= 3;                  \
            T *d = inplace ? (T *)src : (T *)dest, *sv = (T *)src;                       \
            memset(dest, 0xa5, NMAX * ESIZE_MAX);                                        \
            memset(wrk, 0xa5, NMAX * ESIZE_MAX);                                         \
            memset(src, 0, NMAX * ESIZE_MAX);                                            \
            for (int i = 0; i < n; i++)                                                  \
                sv[i] = (T)(V(me, i));                                                   \
            shmem_barrier_all();                                                         \
            if (idx >= 0)                                                                \
                shmem_##N##_##OP##_to_all(d, sv, n, s->start, s->log, s->size, (T *)wrk, \
                                          pSync);                                        \
            shmem_barrier_all();                                                         \
            /* Programs often give pWrk the minimum size only. */                      \
            check_bytes(wrk, SHMEM_REDUCE_MIN_WRKDATA_SIZE * sizeof(T), NMAX * ESIZE_MAX,  \
                        "pWrk", name, s, n);                                             \
            if (!inplace && check_bytes(dest, idx >= 0 ? (size_t)n * sizeof(T) : 0,      \
                                        NMAX * ESIZE_MAX, "dest", name, s, n))           \
                continue;                                                                \
            for (int i = 0; i < n && idx >= 0; i++) {                                    \
                T want = (T)(V(s->start, i));                                            \
                for (int m = 1; m < s->size; m++)                                        \
                    want = (T)F(want, (T)(V(ct_pe(s, m), i)));                           \
                if (d[i] != want) {                                                      \
                    CT_CHECK(0, "%s set (%d,%d,%d) nreduce %d%s: element %d wrong", name, \
                             s->start, s->log, s->size, n, inplace ? " in place" : "", i); \
                    break;                                                               \
                }                                                                        \
            }                                                                            \
        }                                                                                \
    }

#define INT_TYPES(X, OP, F, V)                                                           \
    X(short, short, OP, F, V) X(int, int, OP, F, V) X(long, long, OP, F, V)              \
    X(longlong, long long, OP, F, V)
#define REAL_TYPES(X, OP, F, V)                                                          \
    X(float, float, OP, F, V) X(double, double, OP, F, V) X(longdouble, long double, OP, F, V)
#define CPLX_TYPES(X, OP, F, V)                                                          \
    X(complexf, float _Complex, OP, F, V) X(complexd, double _Complex, OP, F, V)

#define ALL_TESTS(X)                                                                     \
    INT_TYPES(X, and, F_AND, V_BITS)                                                     \
    INT_TYPES(X, or, F_OR, V_BITS)                                                       \
    INT_TYPES(X, xor, F_XOR, V_BITS)                                                     \
    INT_TYPES(X, min, F_MIN, V_MINMAX)                                                   \
    REAL_TYPES(X, min, F_MIN, V_MINMAX)                                                  \
    INT_TYPES(X, max, F_MAX, V_MINMAX)                                                   \
    REAL_TYPES(X, max, F_MAX, V_MINMAX)                                                  \
    INT_TYPES(X, sum, F_SUM, V_SUM)                                                      \
    REAL_TYPES(X, sum, F_SUM, V_SUM)                                                     \
    CPLX_TYPES(X, sum, F_SUM, V_CSUM)                                                    \
    INT_TYPES(X, prod, F_PROD, V_PROD)                                                   \
    REAL_TYPES(X, prod, F_PROD, V_PROD)                                                  \
    CPLX_TYPES(X, prod, F_PROD, V_CPROD)

ALL_TESTS(T_REDUCE)

#define T_ENTRY(N, T, OP, F, V) t_##N##_##OP,
static void (*const tests[])(const ct_set_t *) = {ALL_TESTS(T_ENTRY)};

int main(int argc, char **argv)
{
    ct_set_t sets[CT_MAX_SETS];
    int nsets, statics = argc > 1 && strcmp(argv[1], "static") == 0;
    size_t ntests = sizeof tests / sizeof tests[0];

    shmem_init();
    me = shmem_my_pe();
    pSync = statics ? s_psync : ct_psync(SHMEM_REDUCE_SYNC_SIZE);
    src = statics ? s_src : shmem_malloc(sizeof s_src);
    dest = statics ? s_dest : shmem_malloc(sizeof s_dest);
    wrk = statics ? s_wrk : shmem_malloc(sizeof s_wrk);
    nsets = ct_sets(shmem_n_pes(), sets);
    for (int k = 0; k < nsets; k++) {
        for (size_t t = 0; t < ntests; t++)
            tests[t](&sets[k]);
        ct_check_psync(pSync, SHMEM_REDUCE_SYNC_SIZE, "after the reductions");
        shmem_barrier_all();
    }
    if (me == 0)
        printf("%zu reductions, sizes 1, 7, %d, and 7 and %d in place, into %s over %d active sets\n",
               ntests, NMAX, NMAX, statics ? "statics" : "the heap", nsets);
    if (!statics) {
        shmem_free(wrk);
        shmem_free(dest);
        shmem_free(src);
        shmem_free(pSync);
    }
    return ct_finish("coll_reduce");
}
