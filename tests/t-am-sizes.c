/*
 * t-am-sizes: every category, request and reply, every interesting size;
 * payloads and args checked byte for byte, to a peer and to itself; Long to
 * the segment edges and just outside; Medium past the maximum.
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define NP 2
#define LREGION (256u * 1024)        /* Long landing area per (sender, kind) */
#define SEGSZ (2 * NP * LREGION + 65536)

enum { H_REQ = 10, H_REP = 20 };     /* + category 0 short, 1 medium, 2 long */

static pshm_ctx_t *ctx;
static pshm_seginfo_t segs[NP];
static volatile int got_reply;
static int bad;

/* args: [0] seed, [1] nbytes, [2] category, [3] landing offset, rest seed ^ i */
static void check_args(const uint32_t *a, unsigned na, const char *who)
{
    for (unsigned i = 4; i < na; i++)
        if (a[i] != (a[0] ^ i)) {
            fprintf(stderr, "%s: arg %u is %u, expected %u\n", who, i, a[i], a[0] ^ i);
            bad++;
        }
}

static void check_payload(const void *buf, size_t n, const uint32_t *a, unsigned na,
                          const char *who)
{
    unsigned cat = a[2];
    long d;
    if (n != a[1]) {
        fprintf(stderr, "%s: %zu bytes, expected %u\n", who, n, a[1]);
        bad++;
        return;
    }
    if (cat == 0 && (buf != NULL || n != 0)) {
        fprintf(stderr, "%s: Short handler got buf %p, %zu bytes\n", who, buf, n);
        bad++;
    }
    if (n && (d = am_diff(buf, n, a[0])) >= 0) {
        fprintf(stderr, "%s: payload of %zu bytes differs at byte %ld\n", who, n, d);
        bad++;
    }
    if (cat == 1 && ((uintptr_t)buf & 7) != 0) {
        fprintf(stderr, "%s: Medium payload at %p is not 8-aligned\n", who, buf);
        bad++;
    }
    check_args(a, na, who);
}

static void req_handler(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t), me = pshm_rank(pshm_token_ctx(t));
    check_payload(buf, n, a, na, "request handler");
    if (a[2] == 2 && buf != (char *)segs[me].local_base + a[3]) {
        fprintf(stderr, "Long request landed at %p, expected %p\n", buf,
                (void *)((char *)segs[me].local_base + a[3]));
        bad++;
    }
    uint32_t b[PSHM_AM_MAX_ARGS];
    memcpy(b, a, na * 4);
    int rc;
    switch (a[2]) {
    case 0: rc = pshm_am_reply_short(t, H_REP + 0, 0, na, b); break;
    case 1: rc = pshm_am_reply_medium(t, H_REP + 1, buf, n, 0, na, b); break;
    default:
        /* Reply lands in the requester's segment, in its area for replies from me. */
        b[3] = (uint32_t)((NP + me) * LREGION);
        rc = pshm_am_reply_long(t, H_REP + 2, buf, n, (char *)segs[src].owner_base + b[3], 0,
                                na, b);
        break;
    }
    if (rc != 0) {
        fprintf(stderr, "reply failed: %d %s\n", rc, pshm_last_error());
        bad++;
    }
    /* A second reply is refused. */
    if (pshm_am_reply_short(t, H_REP + 0, 0, na, b) != -EINVAL) {
        fprintf(stderr, "a second reply was not refused\n");
        bad++;
    }
}

static void rep_handler(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    int me = pshm_rank(pshm_token_ctx(t));
    check_payload(buf, n, a, na, "reply handler");
    if (a[2] == 2 && buf != (char *)segs[me].local_base + a[3]) {
        fprintf(stderr, "Long reply landed at %p, expected %p\n", buf,
                (void *)((char *)segs[me].local_base + a[3]));
        bad++;
    }
    if (pshm_am_reply_short(t, H_REP, 0, na, a) != -EINVAL) {
        fprintf(stderr, "a reply handler was allowed to reply\n");
        bad++;
    }
    got_reply = 1;
}

static uint8_t *src_buf;

static void roundtrip(int dest, unsigned cat, size_t n, unsigned na, uint32_t seed)
{
    uint32_t a[PSHM_AM_MAX_ARGS];
    int me = pshm_rank(ctx), rc;
    a[0] = seed;
    a[1] = (uint32_t)n;
    a[2] = cat;
    a[3] = (uint32_t)(me * LREGION);
    for (unsigned i = 4; i < PSHM_AM_MAX_ARGS; i++) a[i] = seed ^ i;
    if (na < 4) na = 4;
    am_fill(src_buf, n, seed);
    got_reply = 0;
    switch (cat) {
    case 0: rc = pshm_am_request_short(ctx, dest, H_REQ, 0, na, a); break;
    case 1: rc = pshm_am_request_medium(ctx, dest, H_REQ + 1, src_buf, n, 0, na, a); break;
    default:
        rc = pshm_am_request_long(ctx, dest, H_REQ + 2, src_buf, n,
                                  (char *)segs[dest].owner_base + a[3], 0, na, a);
    }
    if (rc != 0) {
        fprintf(stderr, "send cat %u %zu bytes %u args to %d: %d %s\n", cat, n, na, dest, rc,
                pshm_last_error());
        exit(T_FAIL);
    }
    CHECK_OK(pshm_wait_until(ctx, am_flag_set, (void *)&got_reply));
    if (bad) {
        fprintf(stderr, "FAIL: cat %u, %zu bytes, %u args to rank %d\n", cat, n, na, dest);
        exit(T_FAIL);
    }
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, NP);
    if (st >= 0) return st;

    ctx = am_setup(0, SEGSZ);
    pshm_handler_entry_t tab[] = {
        {H_REQ, req_handler, PSHM_AM_ANY_NARGS}, {H_REQ + 1, req_handler, PSHM_AM_ANY_NARGS},
        {H_REQ + 2, req_handler, PSHM_AM_ANY_NARGS}, {H_REP, rep_handler, PSHM_AM_ANY_NARGS},
        {H_REP + 1, rep_handler, PSHM_AM_ANY_NARGS}, {H_REP + 2, rep_handler, PSHM_AM_ANY_NARGS},
    };
    CHECK_OK(pshm_am_register(ctx, tab, sizeof tab / sizeof tab[0]));
    int me = pshm_rank(ctx);
    for (int r = 0; r < NP; r++) CHECK_OK(pshm_segment_info(ctx, r, &segs[r]));
    size_t max = pshm_am_max_medium(ctx);
    CHECK(max >= 65536);
    src_buf = malloc(LREGION);
    CHECK(src_buf != NULL);

    /* Sizes: every size up to 130 (covers every inline limit and the
     * cache-line edges), then 2^k - 1, 2^k, 2^k + 1 up to the maximum. */
    size_t sizes[256];
    unsigned ns = 0;
    for (size_t s = 0; s <= 130; s++) sizes[ns++] = s;
    for (size_t p = 256; p <= max; p *= 2) {
        sizes[ns++] = p - 1;
        sizes[ns++] = p;
        if (p < max) sizes[ns++] = p + 1;
    }
    unsigned count = 0;
    uint32_t seed = (uint32_t)me * 1000003u + 7;
    for (int d = 0; d < NP; d++) {
        int dest = (me + d) % NP; /* d == 0: loopback */
        for (unsigned na = 0; na <= PSHM_AM_MAX_ARGS; na++, count++)
            roundtrip(dest, 0, 0, na, seed++);
        for (unsigned i = 0; i < ns; i++)
            for (unsigned cat = 1; cat <= 2; cat++) {
                unsigned na = (i * 7 + cat) % (PSHM_AM_MAX_ARGS + 1);
                roundtrip(dest, cat, sizes[i], na, seed++);
                count++;
            }
        /* Largest Long of the landing area, all args. */
        roundtrip(dest, 2, LREGION, 16, seed++);
        count++;
    }

    /* Medium past the maximum, and Long outside the segment. */
    uint32_t a[4] = {0, 0, 1, 0};
    CHECK_ERR(pshm_am_request_medium(ctx, 1 - me, H_REQ + 1, src_buf, max + 1, 0, 4, a), -EINVAL);
    CHECK(strstr(pshm_last_error(), "Medium") != NULL);
    const pshm_seginfo_t *ps = &segs[1 - me];
    char *end = (char *)ps->owner_base + ps->size;
    a[2] = 2;
    CHECK_ERR(pshm_am_request_long(ctx, 1 - me, H_REQ + 2, src_buf, 100, end - 99, 0, 4, a),
              -EFAULT);
    CHECK_ERR(pshm_am_request_long(ctx, 1 - me, H_REQ + 2, src_buf, 1, (char *)ps->owner_base - 1,
                                   0, 4, a), -EFAULT);
    CHECK_ERR(pshm_am_request_long(ctx, 1 - me, H_REQ + 2, src_buf, ps->size + 1,
                                   (void *)ps->owner_base, 0, 4, a), -EFAULT);
    CHECK(strstr(pshm_last_error(), "segment") != NULL);
    /* Exactly at the edges: the last 100 bytes, and 0 bytes at the end. */
    seed = 99 + (uint32_t)me;
    am_fill(src_buf, 100, seed);
    uint32_t e[4] = {seed, 100, 2, (uint32_t)(ps->size - 100)};
    got_reply = 0;
    CHECK_OK(pshm_am_request_long(ctx, 1 - me, H_REQ + 2, src_buf, 100, end - 100, 0, 4, e));
    CHECK_OK(pshm_wait_until(ctx, am_flag_set, (void *)&got_reply));
    uint32_t z[4] = {seed, 0, 2, (uint32_t)ps->size};
    got_reply = 0;
    CHECK_OK(pshm_am_request_long(ctx, 1 - me, H_REQ + 2, NULL, 0, end, 0, 4, z));
    CHECK_OK(pshm_wait_until(ctx, am_flag_set, (void *)&got_reply));
    CHECK(bad == 0);

    CHECK_OK(pshm_barrier(ctx));
    printf("rank %d: %u round trips (Short/Medium/Long, requests and replies, loopback and "
           "peer) checked byte for byte; edges and limits refused\n", me, count + 2);
    CHECK_OK(pshm_finalize(ctx));
    free(src_buf);
    return T_PASS;
}
