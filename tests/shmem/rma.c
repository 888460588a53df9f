/*
 * rma.c - every put and get form on every standard RMA type, to the heap and
 * to static variables, checked element by element: PE p writes to PE p+1
 * and reads from PE p+1 (modulo the job's size), so every PE is origin and
 * target at once.
 */
#include "check.h"

#include <string.h>

#define NEL 37           /* odd, not a multiple of any vector width */

static long pSync_unused; /* a static in .bss among the test's arrays */

/* For each type: a static target, a static source, heap ones, one round
 * of each form. */
#define RMA_TEST(N, T)                                                           \
    static T st_##N[2 * NEL], ss_##N[2 * NEL];                                   \
    static void test_##N(int me, int npes, int k)                                \
    {                                                                            \
        int right = (me + 1) % npes, left = (me + npes - 1) % npes;              \
        T *ht = shmem_malloc(2 * NEL * sizeof(T)), *hs = shmem_malloc(2 * NEL * sizeof(T)); \
        T loc[2 * NEL];                                                          \
        T *tgt[2] = {st_##N, ht}, *srcs[2] = {ss_##N, hs};                       \
        CHECK(ht != NULL && hs != NULL, "shmem_malloc failed");                  \
        for (int w = 0; w < 2; w++) {                                            \
            T *t = tgt[w], *s = srcs[w];                                         \
            const char *where = w ? "heap" : "static";                           \
            for (int i = 0; i < 2 * NEL; i++) {                                  \
                s[i] = (T)VAL(me, i, k);                                         \
                t[i] = (T)0;                                                     \
            }                                                                    \
            shmem_barrier_all();                                                 \
            /* put, then get back what the right neighbour holds */             \
            shmem_##N##_put(t, s, NEL, right);                                   \
            shmem_barrier_all();                                                 \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(t[i] == (T)VAL(left, i, k), #N " put %s [%d]", where, i);  \
            memset(loc, 0, sizeof loc);                                          \
            shmem_##N##_get(loc, s, NEL, right);                                 \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(loc[i] == (T)VAL(right, i, k), #N " get %s [%d]", where, i); \
            shmem_barrier_all();                                                 \
            /* p and g, one element at a time */                                \
            for (int i = 0; i < NEL; i++)                                        \
                shmem_##N##_p(&t[NEL + i], (T)VAL(me, i, k + 1), right);         \
            shmem_barrier_all();                                                 \
            for (int i = 0; i < NEL; i++) {                                      \
                CHECK(t[NEL + i] == (T)VAL(left, i, k + 1), #N " p %s [%d]", where, i); \
                CHECK(shmem_##N##_g(&s[i], right) == (T)VAL(right, i, k), #N " g %s [%d]", \
                      where, i);                                                 \
            }                                                                    \
            shmem_barrier_all();                                                 \
            /* iput: every 2nd target element from every 1st source element */  \
            for (int i = 0; i < 2 * NEL; i++) t[i] = (T)0;                       \
            shmem_barrier_all();                                                 \
            shmem_##N##_iput(t, s, 2, 1, NEL, right);                            \
            shmem_barrier_all();                                                 \
            for (int i = 0; i < 2 * NEL; i++)                                    \
                CHECK(t[i] == (i % 2 ? (T)0 : (T)VAL(left, i / 2, k)), #N " iput %s [%d]", \
                      where, i);                                                 \
            memset(loc, 0, sizeof loc);                                          \
            shmem_##N##_iget(loc, s, 1, 2, NEL, right);                          \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(loc[i] == (T)VAL(right, 2 * i, k), #N " iget %s [%d]", where, i); \
            shmem_barrier_all();                                                 \
            /* nbi forms, completed by quiet */                                  \
            shmem_##N##_put_nbi(t + NEL, s, NEL, right);                         \
            shmem_quiet();                                                       \
            memset(loc, 0, sizeof loc);                                          \
            shmem_##N##_get_nbi(loc, s + NEL, NEL, right);                       \
            shmem_quiet();                                                       \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(loc[i] == (T)VAL(right, NEL + i, k), #N " get_nbi %s [%d]", where, i); \
            shmem_barrier_all();                                                 \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(t[NEL + i] == (T)VAL(left, i, k), #N " put_nbi %s [%d]", where, i); \
            shmem_barrier_all();                                                 \
        }                                                                        \
        shmem_free(hs);                                                          \
        shmem_free(ht);                                                          \
    }
SHMEM_RMA_TYPES(RMA_TEST)

/* Sized forms and putmem/getmem: bytes, checked as bytes. */
static unsigned char sbytes[16 * NEL * 2];
static void test_sized(int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    unsigned char *h = shmem_malloc(sizeof sbytes), src[sizeof sbytes], loc[sizeof sbytes];
    unsigned char *tgt[2] = {sbytes, h};

    CHECK(h != NULL, "shmem_malloc failed");
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(me * 7 + i);
    for (int w = 0; w < 2; w++) {
        unsigned char *t = tgt[w];
        for (int bits = 8; bits <= 128; bits *= 2) {
            size_t es = (size_t)bits / 8;
            for (int form = 0; form < 4; form++) {
                memset(t, 0, sizeof sbytes);
                shmem_barrier_all();
                switch (bits * 10 + form) {
#define SIZED_CASES(S)                                                           \
                case S * 10 + 0: shmem_put##S(t, src, NEL, right); break;        \
                case S * 10 + 1: shmem_put##S##_nbi(t, src, NEL, right); shmem_quiet(); break; \
                case S * 10 + 2: shmem_iput##S(t, src, 2, 1, NEL, right); break; \
                case S * 10 + 3: shmem_putmem(t, src, NEL * (S / 8), right); break;
                SHMEM_RMA_SIZES(SIZED_CASES)
                }
                shmem_barrier_all();
                for (size_t i = 0; i < NEL; i++) {
                    size_t at = form == 2 ? 2 * i * es : i * es;
                    for (size_t b = 0; b < es; b++)
                        CHECK(t[at + b] == (unsigned char)(left * 7 + i * es + b),
                              "put%d form %d (%s) element %zu byte %zu", bits, form,
                              w ? "heap" : "static", i, b);
                }
                /* get the right neighbour's target back */
                for (size_t i = 0; i < sizeof src; i++)
                    t[i] = (unsigned char)(me * 5 + i);
                shmem_barrier_all();
                memset(loc, 0, sizeof loc);
                switch (bits * 10 + form) {
#define SIZED_GETS(S)                                                            \
                case S * 10 + 0: shmem_get##S(loc, t, NEL, right); break;        \
                case S * 10 + 1: shmem_get##S##_nbi(loc, t, NEL, right); shmem_quiet(); break; \
                case S * 10 + 2: shmem_iget##S(loc, t, 1, 2, NEL, right); break; \
                case S * 10 + 3: shmem_getmem(loc, t, NEL * (S / 8), right); break;
                SHMEM_RMA_SIZES(SIZED_GETS)
                }
                for (size_t i = 0; i < NEL; i++) {
                    size_t at = form == 2 ? 2 * i * es : i * es;
                    for (size_t b = 0; b < es; b++)
                        CHECK(loc[i * es + b] == (unsigned char)(right * 5 + at + b),
                              "get%d form %d (%s) element %zu byte %zu", bits, form,
                              w ? "heap" : "static", i, b);
                }
                shmem_barrier_all();
            }
        }
    }
    shmem_free(h);
}

/* The C11 generic forms pick the typed routine by the pointer type. */
static double gd[4];
static int gi[4];
static void test_generic(int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    double d = me + 0.5;
    int i = me * 3;

    shmem_put(&gd[1], &d, 1, right);
    shmem_p(&gi[2], i, right);
    shmem_barrier_all();
    CHECK(gd[1] == left + 0.5, "shmem_put (generic) double: %g", gd[1]);
    CHECK(gi[2] == left * 3, "shmem_p (generic) int: %d", gi[2]);
    CHECK(shmem_g(&gi[2], right) == me * 3, "shmem_g (generic) int");
    shmem_get(&d, &gd[1], 1, right);
    CHECK(d == me + 0.5, "shmem_get (generic) double: %g", d);
    shmem_barrier_all();
}

int main(void)
{
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    (void)pSync_unused;
#define RUN(N, T) test_##N(me, npes, (int)sizeof(T));
    SHMEM_RMA_TYPES(RUN)
    test_sized(me, npes);
    test_generic(me, npes);
    if (me == 0)
        printf("rma: every form and type checked element by element on %d PEs\n", npes);
    shmem_finalize();
    return 0;
}
