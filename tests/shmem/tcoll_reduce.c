/*
 * tcoll_reduce.c - every shmem_TYPE_OP_reduce of OpenSHMEM 1.6 (and, bit,
 * or, xor on the unsigned and fixed-size integers; max, min on every
 * integer and real type; sum, prod on those and the complex types), on the
 * teams of tcoll_test.h, with 0, 1 and more than a page of elements.
 *
 * Every element of dest is compared with the serial reduction of the
 * members' values in team order. The values keep every sum and product
 * exact and in range in every type (min and max take negative ones, which
 * the unsigned types see as large), so any order of combining gives the
 * same result. The typed and the C11 type-generic forms take turns; every
 * third call is in place (dest == source). Each call returns 0.
 */
#include "tcoll_test.h"

#include <complex.h>

#define BUF 8192

static void *src, *dst;

#define TV(m, e, k) (((m) * 31 + (int)(e) * 7 + (k) * 13) % 100)
#define V_BIT(T, m, e, k) ((T)(TV(m, e, k) * 37 + (m)))
#define V_MINMAX(T, m, e, k) ((T)(TV(m, e, k) - 50))
#define V_SUM(T, m, e, k) ((T)(((m) * 3 + (int)(e) + (k)) % 10))
#define V_PROD(T, m, e, k) ((T)(1 + (((m) + (int)(e) + (k)) % 3 == 0)))
#define V_CSUM(T, m, e, k) (V_SUM(T, m, e, k) + (T)(((m) + (int)(e)) % 4) * (T)I)
#define V_CPROD(T, m, e, k) ((T)1 + (T)(((m) + (int)(e) + (k)) % 3 == 0) * (T)I)

#define C_AND(w, v) ((w) & (v))
#define C_OR(w, v) ((w) | (v))
#define C_XOR(w, v) ((w) ^ (v))
#define C_MAX(w, v) ((v) > (w) ? (v) : (w))
#define C_MIN(w, v) ((v) < (w) ? (v) : (w))
#define C_SUM(w, v) ((w) + (v))
#define C_PROD(w, v) ((w) * (v))

typedef struct tr_op {
    const char *name;
    size_t size;
    void (*run)(tc_team_t *t, size_t n, int generic);
} tr_op_t;

#define TR_DEF(OP, N, T, V, C)                                                          \
    static void run_##N##_##OP(tc_team_t *t, size_t n, int generic)                    \
    {                                                                                   \
        int k = t->calls++, rc;                                                         \
        T *s = src, *d = k % 3 == 2 ? src : dst;                                        \
                                                                                        \
        for (size_t e = 0; e < n; e++)                                                  \
            s[e] = V(T, t->me, e, k);                                                   \
        rc = generic ? shmem_##OP##_reduce(t->team, d, s, n)                            \
                     : shmem_##N##_##OP##_reduce(t->team, d, s, n);                     \
        CT_CHECK(rc == 0, "shmem_%s_%s_reduce on %s returned %d", #N, #OP, t->name, rc); \
        for (size_t e = 0; e < n; e++) {                                                \
            T want = V(T, 0, e, k);                                                     \
            double gr, gi, wr, wi;                                                      \
                                                                                        \
            for (int m = 1; m < t->size; m++)                                           \
                want = C(want, V(T, m, e, k));                                          \
            if (d[e] == want)                                                           \
                continue;                                                               \
            tc_show((double _Complex)d[e], &gr, &gi);                                      \
            tc_show((double _Complex)want, &wr, &wi);                                      \
            CT_CHECK(0, "shmem_%s_%s_reduce on %s, %zu elements%s: dest[%zu] is %g%+gi, " \
                        "expected %g%+gi", #N, #OP, t->name, n, d == s ? " in place" : "", \
                     e, gr, gi, wr, wi);                                                \
            break;                                                                      \
        }                                                                               \
    }
#define TR_AND_(N, T) TR_DEF(and, N, T, V_BIT, C_AND)
#define TR_OR_(N, T) TR_DEF(or, N, T, V_BIT, C_OR)
#define TR_XOR_(N, T) TR_DEF(xor, N, T, V_BIT, C_XOR)
#define TR_MAX_(N, T) TR_DEF(max, N, T, V_MINMAX, C_MAX)
#define TR_MIN_(N, T) TR_DEF(min, N, T, V_MINMAX, C_MIN)
#define TR_SUM_(N, T) TR_DEF(sum, N, T, V_SUM, C_SUM)
#define TR_PROD_(N, T) TR_DEF(prod, N, T, V_PROD, C_PROD)
#define TR_CSUM_(N, T) TR_DEF(sum, N, T, V_CSUM, C_SUM)
#define TR_CPROD_(N, T) TR_DEF(prod, N, T, V_CPROD, C_PROD)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(TR_AND_)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(TR_OR_)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(TR_XOR_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TR_MAX_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TR_MIN_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TR_SUM_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TR_PROD_)
SHMEM_TEAM_REDUCE_COMPLEX_TYPES(TR_CSUM_)
SHMEM_TEAM_REDUCE_COMPLEX_TYPES(TR_CPROD_)

#define TR_ENTRY_(OP, N, T) {#N "_" #OP, sizeof(T), run_##N##_##OP},
#define TR_E_AND_(N, T) TR_ENTRY_(and, N, T)
#define TR_E_OR_(N, T) TR_ENTRY_(or, N, T)
#define TR_E_XOR_(N, T) TR_ENTRY_(xor, N, T)
#define TR_E_MAX_(N, T) TR_ENTRY_(max, N, T)
#define TR_E_MIN_(N, T) TR_ENTRY_(min, N, T)
#define TR_E_SUM_(N, T) TR_ENTRY_(sum, N, T)
#define TR_E_PROD_(N, T) TR_ENTRY_(prod, N, T)
static const tr_op_t ops[] = {
    SHMEM_TEAM_REDUCE_BITWISE_TYPES(TR_E_AND_) SHMEM_TEAM_REDUCE_BITWISE_TYPES(TR_E_OR_)
    SHMEM_TEAM_REDUCE_BITWISE_TYPES(TR_E_XOR_) SHMEM_TEAM_REDUCE_MINMAX_TYPES(TR_E_MAX_)
    SHMEM_TEAM_REDUCE_MINMAX_TYPES(TR_E_MIN_) SHMEM_TEAM_REDUCE_ARITH_TYPES(TR_E_SUM_)
    SHMEM_TEAM_REDUCE_ARITH_TYPES(TR_E_PROD_)};

static size_t op_size(int x)
{
    return ops[x].size;
}

static void run_op(int x, tc_team_t *t, size_t n, int generic)
{
    ops[x].run(t, n, generic);
}

int main(void)
{
    int nops = (int)(sizeof ops / sizeof ops[0]);

    return tc_main("tcoll_reduce", "every team reduction of the 1.6 table", &src, &dst, BUF, 0, nops, -1,
                   op_size, run_op);
}
