/*
 * coll_data.c - shmem_broadcast, collect, fcollect, alltoall and alltoalls
 * (32 and 64 bits) over active sets, into the symmetric heap or into static
 * arrays (argument "heap" or "static").
 *
 * Every element of every PE's dest is checked after each call: the values a
 * member must receive, and the sentinel everywhere else (past the data, in
 * the gaps of a strided dest, on the broadcast root, on PEs outside the set).
 * Each operation runs twice back to back with the same pSync, into the two
 * halves of dest, as consecutive collectives may.
 */
#include "coll_test.h"

#include <stdint.h>
#include <unistd.h>

#define SMAX 128            /* source elements */
#define DHALF 256           /* dest elements per call */
#define SENTINEL 0x5a5a5a5a5a5a5a5aull

static uint64_t s_src[SMAX], s_dest[2 * DHALF];
static long s_psync[SHMEM_SYNC_SIZE];

static void *src, *dst;
static long *pSync;
static int me, npes;

static uint64_t trunc_w(uint64_t v, int w)
{
    return w == 4 ? (uint32_t)v : v;
}

static uint64_t code(int pe, int j, int e)
{
    return 0x100000000ull * (uint64_t)(pe + 1) + (uint64_t)(pe + 1) * 100000u + (uint64_t)j * 100u +
           (uint64_t)e + 1u;
}

/* Fills dest with the sentinel and src with this PE's values, then lets
 * every PE finish doing so before the collective starts. */
static void prepare(int w, int srcn)
{
    for (size_t i = 0; i < 2 * DHALF; i++)
        ct_setv(dst, w, i, SENTINEL);
    for (int i = 0; i < srcn; i++)
        ct_setv(src, w, (size_t)i, code(me, i, 0));
    shmem_barrier_all();
}

/* expect[i] for i < n in dest half h; the sentinel in the rest of the half. */
static void check_half(int w, int h, const uint64_t *expect, size_t n, const char *what,
                       const ct_set_t *s)
{
    for (size_t i = 0; i < DHALF; i++) {
        uint64_t got = ct_getv(dst, w, (size_t)h * DHALF + i);
        uint64_t want = trunc_w(i < n ? expect[i] : SENTINEL, w);

        CT_CHECK(got == want, "%s%d set (%d,%d,%d) call %d: dest[%zu] is %#llx, expected %#llx",
                 what, w * 8, s->start, s->log, s->size, h, i, (unsigned long long)got,
                 (unsigned long long)want);
    }
}

static void bcast(int w, void *d, size_t n, int root, const ct_set_t *s)
{
    if (w == 4)
        shmem_broadcast32(d, src, n, root, s->start, s->log, s->size, pSync);
    else
        shmem_broadcast64(d, src, n, root, s->start, s->log, s->size, pSync);
}

static void test_bcast(int w, const ct_set_t *s)
{
    int idx = ct_index(s, me);
    int roots[2] = {0, s->size - 1};
    size_t n[2] = {37, 1};
    uint64_t expect[64];

    prepare(w, SMAX);
    if (idx >= 0)
        for (int h = 0; h < 2; h++)
            bcast(w, (char *)dst + (size_t)h * DHALF * (size_t)w, n[h], roots[h], s);
    shmem_barrier_all();
    for (int h = 0; h < 2; h++) {
        int receives = idx >= 0 && idx != roots[h];

        for (size_t i = 0; i < n[h]; i++)
            expect[i] = code(ct_pe(s, roots[h]), (int)i, 0);
        check_half(w, h, expect, receives ? n[h] : 0, "broadcast", s);
    }
}

static size_t collect_count(int idx, int fixed)
{
    return fixed ? 6 : (size_t)((idx + 1) % 3) * 4;
}

static void test_collect(int w, const ct_set_t *s, int fixed)
{
    int idx = ct_index(s, me);
    uint64_t expect[DHALF];
    size_t total = 0;

    prepare(w, SMAX);
    if (idx >= 0) {
        size_t mine = collect_count(idx, fixed);

        for (int h = 0; h < 2; h++) {
            void *d = (char *)dst + (size_t)h * DHALF * (size_t)w;

            if (fixed && w == 4)
                shmem_fcollect32(d, src, mine, s->start, s->log, s->size, pSync);
            else if (fixed)
                shmem_fcollect64(d, src, mine, s->start, s->log, s->size, pSync);
            else if (w == 4)
                shmem_collect32(d, src, mine, s->start, s->log, s->size, pSync);
            else
                shmem_collect64(d, src, mine, s->start, s->log, s->size, pSync);
        }
        for (int i = 0; i < s->size; i++)
            for (size_t e = 0; e < collect_count(i, fixed); e++)
                expect[total++] = code(ct_pe(s, i), (int)e, 0);
    }
    shmem_barrier_all();
    for (int h = 0; h < 2; h++)
        check_half(w, h, expect, total, fixed ? "fcollect" : "collect", s);
}

/* Strides 1 (alltoall) or dst 2, sst 3 (alltoalls); block j of member i
 * is code(pe of i, j, e). */
static void test_alltoall(int w, const ct_set_t *s, int strided)
{
    int idx = ct_index(s, me);
    ptrdiff_t ds = strided ? 2 : 1, ss = strided ? 3 : 1;
    size_t nel = strided ? 2 : 3, total = 0;
    uint64_t expect[DHALF];

    prepare(w, 0);
    for (int j = 0; j < s->size; j++)
        for (size_t e = 0; e < nel; e++)
            ct_setv(src, w, ((size_t)j * nel + e) * (size_t)ss, code(me, j, (int)e));
    shmem_barrier_all();
    if (idx >= 0) {
        for (int h = 0; h < 2; h++) {
            void *d = (char *)dst + (size_t)h * DHALF * (size_t)w;

            if (w == 4)
                shmem_alltoalls32(d, src, ds, ss, nel, s->start, s->log, s->size, pSync);
            else
                shmem_alltoalls64(d, src, ds, ss, nel, s->start, s->log, s->size, pSync);
            if (!strided && w == 4)
                shmem_alltoall32(d, src, nel, s->start, s->log, s->size, pSync);
            else if (!strided)
                shmem_alltoall64(d, src, nel, s->start, s->log, s->size, pSync);
        }
        for (int i = 0; i < s->size; i++)
            for (size_t e = 0; e < nel; e++)
                for (ptrdiff_t g = 0; g < ds; g++)
                    expect[total++] = g == 0 ? code(ct_pe(s, i), idx, (int)e) : SENTINEL;
        total -= (size_t)ds - 1; /* the gap after the last element is not written */
    }
    shmem_barrier_all();
    for (int h = 0; h < 2; h++)
        check_half(w, h, expect, total, strided ? "alltoalls" : "alltoall", s);
}

/* A broadcast followed at once by a barrier on the same pSync, while the
 * last PE is late to the broadcast: the root may only return (and change its
 * source) once the late PE has copied, even though the others' barrier
 * signals reach the root's pSync first. */
static void test_bcast_then_barrier(void)
{
    const ct_set_t all = {0, 0, npes};
    uint64_t expect[8];

    if (npes < 3)
        return;
    prepare(8, 8);
    if (me == npes - 1)
        usleep(50000);
    shmem_broadcast64(dst, src, 8, 0, 0, 0, npes, pSync);
    if (me == 0)
        for (int i = 0; i < 8; i++)
            ct_setv(src, 8, (size_t)i, 0);
    shmem_barrier(0, 0, npes, pSync);
    for (int i = 0; i < 8; i++)
        expect[i] = code(0, i, 0);
    check_half(8, 0, expect, me == 0 ? 0 : 8, "broadcast then barrier: broadcast", &all);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    ct_set_t sets[CT_MAX_SETS];
    int nsets, statics = argc > 1 && strcmp(argv[1], "static") == 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 16) {
        if (me == 0)
            printf("SKIP: the arrays are sized for 16 PEs, not %d\n", npes);
        shmem_finalize();
        return 77;
    }
    pSync = statics ? s_psync : ct_psync(SHMEM_SYNC_SIZE);
    src = statics ? (void *)s_src : shmem_malloc(sizeof s_src);
    dst = statics ? (void *)s_dest : shmem_malloc(sizeof s_dest);
    test_bcast_then_barrier();
    nsets = ct_sets(npes, sets);
    for (int k = 0; k < nsets; k++)
        for (int w = 4; w <= 8; w += 4) {
            test_bcast(w, &sets[k]);
            test_collect(w, &sets[k], 0);
            test_collect(w, &sets[k], 1);
            test_alltoall(w, &sets[k], 0);
            test_alltoall(w, &sets[k], 1);
            ct_check_psync(pSync, SHMEM_SYNC_SIZE, "after the data collectives");
            shmem_barrier_all();
        }
    if (me == 0)
        printf("broadcast, collect, fcollect, alltoall, alltoalls (32, 64) into %s over %d "
               "active sets\n", statics ? "statics" : "the heap", nsets);
    if (!statics) {
        shmem_free(dst);
        shmem_free(src);
        shmem_free(pSync);
    }
    return ct_finish("coll_data");
}
