/*
 * t-am-torture: 2, 3, 5 and 8 processes sending random categories, sizes and
 * destinations (self included); every request is answered from its handler
 * with a random category; every payload and arg is checked; every message is
 * counted per pair and the counts are compared across processes at the end.
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 8
#define K 8                 /* Long landing slots per (peer, direction) */
#define LMAX 16384u
#define AREA ((size_t)MAXP * K * LMAX)
#define SEGSZ (2 * AREA + 4096)

enum { H_REQ = 40, H_REP = 41 };

static pshm_ctx_t *ctx;
static int me, np;
static pshm_seginfo_t segs[MAXP];
static long sent_req[MAXP], sent_rep[MAXP], recv_req[MAXP], recv_rep[MAXP];
static long replies_expected, replies_got;
static unsigned char busy[MAXP][K];
static int bad;
static uint8_t *buf;

/* args: [0] seed [1] nbytes [2] cat | rcat << 2 | slot << 4 | holds a slot << 12
 * [3] reply nbytes, rest seed ^ i */
#define CAT(a) ((a)[2] & 3u)
#define RCAT(a) (((a)[2] >> 2) & 3u)
#define SLOT(a) (((a)[2] >> 4) & 0xffu)

static uint64_t rng;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static size_t rnd_size(unsigned cat)
{
    uint32_t r = rnd() % 100;
    size_t max = cat == 1 ? 65536 : LMAX;
    if (cat == 0) return 0;
    if (r < 50) return rnd() % 64;
    if (r < 80) return rnd() % 1024;
    if (r < 95) return rnd() % (max + 1);
    return max;
}

/* Landing address of a Long, in `owner`'s view: area 0 for requests from
 * `peer`, area 1 for replies from `peer`. */
static char *landing(int owner, int dir, int peer, unsigned slot)
{
    return (char *)segs[owner].owner_base + dir * AREA + ((size_t)peer * K + slot) * LMAX;
}

static void verify(const void *p, size_t n, const uint32_t *a, unsigned na, int src, int dir)
{
    long d;
    if (na < 4 || n != a[1] || (n && (d = am_diff(p, n, a[0])) >= 0)) {
        fprintf(stderr, "rank %d: bad %s from %d: %zu bytes (expected %u), %u args\n", me,
                dir ? "reply" : "request", src, n, na >= 4 ? a[1] : 0, na);
        bad++;
        return;
    }
    for (unsigned i = 4; i < na; i++)
        if (a[i] != (a[0] ^ i)) {
            fprintf(stderr, "rank %d: arg %u from %d wrong\n", me, i, src);
            bad++;
        }
    unsigned cat = CAT(a);
    if (cat == 2 && p != landing(me, dir, src, SLOT(a))) {
        fprintf(stderr, "rank %d: Long from %d landed at %p\n", me, src, p);
        bad++;
    }
}

static void fill_args(uint32_t *a, uint32_t seed, size_t n, uint32_t meta, uint32_t rn)
{
    a[0] = seed;
    a[1] = (uint32_t)n;
    a[2] = meta;
    a[3] = rn;
    for (unsigned i = 4; i < PSHM_AM_MAX_ARGS; i++) a[i] = seed ^ i;
}

static void req_handler(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t), rc;
    verify(p, n, a, na, src, 0);
    recv_req[src]++;
    unsigned rcat = RCAT(a), slot = SLOT(a);
    size_t rn = a[3];
    uint32_t b[PSHM_AM_MAX_ARGS];
    uint8_t tmp[65536];
    fill_args(b, a[0] + 1, rn, rcat | slot << 4 | (a[2] & 1u << 12), 0);
    am_fill(tmp, rn, a[0] + 1);
    unsigned nb = 4 + a[0] % 13;
    if (rcat == 0) rc = pshm_am_reply_short(t, H_REP, 0, nb, b);
    else if (rcat == 1) rc = pshm_am_reply_medium(t, H_REP, tmp, rn, 0, nb, b);
    else rc = pshm_am_reply_long(t, H_REP, tmp, rn, landing(src, 1, me, slot), 0, nb, b);
    if (rc != 0) {
        fprintf(stderr, "rank %d: reply to %d failed: %s\n", me, src, pshm_last_error());
        bad++;
    }
    sent_rep[src]++;
}

static void rep_handler(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    verify(p, n, a, na, src, 1);
    recv_rep[src]++;
    replies_got++;
    if (a[2] >> 12 & 1) busy[src][SLOT(a)] = 0;
}

struct slotwait { int dest; unsigned *slot; };
static int slot_free(void *arg)
{
    struct slotwait *w = arg;
    for (unsigned k = 0; k < K; k++)
        if (!busy[w->dest][k]) { *w->slot = k; return 1; }
    return 0;
}

static int replies_done(void *arg) { (void)arg; return replies_got == replies_expected; }

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (!getenv("PSHM_RANK")) {
        static const int sizes[] = {2, 3, 5, 8};
        for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            int st = th_launch(argc, argv, sizes[i]);
            if (st != 0) {
                fprintf(stderr, "FAIL: torture with %d processes: status %d\n", sizes[i], st);
                return T_FAIL;
            }
        }
        return T_PASS;
    }
    ctx = am_setup(0, SEGSZ);
    me = pshm_rank(ctx);
    np = pshm_size(ctx);
    CHECK(np <= MAXP);
    pshm_handler_entry_t tab[] = {{H_REQ, req_handler, PSHM_AM_ANY_NARGS},
                                  {H_REP, rep_handler, PSHM_AM_ANY_NARGS}};
    CHECK_OK(pshm_am_register(ctx, tab, 2));
    for (int r = 0; r < np; r++) CHECK_OK(pshm_segment_info(ctx, r, &segs[r]));
    buf = malloc(65536);
    CHECK(buf != NULL);
    rng = 0x9e3779b97f4a7c15ull * (uint64_t)(me + 1);

    /* About the same work in total whatever the process count. */
    long nmsg = 24000 / np;
    uint32_t seed = (uint32_t)me << 24;
    for (long m = 0; m < nmsg; m++) {
        int dest = (int)(rnd() % (unsigned)np);
        unsigned cat = rnd() % 3, rcat = rnd() % 3, slot = 0;
        size_t n = rnd_size(cat), rn = rnd_size(rcat);
        unsigned na = 4 + rnd() % 13;
        uint32_t a[PSHM_AM_MAX_ARGS];
        int rc;
        if (cat == 2 || rcat == 2) {
            struct slotwait w = {dest, &slot};
            CHECK_OK(pshm_wait_until(ctx, slot_free, &w));
            busy[dest][slot] = 1;
        }
        seed += 2;
        fill_args(a, seed, n, cat | rcat << 2 | slot << 4 | (cat == 2 || rcat == 2) << 12,
                  (uint32_t)rn);
        am_fill(buf, n, seed);
        if (cat == 0) rc = pshm_am_request_short(ctx, dest, H_REQ, 0, na, a);
        else if (cat == 1) rc = pshm_am_request_medium(ctx, dest, H_REQ, buf, n, 0, na, a);
        else rc = pshm_am_request_long(ctx, dest, H_REQ, buf, n, landing(dest, 0, me, slot), 0,
                                       na, a);
        CHECK_OK(rc);
        sent_req[dest]++;
        replies_expected++;
    }
    CHECK_OK(pshm_wait_until(ctx, replies_done, NULL));
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);

    /* Publish my counters in my segment, then compare with every peer's. */
    long *mine = segs[me].local_base;
    for (int r = 0; r < np; r++) {
        mine[4 * r + 0] = sent_req[r];
        mine[4 * r + 1] = sent_rep[r];
        mine[4 * r + 2] = recv_req[r];
        mine[4 * r + 3] = recv_rep[r];
    }
    CHECK_OK(pshm_barrier(ctx));
    long total = 0;
    for (int r = 0; r < np; r++) {
        long theirs[4 * MAXP];
        CHECK_OK(pshm_get(ctx, r, theirs, (void *)segs[r].owner_base, sizeof theirs));
        if (theirs[4 * me + 0] != recv_req[r] || theirs[4 * me + 1] != recv_rep[r]) {
            fprintf(stderr, "FAIL rank %d: rank %d sent %ld requests and %ld replies to me, I "
                    "got %ld and %ld\n", me, r, theirs[4 * me], theirs[4 * me + 1], recv_req[r],
                    recv_rep[r]);
            return T_FAIL;
        }
        total += recv_req[r] + recv_rep[r];
    }
    CHECK_OK(pshm_barrier(ctx));
    printf("rank %d/%d: %ld messages received, each checked and counted exactly once\n", me, np,
           total);
    CHECK_OK(pshm_finalize(ctx));
    free(buf);
    return T_PASS;
}
