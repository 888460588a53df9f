/*
 * t-am-inhandler: collectives called from inside a handler are refused and
 * change nothing (pshm_finalize, pshm_barrier and pshm_node_barrier return
 * -EINVAL, the poll that ran the handler returns, traffic goes on, the later
 * finalize works); a barrier that meets a bad message (-EPROTO) completes
 * first, then reports it, so that it still synchronizes and the following
 * finalize does not hang.
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { H_FIN = 3, H_BAD = 4, H_DATA = 5 };
enum { DATA_LEN = 1000 };

static pshm_ctx_t *ctx;
static volatile int fin_done, data_ok, data_seen;
static int in_fin, in_bar, in_nbar;

static void on_fin(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p; (void)n; (void)a; (void)na;
    in_fin = pshm_finalize(pshm_token_ctx(t));
    in_bar = pshm_barrier(pshm_token_ctx(t));
    in_nbar = pshm_node_barrier(pshm_token_ctx(t));
    fin_done = 1;
}

static void on_bad(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)p; (void)n; (void)a; (void)na;
}

static void on_data(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)a; (void)na;
    data_ok = n == DATA_LEN && am_diff(p, n, 77) < 0;
    data_seen = 1;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, 3);
    if (st >= 0)
        return st;
    ctx = am_setup(0, 4096);
    int me = pshm_rank(ctx);
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, 1, &si));
    volatile int *mark = (volatile int *)(me == 1 ? si.local_base : NULL);

    /* Rank 1 lacks H_BAD: what the others send there cannot run. */
    pshm_handler_entry_t tab[] = { { H_FIN, on_fin, 0 }, { H_DATA, on_data, 0 },
                                   { H_BAD, on_bad, 0 } };
    CHECK_OK(pshm_am_register(ctx, tab, me == 1 ? 2 : 3));
    CHECK_OK(pshm_barrier(ctx));

    /* 1. Collectives inside a handler. */
    if (me == 0)
        CHECK_OK(pshm_am_request_short(ctx, 1, H_FIN, 0, 0, NULL));
    if (me == 1) {
        for (long i = 0; !fin_done && i < 100000000; i++)
            CHECK_OK(pshm_poll(ctx));
        CHECK(fin_done);
        CHECK_ERR(in_fin, -EINVAL);
        CHECK_ERR(in_bar, -EINVAL);
        CHECK_ERR(in_nbar, -EINVAL);
        CHECK_OK(pshm_poll(ctx));   /* the context is intact */
        CHECK(pshm_rank(ctx) == 1);
    }
    CHECK_OK(pshm_barrier(ctx));

    /* 2. Rank 1 waits in the barrier with a bad message from rank 2 while
     * rank 0 has not arrived: it must still wait for rank 0. */
    if (me == 2)
        CHECK_OK(pshm_am_request_short(ctx, 1, H_BAD, 0, 0, NULL));
    if (me == 0) {
        int one = 1;
        usleep(300 * 1000);
        CHECK_OK(pshm_put(ctx, 1, (void *)si.owner_base, &one, sizeof one));
    }
    int rc = pshm_barrier(ctx);
    if (me == 1) {
        CHECK(*mark == 1);   /* rank 0 wrote it before entering the barrier */
        CHECK_ERR(rc, -EPROTO);
        CHECK(strstr(pshm_last_error(), "completed") != NULL);
        CHECK(strstr(pshm_last_error(), "handler 4") != NULL);
    } else {
        CHECK_OK(rc);
    }

    /* 3. Traffic goes on, then every rank finalizes. */
    if (me == 1) {
        char buf[DATA_LEN];
        am_fill(buf, sizeof buf, 77);
        CHECK_OK(pshm_am_request_medium(ctx, 0, H_DATA, buf, sizeof buf, 0, 0, NULL));
        CHECK_OK(pshm_am_request_medium(ctx, 2, H_DATA, buf, sizeof buf, 0, 0, NULL));
    } else {
        CHECK_OK(pshm_wait_until(ctx, am_flag_set, (void *)&data_seen));
        CHECK(data_ok);
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    printf("rank %d: collectives refused inside a handler; a barrier with a bad message "
           "completed, then reported it; finalize works\n", me);
    return T_PASS;
}
