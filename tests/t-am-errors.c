/*
 * t-am-errors: bad arguments to every send and to pshm_am_register are
 * refused with -EINVAL (or -EHOSTUNREACH / -EFAULT) and a message; a message
 * for a handler the receiver does not have, or with the wrong count, makes
 * the receiver's poll fail with -EPROTO naming handler and source, and
 * nothing crashes; requests and polls from inside a handler are refused.
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H_OK = 3, H_MISMATCH = 4, H_ONLY0 = 5 };
static pshm_ctx_t *ctx;
static volatile int got;
static int inner_req, inner_poll;

static void ok(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p; (void)n; (void)a; (void)na;
    inner_req = pshm_am_request_short(pshm_token_ctx(t), 0, H_OK, 0, 0, NULL);
    inner_poll = pshm_poll(pshm_token_ctx(t));
    got++;
}

#define MSG(s) CHECK(strstr(pshm_last_error(), s) != NULL)

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, 2);
    if (st >= 0) return st;
    ctx = am_setup(0, 4096);
    int me = pshm_rank(ctx), peer = 1 - me;
    uint32_t a[17] = {0};
    uint8_t b[8] = {0};
    static uint32_t big[256];

    /* Registration. */
    pshm_handler_entry_t bad0 = {0, ok, 0}, bad256 = {256, ok, 0}, badfn = {9, NULL, 0},
                         badn = {9, ok, 17}, badn2 = {9, ok, -2};
    CHECK_ERR(pshm_am_register(ctx, &bad0, 1), -EINVAL); MSG("index 0");
    CHECK_ERR(pshm_am_register(ctx, &bad256, 1), -EINVAL);
    CHECK_ERR(pshm_am_register(ctx, &badfn, 1), -EINVAL); MSG("NULL");
    CHECK_ERR(pshm_am_register(ctx, &badn, 1), -EINVAL); MSG("nargs 17");
    CHECK_ERR(pshm_am_register(ctx, &badn2, 1), -EINVAL);
    CHECK_ERR(pshm_am_register(ctx, NULL, 1), -EINVAL);
    CHECK_ERR(pshm_am_register(ctx, &badn, 0), -EINVAL);
    /* A bad entry after a good one changes nothing. */
    pshm_handler_entry_t mixed[2] = {{9, ok, 0}, {0, ok, 0}};
    CHECK_ERR(pshm_am_register(ctx, mixed, 2), -EINVAL);
    CHECK_ERR(pshm_am_request_short(ctx, peer, 9, 0, 0, NULL), -EINVAL); MSG("not registered");

    pshm_handler_entry_t tab[] = {{H_OK, ok, 0}, {H_MISMATCH, ok, me == 0 ? 1 : 2},
                                  {H_ONLY0, ok, 0}};
    CHECK_OK(pshm_am_register(ctx, tab, me == 0 ? 3 : 2));

    /* Sender-side checks. */
    CHECK_ERR(pshm_am_request_short(ctx, peer, 0, 0, 0, NULL), -EINVAL); MSG("handler index 0");
    CHECK_ERR(pshm_am_request_short(ctx, peer, 256, 0, 0, NULL), -EINVAL);
    CHECK_ERR(pshm_am_request_short(ctx, peer, 77, 0, 0, NULL), -EINVAL); MSG("not registered");
    /* 255 is the count kept for a handler not registered: still refused. */
    CHECK_ERR(pshm_am_request_short(ctx, peer, 77, 0, 255, big), -EINVAL); MSG("at most 16");
    CHECK_ERR(pshm_am_request_medium(ctx, peer, 77, b, 8, 0, 255, big), -EINVAL);
    MSG("at most 16");
    CHECK_ERR(pshm_am_request_short(ctx, peer, H_OK, 0, 1, a), -EINVAL); MSG("takes 0 arguments");
    CHECK_ERR(pshm_am_request_short(ctx, peer, H_OK, 0, 17, a), -EINVAL); MSG("at most 16");
    CHECK_ERR(pshm_am_request_short(ctx, peer, H_MISMATCH, 0, 1, NULL), -EINVAL); MSG("NULL");
    CHECK_ERR(pshm_am_request_medium(ctx, peer, H_OK, NULL, 8, 0, 0, NULL), -EINVAL);
    MSG("buffer is NULL");
    CHECK_ERR(pshm_am_request_long(ctx, peer, H_OK, NULL, 8, NULL, 0, 0, NULL), -EINVAL);
    CHECK_ERR(pshm_am_request_short(ctx, -1, H_OK, 0, 0, NULL), -EINVAL); MSG("outside");
    CHECK_ERR(pshm_am_request_short(ctx, 2, H_OK, 0, 0, NULL), -EINVAL);
    CHECK_ERR(pshm_am_request_short(ctx, peer, H_OK, 0x10, 0, NULL), -EINVAL); MSG("flags");
    CHECK_ERR(pshm_am_request_long(ctx, peer, H_OK, b, 8, b, 0, 0, NULL), -EFAULT);
    CHECK_ERR(pshm_am_request_short(NULL, peer, H_OK, 0, 0, NULL), -EINVAL);
    CHECK_ERR(pshm_poll(NULL), -EINVAL);
    CHECK_ERR(pshm_am_reply_short(NULL, H_OK, 0, 0, NULL), -EINVAL);
    CHECK_ERR(pshm_token_source(NULL), -EINVAL);
    CHECK_ERR(pshm_wait_until(ctx, NULL, NULL), -EINVAL);
    uint64_t sz;
    CHECK_ERR(pshm_am_network_size(0, 0, 0, &sz), -EINVAL);
    CHECK_ERR(pshm_am_network_size(2, 65537, 0, &sz), -EINVAL);
    CHECK_ERR(pshm_am_network_size(2, 0, 4096, &sz), -EINVAL); MSG("GASNET_PSHMNET_QUEUE_MEMORY");
    CHECK_ERR(pshm_am_network_size(1u << 20, 65536, (size_t)1 << 42, &sz), -EOVERFLOW);
    pshm_am_network_parts_t parts;
    CHECK_ERR(pshm_am_network_parts(2, 0, 0, NULL), -EINVAL); MSG("pshm_am_network_parts");
    CHECK_ERR(pshm_am_network_parts(0, 0, 0, &parts), -EINVAL);
    CHECK_ERR(pshm_am_network_parts(2, 65537, 0, &parts), -EINVAL); MSG("queue depth 65537");
    CHECK_ERR(pshm_am_network_parts(2, 0, 4096, &parts), -EINVAL); MSG("GASNET_PSHMNET_QUEUE_MEMORY");
    CHECK_ERR(pshm_am_network_parts(1u << 20, 65536, (size_t)1 << 42, &parts), -EOVERFLOW);

    /* Receiver side: rank 0 sends what rank 1 cannot run. */
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0) {
        a[0] = 7;
        CHECK_OK(pshm_am_request_short(ctx, 1, H_MISMATCH, 0, 1, a));
        CHECK_OK(pshm_am_request_short(ctx, 1, H_ONLY0, 0, 0, NULL));
        CHECK_OK(pshm_am_request_short(ctx, 1, H_OK, 0, 0, NULL));
    } else {
        int rc, n = 0, protos = 0;
        char msg[2][512];
        while (got == 0 && n++ < 10000000) {
            rc = pshm_poll(ctx);
            if (rc == -EPROTO && protos < 2)
                snprintf(msg[protos++], sizeof msg[0], "%s", pshm_last_error());
            CHECK(rc >= 0 || rc == -EPROTO);
        }
        CHECK(got == 1 && protos == 2);
        CHECK(strstr(msg[0], "handler 4") && strstr(msg[0], "rank 0") &&
              strstr(msg[0], "argument count"));
        CHECK(strstr(msg[1], "handler 5") && strstr(msg[1], "not registered"));
        CHECK_ERR(inner_req, -EINVAL);
        CHECK_ERR(inner_poll, -EINVAL);
    }
    CHECK_OK(pshm_barrier(ctx));
    printf("rank %d: every bad argument refused with its message; bad messages reported\n", me);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
