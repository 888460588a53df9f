/*
 * hosts_amo.c - atomics on one variable from every PE at once, counted
 * exactly, when the PEs are split into supernodes: the target's
 * neighbours reach it through shared memory (locked instructions), the
 * others through the layer's off-node path, and the target itself with
 * its own atomics, all on the same words. Every AMO type, every atomic
 * (fetch and non-fetch, the 1.5 nbi fetching forms, the deprecated names),
 * heap and statics, two target PEs (0 and the last); shmem_quiet and a
 * barrier between phases.
 *
 *   tickets  fetch_inc and fetch_inc_nbi: the old values are a permutation
 *   count    inc, add 2, fetch_add 3 by every PE; all but the target go
 *            on until every PE did its rounds, so that the target's peers
 *            hit the word while the target, waiting, applies the other
 *            supernodes' requests to it: the sum; then a compare_swap
 *            increment: the count
 *   swap     distinct values swapped in: the values swapped out plus the
 *            last one are a permutation of all of them and the first
 *   fetch    set of a value whose bytes are all alike, fetch: never torn
 *   bits     each PE toggles, sets and clears its own bit (fetch forms
 *            check the bit's old value) beside a bit nobody touches
 *
 * argv[1]: iterations per PE and phase (even, default 40).
 */
#include "check.h"

#include <sched.h>
#include <string.h>

static int iter = 40;
static int me, npes;
static long long *mine, *all; /* the fetched values; all (heap): PE 0 gathers */
static long done;              /* PEs done with a phase's rounds, cumulative */
static long phase;

/* Every PE's mine[0..n) into PE 0's all[pe * n ..]; then a barrier. */
static void gather(int n)
{
    shmem_putmem(&all[(size_t)me * n], mine, (size_t)n * sizeof *mine, 0);
    shmem_quiet();
    shmem_barrier_all();
}

/* On PE 0: the gathered values plus `extra` (when have_extra) are exactly
 * 0 .. count-1, each once. */
static void check_perm(const char *what, int n, int have_extra, long long extra)
{
    long long count = (long long)n * npes + have_extra;
    unsigned char *seen = calloc((size_t)count, 1);

    CHECK(seen != NULL, "out of memory");
    for (long long k = 0; k < count; k++) {
        long long v = k < count - have_extra ? all[k] : extra;
        CHECK(v >= 0 && v < count, "%s: value %lld out of 0..%lld", what, v, count - 1);
        CHECK(!seen[v], "%s: value %lld seen twice (an update was lost)", what, v);
        seen[v] = 1;
    }
    free(seen);
}

/* shmem_quiet, then a barrier: the end of a phase. */
static void phase_end(void)
{
    shmem_quiet();
    shmem_barrier_all();
}

#define AMO_TEST(N, T)                                                           \
    static T s_##N[4];                                                           \
    static void amo_##N(int t, T *v, const char *area)                           \
    {                                                                            \
        if (me == t) memset(v, 0, 4 * sizeof(T));                                \
        shmem_barrier_all();                                                     \
        for (int i = 0; i < iter; i++) {                                         \
            T old = (T)-1;                                                       \
            if (i % 2) {                                                         \
                shmem_##N##_atomic_fetch_inc_nbi(&old, &v[0], t);                \
                shmem_quiet();                                                   \
            } else {                                                             \
                old = shmem_##N##_atomic_fetch_inc(&v[0], t);                    \
            }                                                                    \
            mine[i] = (long long)old;                                            \
        }                                                                        \
        phase_end();                                                             \
        gather(iter);                                                            \
        if (me == 0) check_perm(#N " fetch_inc tickets", iter, 0, 0);            \
        /* count: every PE but the target adds until all have done iter */    \
        /* rounds, so that the target's peers keep hitting the word while the */ \
        /* target, waiting, applies the others' requests to it */               \
        long long rounds = 0;                                                    \
        /* rounds per PE that keep every counter under 2^31 */                \
        const long long cap = ((1LL << 31) - 1) / (6LL * npes) - 1;              \
        phase++;                                                                 \
        for (;;) {                                                               \
            shmem_##N##_atomic_inc(&v[1], t);                                    \
            shmem_##N##_atomic_add(&v[1], (T)2, t);                              \
            T o3 = shmem_##N##_atomic_fetch_add(&v[1], (T)3, t);                 \
            CHECK((long long)o3 < 6 * cap * npes, #N " %s fetch_add old %lld", area, (long long)o3); \
            if (++rounds == iter)                                                \
                for (int pe = 0; pe < npes; pe++)                                \
                    shmem_long_atomic_inc(&done, pe);                            \
            /* the target, or a PE whose rounds would overflow, waits */         \
            if (rounds >= iter && (me == t || rounds >= cap)) {                  \
                shmem_long_wait_until(&done, SHMEM_CMP_GE, phase * npes);        \
                break;                                                           \
            }                                                                    \
            if (rounds >= iter && shmem_long_test(&done, SHMEM_CMP_GE, phase * npes)) \
                break;                                                           \
            if (rounds % 256 == 0) /* PEs may outnumber the CPUs */              \
                sched_yield();                                                   \
        }                                                                        \
        phase_end();                                                             \
        mine[0] = rounds;                                                        \
        gather(1);                                                               \
        if (me == 0) {                                                           \
            long long sum = 0;                                                   \
            for (int pe = 0; pe < npes; pe++) sum += all[pe];                    \
            T got = shmem_##N##_atomic_fetch(&v[1], t);                          \
            CHECK((long long)got == 6 * sum, #N " %s on PE %d: counter %lld, expected %lld " \
                  "(an update was lost)", area, t, (long long)got, 6 * sum);     \
        }                                                                        \
        shmem_barrier_all();                                                     \
        /* compare_swap as an increment (alone: a CPU hammering the word */      \
        /* would starve the other path's attempts) */                             \
        for (int i = 0; i < iter; i++) {                                         \
            T seen = shmem_##N##_atomic_fetch(&v[2], t), prev;                   \
            while ((prev = shmem_##N##_atomic_compare_swap(&v[2], seen, (T)(seen + 1), t)) != seen) \
                seen = prev;                                                     \
        }                                                                        \
        phase_end();                                                             \
        if (me == t)                                                             \
            CHECK((long long)v[2] == (long long)iter * npes, #N " %s on PE %d: compare_swap " \
                  "counter %lld, expected %lld", area, t, (long long)v[2], (long long)iter * npes); \
        shmem_barrier_all();                                                     \
        if (me == t) v[2] = 0;                                                   \
        shmem_barrier_all();                                                     \
        /* swap: PE p swaps in p * iter + i + 1; 0 is there first */             \
        for (int i = 0; i < iter; i++) {                                         \
            T in = (T)((long long)me * iter + i + 1), old = (T)-1;               \
            if (i % 2) {                                                         \
                shmem_##N##_atomic_swap_nbi(&old, &v[2], in, t);                 \
                shmem_quiet();                                                   \
            } else {                                                             \
                old = shmem_##N##_atomic_swap(&v[2], in, t);                     \
            }                                                                    \
            mine[i] = (long long)old;                                            \
        }                                                                        \
        phase_end();                                                             \
        gather(iter);                                                            \
        if (me == 0)                                                             \
            check_perm(#N " swap", iter, 1, (long long)shmem_##N##_atomic_fetch(&v[2], t)); \
        /* set and fetch: every byte of a value alike, so a torn one shows */   \
        const T pat = (T)0x0101010101010101ULL;                                  \
        for (int i = 0; i < iter; i++) {                                         \
            if (i % 2) shmem_##N##_atomic_set(&v[3], (T)(pat * (T)(me % 8 + 1)), t); \
            T got = shmem_##N##_atomic_fetch(&v[3], t);                          \
            CHECK(got == 0 || (got % pat == 0 && got / pat >= 1 && got / pat <= 8), \
                  #N " %s fetch returned %llx, not a value set", area,           \
                  (unsigned long long)got);                                      \
        }                                                                        \
        phase_end();                                                             \
    }
SHMEM_AMO_TYPES(AMO_TEST)

#define BIT_TEST(N, T)                                                           \
    static T b_##N;                                                              \
    static void bits_##N(int t, T *v, const char *area)                          \
    {                                                                            \
        const T bit = (T)((T)1 << me), keep = (T)((T)1 << 30);                   \
        if (me == t) *v = keep;                                                  \
        shmem_barrier_all();                                                     \
        for (int i = 0; i < iter; i++) {                                         \
            /* my bit is clear at the start of each round (only I change it) */ \
            T old = (T)0;                                                        \
            if (i % 2) {                                                         \
                shmem_##N##_atomic_fetch_xor_nbi(&old, v, bit, t);               \
                shmem_quiet();                                                   \
            } else {                                                             \
                old = shmem_##N##_atomic_fetch_xor(v, bit, t);                   \
            }                                                                    \
            CHECK(!(old & bit), #N " %s fetch_xor: my bit was set", area);      \
            shmem_##N##_atomic_xor(v, bit, t);                                   \
            old = shmem_##N##_atomic_fetch_or(v, bit, t);                        \
            CHECK(!(old & bit), #N " %s fetch_or: my bit was set", area);       \
            shmem_##N##_atomic_and(v, (T)~bit, t);                               \
            shmem_##N##_atomic_or(v, bit, t);                                    \
            old = shmem_##N##_atomic_fetch_and(v, (T)~bit, t);                   \
            CHECK(old & bit, #N " %s fetch_and: my bit was clear", area);       \
            CHECK(old & keep, #N " %s: bit 30 lost (a bitwise update lost)", area); \
        }                                                                        \
        phase_end();                                                             \
        if (me == t)                                                             \
            CHECK(*v == keep, #N " %s on PE %d: %llx, expected %llx", area, t,   \
                  (unsigned long long)*v, (unsigned long long)keep);             \
        shmem_barrier_all();                                                     \
    }
SHMEM_BITWISE_AMO_TYPES(BIT_TEST)

/* fetch, set and swap on float and double: a swap chain, as above. */
#define EXT_TEST(N, T)                                                           \
    static T e_##N;                                                              \
    static void ext_##N(int t, T *v, const char *area)                           \
    {                                                                            \
        if (me == t) *v = (T)0;                                                  \
        shmem_barrier_all();                                                     \
        for (int i = 0; i < iter; i++)                                           \
            mine[i] = (long long)shmem_##N##_atomic_swap(v, (T)(me * iter + i + 1), t); \
        phase_end();                                                             \
        gather(iter);                                                            \
        if (me == 0)                                                             \
            check_perm(#N " swap", iter, 1, (long long)shmem_##N##_atomic_fetch(v, t)); \
        if (me == t) shmem_##N##_atomic_set(v, (T)0.5, (t + 1) % npes);          \
        phase_end();                                                             \
        CHECK(shmem_##N##_atomic_fetch(v, (t + 1) % npes) == (T)0.5, #N " %s set/fetch", area); \
        shmem_barrier_all();                                                     \
    }
SHMEM_EXTENDED_AMO_TYPES(EXT_TEST)

/* The deprecated names, counted on the same word as the new ones. */
#define DEPR_TEST(N, T)                                                          \
    static T d_##N;                                                              \
    static void depr_##N(int t, T *v, const char *area)                          \
    {                                                                            \
        if (me == t) *v = 0;                                                     \
        shmem_barrier_all();                                                     \
        for (int i = 0; i < iter; i++) {                                         \
            shmem_##N##_inc(v, t);                                               \
            (void)shmem_##N##_finc(v, t);                                        \
            shmem_##N##_add(v, 2, t);                                            \
            (void)shmem_##N##_fadd(v, 3, t);                                     \
            shmem_##N##_atomic_add(v, 4, t);                                     \
            T seen = shmem_##N##_swap(v, 0, t);  /* take it all, put it back */  \
            shmem_##N##_add(v, seen, t);                                         \
            CHECK(shmem_##N##_cswap(v, (T)-1, (T)5, t) != (T)-1, #N " cswap matched -1"); \
        }                                                                        \
        phase_end();                                                             \
        if (me == t)                                                             \
            CHECK(*v == (T)11 * iter * npes, #N " %s deprecated names: %lld, expected %lld", \
                  area, (long long)*v, (long long)11 * iter * npes);             \
        shmem_barrier_all();                                                     \
    }
SHMEM_DEPR_AMO_TYPES(DEPR_TEST)

int main(int argc, char **argv)
{
    int targets[2], local = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1)
        iter = atoi(argv[1]);
    CHECK(iter >= 2 && iter % 2 == 0 && iter <= 100000, "iterations '%s': an even 2..100000",
          argv[1]);
    CHECK(npes <= 30, "%d PEs: at most 30 (one bit each below bit 30)", npes);
    mine = malloc((size_t)iter * sizeof *mine);
    all = shmem_malloc((size_t)iter * npes * sizeof *all);
    CHECK(mine != NULL && all != NULL, "out of memory");
    targets[0] = 0;
    targets[1] = npes - 1;
    for (int k = 0; k < 2; k++) {
        int t = targets[k];
        for (int w = 0; w < 2; w++) {
            const char *area = w ? "heap" : "static";
#define RUN(N, T)                                                                \
            {                                                                    \
                T *hv = shmem_calloc(4, sizeof(T));                              \
                CHECK(hv != NULL, "shmem_calloc");                               \
                amo_##N(t, w ? hv : s_##N, area);                                \
                shmem_free(hv);                                                  \
            }
            SHMEM_AMO_TYPES(RUN)
#define RUNX(N, T, F, S)                                                         \
            {                                                                    \
                T *hv = shmem_calloc(1, sizeof(T));                              \
                CHECK(hv != NULL, "shmem_calloc");                               \
                F##_##N(t, w ? hv : &S##_##N, area);                             \
                shmem_free(hv);                                                  \
            }
#define RUNB(N, T) RUNX(N, T, bits, b)
#define RUNE(N, T) RUNX(N, T, ext, e)
#define RUND(N, T) RUNX(N, T, depr, d)
            SHMEM_BITWISE_AMO_TYPES(RUNB)
            SHMEM_EXTENDED_AMO_TYPES(RUNE)
            SHMEM_DEPR_AMO_TYPES(RUND)
        }
        if (k == 0 && targets[1] == 0)
            break;
    }
    for (int pe = 0; pe < npes; pe++)
        local += shmem_ptr(&s_long[0], pe) != NULL;
    if (me == 0)
        printf("hosts_amo: every atomic counted exactly on %d PEs (PE 0 shares memory with %d "
               "of them), %d iterations each, heap and statics\n", npes, local, iter);
    shmem_finalize();
    return 0;
}
