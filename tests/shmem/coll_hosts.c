/*
 * coll_hosts.c - every collective over sets that mix PEs of this PE's
 * supernode and of others, for a job split into supernodes under mpirun
 * (tests/t-shmem-mpi-coll-*.sh); it runs on one supernode too.
 *
 * Sets: strides 1, 2 and 4 from PEs 0 to 3, of 2, 3 and as many PEs as fit:
 * with PE r on simulated host r % K, these are sets on one host, on all,
 * and on some, with the leader (lowest member of a supernode) anywhere.
 * On each set, with one pSync for everything, back to back:
 *   - barrier and sync: every member puts the round into every member's
 *     row, and after the barrier every column must hold it;
 *   - broadcast 32/64 from every root, 1 and 300 elements;
 *   - collect 32/64 with counts that leave whole supernodes empty, and
 *     all empty; fcollect 32/64;
 *   - alltoall 32/64 and alltoalls (dest stride 2, source stride 3);
 *   - reductions: integer sums and products that wrap, bitwise, min and
 *     max, on 1 and 40 elements and in place, each compared with the fold
 *     over the members in set order (integers: any order gives the same
 *     bits); floating sums of values that do not add exactly, which must be
 *     the same bits on every member and near the exact sum.
 * Every element of every PE's dest is checked, members and others alike
 * (a non-member's dest must stay untouched), and pSync is back at
 * SHMEM_SYNC_VALUE on every PE after each set. Then two disjoint halves of
 * the job run reductions and broadcasts at the same time, each on its own
 * pSync, 40 rounds with no barrier in between.
 */
#include "coll_test.h"

#include <math.h>
#include <stdint.h>

#define NB 300               /* broadcast elements */
#define NR 40                /* reduction elements */
#define DMAX 1024            /* dest elements */
#define SENT 0x5a5a5a5a5a5a5a5aull

static uint64_t *src, *dst, *row;
static long *pSync, *pSync2;
static void *pWrk;
static int me, npes;

static uint64_t code(int pe, int j, int e)
{
    return ((uint64_t)(pe + 1) << 40) + ((uint64_t)j << 16) + (uint64_t)e + 1;
}

static void fill_dest(void)
{
    for (size_t i = 0; i < DMAX; i++)
        dst[i] = SENT;
}

/* dest holds want[0..n) (as w-byte elements), the sentinel after. */
static void check_dest(int w, const uint64_t *want, size_t n, const char *what, const ct_set_t *s)
{
    size_t all = DMAX * 8 / (size_t)w;

    for (size_t i = 0; i < all; i++) {
        uint64_t got = ct_getv(dst, w, i), exp = i < n ? want[i] : SENT;

        if (w == 4)
            exp = (uint32_t)exp;
        if (got != exp) {
            CT_CHECK(0, "%s%d set (%d,%d,%d): dest[%zu] is %#llx, expected %#llx", what, w * 8,
                     s->start, s->log, s->size, i, (unsigned long long)got,
                     (unsigned long long)exp);
            return;
        }
    }
}

/* dest's bytes from `from` on are the sentinel's. */
static void check_tail(size_t from, const char *what, const ct_set_t *s)
{
    const unsigned char *p = (const unsigned char *)dst;

    for (size_t b = from; b < DMAX * 8; b++)
        if (p[b] != 0x5a) {
            CT_CHECK(0, "%s set (%d,%d,%d): dest byte %zu changed to %#x", what, s->start,
                     s->log, s->size, b, p[b]);
            return;
        }
}

static void t_barrier(const ct_set_t *s, int idx)
{
    /* Grows over the sets on every PE alike: a column left from an earlier
     * set never passes. */
    static long round;
    long base = round;

    round += 3;
    if (idx < 0)
        return;
    for (long r = base + 1; r <= base + 3; r++) {
        for (int i = 0; i < s->size; i++)
            shmem_uint64_p(&row[me], (uint64_t)r, ct_pe(s, i));
        if (r % 3 == 2) {
            shmem_quiet();
            shmem_sync(s->start, s->log, s->size, pSync);
        } else {
            shmem_barrier(s->start, s->log, s->size, pSync);
        }
        for (int i = 0; i < s->size; i++)
            CT_CHECK(row[ct_pe(s, i)] == (uint64_t)r, "%s set (%d,%d,%d) round %ld: "
                     "column %d holds %llu", r % 3 == 2 ? "sync" : "barrier", s->start, s->log,
                     s->size, r, ct_pe(s, i), (unsigned long long)row[ct_pe(s, i)]);
        shmem_barrier(s->start, s->log, s->size, pSync);
    }
}

static void t_bcast(const ct_set_t *s, int idx)
{
    uint64_t want[NB];

    for (int root = 0; root < s->size; root++)
        for (int w = 4; w <= 8; w += 4) {
            size_t n = root % 2 ? 1 : NB;

            fill_dest();
            for (size_t i = 0; i < NB; i++)
                ct_setv(src, w, i, code(me, (int)i, w));
            shmem_barrier_all();
            if (idx >= 0 && w == 4)
                shmem_broadcast32(dst, src, n, root, s->start, s->log, s->size, pSync);
            else if (idx >= 0)
                shmem_broadcast64(dst, src, n, root, s->start, s->log, s->size, pSync);
            for (size_t i = 0; i < n; i++)
                want[i] = code(ct_pe(s, root), (int)i, w);
            check_dest(w, want, idx >= 0 && idx != root ? n : 0, "broadcast", s);
            shmem_barrier_all();
        }
}

/* Member i's collect count in variant v: v 0 leaves PEs (and so, on some
 * layouts, whole supernodes) with none, v 1 gives none at all. */
static size_t count_of(int i, int v)
{
    return v == 1 ? 0 : (size_t)(i * 3 % 5);
}

static void t_collect(const ct_set_t *s, int idx)
{
    uint64_t want[DMAX];

    for (int v = 0; v < 3; v++)
        for (int w = 4; w <= 8; w += 4) {
            size_t total = 0, mine = v == 2 ? 5 : count_of(idx, v);

            fill_dest();
            for (size_t e = 0; e < 8; e++)
                ct_setv(src, w, e, code(me, 0, (int)e));
            shmem_barrier_all();
            if (idx >= 0) {
                if (v == 2 && w == 4)
                    shmem_fcollect32(dst, src, mine, s->start, s->log, s->size, pSync);
                else if (v == 2)
                    shmem_fcollect64(dst, src, mine, s->start, s->log, s->size, pSync);
                else if (w == 4)
                    shmem_collect32(dst, src, mine, s->start, s->log, s->size, pSync);
                else
                    shmem_collect64(dst, src, mine, s->start, s->log, s->size, pSync);
                for (int i = 0; i < s->size; i++)
                    for (size_t e = 0; e < (v == 2 ? 5 : count_of(i, v)); e++)
                        want[total++] = code(ct_pe(s, i), 0, (int)e);
            }
            check_dest(w, want, total, v == 2 ? "fcollect" : "collect", s);
            shmem_barrier_all();
        }
}

static void t_alltoall(const ct_set_t *s, int idx)
{
    uint64_t want[DMAX];

    for (int strided = 0; strided <= 1; strided++)
        for (int w = 4; w <= 8; w += 4) {
            ptrdiff_t ds = strided ? 2 : 1, ss = strided ? 3 : 1;
            size_t nel = strided ? 2 : 3, total = 0;

            fill_dest();
            for (size_t i = 0; i < DMAX / 2; i++)
                ct_setv(src, w, i, SENT);
            for (int j = 0; j < s->size; j++)
                for (size_t e = 0; e < nel; e++)
                    ct_setv(src, w, ((size_t)j * nel + e) * (size_t)ss, code(me, j, (int)e));
            shmem_barrier_all();
            if (idx >= 0) {
                if (strided && w == 4)
                    shmem_alltoalls32(dst, src, ds, ss, nel, s->start, s->log, s->size, pSync);
                else if (strided)
                    shmem_alltoalls64(dst, src, ds, ss, nel, s->start, s->log, s->size, pSync);
                else if (w == 4)
                    shmem_alltoall32(dst, src, nel, s->start, s->log, s->size, pSync);
                else
                    shmem_alltoall64(dst, src, nel, s->start, s->log, s->size, pSync);
                for (int i = 0; i < s->size; i++)
                    for (size_t e = 0; e < nel; e++)
                        for (ptrdiff_t g = 0; g < ds; g++)
                            want[total++] = g == 0 ? code(ct_pe(s, i), idx, (int)e) : SENT;
                total -= (size_t)ds - 1;
            }
            check_dest(w, want, total, strided ? "alltoalls" : "alltoall", s);
            shmem_barrier_all();
        }
}

/* Integer reductions: values that wrap when summed or multiplied; the fold
 * in unsigned arithmetic is what two's complement wrapping gives. */
#define V_INT(pe, i) ((uint64_t)0x7ffffff0ffffff00ull * (uint64_t)((pe) + 3) + (uint64_t)(i) * 977u)
#define F_SUM(a, b) ((a) + (b))
#define F_PROD(a, b) ((a) * (b))
#define F_XOR(a, b) ((a) ^ (b))
#define F_AND(a, b) ((a) & (b))
#define F_MIN(a, b) ((b) < (a) ? (b) : (a))
#define F_MAX(a, b) ((b) > (a) ? (b) : (a))

#define T_INT(NAME, T, U, OP, F, ORD)                                                   \
    static void t_##NAME##_##OP(const ct_set_t *s, int idx, int n, int inplace)        \
    {                                                                                    \
        T *sv = (T *)src, *d = inplace ? (T *)src : (T *)dst;                           \
        fill_dest();                                                                     \
        for (int i = 0; i < n; i++)                                                      \
            sv[i] = (T)V_INT(me, i);                                                     \
        shmem_barrier_all();                                                             \
        if (idx >= 0)                                                                    \
            shmem_##NAME##_##OP##_to_all(d, sv, n, s->start, s->log, s->size, pWrk, pSync); \
        for (int i = 0; i < n && idx >= 0; i++) {                                        \
            U want = (U)(T)V_INT(s->start, i);                                           \
            for (int m = 1; m < s->size; m++) {                                          \
                U x = (U)(T)V_INT(ct_pe(s, m), i);                                       \
                want = ORD ? (U)F((T)want, (T)x) : (U)F(want, x);                        \
            }                                                                            \
            if ((U)d[i] != want) {                                                       \
                CT_CHECK(0, "%s set (%d,%d,%d) nreduce %d%s: element %d is %#llx, "      \
                         "expected %#llx", "shmem_" #NAME "_" #OP "_to_all", s->start,   \
                         s->log, s->size, n, inplace ? " in place" : "", i,              \
                         (unsigned long long)(U)d[i], (unsigned long long)want);         \
                break;                                                                   \
            }                                                                            \
        }                                                                                \
        if (!inplace)                                                                    \
            check_tail(idx >= 0 ? (size_t)n * sizeof(T) : 0, "shmem_" #NAME "_" #OP "_to_all", s); \
        shmem_barrier_all();                                                             \
    }

T_INT(int, int, unsigned, sum, F_SUM, 0)
T_INT(long, long, unsigned long, prod, F_PROD, 0)
T_INT(longlong, long long, unsigned long long, sum, F_SUM, 0)
T_INT(short, short, unsigned short, xor, F_XOR, 0)
T_INT(int, int, unsigned, and, F_AND, 0)
T_INT(long, long, unsigned long, min, F_MIN, 1)
T_INT(longlong, long long, unsigned long long, max, F_MAX, 1)

/* Floating sums: every member must hold the same bits, close to the sum. */
#define T_REAL(NAME, T, TOL)                                                             \
    static void t_##NAME##_sum(const ct_set_t *s, int idx, int n, int inplace)          \
    {                                                                                    \
        T *sv = (T *)src, *d = inplace ? (T *)src : (T *)dst, first[NR];                 \
        for (int i = 0; i < n; i++)                                                      \
            sv[i] = (T)(0.1 * (i + 1) + 1.0 / (me + 3));                                 \
        shmem_barrier_all();                                                             \
        if (idx >= 0)                                                                    \
            shmem_##NAME##_sum_to_all(d, sv, n, s->start, s->log, s->size, pWrk, pSync); \
        shmem_barrier_all();                                                             \
        if (idx >= 0) {                                                                  \
            shmem_getmem(first, d, (size_t)n * sizeof(T), s->start);                      \
            for (int i = 0; i < n; i++) {                                                \
                double exact = 0;                                                        \
                for (int m = 0; m < s->size; m++)                                        \
                    exact += (double)(T)(0.1 * (i + 1) + 1.0 / (ct_pe(s, m) + 3));       \
                if (memcmp(&d[i], &first[i], sizeof(T)) != 0 ||                          \
                    fabs((double)d[i] - exact) > TOL * fabs(exact)) {                    \
                    CT_CHECK(0, "shmem_" #NAME "_sum_to_all set (%d,%d,%d) nreduce %d: " \
                             "element %d is %.17g here, %.17g on PE %d, sum %.17g",      \
                             s->start, s->log, s->size, n, i, (double)d[i],              \
                             (double)first[i], s->start, exact);                         \
                    break;                                                               \
                }                                                                        \
            }                                                                            \
        }                                                                                \
        shmem_barrier_all();                                                             \
    }
T_REAL(float, float, 1e-5)
T_REAL(double, double, 1e-12)

typedef void (*reduce_fn)(const ct_set_t *, int, int, int);
static const reduce_fn reductions[] = {
    t_int_sum, t_long_prod, t_longlong_sum, t_short_xor, t_int_and,
    t_long_min, t_longlong_max, t_float_sum, t_double_sum,
};

static void t_reduce(const ct_set_t *s, int idx)
{
    for (size_t r = 0; r < sizeof reductions / sizeof reductions[0]; r++) {
        reductions[r](s, idx, 1, 0);
        reductions[r](s, idx, NR, 0);
        reductions[r](s, idx, NR, 1);
    }
}

/* Two disjoint halves at once, each on its own pSync, with no barrier
 * between rounds: the leaders of both talk at the same time. */
static void t_halves(void)
{
    int half = npes / 2, lo = me < half;
    ct_set_t s = lo ? (ct_set_t){0, 0, half} : (ct_set_t){half, 0, npes - half};
    long *ps = lo ? pSync : pSync2;
    long *a = (long *)src, *b = (long *)dst;

    if (half < 1)
        return;
    shmem_barrier_all();
    for (int r = 0; r < 40; r++) {
        long want = 0;

        for (int i = 0; i < 4; i++)
            a[i] = (long)(me * 100 + r + i);
        shmem_long_sum_to_all(b, a, 4, s.start, 0, s.size, pWrk, ps);
        for (int i = 0; i < 4; i++) {
            want = 0;
            for (int m = 0; m < s.size; m++)
                want += (long)((s.start + m) * 100 + r + i);
            CT_CHECK(b[i] == want, "halves round %d: sum[%d] is %ld, expected %ld", r, i, b[i],
                     want);
        }
        a[8] = (long)(r * 1000 + me);
        shmem_broadcast64(&b[8], &a[8], 1, r % s.size, s.start, 0, s.size, ps);
        if (me != s.start + r % s.size)
            CT_CHECK(b[8] == (long)(r * 1000 + s.start + r % s.size),
                     "halves round %d: broadcast gave %ld", r, b[8]);
    }
    shmem_barrier_all();
    ct_check_psync(pSync, SHMEM_SYNC_SIZE, "halves");
    ct_check_psync(pSync2, SHMEM_SYNC_SIZE, "halves (second pSync)");
}

int main(void)
{
    ct_set_t sets[CT_MAX_SETS];
    int nsets;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 32) {
        if (me == 0)
            printf("SKIP: the arrays are sized for 32 PEs, not %d\n", npes);
        shmem_finalize();
        return 77;
    }
    src = shmem_malloc(DMAX * 8);
    dst = shmem_malloc(DMAX * 8);
    row = shmem_calloc((size_t)npes, 8);
    pWrk = shmem_malloc(NR * 16);
    pSync = ct_psync(SHMEM_SYNC_SIZE);
    pSync2 = ct_psync(SHMEM_SYNC_SIZE);
    shmem_barrier_all();
    nsets = ct_sets_of(npes, sets, 3, 2, 3);
    for (int k = 0; k < nsets; k++) {
        int idx = ct_index(&sets[k], me);

        t_barrier(&sets[k], idx);
        t_bcast(&sets[k], idx);
        t_collect(&sets[k], idx);
        t_alltoall(&sets[k], idx);
        t_reduce(&sets[k], idx);
        shmem_barrier_all();
        ct_check_psync(pSync, SHMEM_SYNC_SIZE, "after a set");
        shmem_barrier_all();
    }
    t_halves();
    if (me == 0)
        printf("barrier, sync, broadcast, collect, fcollect, alltoall(s) and 9 reductions "
               "over %d sets, then two halves at once\n", nsets);
    shmem_free(pSync2);
    shmem_free(pSync);
    shmem_free(pWrk);
    shmem_free(row);
    shmem_free(dst);
    shmem_free(src);
    return ct_finish("coll_hosts");
}
