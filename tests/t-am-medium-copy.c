/*
 * t-am-medium-copy: the send's fast path for a copied Medium in a chunk (a
 * line known free, room before the pool's limit). Rank 0 sends rank 1
 * rounds of 0-3 cell Shorts then one copied Medium of 49 bytes to 8 KiB,
 * 0-3 args, from a source at every offset in a line, so that the Medium
 * follows an open line as often as a fresh one and the pool's hot ring
 * wraps many times; rank 1 answers each Medium with a copied Medium of its
 * own, which rank 0 checks alike. Every message runs once, in order, every
 * byte and arg checked. The test counts the Mediums sent while the line
 * was open and a line was known free (the case where the slot must first
 * end the open line) and fails if there were none: a test that stopped
 * reaching that case would pass whatever the path did there.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { H_CELL = 11, H_MED = 12, H_REP = 13 };
#define ROUNDS 3000
#define MAXN 8192u

static pshm_ctx_t *ctx;
static uint32_t next_in; /* the number due in the next request (cells and Mediums) */
static long nrep, bad;
static uint32_t med_k[ROUNDS]; /* rank 0: the number of each Medium sent */
static unsigned char src[MAXN + 64];

static size_t size_of(uint32_t k) { return 49 + (size_t)(k * 2654435761u % MAXN) % (MAXN - 48); }
static unsigned nargs_of(uint32_t k) { return 1 + k % 4; } /* a[0] is the number */
static unsigned cells_of(uint32_t k) { return k * 7 % 4; }
static size_t offset_of(uint32_t k) { return k * 8 % 64 + (k & 1); }

static void fail(const char *what, uint32_t k)
{
    if (bad++ < 5) fprintf(stderr, "rank %d: %s (message %u)\n", pshm_rank(ctx), what, k);
}

static void check_args(const uint32_t *a, unsigned na, unsigned want, uint32_t k)
{
    if (na != want) return fail("a wrong argument count", k);
    for (unsigned i = 1; i < na; i++)
        if (a[i] != k * 31u + i) return fail("a wrong argument", k);
}

static void h_cell(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)p, (void)n;
    if (na < 1 || a[0] != next_in) return fail("a cell out of order", next_in);
    next_in++;
}

static void h_med(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    uint32_t k = na ? a[0] : ~0u;
    if (k != next_in) return fail("a Medium out of order", next_in);
    next_in++;
    check_args(a, na, nargs_of(k), k);
    if (n != size_of(k) || am_diff(p, n, k) >= 0) fail("a Medium with a wrong payload", k);
    /* the answer: the same kind of message the other way */
    uint32_t r = ~k, ra[4] = {r, r * 31u + 1, r * 31u + 2, r * 31u + 3};
    unsigned char *s = src + offset_of(r);
    am_fill(s, size_of(r), r);
    if (pshm_am_reply_medium(t, H_REP, s, size_of(r), 0, nargs_of(r), ra) != 0)
        fail("a refused reply", k);
}

static void h_rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t;
    if (nrep >= ROUNDS) return fail("a reply too many", ~0u);
    uint32_t r = ~med_k[nrep];
    if (na < 1 || a[0] != r) return fail("a reply out of order", med_k[nrep]);
    check_args(a, na, nargs_of(r), r);
    if (n != size_of(r) || am_diff(p, n, r) >= 0) fail("a reply with a wrong payload", med_k[nrep]);
    nrep++;
}

static uint32_t total_req;
static time_t deadline;

/* A stream the receiver misframed may never complete: 30 s is a failure. */
static int late(const char *what)
{
    if (time(NULL) < deadline) return 0;
    fail(what, 0);
    return 1;
}
static int all_replies(void *arg)
{
    (void)arg;
    return nrep >= ROUNDS || bad || late("the replies stopped coming for 30 s");
}
static int all_requests(void *arg)
{
    (void)arg;
    return next_in >= total_req || bad || late("the requests stopped coming for 30 s");
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (!getenv("PSHM_RANK"))
        return th_launch(argc, argv, 2);
    ctx = am_setup(0, 4096);
    pshm_handler_entry_t tab[] = {{H_CELL, h_cell, PSHM_AM_ANY_NARGS},
                                  {H_MED, h_med, PSHM_AM_ANY_NARGS},
                                  {H_REP, h_rep, PSHM_AM_ANY_NARGS}};
    CHECK_OK(pshm_am_register(ctx, tab, 3));
    int me = pshm_rank(ctx);
    CHECK(pshm_size(ctx) == 2);
    CHECK_OK(pshm_barrier(ctx));
    deadline = time(NULL) + 30;
    long open_fast = 0, fresh_fast = 0, total_in = 0;
    if (me == 0) {
        amq_sq_t *sq = ctx->req_sq[1];
        uint32_t k = 0;
        for (int r = 0; r < ROUNDS; r++) {
            for (unsigned c = cells_of((uint32_t)r); c > 0; c--, k++) {
                uint32_t a[2] = {k, k * 31u + 1};
                CHECK_OK(pshm_am_request_short(ctx, 1, H_CELL, 0, c & 1 ? 1 : 2, a));
            }
            uint32_t a[4] = {k, k * 31u + 1, k * 31u + 2, k * 31u + 3};
            unsigned char *s = src + offset_of(k);
            am_fill(s, size_of(k), k);
            if (sq->avail != 0 && amq_mid(sq))
                open_fast++;
            else if (sq->avail != 0)
                fresh_fast++;
            med_k[r] = k;
            CHECK_OK(pshm_am_request_medium(ctx, 1, H_MED, s, size_of(k), 0, nargs_of(k), a));
            k++;
            /* polls now and then: the receiver is sometimes behind, sometimes not */
            if (r % 5 == 0) CHECK(pshm_poll(ctx) >= 0);
        }
        total_in = k;
        CHECK_OK(pshm_wait_until(ctx, all_replies, NULL));
    } else {
        for (int r = 0; r < ROUNDS; r++) total_req += cells_of((uint32_t)r) + 1;
        CHECK_OK(pshm_wait_until(ctx, all_requests, NULL));
        total_in = next_in;
    }
    /* Both cases reached, or the test says nothing of one of them. */
    if (me == 0 && !bad && (open_fast == 0 || fresh_fast == 0)) {
        fprintf(stderr, "rank 0: %ld Mediums after an open line and %ld on a fresh one took the "
                        "fast path: both must be reached\n", open_fast, fresh_fast);
        bad++;
    }
    /* A rank that failed leaves before the barrier: the launcher then ends
     * the other, which may wait for room that will never come. */
    if (bad) {
        fprintf(stderr, "FAIL rank %d: %ld failures\n", me, bad);
        return T_FAIL;
    }
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0)
        printf("rank 0: %d Mediums of 49 B to 8 KiB among %ld messages and their %ld replies, "
               "checked; %ld sent after an open line and %ld on a fresh one with a line known "
               "free\n", ROUNDS, total_in, nrep, open_fast, fresh_fast);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
