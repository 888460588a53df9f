/*
 * hosts_rma.c - puts and gets between every pair of PEs in one job, so that
 * when the PEs are split into supernodes each PE reaches some peers through
 * shared memory and the others through the off-node path in the same run:
 * every standard RMA type, contiguous, one element at a time (p, g),
 * strided (iput, iget), non-blocking (put_nbi, get_nbi), putmem/getmem,
 * to the heap and to statics, checked element by element. Every origin
 * writes its own slot of each target's array, all at once.
 */
#include "check.h"

#include <string.h>

#define NEL 13   /* odd: strided forms leave a tail */
#define MAXPE 16

static int me, npes;

#define RMA_TEST(N, T)                                                           \
    static T st_##N[MAXPE][2 * NEL], ss_##N[2 * NEL];                            \
    static void test_##N(T (*tgt)[2 * NEL], T *src, const char *area)           \
    {                                                                            \
        T loc[2 * NEL];                                                          \
        for (int i = 0; i < 2 * NEL; i++)                                        \
            src[i] = (T)VAL(me, i, 0);                                           \
        memset(tgt, 0, MAXPE * sizeof *tgt);                                     \
        shmem_barrier_all();                                                     \
        /* put and p: slot me of every peer, [0, NEL) and [NEL, 2 NEL) */       \
        for (int d = 1; d < npes; d++) {                                         \
            int pe = (me + d) % npes;                                            \
            shmem_##N##_put(tgt[me], src, NEL, pe);                              \
            for (int i = 0; i < NEL; i++)                                        \
                shmem_##N##_p(&tgt[me][NEL + i], (T)VAL(me, i, pe + 1), pe);     \
        }                                                                        \
        shmem_barrier_all();                                                     \
        for (int o = 0; o < npes; o++) {                                         \
            if (o == me) continue;                                               \
            for (int i = 0; i < NEL; i++) {                                      \
                CHECK(tgt[o][i] == (T)VAL(o, i, 0), #N " put %s from PE %d [%d]", area, o, i); \
                CHECK(tgt[o][NEL + i] == (T)VAL(o, i, me + 1), #N " p %s from PE %d [%d]", \
                      area, o, i);                                               \
            }                                                                    \
        }                                                                        \
        /* get and g from every peer's source */                                \
        for (int d = 1; d < npes; d++) {                                         \
            int pe = (me + d) % npes;                                            \
            memset(loc, 0, sizeof loc);                                          \
            shmem_##N##_get(loc, src, 2 * NEL, pe);                              \
            for (int i = 0; i < 2 * NEL; i++) {                                  \
                CHECK(loc[i] == (T)VAL(pe, i, 0), #N " get %s from PE %d [%d]", area, pe, i); \
                CHECK(shmem_##N##_g(&src[i], pe) == (T)VAL(pe, i, 0), #N " g %s from PE %d [%d]", \
                      area, pe, i);                                              \
            }                                                                    \
        }                                                                        \
        shmem_barrier_all();                                                     \
        memset(tgt, 0, MAXPE * sizeof *tgt);                                     \
        shmem_barrier_all();                                                     \
        /* iput: every 2nd element of my slot from the source's first NEL */   \
        for (int d = 1; d < npes; d++)                                           \
            shmem_##N##_iput(tgt[me], src, 2, 1, NEL, (me + d) % npes);          \
        shmem_barrier_all();                                                     \
        for (int o = 0; o < npes; o++) {                                         \
            if (o == me) continue;                                               \
            for (int i = 0; i < 2 * NEL; i++)                                    \
                CHECK(tgt[o][i] == (i % 2 ? (T)0 : (T)VAL(o, i / 2, 0)),         \
                      #N " iput %s from PE %d [%d]", area, o, i);                \
        }                                                                        \
        /* iget: every 2nd source element into every 3rd local one */          \
        for (int d = 1; d < npes; d++) {                                         \
            int pe = (me + d) % npes;                                            \
            memset(loc, 0, sizeof loc);                                          \
            shmem_##N##_iget(loc, src, 3, 2, 2 * NEL / 3, pe);                   \
            for (int i = 0; i < 2 * NEL; i++)                                    \
                CHECK(loc[i] == (i % 3 || i / 3 >= 2 * NEL / 3 ? (T)0 : (T)VAL(pe, 2 * (i / 3), 0)), \
                      #N " iget %s from PE %d [%d]", area, pe, i);               \
        }                                                                        \
        shmem_barrier_all();                                                     \
        /* put_nbi to every peer, then one quiet; get_nbi likewise */          \
        for (int d = 1; d < npes; d++)                                           \
            shmem_##N##_put_nbi(tgt[me], &src[NEL], NEL, (me + d) % npes);       \
        shmem_quiet();                                                           \
        shmem_barrier_all();                                                     \
        for (int o = 0; o < npes; o++) {                                         \
            if (o == me) continue;                                               \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(tgt[o][i] == (T)VAL(o, NEL + i, 0), #N " put_nbi %s from PE %d [%d]", \
                      area, o, i);                                               \
        }                                                                        \
        for (int d = 1; d < npes; d++) {                                         \
            int pe = (me + d) % npes;                                            \
            memset(loc, 0, sizeof loc);                                          \
            shmem_##N##_get_nbi(loc, &tgt[pe][0], NEL, pe);                      \
            shmem_quiet();                                                       \
            for (int i = 0; i < NEL; i++)   /* what pe put into its own slot: nothing */ \
                CHECK(loc[i] == (T)0, #N " get_nbi %s of PE %d's own slot [%d]", area, pe, i); \
            shmem_##N##_get_nbi(loc, &tgt[(pe + 1) % npes][0], NEL, pe);         \
            shmem_quiet();                                                       \
            for (int i = 0; i < NEL; i++)                                        \
                CHECK(loc[i] == ((pe + 1) % npes == pe ? (T)0 : (T)VAL((pe + 1) % npes, NEL + i, 0)), \
                      #N " get_nbi %s from PE %d [%d]", area, pe, i);            \
        }                                                                        \
        shmem_barrier_all();                                                     \
    }
SHMEM_RMA_TYPES(RMA_TEST)

/* putmem and getmem of odd byte counts at odd offsets. */
static unsigned char sbytes[MAXPE][301];
static void test_mem(unsigned char (*tgt)[301], const char *area)
{
    unsigned char src[301], loc[301];

    for (int i = 0; i < 301; i++)
        src[i] = (unsigned char)(me * 37 + i);
    memset(tgt, 0, MAXPE * sizeof *tgt);
    shmem_barrier_all();
    for (int d = 1; d < npes; d++)
        shmem_putmem(&tgt[me][1], &src[1], 299, (me + d) % npes);
    shmem_barrier_all();
    for (int o = 0; o < npes; o++)
        for (int i = 0; i < 301; i++)
            CHECK(tgt[o][i] == (o == me || i == 0 || i == 300 ? 0 : (unsigned char)(o * 37 + i)),
                  "putmem %s from PE %d [%d]: %d", area, o, i, tgt[o][i]);
    for (int d = 1; d < npes; d++) {
        int pe = (me + d) % npes, o = (pe + 1) % npes;
        memset(loc, 0, sizeof loc);
        shmem_getmem(&loc[3], &tgt[o][3], 297, pe);
        for (int i = 0; i < 301; i++)
            CHECK(loc[i] == (o == pe || i < 3 || i >= 300 ? 0 : (unsigned char)(o * 37 + i)),
                  "getmem %s from PE %d [%d]: %d", area, pe, i, loc[i]);
    }
    shmem_barrier_all();
}

int main(void)
{
    int local = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= MAXPE, "%d PEs: at most %d", npes, MAXPE);
#define RUN(N, T)                                                                \
    {                                                                            \
        T(*ht)[2 * NEL] = shmem_malloc(MAXPE * sizeof *ht);                      \
        T *hs = shmem_malloc(2 * NEL * sizeof(T));                               \
        CHECK(ht != NULL && hs != NULL, "shmem_malloc");                         \
        test_##N(st_##N, ss_##N, "static");                                     \
        test_##N(ht, hs, "heap");                                                \
        shmem_free(hs);                                                          \
        shmem_free(ht);                                                          \
    }
    SHMEM_RMA_TYPES(RUN)
    {
        unsigned char(*hb)[301] = shmem_malloc(MAXPE * sizeof *hb);
        CHECK(hb != NULL, "shmem_malloc");
        test_mem(sbytes, "static");
        test_mem(hb, "heap");
        shmem_free(hb);
    }
    for (int pe = 0; pe < npes; pe++)
        local += shmem_ptr(sbytes, pe) != NULL;
    if (me == 0)
        printf("hosts_rma: every form and type between every pair of %d PEs (PE 0 shares "
               "memory with %d), heap and statics\n", npes, local);
    shmem_finalize();
    return 0;
}
