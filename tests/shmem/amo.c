/*
 * amo.c - atomics under contention from every PE, counted exactly, on the
 * heap and on static variables, for every standard AMO type; the bitwise
 * ones; fetch, set and swap on the extended types; compare_swap as a lock-
 * free increment; fetch_inc handing out unique tickets; the deprecated names
 * and the C11 generic forms.
 */
#include "check.h"

#define ITER 300

#define AMO_TEST(N, T)                                                           \
    static T sc_##N[2];                                                          \
    static void test_##N(int me, int npes)                                       \
    {                                                                            \
        T *hc = shmem_calloc(2, sizeof(T));                                      \
        T *ctr[2] = {sc_##N, hc};                                                \
        CHECK(hc != NULL, "shmem_calloc failed");                                \
        for (int w = 0; w < 2; w++) {                                            \
            T *c = ctr[w];                                                       \
            c[0] = c[1] = 0;                                                     \
            shmem_barrier_all();                                                 \
            /* every PE hits every PE's counter, interleaved */                 \
            for (int it = 0; it < ITER; it++)                                    \
                for (int d = 0; d < npes; d++) {                                 \
                    int pe = (me + d) % npes;                                    \
                    T old = shmem_##N##_atomic_fetch_inc(&c[0], pe);             \
                    CHECK(old < (T)(7 * ITER * npes), #N " fetch_inc old value %lld", \
                          (long long)old);                                       \
                    shmem_##N##_atomic_inc(&c[0], pe);                           \
                    shmem_##N##_atomic_add(&c[0], (T)2, pe);                     \
                    (void)shmem_##N##_atomic_fetch_add(&c[0], (T)3, pe);         \
                    /* compare_swap loop: an increment that can lose races */    \
                    T seen = shmem_##N##_atomic_fetch(&c[1], pe), prev;          \
                    while ((prev = shmem_##N##_atomic_compare_swap(&c[1], seen, (T)(seen + 1), \
                                                                   pe)) != seen) \
                        seen = prev;                                             \
                }                                                                \
            shmem_barrier_all();                                                 \
            CHECK(c[0] == (T)(7 * ITER * npes), #N " %s counter %lld, expected %d", \
                  w ? "heap" : "static", (long long)c[0], 7 * ITER * npes);      \
            CHECK(c[1] == (T)(ITER * npes), #N " %s compare_swap counter %lld, expected %d", \
                  w ? "heap" : "static", (long long)c[1], ITER * npes);          \
            /* set, fetch, swap */                                               \
            shmem_barrier_all();                                                 \
            if (me == 0) shmem_##N##_atomic_set(&c[1], (T)77, npes - 1);         \
            shmem_barrier_all();                                                 \
            CHECK(shmem_##N##_atomic_fetch(&c[1], npes - 1) == (T)77, #N " set/fetch"); \
            shmem_barrier_all();                                                 \
            T got = shmem_##N##_atomic_swap(&c[1], (T)me, npes - 1);                    \
            CHECK(got == (T)77 || got < (T)npes, #N " swap returned %lld", (long long)got); \
            shmem_barrier_all();                                                 \
        }                                                                        \
        shmem_free(hc);                                                          \
    }
SHMEM_AMO_TYPES(AMO_TEST)

#define BIT_TEST(N, T)                                                           \
    static T sb_##N;                                                             \
    static void bits_##N(int me, int npes)                                       \
    {                                                                            \
        T all = 0, bit = (T)((T)1 << (me % 32));                                 \
        for (int p = 0; p < npes; p++) all |= (T)((T)1 << (p % 32));             \
        sb_##N = 0;                                                              \
        shmem_barrier_all();                                                     \
        for (int pe = 0; pe < npes; pe++) {                                      \
            if (me % 2) shmem_##N##_atomic_or(&sb_##N, bit, pe);                 \
            else (void)shmem_##N##_atomic_fetch_or(&sb_##N, bit, pe);            \
        }                                                                        \
        shmem_barrier_all();                                                     \
        CHECK(sb_##N == all, #N " or: %llx, expected %llx", (unsigned long long)sb_##N, \
              (unsigned long long)all);                                          \
        shmem_barrier_all();                                                     \
        for (int pe = 0; pe < npes; pe++) {                                      \
            if (me % 2) shmem_##N##_atomic_xor(&sb_##N, bit, pe);                \
            else (void)shmem_##N##_atomic_fetch_xor(&sb_##N, bit, pe);           \
        }                                                                        \
        shmem_barrier_all();                                                     \
        CHECK(sb_##N == 0, #N " xor: %llx, expected 0", (unsigned long long)sb_##N); \
        sb_##N = (T)~(T)0;                                                       \
        shmem_barrier_all();                                                     \
        for (int pe = 0; pe < npes; pe++) {                                      \
            if (me % 2) shmem_##N##_atomic_and(&sb_##N, (T)~bit, pe);            \
            else (void)shmem_##N##_atomic_fetch_and(&sb_##N, (T)~bit, pe);       \
        }                                                                        \
        shmem_barrier_all();                                                     \
        CHECK(sb_##N == (T)~all, #N " and: %llx, expected %llx",                 \
              (unsigned long long)sb_##N, (unsigned long long)(T)~all);          \
        shmem_barrier_all();                                                     \
    }
SHMEM_BITWISE_AMO_TYPES(BIT_TEST)

/* Unique tickets: every value fetch_inc hands out is marked in a bitmap on
 * PE 0 with fetch_or, whose old value must not have the bit yet. */
#define TICKETS 200
static long ticket;
static unsigned long long seen[(TICKETS * 8 + 63) / 64 + 1];
static void test_tickets(int me, int npes)
{
    for (int i = 0; i < TICKETS; i++) {
        long t = shmem_long_atomic_fetch_inc(&ticket, 0);
        unsigned long long b = 1ull << (t % 64);
        CHECK(t >= 0 && t < (long)TICKETS * npes, "ticket %ld out of range", t);
        unsigned long long old = shmem_ulonglong_atomic_fetch_or(&seen[t / 64], b, 0);
        CHECK(!(old & b), "ticket %ld handed out twice", t);
    }
    shmem_barrier_all();
    if (me == 0)
        CHECK(ticket == (long)TICKETS * npes, "tickets %ld, expected %d", ticket, TICKETS * npes);
}

static float sf;
static double sd;
static int dep_i;
static long long dep_ll;
static void test_extended(int me, int npes)
{
    if (me == 0) {
        shmem_float_atomic_set(&sf, 1.5f, npes - 1);
        shmem_double_atomic_set(&sd, -2.25, npes - 1);
    }
    shmem_barrier_all();
    CHECK(shmem_float_atomic_fetch(&sf, npes - 1) == 1.5f, "float set/fetch");
    CHECK(shmem_double_atomic_fetch(&sd, npes - 1) == -2.25, "double set/fetch");
    shmem_barrier_all();
    if (me == npes - 1) {
        /* PE 0's values: 0 unless PE 0 is PE npes - 1, which got the sets */
        CHECK(shmem_double_atomic_swap(&sd, 4.0, 0) == (npes == 1 ? -2.25 : 0.0),
              "double swap old value");
        CHECK(shmem_float_swap(&sf, 3.0f, 0) == (npes == 1 ? 1.5f : 0.0f),
              "deprecated float swap old value");
    }
    /* deprecated names and the C11 generic forms, counted */
    for (int pe = 0; pe < npes; pe++) {
        shmem_int_inc(&dep_i, pe);
        (void)shmem_int_finc(&dep_i, pe);
        shmem_int_add(&dep_i, 2, pe);
        (void)shmem_int_fadd(&dep_i, 3, pe);
        shmem_atomic_inc(&dep_ll, pe);
        (void)shmem_atomic_fetch_add(&dep_ll, 4LL, pe);
        (void)shmem_longlong_cswap(&dep_ll, -1LL, 0LL, pe); /* never matches */
    }
    shmem_barrier_all();
    CHECK(dep_i == 7 * npes, "deprecated int atomics: %d, expected %d", dep_i, 7 * npes);
    CHECK(dep_ll == 5LL * npes, "generic long long atomics: %lld, expected %d", dep_ll, 5 * npes);
    if (me == 0) {
        CHECK(sd == 4.0 && sf == 3.0f, "swap stored: %g %g", sd, (double)sf);
        CHECK(shmem_atomic_fetch(&dep_i, 0) == 7 * npes, "generic fetch");
    }
    shmem_barrier_all();
}

/* 1.5 non-blocking fetching atomics: counted like the blocking ones, the
 * old values collected through *fetch after quiet. */
static long nbi_ctr;
static unsigned long nbi_bits;
static void test_nbi(int me, int npes)
{
    long f[4] = {-1, -1, -1, -1};
    unsigned long fb = 1;
    shmem_ctx_t ctx;

    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (int pe = 0; pe < npes; pe++) {
        shmem_long_atomic_fetch_inc_nbi(&f[0], &nbi_ctr, pe);
        shmem_long_atomic_fetch_add_nbi(&f[1], &nbi_ctr, 2, pe);
        shmem_ctx_long_atomic_fetch_add_nbi(ctx, &f[2], &nbi_ctr, 3, pe);
        shmem_ulong_atomic_fetch_or_nbi(&fb, &nbi_bits, 1UL << me, pe);
        shmem_quiet();
        for (int k = 0; k < 3; k++)
            CHECK(f[k] >= 0 && f[k] < 6L * npes, "nbi fetched value %d: %ld", k, f[k]);
        CHECK(!(fb & (1UL << me)), "fetch_or_nbi: my bit was set already: %#lx", fb);
    }
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    CHECK(nbi_ctr == 6L * npes, "nbi counter %ld, expected %d", nbi_ctr, 6 * npes);
    CHECK(nbi_bits == (npes >= 64 ? ~0UL : (1UL << npes) - 1), "nbi bits %#lx", nbi_bits);
    shmem_long_atomic_fetch_nbi(&f[3], &nbi_ctr, (me + 1) % npes);
    shmem_long_atomic_compare_swap_nbi(&f[0], &nbi_ctr, -5, 0, me); /* no match */
    shmem_long_atomic_swap_nbi(&f[1], &nbi_ctr, 6L * npes, me);
    shmem_quiet();
    CHECK(f[3] == 6L * npes && f[0] == 6L * npes && f[1] == 6L * npes, "nbi fetch/cswap/swap");
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
}

int main(void)
{
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
#define RUN(N, T) test_##N(me, npes);
    SHMEM_AMO_TYPES(RUN)
#define RUNB(N, T) bits_##N(me, npes);
    SHMEM_BITWISE_AMO_TYPES(RUNB)
    test_tickets(me, npes);
    test_extended(me, npes);
    test_nbi(me, npes);
    if (me == 0)
        printf("amo: every atomic counted exactly on %d PEs, heap and statics\n", npes);
    shmem_finalize();
    return 0;
}
