/*
 * t-am-pack: Shorts packed four to a line (cells) are each run once, in
 * order, among slots, skip marks and prepared messages, under flow-control
 * pressure: 4 processes each send every process (itself included) a mixed
 * stream through queues of 2 lines that wrap every few messages, while
 * polling only when a send waits; requests of 2 args are answered with
 * cell replies. The line stamps start 40 laps before 2^32, so they wrap
 * mid-stream too. Every 12-arg Short (a slot) carries, where cells 1-3 of
 * its line keep their stamps, the stamp that line gets one lap later: a
 * receiver that took stale bytes for a stamp would run garbage there.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NP
#define NP 4
#endif
#define N 3000
#define DEPTH 2
/* Lines before the stamps wrap past 2^32: 40 laps of the ring. */
#define START (0u - 40u * DEPTH)
enum { H_S0 = 1, H_S1, H_S2, H_S3, H_S12, H_MED, H_REP };
/* Message k's kind: cells (0, 1, 2 args, 2 args with PSHM_IMMEDIATE) twice
 * as often as the slots (3 and 12 args, an inline Medium, a prepared one
 * in a chunk, a copied one in a chunk: the send's fast path when a line is
 * known free, after cells that left their line open). */
enum { K_S0, K_S1, K_S2, K_S2I, K_S3, K_S12, K_MED, K_PREP, K_MEDC };
static const uint8_t kinds[16] = {K_S0, K_S1, K_S2, K_S2I, K_S1, K_S2, K_S0, K_S2I,
                                  K_S3, K_S12, K_MED, K_PREP, K_MEDC, K_S1, K_S2, K_S0};
static bool in_chunk(int kd) { return kd == K_PREP || kd == K_MEDC; }
static int kind(uint32_t k) { return kinds[(k * 7u + (k >> 4)) & 15u]; }
static int replied(int kd) { return kd == K_S2 || kd == K_S2I; }

static pshm_ctx_t *ctx;
static uint32_t next_req[NP], next_rep[NP]; /* next k due from each sender / replier */
static long nreq, nrep, want[2], nagain;
static int bad;

static void fail(const char *what, int src, uint32_t k)
{
    if (bad++ < 5) fprintf(stderr, "rank %d: %s from %d (message %u due)\n", pshm_rank(ctx),
                           what, src, k);
}

/* A request of kind `kd` from src, k its number if it carries one. */
static void got_req(pshm_token_t *t, int kd, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    uint32_t due = next_req[src];

    if (due >= N || (kind(due) != kd && !(kd == K_S2 && kind(due) == K_S2I)))
        return fail("a request of the wrong kind", src, due);
    if (na > 0 && a[0] != due)
        return fail("a request with the wrong number", src, due);
    if (na > 1 && a[1] != (~due ^ (uint32_t)src))
        return fail("a request with a wrong second arg", src, due);
    next_req[src] = due + 1;
    nreq++;
    if (replied(kind(due)) && pshm_am_reply_short(t, H_REP, 0, 1, &due) != 0)
        fail("a refused reply", src, due);
}
static void s0(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p, (void)n;
    got_req(t, K_S0, a, na);
}
static void s1(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p, (void)n;
    got_req(t, K_S1, a, na);
}
static void s2(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p, (void)n;
    got_req(t, K_S2, a, na);
}
static void s3(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p, (void)n;
    if (a[2] != 3u * a[0]) fail("a 3-arg request with a wrong third arg", pshm_token_source(t), a[0]);
    got_req(t, K_S3, a, na);
}
static void s12(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p, (void)n;
    for (unsigned i = 3; i < 12; i++)
        if (i != 6 && i != 10 && a[i] != a[0] * 31u + i)
            fail("a 12-arg request with a wrong arg", pshm_token_source(t), a[0]);
    got_req(t, K_S12, a, na);
}
static void med(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    size_t want_n = in_chunk(kind(a[0])) ? 100 : 20;
    if (n != want_n || am_diff(p, n, a[0] ^ (uint32_t)src << 24) >= 0)
        fail("a Medium with a wrong payload", src, next_req[src]);
    got_req(t, in_chunk(kind(a[0])) ? kind(a[0]) : K_MED, a, na);
}
static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    uint32_t due = next_rep[src];
    (void)p, (void)n;
    if (na != 1 || a[0] != due) return fail("a reply out of order", src, due);
    do due++; while (due < N && !replied(kind(due)));
    next_rep[src] = due;
    nrep++;
}

/* Stamps of every queue of mine start at START: my incoming queues' next
 * stamp and consumer count (no message has moved yet), my outgoing ones'. */
static void stamps_near_wrap(void)
{
    struct amq *q = ctx->amq;
    for (int n = 0; n < AMQ_NETS; n++)
        for (int p = 0; p < q->P; p++) {
            q->sq[n][p].seq = START;
            q->sq[n][p].cached = START - 1;
        }
    for (int i = 0; i < AMQ_NETS * q->P; i++) {
        atomic_store(&q->rq[i].seq, START);
        atomic_store(&q->rqx[i].ctl->consumed, START - 1);
    }
}

/* Sends message k of kind kd to dest. */
static void send_one(int dest, uint32_t k)
{
    int me = pshm_rank(ctx), kd = kind(k), rc;
    uint32_t a[12] = {k, ~k ^ (uint32_t)me, 3u * k};
    uint8_t pay[100];
    void *buf;
    size_t size;

    switch (kd) {
    case K_S0: CHECK_OK(pshm_am_request_short(ctx, dest, H_S0, 0, 0, NULL)); break;
    case K_S1: CHECK_OK(pshm_am_request_short(ctx, dest, H_S1, 0, 1, a)); break;
    case K_S2: CHECK_OK(pshm_am_request_short(ctx, dest, H_S2, 0, 2, a)); break;
    case K_S2I:
        while ((rc = pshm_am_request_short(ctx, dest, H_S2, PSHM_IMMEDIATE, 2, a)) == -EAGAIN) {
            nagain++;
            if ((rc = pshm_poll(ctx)) == 0)
                sched_yield(); /* 4 processes may share fewer CPUs */
            CHECK(rc >= 0);
        }
        CHECK_OK(rc);
        break;
    case K_S3: CHECK_OK(pshm_am_request_short(ctx, dest, H_S3, 0, 3, a)); break;
    case K_S12: {
        /* The line this slot goes in (the next one when the current is
         * open), one lap later: at bytes 16, 32, 48, args 2, 6 and 10. */
        amq_sq_t *sq = ctx->req_sq[dest];
        uint32_t later = sq->seq + amq_mid(sq) + ctx->amq->l.depth;
        for (int i = 2; i < 12; i++) a[i] = k * 31u + (uint32_t)i;
        a[2] = a[6] = a[10] = later;
        CHECK_OK(pshm_am_request_short(ctx, dest, H_S12, 0, 12, a));
        break;
    }
    case K_MED:
        am_fill(pay, 20, k ^ (uint32_t)me << 24);
        CHECK_OK(pshm_am_request_medium(ctx, dest, H_MED, pay, 20, 0, 2, a));
        break;
    case K_PREP:
        CHECK_OK(pshm_am_prepare_request_medium(ctx, dest, 100, 100, 0, 2, &buf, &size));
        am_fill(buf, 100, k ^ (uint32_t)me << 24);
        CHECK_OK(pshm_am_commit_request_medium(ctx, H_MED, 100, 2, a));
        break;
    case K_MEDC:
        am_fill(pay, 100, k ^ (uint32_t)me << 24);
        CHECK_OK(pshm_am_request_medium(ctx, dest, H_MED, pay, 100, 0, 2, a));
        break;
    }
}

static int all_in(void *arg)
{
    (void)arg;
    return nreq >= want[0] && nrep >= want[1];
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (!getenv("PSHM_RANK")) {
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "2", 1);
        return th_launch(argc, argv, NP);
    }
    ctx = am_setup(0, 4096);
    pshm_handler_entry_t tab[] = {{H_S0, s0, 0},   {H_S1, s1, 1},   {H_S2, s2, 2},
                                  {H_S3, s3, 3},   {H_S12, s12, 12}, {H_MED, med, 2},
                                  {H_REP, rep, 1}};
    CHECK_OK(pshm_am_register(ctx, tab, sizeof tab / sizeof tab[0]));
    int me = pshm_rank(ctx), np = pshm_size(ctx);
    /* P = 4: the scan; t-am-pack-wide's 8: a wide layout (bells, packed
     * consumer counts). */
    CHECK(np == NP && ctx->amq->l.wide == (NP >= PSHM_AM_WIDE_MIN) && ctx->amq->l.depth == DEPTH);
    for (int i = 0; i < AMQ_NETS * np; i++) /* nothing has moved yet */
        CHECK(atomic_load(&ctx->amq->rq[i].seq) == 1 && ctx->amq->sq[i / np][i % np].seq == 1);
    stamps_near_wrap();
    /* Every queue is set before anyone sends. */
    CHECK_OK(pshm_barrier(ctx));

    uint32_t replies = 0;
    for (uint32_t k = 0; k < N; k++)
        replies += replied(kind(k));
    for (int s = 0; s < NP; s++)
        while (next_rep[s] < N && !replied(kind(next_rep[s])))
            next_rep[s]++;
    want[0] = (long)N * NP;
    want[1] = (long)replies * NP;
    for (uint32_t k = 0; k < N; k++)
        for (int d = 0; d < NP; d++)
            send_one((me + d) % NP, k);
    CHECK_OK(pshm_wait_until(ctx, all_in, NULL));
    CHECK_OK(pshm_barrier(ctx));
    for (int s = 0; s < NP; s++)
        if (next_req[s] != N || next_rep[s] != N) {
            fprintf(stderr, "FAIL rank %d: from %d: %u of %d requests, replies up to %u\n", me,
                    s, next_req[s], N, next_rep[s]);
            bad++;
        }
    /* The stamps wrapped past 2^32 on every queue to me that carried a line. */
    struct amq *q = ctx->amq;
    for (int i = 0; i < AMQ_NETS * q->P; i++)
        if (atomic_load(&q->rq[i].seq) - START < 40u * DEPTH) {
            fprintf(stderr, "FAIL rank %d: incoming queue %d stopped at stamp %u, before the "
                            "wrap\n", me, i, atomic_load(&q->rq[i].seq));
            bad++;
        }
    if (bad) {
        fprintf(stderr, "FAIL rank %d: %d failures\n", me, bad);
        return T_FAIL;
    }
    printf("rank %d: %ld requests (%d per sender, cells and slots mixed) and %ld cell replies "
           "run once each, in order; stamps wrapped; %ld sends refused (EAGAIN) and retried\n",
           me, nreq, N, nrep, nagain);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
