/*
 * coll_barrier.c - shmem_barrier_all, shmem_sync_all, shmem_barrier and
 * shmem_sync over active sets (strided, leaving PEs out, single PEs).
 *
 * In every round each member stores the round number into every other
 * member's row at its own column, then enters the barrier; after it, every
 * column of the row must hold the round: a barrier that lets a PE out before
 * all arrived, or before their stores are visible, shows as a stale column.
 * Rounds on one set reuse one pSync back to back; after each set every
 * PE's pSync must be SHMEM_SYNC_VALUE again, members' and others' alike.
 * shmem_barrier runs on a pSync in the heap, shmem_sync on a static one.
 */
#include "coll_test.h"

#define ROUNDS 40

static long s_psync[SHMEM_BARRIER_SYNC_SIZE]; /* sync runs on a static pSync */

static void one_set(const ct_set_t *s, long *row, long *pSync, int sync_only, long base)
{
    int me = shmem_my_pe(), idx = ct_index(s, me);

    if (idx < 0)
        return;
    for (long r = base + 1; r <= base + ROUNDS; r++) {
        for (int i = 0; i < s->size; i++)
            shmem_long_p(&row[me], r, ct_pe(s, i));
        if (sync_only) {
            shmem_quiet();
            shmem_sync(s->start, s->log, s->size, pSync);
        } else {
            shmem_barrier(s->start, s->log, s->size, pSync);
        }
        for (int i = 0; i < s->size; i++) {
            long got = row[ct_pe(s, i)];

            CT_CHECK(got == r,
                     "%s set (%d,%d,%d) round %ld: column %d holds %ld", sync_only ? "sync" : "barrier",
                     s->start, s->log, s->size, r, ct_pe(s, i), got);
        }
        /* Nobody may run two rounds ahead: wait for all before the next. */
        if (sync_only)
            shmem_sync(s->start, s->log, s->size, pSync);
        else
            shmem_barrier(s->start, s->log, s->size, pSync);
    }
}

int main(void)
{
    ct_set_t sets[CT_MAX_SETS];
    int me, npes, nsets;
    long *row, *pSync;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    row = shmem_calloc((size_t)npes, sizeof(long));
    pSync = ct_psync(SHMEM_BARRIER_SYNC_SIZE);
    shmem_barrier_all();

    /* barrier_all and sync_all: the whole job, many times in a row. */
    for (long r = 1; r <= 200; r++) {
        for (int pe = 0; pe < npes; pe++)
            shmem_long_p(&row[me], r, pe);
        if (r % 2) {
            shmem_barrier_all();
        } else {
            shmem_quiet();
            shmem_sync_all();
        }
        for (int pe = 0; pe < npes; pe++)
            CT_CHECK(row[pe] == r, "barrier_all round %ld: column %d holds %ld",
                     r, pe, row[pe]);
        shmem_barrier_all();
    }
    for (int pe = 0; pe < npes; pe++)
        row[pe] = 0;
    shmem_barrier_all();

    nsets = ct_sets(npes, sets);
    for (int k = 0; k < nsets; k++) {
        for (int sync_only = 0; sync_only <= 1; sync_only++) {
            long *ps = sync_only ? s_psync : pSync;

            one_set(&sets[k], row, ps, sync_only, 1000L * (2 * k + sync_only));
            shmem_barrier_all();
            char what[64];

            snprintf(what, sizeof what, "%s over (%d,%d,%d)", sync_only ? "sync" : "barrier",
                     sets[k].start, sets[k].log, sets[k].size);
            ct_check_psync(ps, SHMEM_BARRIER_SYNC_SIZE, what);
            /* The next set may signal this pSync as soon as it starts. */
            shmem_barrier_all();
        }
    }
    if (me == 0)
        printf("barrier_all, sync_all, and barrier and sync over %d active sets\n", nsets);
    shmem_free(pSync);
    shmem_free(row);
    return ct_finish("coll_barrier");
}
