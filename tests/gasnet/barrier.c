/*
 * barrier.c - GASNet's split-phase barrier and its mismatch rules
 * (specification 1.8, gasnet_barrier_wait): matching named ids, anonymous
 * nodes among named ones, ids that differ between nodes, a node's
 * GASNET_BARRIERFLAG_MISMATCH, a wait whose id or flags differ from its
 * notify's, gasnet_barrier_try until ready, and that no node leaves a
 * phase before every node notified it.
 */
#include "gtest.h"

#include <unistd.h>

static int wait_or_try(int use_try, int id, int flags)
{
    int rc;
    if (!use_try)
        return gasnet_barrier_wait(id, flags);
    while ((rc = gasnet_barrier_try(id, flags)) == GASNET_ERR_NOT_READY)
        ;
    return rc;
}

#define EXPECT(rc, want, what)                                                             \
    GT_CHECK((rc) == (want), "%s: %s, expected %s", what, gasnet_ErrorName(rc),            \
             gasnet_ErrorName(want))

int main(int argc, char **argv)
{
    GT_SAFE(gasnet_init(&argc, &argv));
    unsigned me = gasnet_mynode(), n = gasnet_nodes();
    GT_SAFE(gasnet_attach(NULL, 0, 4096, 0));
    gasnet_seginfo_t *s = calloc(n, sizeof *s);
    GT_SAFE(gasnet_getSegmentInfo(s, (int)n));
    void *flag = s[0].addr; /* in node 0's segment: the last node has notified */

    for (int t = 0; t < 2; t++) {
        const char *how = t ? "try" : "wait";
        int rc, id;
        /* named, all equal */
        gasnet_barrier_notify(1234, 0);
        rc = wait_or_try(t, 1234, 0);
        EXPECT(rc, GASNET_OK, "equal ids");
        GT_CHECK(gasnet_barrier_result(&id) == 0 && id == 1234, "result after equal ids: id %d", id);
        /* anonymous everywhere */
        gasnet_barrier_notify(99, GASNET_BARRIERFLAG_ANONYMOUS);
        EXPECT(wait_or_try(t, 5, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK, "anonymous");
        GT_CHECK(gasnet_barrier_result(&id) == GASNET_BARRIERFLAG_ANONYMOUS, "all anonymous");
        /* node 0 anonymous, the others named alike: matches */
        if (me == 0) {
            gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
            rc = wait_or_try(t, 0, GASNET_BARRIERFLAG_ANONYMOUS);
        } else {
            gasnet_barrier_notify(77, 0);
            rc = wait_or_try(t, 77, 0);
        }
        EXPECT(rc, GASNET_OK, "anonymous among named");
        if (n > 1)
            GT_CHECK(gasnet_barrier_result(&id) == 0 && id == 77, "the phase's id is 77: %d", id);
        /* ids differ between nodes: every node mismatches */
        gasnet_barrier_notify(me == n - 1 ? 2 : 1, 0);
        rc = wait_or_try(t, me == n - 1 ? 2 : 1, 0);
        EXPECT(rc, n > 1 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, "different ids");
        /* after a mismatch the next phase is clean */
        gasnet_barrier_notify(3, 0);
        EXPECT(wait_or_try(t, 3, 0), GASNET_OK, "the phase after a mismatch");
        /* one node forces a mismatch */
        int f = me == n / 2 ? GASNET_BARRIERFLAG_MISMATCH : 0;
        gasnet_barrier_notify(4, f);
        EXPECT(wait_or_try(t, 4, f), GASNET_ERR_BARRIER_MISMATCH, "MISMATCH flag");
        /* a wait's id differs from its notify's: that node mismatches */
        gasnet_barrier_notify(5, 0);
        rc = wait_or_try(t, me == 0 ? 6 : 5, 0);
        EXPECT(rc, me == 0 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, "wait's id differs");
        /* a wait's flags differ from its notify's */
        gasnet_barrier_notify(6, 0);
        rc = wait_or_try(t, 6, me == 0 ? GASNET_BARRIERFLAG_ANONYMOUS : 0);
        EXPECT(rc, me == 0 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, "wait's flags differ");
        /* nobody passes before the last node notified */
        if (me == 0)
            gasnet_put_val(0, flag, 0, 4);
        gasnet_barrier_notify(7, 0);
        EXPECT(gasnet_barrier_wait(7, 0), GASNET_OK, "reset");
        if (me == n - 1) {
            usleep(200000);
            gasnet_put_val(0, flag, 1, 4);
            gasnet_barrier_notify(8, 0);
        } else {
            gasnet_barrier_notify(8, 0);
        }
        EXPECT(wait_or_try(t, 8, 0), GASNET_OK, "late node");
        GT_CHECK(gasnet_get_val(0, flag, 4) == 1,
                 "left the barrier (%s) before the last node notified it", how);
        gt_barrier();
    }
    gt_end("barrier");
    return 0;
}
