/*
 * tcoll_data.c - the team broadcast, collect, fcollect, alltoall and
 * alltoalls (OpenSHMEM 1.5) for every standard RMA type and the mem forms,
 * on the teams of tcoll_test.h, with 0, 1 and more than a page of elements.
 *
 * Each type runs on WORLD and on one other team in turn (tc_team_for), the
 * mem forms on every team. The typed and the C11 type-generic forms take
 * turns. The data is a byte
 * pattern of (member, element, byte, call): these routines only move
 * elements, so every byte of every element of dest is checked against the
 * serial result, and the bytes around it (the gaps of a strided dest, one
 * element past the end) must keep their sentinel. Each call returns 0.
 */
#include "tcoll_test.h"

#define BUF (256 * 1024)
#define SENT 0xee

static void *src_, *dst_; /* on the heap (tc_main) */
#define src ((unsigned char *)src_)
#define dst ((unsigned char *)dst_)

/* Byte b of member m's element e in the team's call k: never the sentinel. */
static unsigned char pat(int m, size_t e, size_t b, size_t esize, int k)
{
    unsigned char v = (unsigned char)(m * 31 + (e * esize + b) * 7 + (size_t)k * 13 + 1);

    return v == SENT ? 0x11 : v;
}

/* Member m's elements first .. first + n - 1 at p, stride elements apart. */
static void fill(unsigned char *p, int m, size_t n, ptrdiff_t stride, size_t esize, int k,
                 size_t first)
{
    for (size_t e = 0; e < n; e++)
        for (size_t b = 0; b < esize; b++)
            p[(e * (size_t)stride) * esize + b] = pat(m, first + e, b, esize, k);
}

/* dest element (at stride dst) e holds member m's element se of call k. */
static int check_elem(const char *what, const tc_team_t *t, size_t at, int m, size_t se,
                      size_t esize, int k)
{
    for (size_t b = 0; b < esize; b++) {
        unsigned char want = pat(m, se, b, esize, k), got = dst[at * esize + b];

        if (got != want) {
            CT_CHECK(0, "%s on %s: dest element %zu byte %zu is %#x, expected %#x (member %d's "
                        "element %zu)", what, t->name, at, b, got, want, m, se);
            return 0;
        }
    }
    return 1;
}

static int check_sentinel(const char *what, const tc_team_t *t, size_t at, size_t esize)
{
    for (size_t b = 0; b < esize; b++)
        if (dst[at * esize + b] != SENT) {
            CT_CHECK(0, "%s on %s: dest element %zu byte %zu is %#x, expected the sentinel",
                     what, t->name, at, b, dst[at * esize + b]);
            return 0;
        }
    return 1;
}

typedef struct tc_ops {
    const char *name;
    size_t size;
    int (*bcast)(shmem_team_t, void *, const void *, size_t, int, int);
    int (*collect)(shmem_team_t, void *, const void *, size_t, int);
    int (*fcollect)(shmem_team_t, void *, const void *, size_t, int);
    int (*alltoall)(shmem_team_t, void *, const void *, size_t, int);
    int (*alltoalls)(shmem_team_t, void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);
} tc_ops_t;

/* Each wrapper calls the typed form, or with `generic` the C11 one. */
#define TC_OPS_(N, T)                                                                   \
    static int bc_##N(shmem_team_t t, void *d, const void *s, size_t n, int r, int generic) \
    {                                                                                   \
        return generic ? shmem_broadcast(t, (T *)d, (const T *)s, n, r)                 \
                       : shmem_##N##_broadcast(t, d, s, n, r);                          \
    }                                                                                   \
    static int co_##N(shmem_team_t t, void *d, const void *s, size_t n, int generic)    \
    {                                                                                   \
        return generic ? shmem_collect(t, (T *)d, (const T *)s, n)                      \
                       : shmem_##N##_collect(t, d, s, n);                               \
    }                                                                                   \
    static int fc_##N(shmem_team_t t, void *d, const void *s, size_t n, int generic)    \
    {                                                                                   \
        return generic ? shmem_fcollect(t, (T *)d, (const T *)s, n)                     \
                       : shmem_##N##_fcollect(t, d, s, n);                              \
    }                                                                                   \
    static int aa_##N(shmem_team_t t, void *d, const void *s, size_t n, int generic)    \
    {                                                                                   \
        return generic ? shmem_alltoall(t, (T *)d, (const T *)s, n)                     \
                       : shmem_##N##_alltoall(t, d, s, n);                              \
    }                                                                                   \
    static int as_##N(shmem_team_t t, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss, \
                      size_t n, int generic)                                            \
    {                                                                                   \
        return generic ? shmem_alltoalls(t, (T *)d, (const T *)s, ds, ss, n)            \
                       : shmem_##N##_alltoalls(t, d, s, ds, ss, n);                     \
    }
SHMEM_RMA_TYPES(TC_OPS_)

static int bc_mem(shmem_team_t t, void *d, const void *s, size_t n, int r, int generic)
{
    (void)generic;
    return shmem_broadcastmem(t, d, s, n, r);
}
static int co_mem(shmem_team_t t, void *d, const void *s, size_t n, int generic)
{
    (void)generic;
    return shmem_collectmem(t, d, s, n);
}
static int fc_mem(shmem_team_t t, void *d, const void *s, size_t n, int generic)
{
    (void)generic;
    return shmem_fcollectmem(t, d, s, n);
}
static int aa_mem(shmem_team_t t, void *d, const void *s, size_t n, int generic)
{
    (void)generic;
    return shmem_alltoallmem(t, d, s, n);
}
static int as_mem(shmem_team_t t, void *d, const void *s, ptrdiff_t ds, ptrdiff_t ss, size_t n,
                  int generic)
{
    (void)generic;
    return shmem_alltoallsmem(t, d, s, ds, ss, n);
}

#define TC_ENTRY_(N, T) {#N, sizeof(T), bc_##N, co_##N, fc_##N, aa_##N, as_##N},
static const tc_ops_t ops[] = {SHMEM_RMA_TYPES(TC_ENTRY_){"mem", 1, bc_mem, co_mem, fc_mem,
                                                          aa_mem, as_mem}};

/* The sentinel in the first `elems` elements of dest and the one after:
 * what the check reads (the rest of dest keeps it from the first call). */
static void prepare(size_t elems, size_t esize)
{
    memset(dst, SENT, (elems + 1) * esize);
}

static void test_bcast(const tc_ops_t *o, tc_team_t *t, size_t n, int generic)
{
    int k = t->calls++, root = k % t->size, rc;

    prepare(n, o->size);
    fill(src, t->me, n, 1, o->size, k, 0);
    rc = o->bcast(t->team, dst, src, n, root, generic);
    CT_CHECK(rc == 0, "%s_broadcast on %s returned %d", o->name, t->name, rc);
    for (size_t e = 0; e < n; e++)
        if (!check_elem("broadcast", t, e, root, e, o->size, k))
            break;
    check_sentinel("broadcast", t, n, o->size);
}

/* collect: member m gives n + m % 3 elements (n = 0: m % 2); fcollect n. */
static size_t collect_n(int m, size_t n, int fixed)
{
    return fixed ? n : n > 0 ? n + (size_t)(m % 3) : (size_t)(m % 2);
}

static void test_collect(const tc_ops_t *o, tc_team_t *t, size_t n, int fixed, int generic)
{
    int k = t->calls++, rc;
    size_t mine = collect_n(t->me, n, fixed), at = 0;
    const char *what = fixed ? "fcollect" : "collect";

    prepare((size_t)t->size * (n + 2), o->size);
    fill(src, t->me, mine, 1, o->size, k, 0);
    rc = (fixed ? o->fcollect : o->collect)(t->team, dst, src, mine, generic);
    CT_CHECK(rc == 0, "%s_%s on %s returned %d", o->name, what, t->name, rc);
    for (int m = 0; m < t->size; m++) {
        size_t c = collect_n(m, n, fixed);

        for (size_t e = 0; e < c; e++, at++)
            if (!check_elem(what, t, at, m, e, o->size, k))
                return;
    }
    check_sentinel(what, t, at, o->size);
}

/* Block j of member i (elements at stride sst) lands as block i of member
 * j's dest (at stride dst). */
static void test_alltoall(const tc_ops_t *o, tc_team_t *t, size_t n, ptrdiff_t ds,
                          ptrdiff_t ss, int generic)
{
    int k = t->calls++, rc;
    const char *what = ds == 1 && ss == 1 ? "alltoall" : "alltoalls";

    prepare((size_t)t->size * n * (size_t)ds, o->size);
    for (int j = 0; j < t->size; j++)
        fill(src + (size_t)j * n * (size_t)ss * o->size, t->me, n, ss, o->size, k,
             (size_t)j * n);
    if (ds == 1 && ss == 1)
        rc = o->alltoall(t->team, dst, src, n, generic);
    else
        rc = o->alltoalls(t->team, dst, src, ds, ss, n, generic);
    CT_CHECK(rc == 0, "%s_%s on %s returned %d", o->name, what, t->name, rc);
    for (int i = 0; i < t->size; i++)
        for (size_t e = 0; e < n; e++) {
            size_t at = ((size_t)i * n + e) * (size_t)ds;

            if (!check_elem(what, t, at, i, (size_t)t->me * n + e, o->size, k))
                return;
            for (ptrdiff_t g = 1; g < ds; g++)
                if (!check_sentinel(what, t, at + (size_t)g, o->size))
                    return;
        }
    check_sentinel(what, t, (size_t)t->size * n * (size_t)ds, o->size);
}

static size_t op_size(int x)
{
    return ops[x].size;
}

static void run_op(int x, tc_team_t *t, size_t n, int generic)
{
    test_bcast(&ops[x], t, n, generic);
    test_collect(&ops[x], t, n, 0, generic);
    test_collect(&ops[x], t, n, 1, generic);
    test_alltoall(&ops[x], t, n, 1, 1, generic);
    test_alltoall(&ops[x], t, n, 2, 3, generic);
}

int main(void)
{
    int nops = (int)(sizeof ops / sizeof ops[0]);

    return tc_main("tcoll_data", "team broadcast, collect, fcollect, alltoall, alltoalls on every RMA type and mem", &src_, &dst_, BUF, SENT, nops, nops - 1,
                   op_size, run_op);
}
