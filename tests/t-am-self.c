/*
 * t-am-self: a message to self is run by the next polls, although the idle
 * scan skips the queues to self. In a job of 2, each rank sends requests to
 * itself (Short and Medium), whose handlers reply to self; two pshm_poll
 * calls must run both handlers, every time, over enough rounds to cross the
 * idle credit that paces the liveness check. An idle pshm_poll runs nothing.
 * A handler's reply to self is seen by the next poll also when the poll
 * that ran it was sent there by another process's message.
 */
#include "amtest.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { H_REQ = 1, H_REP = 2, H_CNT = 3 };
static long nreq, nrep, ncnt, bad;

static void req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    nreq++;
    if (n != a[1] || (n && am_diff(p, n, a[0]) >= 0)) bad++;
    if (pshm_am_reply_short(t, H_REP, 0, 2, a) != 0) bad++;
}

static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p; (void)n; (void)na;
    if (pshm_token_source(t) != pshm_rank(pshm_token_ctx(t)) || (long)a[0] != nrep) bad++;
    nrep++;
}

static void cnt(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)p; (void)n; (void)na;
    if ((long)a[0] != ncnt++) bad++;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "512", 1);
    int st = th_launch(argc, argv, 2);
    if (st >= 0) return st;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    pshm_handler_entry_t tab[] = {{H_REQ, req, 2}, {H_REP, rep, 2}, {H_CNT, cnt, 1}};
    CHECK_OK(pshm_am_register(ctx, tab, 3));
    CHECK_OK(pshm_barrier(ctx));
    int me = pshm_rank(ctx);
    uint8_t buf[200];
    const long rounds = 3000;

    for (long i = 0; i < rounds; i++) {
        uint32_t a[2] = {(uint32_t)i, (uint32_t)(i % 3 == 0 ? 0 : i % 200)};
        int ran = 0;
        if (a[1] == 0) {
            CHECK_OK(pshm_am_request_short(ctx, me, H_REQ, 0, 2, a));
        } else {
            am_fill(buf, a[1], (uint32_t)i);
            CHECK_OK(pshm_am_request_medium(ctx, me, H_REQ, buf, a[1], 0, 2, a));
        }
        for (int k = 0; k < 2; k++) {
            int rc = pshm_poll(ctx);
            CHECK(rc >= 0);
            ran += rc;
        }
        if (ran != 2 || nreq != i + 1 || nrep != i + 1) {
            printf("FAIL rank %d round %ld: two polls ran %d handlers (want 2), %ld requests and "
                   "%ld replies in all (want %ld)\n", me, i, ran, nreq, nrep, i + 1);
            return T_FAIL;
        }
        /* Idle polls between rounds, a varying number, so that rounds fall
         * before, at and after the credit's refill. */
        for (long k = 0; k < i % 7; k++)
            CHECK(pshm_poll(ctx) == 0);
    }
    CHECK(bad == 0);

    /* More than one poll's worth (256) queued to self: the polls that follow
     * go on serving them, none returns 0 while any is left. */
    const long many = 300;
    for (long i = 0; i < many; i++) {
        uint32_t a[1] = {(uint32_t)i};
        CHECK_OK(pshm_am_request_short(ctx, me, H_CNT, 0, 1, a));
    }
    int polls = 0;
    while (ncnt < many) {
        int rc = pshm_poll(ctx);
        CHECK(rc >= 0);
        polls++;
        if (rc == 0) {
            printf("FAIL rank %d: poll %d ran nothing with %ld of %ld requests to self left\n",
                   me, polls, many - ncnt, many);
            return T_FAIL;
        }
    }
    CHECK(bad == 0);
    CHECK_OK(pshm_barrier(ctx));

    /* Rank 1 sends itself a request while rank 0's is in its queue (rank 0
     * says so in its segment, cross-mapped): the scan finds rank 0's, the
     * poll serves both, and the request to self replies to self; the next
     * poll must run that reply. Rank 1 says it is done in its own segment. */
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, 0, &si));
    _Atomic long *sent = si.local_base;
    CHECK_OK(pshm_segment_info(ctx, 1, &si));
    _Atomic long *done = si.local_base;
    const long mixed = 200;
    long base_req = nreq, base_rep = nrep, base_cnt = ncnt;
    for (long i = 0; i < mixed; i++) {
        uint32_t a[2] = {(uint32_t)(base_rep + i), 0}, c = (uint32_t)(base_cnt + i);
        if (me == 0) {
            CHECK_OK(pshm_am_request_short(ctx, 1, H_CNT, 0, 1, &c));
            atomic_store_explicit(sent, i + 1, memory_order_release);
            while (atomic_load_explicit(done, memory_order_acquire) != i + 1)
                CHECK(pshm_poll(ctx) == 0);
            continue;
        }
        int ran = 0;
        time_t t0 = time(NULL);
        /* No poll meanwhile: rank 0's request stays in the queue. */
        while (atomic_load_explicit(sent, memory_order_acquire) != i + 1)
            CHECK(time(NULL) - t0 < 60);
        CHECK_OK(pshm_am_request_short(ctx, me, H_REQ, 0, 2, a));
        for (int k = 0; k < 2; k++) {
            int rc = pshm_poll(ctx);
            CHECK(rc >= 0);
            ran += rc;
        }
        if (ran != 3 || nreq != base_req + i + 1 || nrep != base_rep + i + 1 ||
            ncnt != base_cnt + i + 1) {
            printf("FAIL rank 1 mixed round %ld: two polls ran %d handlers (want 3); %ld "
                   "requests to self, %ld replies, %ld of rank 0's requests in all (want %ld "
                   "each)\n", i, ran, nreq - base_req, nrep - base_rep, ncnt - base_cnt, i + 1);
            return T_FAIL;
        }
        atomic_store_explicit(done, i + 1, memory_order_release);
    }
    CHECK(bad == 0);
    CHECK_OK(pshm_barrier(ctx));
    printf("ok rank %d: %ld requests to self and their replies, each run by the next two polls; "
           "%ld queued at once run by %d polls; %ld replies to self posted beside another "
           "rank's request\n", me, rounds, many, polls, me ? mixed : 0);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
