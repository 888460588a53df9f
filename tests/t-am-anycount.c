/*
 * t-am-anycount: handlers registered for any argument count get every count
 * right, on the receive path that takes them in one compare. Rank 0 sends
 * rank 1 Shorts of 0 to 16 args (13 and more go through the pool), around
 * the queue many times, first each count after another, then in runs of
 * one count (the count last seen is the send's and the poll's fast one);
 * each is checked (count and every arg) and answered with as many args,
 * checked alike. A count the handler does not take is still refused after
 * the runs, and so are replies of 255, 254 and 17 args. Then each rank
 * corrupts the meta word of messages to itself after posting them: a count
 * whose args do not fit the slot they are said to be in (13 to 31),
 * unknown high bits, a wrong count for an exact
 * handler: each is dropped (EPROTO naming the handler) and runs nothing,
 * and a good message right after still runs; a meta word of all ones
 * runs nothing either.
 */
#include "amtest.h"
#include "amslot.h"

#include <errno.h>
#include <stdio.h>

enum { H_ANY = 7, H_REP = 8, H_EX = 9, H_UNREG = 10 };
#define ROUNDS 300
#define NCOUNTS (PSHM_AM_MAX_ARGS + 1)
/* Part 1's messages: ROUNDS * NCOUNTS of counts in turn, then as many in
 * runs of RUN of one count. */
#define RUN 24
#define TOTAL ((long)ROUNDS * NCOUNTS)

static unsigned count_of(long k)
{
    return (unsigned)((k < TOTAL ? k : (k - TOTAL) / RUN) % NCOUNTS);
}

static long nreq, nrep, nex, bad;
static unsigned last_na;

static uint32_t arg_of(long k, unsigned i, uint32_t salt) { return (uint32_t)k * 131u + i + salt; }

static void check(const uint32_t *a, unsigned na, long k, uint32_t salt, const char *who)
{
    if (na != count_of(k)) {
        fprintf(stderr, "%s %ld: %u args, expected %u\n", who, k, na, count_of(k));
        bad++;
        return;
    }
    for (unsigned i = 0; i < na; i++)
        if (a[i] != arg_of(k, i, salt)) {
            fprintf(stderr, "%s %ld: arg %u is %u, expected %u\n", who, k, i, a[i],
                    arg_of(k, i, salt));
            bad++;
        }
}

static void any_req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    uint32_t b[PSHM_AM_MAX_ARGS];
    last_na = na;
    if (p != NULL || n != 0) bad++;
    if (pshm_token_source(t) == pshm_rank(pshm_token_ctx(t))) { /* part 2: to self */
        nreq++;
        return;
    }
    check(a, na, nreq, 0, "request");
    /* Counts a Short reply may not have, before the good one (a refused
     * reply leaves the token to reply with): 255 is the count kept for a
     * handler not registered, 254 for one of any count; each is refused
     * by the bound of the count off a cell's path. */
    if (nreq % 97 == 0) {
        static uint32_t big[256];
        if (pshm_am_reply_short(t, H_UNREG, 0, 255, big) != -EINVAL ||
            pshm_am_reply_short(t, H_REP, 0, 254, big) != -EINVAL ||
            pshm_am_reply_short(t, H_REP, 0, PSHM_AM_MAX_ARGS + 1, big) != -EINVAL) {
            fprintf(stderr, "request %ld: a reply of 255, 254 or 17 args was not refused\n",
                    nreq);
            bad++;
        }
    }
    for (unsigned i = 0; i < na; i++) b[i] = arg_of(nreq, i, 7);
    if (pshm_am_reply_short(t, H_REP, 0, na, b) != 0) bad++;
    nreq++;
}

static void any_rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)p, (void)n;
    check(a, na, nrep, 7, "reply");
    nrep++;
}

static void ex(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)p, (void)n, (void)a, (void)na;
    nex++;
}

/* Posts a Short to self (2 args, or 3 when `meta` frames a slot), sets its meta to `meta`
 * and polls: the handler must not run, the poll must say EPROTO. */
static void dropped(pshm_ctx_t *ctx, int me, uint32_t meta, const char *what)
{
    uint32_t a[3] = {1, 2, 3};
    long req0 = nreq, ex0 = nex;
    int rc;
    /* A cell or a slot as the corrupt meta says: the receiver's framing
     * follows the meta word, which a sender always writes to match. */
    CHECK_OK(pshm_am_request_short(ctx, me, H_ANY, 0, AMQ_META_IS_CELL(meta) ? 2 : 3, a));
    am_last_slot(ctx, me)->meta = meta;
    rc = pshm_poll(ctx);
    if (!am_dropped_ok(rc, nreq - req0 + nex - ex0, what)) {
        fprintf(stderr, "    (meta 0x%08x)\n", meta);
        bad++;
    }
    /* A good one right after still runs. */
    CHECK_OK(pshm_am_request_short(ctx, me, H_ANY, 0, 2, a));
    if (pshm_poll(ctx) != 1 || nreq != req0 + 1 || last_na != 2) {
        fprintf(stderr, "%s: the good message after it did not run with 2 args\n", what);
        bad++;
    }
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, 2);
    if (st >= 0) return st;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    pshm_handler_entry_t tab[] = {{H_ANY, any_req, PSHM_AM_ANY_NARGS},
                                  {H_REP, any_rep, PSHM_AM_ANY_NARGS},
                                  {H_EX, ex, 2}};
    CHECK_OK(pshm_am_register(ctx, tab, 3));
    CHECK_OK(pshm_barrier(ctx));
    int me = pshm_rank(ctx);
    const long total = 2 * TOTAL;

    /* Part 1: every count, to a peer and back. */
    if (me == 0) {
        uint32_t a[PSHM_AM_MAX_ARGS + 1] = {0};
        for (long k = 0; k < total; k++) {
            unsigned na = count_of(k);
            for (unsigned i = 0; i < na; i++) a[i] = arg_of(k, i, 0);
            CHECK_OK(pshm_am_request_short(ctx, 1, H_ANY, 0, na, na ? a : NULL));
        }
        while (nrep < total && !bad)
            CHECK(pshm_poll(ctx) >= 0);
        /* After runs of 16 args to it: a count no handler takes, and to
         * the exact handler one it does not take, are refused. */
        CHECK(pshm_am_request_short(ctx, 1, H_ANY, 0, PSHM_AM_MAX_ARGS + 1, a) == -EINVAL);
        /* 254 is the count kept for a handler of any count (AMQ_NARGS_ANY). */
        static uint32_t big[256];
        CHECK(pshm_am_request_short(ctx, 1, H_ANY, 0, 254, big) == -EINVAL);
        CHECK_OK(pshm_am_request_short(ctx, 1, H_EX, 0, 2, a));
        CHECK(pshm_am_request_short(ctx, 1, H_EX, 0, 3, a) == -EINVAL);
        CHECK(pshm_am_request_short(ctx, 1, H_EX, 0, 1, a) == -EINVAL);
    } else {
        while ((nreq < total || nex < 1) && !bad)
            CHECK(pshm_poll(ctx) >= 0);
    }
    CHECK_OK(pshm_barrier(ctx));
    printf("rank %d: %ld requests, %ld replies of 0..%d args checked\n", me, nreq, nrep,
           PSHM_AM_MAX_ARGS);
    if (me == 1) CHECK(nreq == total);
    if (me == 0) CHECK(nrep == total);

    /* Part 2: corrupt metas, to self. */
    nreq = 0;
    for (unsigned na = AMQ_BODY / 4 + 1; na <= 31; na++)
        dropped(ctx, me, AMQ_META(H_ANY, na, AMQ_SHORT, 0), "any-count handler, inline count");
    dropped(ctx, me, AMQ_META(H_ANY, 2, AMQ_SHORT, 0) | 1u << 31, "bit 31 set");
    dropped(ctx, me, AMQ_META(H_ANY, 2, AMQ_SHORT, 0) | 1u << 20, "bit 20 set");
    dropped(ctx, me, AMQ_META(H_EX, 3, AMQ_SHORT, 0), "exact handler, wrong count");
    dropped(ctx, me, AMQ_META(H_EX, 2, AMQ_SHORT, 0) | 1u << 31, "exact handler, bit 31");
    dropped(ctx, me, AMQ_META(H_EX, 1, AMQ_SHORT, 0), "exact handler, wrong count, in a cell");
    dropped(ctx, me, AMQ_META(H_UNREG, 2, AMQ_SHORT, 0), "unregistered handler, in a cell");
    /* All bits set: by its category a help mark, of no job here, which
     * runs nothing; handler 255, not registered, must not have a fast key
     * that matches it (its function is NULL). */
    {
        uint32_t a[3] = {1, 2, 3};
        long req0 = nreq, ex0 = nex;
        CHECK_OK(pshm_am_request_short(ctx, me, H_ANY, 0, 3, a));
        am_last_slot(ctx, me)->meta = UINT32_MAX;
        CHECK(pshm_poll(ctx) >= 0);
        CHECK(nreq == req0 && nex == ex0);
        CHECK_OK(pshm_am_request_short(ctx, me, H_ANY, 0, 2, a));
        CHECK(pshm_poll(ctx) == 1 && nreq == req0 + 1 && last_na == 2);
    }
    printf("rank %d: corrupt messages dropped, %ld good ones run after them\n", me, nreq);

    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    if (bad) {
        fprintf(stderr, "rank %d: %ld failures\n", me, bad);
        return T_FAIL;
    }
    return T_PASS;
}
