/*
 * tcoll_scan.c - shmem_TYPE_sum_inscan and shmem_TYPE_sum_exscan
 * (OpenSHMEM 1.6) on every type of the team sum reduction, on the teams of
 * tcoll_test.h, with 0, 1 and more than a page of elements.
 *
 * Every element of dest on team member i is compared with the serial sum of
 * members 0..i's values (inscan) or 0..i-1's (exscan; zero on member 0).
 * The values keep every sum exact and in range in every type; the reversed
 * and strided teams across supernodes put a supernode's members apart in
 * team order. The typed and the C11 type-generic forms take turns; every
 * third call is in place (dest == source). Each call returns 0.
 */
#include "tcoll_test.h"

#include <complex.h>

#define BUF 8192

static void *src, *dst;

#define V_SUM(T, m, e, k) ((T)(((m) * 3 + (int)(e) + (k)) % 10))
#define V_CSUM(T, m, e, k) (V_SUM(T, m, e, k) + (T)(((m) + (int)(e)) % 4) * (T)I)

typedef struct ts_op {
    const char *name;
    size_t size;
    void (*run)(tc_team_t *t, size_t n, int generic, int ex);
} ts_op_t;

#define TS_DEF(N, T, V)                                                                 \
    static void run_##N(tc_team_t *t, size_t n, int generic, int ex)                   \
    {                                                                                   \
        int k = t->calls++, rc;                                                         \
        T *s = src, *d = k % 3 == 2 ? src : dst;                                        \
                                                                                        \
        for (size_t e = 0; e < n; e++)                                                  \
            s[e] = V(T, t->me, e, k);                                                   \
        if (ex)                                                                         \
            rc = generic ? shmem_sum_exscan(t->team, d, s, n)                           \
                         : shmem_##N##_sum_exscan(t->team, d, s, n);                    \
        else                                                                            \
            rc = generic ? shmem_sum_inscan(t->team, d, s, n)                           \
                         : shmem_##N##_sum_inscan(t->team, d, s, n);                    \
        CT_CHECK(rc == 0, "shmem_%s_sum_%s on %s returned %d", #N, ex ? "exscan" : "inscan", \
                 t->name, rc);                                                          \
        for (size_t e = 0; e < n; e++) {                                                \
            T want = 0;                                                                 \
            double gr, gi, wr, wi;                                                      \
                                                                                        \
            for (int m = 0; m < t->me + !ex; m++)                                       \
                want = m == 0 ? V(T, 0, e, k) : want + V(T, m, e, k);                   \
            if (d[e] == want)                                                           \
                continue;                                                               \
            tc_show((double _Complex)d[e], &gr, &gi);                                      \
            tc_show((double _Complex)want, &wr, &wi);                                      \
            CT_CHECK(0, "shmem_%s_sum_%s on %s (member %d of %d), %zu elements%s: dest[%zu] " \
                        "is %g%+gi, expected %g%+gi", #N, ex ? "exscan" : "inscan", t->name, \
                     t->me, t->size, n, d == s ? " in place" : "", e, gr, gi, wr, wi);  \
            break;                                                                      \
        }                                                                               \
    }
#define TS_SUM_(N, T) TS_DEF(N, T, V_SUM)
#define TS_CSUM_(N, T) TS_DEF(N, T, V_CSUM)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TS_SUM_)
SHMEM_TEAM_REDUCE_COMPLEX_TYPES(TS_CSUM_)

#define TS_ENTRY_(N, T) {#N, sizeof(T), run_##N},
static const ts_op_t ops[] = {SHMEM_TEAM_REDUCE_ARITH_TYPES(TS_ENTRY_)};

static size_t op_size(int x)
{
    return ops[x].size;
}

/* Inscan, then exscan on the same team. */
static void run_op(int x, tc_team_t *t, size_t n, int generic)
{
    ops[x].run(t, n, generic, 0);
    ops[x].run(t, n, generic, 1);
}

int main(void)
{
    int nops = (int)(sizeof ops / sizeof ops[0]);

    return tc_main("tcoll_scan", "inscan and exscan on every sum type", &src, &dst, BUF, 0, nops, -1,
                   op_size, run_op);
}
