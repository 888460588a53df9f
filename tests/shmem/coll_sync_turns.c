/*
 * coll_sync_turns.c - shmem_barrier and shmem_sync back to back on one
 * pSync, with no other synchronization between calls, PEs delayed at
 * random so that a fast PE signals its next call while a slow one is still
 * leaving the last: that signal must be neither lost (the job would hang
 * until its timeout) nor taken for the slow PE's current call (which would
 * then let it out before everyone arrived). The calls interleave two sets
 * (the whole job on one pSync, PEs 0 and 1 on another, and shmem_sync on
 * a static pSync), so that a pair of PEs meets through several sets and
 * pSyncs in turn. After each call every member's column in this PE's row
 * holds the call's number or a later one; at the end every slot of the
 * three pSyncs is SHMEM_SYNC_VALUE.
 */
#include "coll_test.h"

#include <stdatomic.h>

#define CALLS 6000

static long s_psync[SHMEM_BARRIER_SYNC_SIZE];

int main(void)
{
    int me, npes;
    long *row, *all, *pair;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    row = shmem_calloc((size_t)npes, sizeof(long));
    all = ct_psync(SHMEM_BARRIER_SYNC_SIZE);
    pair = ct_psync(SHMEM_BARRIER_SYNC_SIZE);
    shmem_barrier_all();

    for (long c = 1; c <= CALLS; c++) {
        /* Every third call is PEs 0 and 1 alone; every fifth a sync. */
        int in_pair = c % 3 == 0, size = in_pair ? 2 : npes, sync_only = c % 5 == 0;
        long *ps = sync_only ? s_psync : in_pair ? pair : all;

        if (me >= size)
            continue;
        ct_maybe_delay(c, me);
        for (int pe = 0; pe < size; pe++)
            shmem_long_p(&row[me], c, pe);
        if (sync_only) {
            shmem_quiet();
            shmem_sync(0, 0, size, ps);
        } else {
            shmem_barrier(0, 0, size, ps);
        }
        for (int pe = 0; pe < size; pe++) {
            long got = atomic_load_explicit((_Atomic long *)&row[pe], memory_order_relaxed);

            CT_CHECK(got >= c, "call %ld (%s over %d PEs): PE %d's column holds %ld",
                     c, sync_only ? "sync" : "barrier", size, pe, got);
        }
    }
    shmem_barrier_all();
    ct_check_psync(all, SHMEM_BARRIER_SYNC_SIZE, "the whole job's pSync");
    ct_check_psync(pair, SHMEM_BARRIER_SYNC_SIZE, "the pair's pSync");
    ct_check_psync(s_psync, SHMEM_BARRIER_SYNC_SIZE, "the static pSync");
    if (me == 0)
        printf("%d back-to-back barriers and syncs on shared pSyncs\n", CALLS);
    shmem_free(pair);
    shmem_free(all);
    shmem_free(row);
    return ct_finish("coll_sync_turns");
}
