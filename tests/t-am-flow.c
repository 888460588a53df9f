/*
 * t-am-flow: queue depth 1 and the smallest pool, an all-to-all flood of
 * maximum-size Medium requests each answered with a maximum-size Medium
 * reply, must finish; and PSHM_IMMEDIATE returns -EAGAIN, sending nothing,
 * when the queue to a peer that is not polling is full (its one line of
 * cells holds AMQ_CELLS Shorts of 1 arg), then the pool.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NP
#define NP 4
#endif
#define PER_PEER 60
enum { H_REQ = 5, H_REP = 6, H_CNT = 7 };

static pshm_ctx_t *ctx;
static long got[2];          /* [0] replies to me, [1] target */
static volatile long counted;
static int bad;
static uint8_t *big;

static void req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    if (n != 65536 || am_diff(p, n, a[0]) >= 0) bad++;
    if (pshm_am_reply_medium(t, H_REP, p, n, 0, 1, a) != 0) bad++;
}
static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)na;
    if (n != 65536 || am_diff(p, n, a[0]) >= 0) bad++;
    got[0]++;
}
static void cnt(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)p; (void)na;
    if (a[0] != (uint32_t)counted || (n && am_diff(p, n, a[0]) >= 0)) bad++;
    counted++;
}
static int reached(void *arg) { return counted >= *(long *)arg; }

/* Ranks 0 and 2 said they stopped polling (t-am-flow's IMMEDIATE part). */
typedef struct {
    volatile int *flag;
} both_stopped_t;
static int both_stopped(void *arg)
{
    const both_stopped_t *w = arg;
    return w->flag[1] != 0 && w->flag[2] != 0;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (!getenv("PSHM_RANK")) {
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "1", 1);
        setenv("GASNET_PSHMNET_QUEUE_MEMORY", "128K", 1);
        return th_launch(argc, argv, NP);
    }
    ctx = am_setup(0, 4096);
    pshm_handler_entry_t tab[] = {{H_REQ, req, 1}, {H_REP, rep, 1}, {H_CNT, cnt, 1}};
    CHECK_OK(pshm_am_register(ctx, tab, 3));
    int me = pshm_rank(ctx), np = pshm_size(ctx);
    /* 4 processes: the scan; t-am-flow-wide's 8: a wide layout (bells). */
    CHECK(np == NP && ctx->amq->l.wide == (NP >= PSHM_AM_WIDE_MIN));
    big = malloc(65536);
    CHECK(big != NULL);
    am_fill(big, 65536, (uint32_t)me);
    uint32_t a = (uint32_t)me;

    /* Flood: every process sends to every process, itself included. */
    for (int i = 0; i < PER_PEER; i++)
        for (int d = 0; d < np; d++)
            CHECK_OK(pshm_am_request_medium(ctx, (me + d) % np, H_REQ, big, 65536, 0, 1, &a));
    got[1] = (long)PER_PEER * np;
    CHECK_OK(pshm_wait_until(ctx, am_count_reached, got));
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);
    printf("rank %d: flood of %d max Mediums with max Medium replies, depth 1, 128K pool: done\n",
           me, PER_PEER * np);

    /* IMMEDIATE: ranks 0 and 2 stop polling (they sleep on a flag in their
     * segment) while rank 1 fills the queue to 0, then the pool. Rank 1
     * starts once both say they stopped (flag[1], flag[2] of its
     * segment): one may still be in the barrier, polling, after rank 1
     * left it. */
    volatile int *flag;
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, me, &si));
    flag = si.local_base;
    flag[0] = flag[1] = flag[2] = 0;
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0 || me == 2) {
        int one = 1;
        pshm_seginfo_t r1;
        CHECK_OK(pshm_segment_info(ctx, 1, &r1));
        CHECK_OK(pshm_put(ctx, 1, (int *)r1.owner_base + 1 + me / 2, &one, sizeof one));
        while (*flag == 0) usleep(1000); /* not polling */
    } else if (me == 1) {
        both_stopped_t w = {flag};
        CHECK_OK(pshm_wait_until(ctx, both_stopped, &w));
        uint32_t k = 0;
        int one = 1;
        uint8_t *p = malloc(65536);
        CHECK(p != NULL);
        am_fill(p, 65536, 0);
        for (k = 0; k < AMQ_CELLS; k++)
            CHECK_OK(pshm_am_request_short(ctx, 0, H_CNT, PSHM_IMMEDIATE, 1, &k));
        CHECK_ERR(pshm_am_request_short(ctx, 0, H_CNT, PSHM_IMMEDIATE, 1, &k), -EAGAIN);
        CHECK(strstr(pshm_last_error(), "full") != NULL);
        /* One spilled Medium to rank 2 takes the only 64K chunk of the pool. */
        k = 0;
        CHECK_OK(pshm_am_request_medium(ctx, 2, H_CNT, p, 65536, PSHM_IMMEDIATE, 1, &k));
        /* The loopback queue is empty, the pool is not: refused, nothing sent. */
        CHECK_ERR(pshm_am_request_medium(ctx, 1, H_CNT, p, 65536, PSHM_IMMEDIATE, 1, &k),
                  -EAGAIN);
        CHECK(strstr(pshm_last_error(), "pool") != NULL);
        free(p);
        pshm_seginfo_t o;
        for (int r = 0; r <= 2; r += 2) {
            CHECK_OK(pshm_segment_info(ctx, r, &o));
            CHECK_OK(pshm_put(ctx, r, (void *)o.owner_base, &one, sizeof one));
        }
    }
    long want = me == 0 ? AMQ_CELLS : me == 2 ? 1 : 0;
    CHECK_OK(pshm_wait_until(ctx, reached, &want));
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);
    if (counted != want) {
        fprintf(stderr, "FAIL rank %d: %ld messages counted, expected %ld\n", me, counted, want);
        return T_FAIL;
    }
    printf("rank %d: PSHM_IMMEDIATE refused a full queue and a full pool, nothing lost\n", me);
    CHECK_OK(pshm_finalize(ctx));
    free(big);
    return T_PASS;
}
