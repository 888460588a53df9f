/*
 * t-am-barrier-whole: pshm_barrier over two supernodes (pshmrun --hosts 2:
 * ranks 0, 2 and 1, 3) completes as a whole when its supernode part drops a
 * bad message: rank 1 gets EPROTO only after the job-wide part too, so the
 * barriers that follow and pshm_finalize match on every rank.
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { H_BAD = 4 };

static void on_bad(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)p; (void)n; (void)a; (void)na;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (getenv("PSHM_RANK") == NULL)
        setenv("PSHM_TEST_LAUNCH_FLAGS", "--hosts 2 --timeout 60", 1);
    int st = th_launch(argc, argv, 4);
    if (st >= 0)
        return st;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    int me = pshm_rank(ctx);
    pshm_handler_entry_t tab[] = { { H_BAD, on_bad, 0 } };

    CHECK(pshm_node_size(ctx) == 2 && pshm_is_local(ctx, me ^ 2) == 1);
    /* Rank 1 lacks H_BAD: rank 3's message to it cannot run. */
    if (me != 1)
        CHECK_OK(pshm_am_register(ctx, tab, 1));
    CHECK_OK(pshm_barrier(ctx));
    if (me == 3) {
        CHECK_OK(pshm_am_request_short(ctx, 1, H_BAD, 0, 0, NULL));
        usleep(300 * 1000);   /* rank 1 waits for rank 3, polling, meanwhile */
    }
    int rc = pshm_barrier(ctx);
    if (me == 1) {
        CHECK_ERR(rc, -EPROTO);
        CHECK(strstr(pshm_last_error(), "completed") != NULL);
    } else {
        CHECK_OK(rc);
    }
    for (int i = 0; i < 3; i++)
        CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    printf("rank %d: the barrier completed as a whole; the next ones and finalize matched\n",
           me);
    return T_PASS;
}
