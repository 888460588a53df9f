/*
 * t-am-loopback: a job of one process sends every category to itself,
 * through a queue of depth 2, so it must poll its own queue to make room.
 */
#include "amtest.h"

#include <stdio.h>
#include <stdlib.h>

enum { H_REQ = 1, H_REP = 2 };
static long got[2];
static int bad;
static uint8_t *seg;

static void req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    if (pshm_token_source(t) != 0 || n != a[1] || (n && am_diff(p, n, a[0]) >= 0)) bad++;
    if (pshm_am_reply_medium(t, H_REP, p, n < 1000 ? n : 1000, 0, 2, a) != 0) bad++;
}
static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)na;
    if (n != (a[1] < 1000 ? a[1] : 1000) || (n && am_diff(p, n, a[0]) >= 0)) bad++;
    got[0]++;
}

int main(int argc, char **argv)
{
    if (!getenv("PSHM_RANK")) {
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "2", 1);
        return th_launch(argc, argv, 1);
    }
    pshm_ctx_t *ctx = am_setup(0, 1 << 20);
    pshm_handler_entry_t tab[] = {{H_REQ, req, 2}, {H_REP, rep, 2}};
    CHECK_OK(pshm_am_register(ctx, tab, 2));
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, 0, &si));
    seg = si.local_base;
    uint8_t *buf = malloc(65536);
    CHECK(buf != NULL);
    int n = 0;
    for (uint32_t i = 0; i < 3000; i++) {
        uint32_t a[2] = {i, (i * 37) % 65537};
        am_fill(buf, a[1], i);
        switch (i % 3) {
        case 0: a[1] = 0; CHECK_OK(pshm_am_request_short(ctx, 0, H_REQ, 0, 2, a)); break;
        case 1: CHECK_OK(pshm_am_request_medium(ctx, 0, H_REQ, buf, a[1], 0, 2, a)); break;
        default:
            CHECK_OK(pshm_am_request_long(ctx, 0, H_REQ, buf, a[1],
                                          (char *)si.owner_base + 65536 * (i % 8), 0, 2, a));
            /* The landing area is reused: wait for this one. */
            got[1] = n + 1;
            CHECK_OK(pshm_wait_until(ctx, am_count_reached, got));
        }
        n++;
    }
    got[1] = n;
    CHECK_OK(pshm_wait_until(ctx, am_count_reached, got));
    CHECK(bad == 0 && got[0] == 3000);
    printf("3000 loopback requests and replies (Short, Medium, Long) checked\n");
    CHECK_OK(pshm_finalize(ctx));
    free(buf);
    return T_PASS;
}
