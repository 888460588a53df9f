/*
 * t-am-order: within a pair, requests run in the order they were sent (all
 * categories mixed on the request network), and so do replies, with a small
 * queue so that senders wrap around and wait many times.
 */
#include "amtest.h"

#include <stdio.h>
#include <stdlib.h>

#define NP 3
#define N 20000
enum { H_REQ = 1, H_REP = 2 };

static pshm_ctx_t *ctx;
static uint32_t next_req[NP], next_rep[NP];
static long got[2];
static int bad;
static pshm_seginfo_t segs[NP];

static void req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    (void)p; (void)n; (void)na;
    if (a[0] != next_req[src]) {
        if (bad++ < 5) fprintf(stderr, "request %u from %d arrived when %u was due\n", a[0], src,
                               next_req[src]);
    }
    next_req[src] = a[0] + 1;
    if (pshm_am_reply_short(t, H_REP, 0, 1, a) != 0) bad++;
}
static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    (void)p; (void)n; (void)na;
    if (a[0] != next_rep[src]) {
        if (bad++ < 5) fprintf(stderr, "reply %u from %d arrived when %u was due\n", a[0], src,
                               next_rep[src]);
    }
    next_rep[src] = a[0] + 1;
    got[0]++;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (!getenv("PSHM_RANK")) {
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "3", 1);
        return th_launch(argc, argv, NP);
    }
    ctx = am_setup(0, 1 << 20);
    pshm_handler_entry_t tab[] = {{H_REQ, req, 1}, {H_REP, rep, 1}};
    CHECK_OK(pshm_am_register(ctx, tab, 2));
    int me = pshm_rank(ctx);
    for (int r = 0; r < NP; r++) CHECK_OK(pshm_segment_info(ctx, r, &segs[r]));
    static uint8_t buf[4096];
    uint32_t seq[NP] = {0};
    for (int i = 0; i < N; i++) {
        int d = i % NP;
        uint32_t a = seq[d]++;
        switch (i % 5) {
        case 0: case 1: CHECK_OK(pshm_am_request_short(ctx, d, H_REQ, 0, 1, &a)); break;
        case 2: CHECK_OK(pshm_am_request_medium(ctx, d, H_REQ, buf, 20, 0, 1, &a)); break;
        case 3: CHECK_OK(pshm_am_request_medium(ctx, d, H_REQ, buf, 4096, 0, 1, &a)); break;
        default:
            CHECK_OK(pshm_am_request_long(ctx, d, H_REQ, buf, 512,
                                          (char *)segs[d].owner_base + 512 * me, 0, 1, &a));
        }
    }
    got[1] = N;
    CHECK_OK(pshm_wait_until(ctx, am_count_reached, got));
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);
    for (int r = 0; r < NP; r++) CHECK(next_req[r] == seq[me] && next_rep[r] == seq[r]);
    printf("rank %d: %d requests and %d replies, each pair's in sending order\n", me, N, N);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
