/*
 * t-am-medium-fast: the receive path that takes a Medium to a handler of an
 * exact count in one compare of its meta word, or of at most 16 args to a
 * handler of any count in two. Rank 0 sends rank 1
 * Mediums of 2 args around the inline limit and in chunks (sent and
 * prepared), to an exact and an any-count handler; each is checked (size,
 * args, every byte) and answered by a prepared Medium, checked alike. Then
 * each rank corrupts Mediums to itself after posting them: an inline
 * payload larger than the slot holds, a chunk offset outside the sender's
 * pool or whose chunk runs past its end, a size above the Medium maximum,
 * an inline Medium whose meta claims 16 args (more than the slot holds) for
 * a handler of 16 and for the one of any count, a Medium in a chunk that
 * claims 20 args (more than any message carries) for the one of any count;
 * each is dropped (EPROTO) and runs nothing, and a good message right after
 * still runs.
 */
#include "amtest.h"
#include "amslot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

enum { H_EX = 7, H_ANY = 8, H_REP = 9, H_16 = 10 };
#define INLINE_MAX (AMQ_BODY - 8) /* 2 args, padded to 8, then the payload */

static const size_t sizes[] = {0, 1, 7, INLINE_MAX - 1, INLINE_MAX, INLINE_MAX + 1, 100, 4096,
                               PSHM_AM_MEDIUM_MAX};
#define NSIZES (sizeof sizes / sizeof sizes[0])
#define ROUNDS 40

static long nreq, nrep, bad;
static size_t last_n;

static void check(const void *p, size_t n, const uint32_t *a, unsigned na, long k, uint32_t salt,
                  const char *who)
{
    size_t want = sizes[k % NSIZES];
    long d;
    if (n != want || na != 2 || a[0] != (uint32_t)k + salt || a[1] != ~(uint32_t)k) {
        fprintf(stderr, "%s %ld: %zu bytes, %u args (%u, %u); expected %zu, 2 (%u, %u)\n", who,
                k, n, na, na ? a[0] : 0, na > 1 ? a[1] : 0, want, (uint32_t)k + salt,
                ~(uint32_t)k);
        bad++;
    } else if (n && p == NULL) {
        fprintf(stderr, "%s %ld: NULL payload of %zu bytes\n", who, k, n);
        bad++;
    } else if ((d = am_diff(p, n, (uint32_t)k + salt)) >= 0) {
        fprintf(stderr, "%s %ld: byte %ld of %zu wrong\n", who, k, d, n);
        bad++;
    }
}

static void req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    void *b;
    size_t room;
    uint32_t r[2];
    last_n = n;
    if (pshm_token_source(t) == pshm_rank(pshm_token_ctx(t))) { /* part 2: to self */
        nreq++;
        return;
    }
    check(p, n, a, na, nreq, 0, "request");
    if (pshm_am_prepare_reply_medium(t, n, n, 0, 2, &b, &room) != 0 || room != n) {
        bad++;
    } else {
        am_fill(b, n, (uint32_t)nreq + 5);
        r[0] = (uint32_t)nreq + 5, r[1] = ~(uint32_t)nreq;
        if (pshm_am_commit_reply_medium(t, H_REP, n, 2, r) != 0) bad++;
    }
    nreq++;
}

static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t;
    check(p, n, a, na, nrep, 5, "reply");
    nrep++;
}

/* Posts a Medium of n bytes to self for handler h, sets its size to
 * `nbytes` (and its chunk offset to `off` if set_off) and polls: the handler must not run, the poll must say EPROTO. */
static void dropped(pshm_ctx_t *ctx, int me, unsigned h, size_t n, uint64_t nbytes, int set_off,
                    uint64_t off, const char *what)
{
    static unsigned char buf[PSHM_AM_MEDIUM_MAX];
    uint32_t a[2] = {1, 2};
    long req0 = nreq;
    amq_slot_t *s;
    int rc;
    CHECK_OK(pshm_am_request_medium(ctx, me, h, buf, n, 0, 2, a));
    s = am_last_slot(ctx, me);
    if (AMQ_META_CAT(s->meta) != AMQ_MEDIUM || AMQ_META_SP(s->meta) != (n > INLINE_MAX)) {
        fprintf(stderr, "%s: the slot holds meta 0x%08x, not a Medium %s\n", what, s->meta,
                n > INLINE_MAX ? "in a chunk" : "inline");
        bad++;
    }
    s->nbytes = nbytes;
    if (set_off) __builtin_memcpy(s->body, &off, 8);
    rc = pshm_poll(ctx);
    if (!am_dropped_ok(rc, nreq - req0, what))
        bad++;
    /* A good one right after still runs. */
    CHECK_OK(pshm_am_request_medium(ctx, me, h, buf, 100, 0, 2, a));
    if (pshm_poll(ctx) != 1 || nreq != req0 + 1 || last_n != 100) {
        fprintf(stderr, "%s: the good message after it did not run with 100 bytes\n", what);
        bad++;
    }
}

/* A Medium of n bytes and 2 args to self (handler h), its meta then
 * rewritten to handler h2 and `na` args: dropped, nothing run. */
static void miscounted(pshm_ctx_t *ctx, int me, unsigned h, unsigned h2, size_t n, unsigned na,
                       const char *what)
{
    static unsigned char payload[4096];
    uint32_t a[2] = {1, 2};
    long req0 = nreq;
    CHECK_OK(pshm_am_request_medium(ctx, me, h, payload, n, 0, 2, a));
    amq_slot_t *s = am_last_slot(ctx, me);
    s->meta = (s->meta & ~0x1fffu) | h2 | na << 8; /* handler, nargs */
    if (!am_dropped_ok(pshm_poll(ctx), nreq - req0, what))
        bad++;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, 2);
    if (st >= 0) return st;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    pshm_handler_entry_t tab[] = {{H_EX, req, 2}, {H_ANY, req, PSHM_AM_ANY_NARGS},
                                  {H_REP, rep, 2}, {H_16, req, 16}};
    CHECK_OK(pshm_am_register(ctx, tab, 4));
    CHECK_OK(pshm_barrier(ctx));
    int me = pshm_rank(ctx);
    const long total = (long)ROUNDS * NSIZES;
    unsigned char *src = malloc(PSHM_AM_MEDIUM_MAX);
    CHECK(src != NULL);

    /* Part 1: every size, sent and prepared, exact and any count, and back. */
    if (me == 0) {
        for (long k = 0; k < total && !bad; k++) {
            size_t n = sizes[k % NSIZES];
            uint32_t a[2] = {(uint32_t)k, ~(uint32_t)k};
            unsigned h = k / NSIZES % 2 ? H_ANY : H_EX;
            if (k / (2 * NSIZES) % 2) {
                void *b;
                size_t room;
                CHECK_OK(pshm_am_prepare_request_medium(ctx, 1, n, n, 0, 2, &b, &room));
                am_fill(b, n, (uint32_t)k);
                CHECK_OK(pshm_am_commit_request_medium(ctx, h, n, 2, a));
            } else {
                am_fill(src, n, (uint32_t)k);
                CHECK_OK(pshm_am_request_medium(ctx, 1, h, src, n, 0, 2, a));
            }
            while (nrep <= k && !bad)
                CHECK(pshm_poll(ctx) >= 0);
        }
    } else {
        while (nreq < total && !bad)
            CHECK(pshm_poll(ctx) >= 0);
    }
    CHECK_OK(pshm_barrier(ctx));
    printf("rank %d: %ld requests, %ld replies of 0..%d bytes checked\n", me, nreq, nrep,
           PSHM_AM_MEDIUM_MAX);
    if (me == 1) CHECK(nreq == total);
    if (me == 0) CHECK(nrep == total);

    /* Part 2: corrupt Mediums, to self, to either kind of handler. */
    uint64_t poolsz = ctx->amq->l.poolsz;
    nreq = 0;
    for (unsigned h = H_EX; h <= H_ANY; h++) {
        dropped(ctx, me, h, 8, INLINE_MAX + 1, 0, 0, "inline payload larger than the slot");
        dropped(ctx, me, h, 8, 1u << 20, 0, 0, "inline payload of 1 MiB");
        dropped(ctx, me, h, 4096, PSHM_AM_MEDIUM_MAX + 1, 0, 0, "size above the Medium maximum");
        dropped(ctx, me, h, 4096, 4096, 1, poolsz + AMQ_LINE, "chunk offset past the pool");
        dropped(ctx, me, h, 4096, 4096, 1, poolsz - 4096, "chunk running past the pool's end");
        dropped(ctx, me, h, 4096, 4096, 1, UINT64_MAX - 63, "chunk offset near 2^64");
    }
    /* Args and payload said to be inline, to a handler of that exact count
     * (the one-compare path), and to the one of any count (whose path masks
     * the count): 64 bytes of args do not fit the slot. A chunk's 20 args
     * fit the pool, but no message carries more than 16: the handler of any
     * count must not be run with them. */
    miscounted(ctx, me, H_EX, H_16, 8, 16, "inline Medium claiming 16 args");
    miscounted(ctx, me, H_ANY, H_ANY, 8, 16, "inline Medium claiming 16 args, any-count handler");
    miscounted(ctx, me, H_ANY, H_ANY, 4096, 20, "Medium in a chunk claiming 20 args, any-count handler");
    printf("rank %d: corrupt Mediums dropped, %ld good ones run after them\n", me, nreq);

    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    free(src);
    if (bad) {
        fprintf(stderr, "rank %d: %ld failures\n", me, bad);
        return T_FAIL;
    }
    return T_PASS;
}
