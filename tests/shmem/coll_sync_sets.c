/*
 * coll_sync_sets.c - shmem_barrier and shmem_sync over several active sets
 * in turn, PEs delayed at random, the library's plan of the last set (kept
 * between calls) made, dropped and made again at every turn:
 *   - one pSync reused by two different sets, each reuse after a barrier
 *     over the job (the specification's condition for a new set);
 *   - overlapping sets on different pSyncs back to back, no other
 *     synchronization between calls (a pair of PEs meets through both);
 *   - a reduction, shmem_team_sync on a strided team and shmem_sync_all
 *     between them, which use the same signals inside the library;
 *   - a set of one PE.
 * Before each call every member stores the call's number into each
 * member's row at its own column; after it every member's column must hold
 * that number or a later one (a barrier that lets a PE out early shows a
 * stale column). At the end every pSync is SHMEM_SYNC_VALUE.
 */
#include "coll_test.h"

#include <stdatomic.h>

#define CALLS 3000
#define NPS 4

static long s_psync[SHMEM_BARRIER_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static int member(const ct_set_t *s, int pe)
{
    int d = pe - s->start;

    return d >= 0 && d % (1 << s->log) == 0 && d / (1 << s->log) < s->size;
}

/* Call c over set s on pSync ps: a barrier, or (sync) a quiet and a sync. */
static void one_call(long c, const ct_set_t *s, long *ps, int sync, long *row)
{
    int me = shmem_my_pe();

    if (!member(s, me))
        return;
    ct_maybe_delay(c, me);
    for (int i = 0; i < s->size; i++)
        shmem_long_p(&row[me], c, ct_pe(s, i));
    if (sync) {
        shmem_quiet();
        shmem_sync(s->start, s->log, s->size, ps);
    } else {
        shmem_barrier(s->start, s->log, s->size, ps);
    }
    for (int i = 0; i < s->size; i++) {
        int pe = ct_pe(s, i);
        long got = atomic_load_explicit((_Atomic long *)&row[pe], memory_order_relaxed);

        CT_CHECK(got >= c, "call %ld (%s over (%d,%d,%d)): PE %d's column holds %ld", c,
                 sync ? "sync" : "barrier", s->start, s->log, s->size, pe, got);
    }
}

int main(void)
{
    int me, npes;
    long *row, *ps[NPS], *src, *dst;
    shmem_team_t evens;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    row = shmem_calloc((size_t)npes, sizeof(long));
    src = shmem_malloc(sizeof(long));
    dst = shmem_malloc(sizeof(long));
    for (int k = 0; k < NPS; k++)
        ps[k] = ct_psync(SHMEM_BARRIER_SYNC_SIZE);
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens);
    shmem_barrier_all();

    /* The whole job; every other PE; all but PE 0 (all of 1 PE); PEs 0
     * and 1; PE 0 alone. */
    ct_set_t all = {0, 0, npes}, even = {0, 1, (npes + 1) / 2};
    ct_set_t rest = {npes > 1, 0, npes > 1 ? npes - 1 : 1};
    ct_set_t pair = {0, 0, npes > 1 ? 2 : 1}, one = {0, 0, 1};
    long c = 0;

    for (long r = 0; r < CALLS / 10; r++) {
        /* One pSync, two sets in turn, a barrier over the job between. */
        one_call(++c, &all, ps[0], r & 1, row);
        shmem_barrier_all();
        one_call(++c, &even, ps[0], 0, row);
        shmem_barrier_all();
        one_call(++c, &pair, ps[0], 1, row);
        shmem_barrier_all();
        /* Overlapping sets on their own pSyncs, back to back. */
        one_call(++c, &all, ps[1], 0, row);
        one_call(++c, &rest, ps[2], r & 1, row);
        one_call(++c, &even, ps[3], 0, row);
        one_call(++c, &all, ps[1], 1, row);
        one_call(++c, &one, s_psync, r & 1, row);
        /* The library's other users of the same signals. */
        if (member(&even, me)) {
            *src = me + r;
            shmem_long_sum_to_all(dst, src, 1, even.start, even.log, even.size, pwrk,
                                  s_psync);
            long want = 0;

            for (int i = 0; i < even.size; i++)
                want += ct_pe(&even, i) + r;
            CT_CHECK(*dst == want, "round %ld: the reduction over the even PEs gave %ld, "
                     "expected %ld", r, *dst, want);
        }
        if (evens != SHMEM_TEAM_INVALID)
            shmem_team_sync(evens);
        one_call(++c, &even, ps[3], 1, row);
        shmem_sync_all();
        one_call(++c, &all, ps[1], 0, row);
    }
    shmem_barrier_all();
    for (int k = 0; k < NPS; k++) {
        char what[32];

        snprintf(what, sizeof what, "pSync %d", k);
        ct_check_psync(ps[k], SHMEM_BARRIER_SYNC_SIZE, what);
    }
    ct_check_psync(s_psync, SHMEM_BARRIER_SYNC_SIZE, "the static pSync");
    if (me == 0)
        printf("%ld barriers and syncs over 5 sets on 5 pSyncs\n", c);
    if (evens != SHMEM_TEAM_INVALID)
        shmem_team_destroy(evens);
    for (int k = 0; k < NPS; k++)
        shmem_free(ps[k]);
    shmem_free(dst);
    shmem_free(src);
    shmem_free(row);
    return ct_finish("coll_sync_sets");
}
