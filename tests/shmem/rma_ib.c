/*
 * rma_ib.c - shmem_ibput and shmem_ibget (1.6) on every standard RMA type,
 * sized and with a context, to the heap and to static variables, checked
 * element by element against the layout computed here: PE p writes to PE
 * p+1 and reads from PE p+1. Blocks of NB elements with gaps in the
 * target (dst > bsize) and a contiguous source, and back; bsize 1 against
 * iput. With an argument, one misuse (tests/t-shmem-rma-ib.sh):
 *   bad-dst, bad-sst, neg-sst  a stride below bsize
 *   bad-pe                     a PE out of range
 *   zero                       zero-length transfers with bad arguments
 *                              return before any check (then exit 0)
 */
#include "check.h"

#include <string.h>

#define NB 3            /* elements per block */
#define NBLK 7          /* blocks */
#define GAP 2           /* elements between blocks in the strided side */
#define ST (NB + GAP)   /* its stride */
#define LEN (NBLK * ST)

/* Where element e (0 <= e < NBLK * NB) of the packed side lies in the
 * strided side. */
static inline int strided_at(int e)
{
    return e / NB * ST + e % NB;
}

#define IB_TEST(N, T)                                                            \
    static T st_##N[LEN], ss_##N[LEN];                                           \
    static void test_##N(shmem_ctx_t ctx, int me, int npes, int k)               \
    {                                                                            \
        int right = (me + 1) % npes, left = (me + npes - 1) % npes;              \
        T *ht = shmem_malloc(LEN * sizeof(T)), *hs = shmem_malloc(LEN * sizeof(T)); \
        T *tgt[2] = {st_##N, ht}, *srcs[2] = {ss_##N, hs}, loc[LEN];             \
        CHECK(ht != NULL && hs != NULL, "shmem_malloc failed");                  \
        for (int w = 0; w < 4; w++) {                                            \
            T *t = tgt[w % 2], *s = srcs[w % 2];                                 \
            const char *where = w % 2 ? "heap" : "static";                       \
            for (int i = 0; i < LEN; i++) {                                      \
                s[i] = (T)VAL(me, i, k + w);                                     \
                t[i] = (T)0;                                                     \
            }                                                                    \
            shmem_barrier_all();                                                 \
            /* packed source -> strided target on the right */                  \
            if (w < 2)                                                           \
                shmem_##N##_ibput(t, s, ST, NB, NB, NBLK, right);                \
            else                                                                 \
                shmem_ctx_##N##_ibput(ctx, t, s, ST, NB, NB, NBLK, right);       \
            shmem_barrier_all();                                                 \
            for (int i = 0, e = 0; i < LEN; i++) {                               \
                int in = i % ST < NB;                                            \
                T want = in ? (T)VAL(left, e, k + w) : (T)0;                     \
                CHECK(t[i] == want, #N " ibput %s form %d [%d]", where, w / 2, i); \
                e += in;                                                         \
            }                                                                    \
            /* strided source on the right -> packed here */                    \
            memset(loc, 0, sizeof loc);                                          \
            if (w < 2)                                                           \
                shmem_##N##_ibget(loc, s, NB, ST, NB, NBLK, right);              \
            else                                                                 \
                shmem_ctx_##N##_ibget(ctx, loc, s, NB, ST, NB, NBLK, right);     \
            for (int e = 0; e < LEN; e++)                                        \
                CHECK(loc[e] == (e < NBLK * NB ? (T)VAL(right, strided_at(e), k + w) : (T)0), \
                      #N " ibget %s form %d [%d]", where, w / 2, e);             \
            shmem_barrier_all();                                                 \
        }                                                                        \
        shmem_free(hs);                                                          \
        shmem_free(ht);                                                          \
    }
SHMEM_RMA_TYPES(IB_TEST)

/* Sized forms, as bytes: block element e of S bits is bytes [e*S/8, +S/8). */
static unsigned char sbytes[16 * LEN];
static void test_sized(shmem_ctx_t ctx, int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    unsigned char src[sizeof sbytes], loc[sizeof sbytes];

    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(me * 7 + i);
    for (int bits = 8; bits <= 128; bits *= 2) {
        size_t es = (size_t)bits / 8;
        for (int form = 0; form < 2; form++) {
            memset(sbytes, 0, sizeof sbytes);
            shmem_barrier_all();
            switch (bits * 10 + form) {
#define SIZED_PUTS(S)                                                            \
            case S * 10 + 0: shmem_ibput##S(sbytes, src, ST, NB, NB, NBLK, right); break; \
            case S * 10 + 1: shmem_ctx_ibput##S(ctx, sbytes, src, ST, NB, NB, NBLK, right); break;
            SHMEM_RMA_SIZES(SIZED_PUTS)
            }
            shmem_barrier_all();
            for (int e = 0; e < NBLK * NB; e++)
                for (size_t b = 0; b < es; b++)
                    CHECK(sbytes[(size_t)strided_at(e) * es + b] ==
                              (unsigned char)(left * 7 + (size_t)e * es + b),
                          "ibput%d form %d element %d byte %zu", bits, form, e, b);
            for (size_t i = 0; i < sizeof sbytes; i++)
                sbytes[i] = (unsigned char)(me * 5 + i);
            shmem_barrier_all();
            memset(loc, 0, sizeof loc);
            switch (bits * 10 + form) {
#define SIZED_GETS(S)                                                            \
            case S * 10 + 0: shmem_ibget##S(loc, sbytes, NB, ST, NB, NBLK, right); break; \
            case S * 10 + 1: shmem_ctx_ibget##S(ctx, loc, sbytes, NB, ST, NB, NBLK, right); break;
            SHMEM_RMA_SIZES(SIZED_GETS)
            }
            for (int e = 0; e < NBLK * NB; e++)
                for (size_t b = 0; b < es; b++)
                    CHECK(loc[(size_t)e * es + b] ==
                              (unsigned char)(right * 5 + (size_t)strided_at(e) * es + b),
                          "ibget%d form %d element %d byte %zu", bits, form, e, b);
            shmem_barrier_all();
        }
    }
}

/* The C11 generic forms, with and without a context; bsize 1 is iput. */
static long gl[LEN], gi[LEN];
static void test_generic(shmem_ctx_t ctx, int me, int npes)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long src[LEN], loc[LEN];

    for (int i = 0; i < LEN; i++)
        src[i] = me * 1000 + i;
    memset(gl, 0, sizeof gl);
    memset(gi, 0, sizeof gi);
    shmem_barrier_all();
    shmem_ibput(gl, src, ST, NB, NB, NBLK, right);
    shmem_ibput(ctx, gl + NB, src, ST, 1, 1, NBLK, right);
    shmem_long_iput(gi, src, ST, 1, NBLK, right);
    shmem_barrier_all();
    for (int i = 0, e = 0; i < LEN; i++) {
        long want = i % ST < NB ? left * 1000 + e++ : i % ST == NB ? left * 1000 + i / ST : 0;
        CHECK(gl[i] == want, "shmem_ibput (generic) [%d] = %ld, expected %ld", i, gl[i], want);
        CHECK(gi[i] == (i % ST == 0 ? left * 1000 + i / ST : 0), "iput [%d]", i);
    }
    memset(loc, 0, sizeof loc);
    shmem_ibget(loc, gl, NB, ST, NB, NBLK, right);
    shmem_ibget(ctx, loc + NBLK * NB, gl + NB, 1, ST, 1, NBLK, right);
    for (int e = 0; e < NBLK * NB; e++)
        CHECK(loc[e] == me * 1000 + e, "shmem_ibget (generic) [%d] = %ld", e, loc[e]);
    for (int e = 0; e < NBLK; e++)
        CHECK(loc[NBLK * NB + e] == me * 1000 + e, "shmem_ibget (generic, ctx) [%d]", e);
    shmem_barrier_all();
}

static void misuse(const char *what, int npes)
{
    int right = 1 % npes;

    if (strcmp(what, "bad-dst") == 0)
        shmem_long_ibput(gl, gl, 2, 3, 3, 2, right);
    if (strcmp(what, "bad-sst") == 0)
        shmem_ctx_ibget64(SHMEM_CTX_DEFAULT, gl, gl, 4, 3, 4, 2, right);
    if (strcmp(what, "neg-sst") == 0)
        shmem_long_ibget(gl, gl, 4, -4, 4, 2, right);
    if (strcmp(what, "bad-pe") == 0)
        shmem_long_ibput(gl, gl, 4, 4, 2, 2, npes);
    if (strcmp(what, "zero") == 0) {
        shmem_long_ibput(NULL, NULL, 0, -1, 0, 5, npes + 7);
        shmem_long_ibget(NULL, NULL, -3, 0, 5, 0, -1);
        shmem_barrier_all();
        if (shmem_my_pe() == 0)
            printf("rma_ib: zero-length transfers return before any check\n");
    }
}

int main(int argc, char **argv)
{
    int me, npes;
    shmem_ctx_t ctx;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1) {
        misuse(argv[1], npes);
        shmem_finalize();
        return 0;
    }
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
#define RUN(N, T) test_##N(ctx, me, npes, (int)sizeof(T));
    SHMEM_RMA_TYPES(RUN)
    test_sized(ctx, me, npes);
    test_generic(ctx, me, npes);
    shmem_ctx_destroy(ctx);
    if (me == 0)
        printf("rma_ib: ibput and ibget, every form and type, checked element by element on "
               "%d PEs\n", npes);
    shmem_finalize();
    return 0;
}
