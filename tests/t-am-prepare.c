/*
 * t-am-prepare: negotiated payload (pshm_am_prepare_* / pshm_am_commit_*).
 * Between 2 processes: requests and replies, Medium (in the slot, in the
 * pool, up to the maximum) and Long, with 3 args and with 16 (which go in
 * a chunk, alone for a Long), built in the prepared buffer and checked
 * byte for byte by the handler, each message run once; with
 * PSHM_IMMEDIATE, -EAGAIN once the pool, then the queue, is full, and
 * everything prepared before arrives once the receiver polls; misuse
 * refused with EINVAL and nothing sent: commit without prepare, more bytes
 * or another argument count than prepared, two prepares, another send on
 * the prepared queue, the wrong kind of commit, bad sizes.
 */
#include "amtest.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { H_MED = 1, H_LONG = 2, H_RMED = 3, H_RLONG = 4, H_ASK = 5, H_REP_TRY = 6, H_END = 7,
       H_MED16 = 8, H_LONG16 = 9 };
#define NSIZES 7
static const size_t sizes[NSIZES] = {0, 1, 40, 41, 4096, 40000, 65536};
static pshm_ctx_t *ctx;
static long nmed, nlong, nrmed, nrlong, nend, n16, bad, next_seq, in_rep_err;
static char *lbase;           /* my segment, owner view */

/* args: {seq, nbytes, seed} */
static void on_med(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)na;
    if (a[0] != (uint32_t)next_seq++ || n != a[1] || am_diff(p, n, a[2]) >= 0) bad++;
    nmed++;
}
static void on_long(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)na;
    if (n != a[1] || p != lbase + 4096 || am_diff(p, n, a[2]) >= 0) bad++;
    nlong++;
}
static void on_rmed(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    on_med(t, p, n, a, na);
    nrmed++;
}
static void on_rlong(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    on_long(t, p, n, a, na);
    nrlong++;
}
/* 16 args, {nbytes, seed, seed + 2, ..., seed + 15}: in the chunk with the
 * payload (a Medium) or alone there (a Long). */
static int args16_bad(const uint32_t *a, unsigned na)
{
    if (na != 16)
        return 1;
    for (unsigned i = 2; i < 16; i++)
        if (a[i] != a[1] + i)
            return 1;
    return 0;
}
static void on_med16(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t;
    if (args16_bad(a, na) || n != a[0] || am_diff(p, n, a[1]) >= 0) bad++;
    n16++;
}
static void on_long16(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t;
    if (args16_bad(a, na) || n != a[0] || p != lbase + 4096 || am_diff(p, n, a[1]) >= 0) bad++;
    n16++;
}
static void on_end(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)p; (void)a;
    if (n != 0 || na != 3) bad++;
    nend++;
}
/* A reply handler may not prepare a reply. */
static void on_rep_try(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    void *b;
    size_t sz;
    (void)p; (void)n; (void)a; (void)na;
    in_rep_err = pshm_am_prepare_reply_medium(t, 0, 8, 0, 0, &b, &sz);
}
/* args: {seq, nbytes, seed, kind}: reply with a prepared Medium (kind 0),
 * Long (1), or a Short whose handler tries to prepare a reply (2); kind 3
 * prepares a reply and returns without committing it (given up). */
static void on_ask(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    void *b = NULL;
    size_t sz = 0;
    uint32_t r[3] = {a[0], a[1], a[2]};
    (void)p; (void)n; (void)na;
    if (a[3] == 2) {
        if (pshm_am_reply_short(t, H_REP_TRY, 0, 0, NULL) != 0) bad++;
        return;
    }
    if (a[3] == 3) {
        if (pshm_am_prepare_reply_medium(t, 1000, 1000, 0, 3, &b, &sz) != 0) bad++;
        return;
    }
    if (a[3] == 0) {
        if (pshm_am_prepare_reply_medium(t, a[1], a[1], 0, 3, &b, &sz) != 0 || sz != a[1]) {
            bad++;
            return;
        }
    } else {
        pshm_seginfo_t si;
        if (pshm_segment_info(ctx, pshm_token_source(t), &si) != 0 ||
            pshm_am_prepare_reply_long(t, (char *)si.owner_base + 4096, a[1], a[1], 0, 3, &b,
                                       &sz) != 0 || sz != a[1]) {
            bad++;
            return;
        }
    }
    am_fill(b, a[1], a[2]);
    /* A second prepare while one is open, and a commit of the other kind. */
    if (pshm_am_prepare_reply_medium(t, 0, 8, 0, 0, &b, &sz) != -EINVAL) bad++;
    if ((a[3] == 0 ? pshm_am_commit_reply_long(t, H_RLONG, a[1], 3, r)
                   : pshm_am_commit_reply_medium(t, H_RMED, a[1], 3, r)) != -EINVAL) bad++;
    if ((a[3] == 0 ? pshm_am_commit_reply_medium(t, H_RMED, a[1], 3, r)
                   : pshm_am_commit_reply_long(t, H_RLONG, a[1], 3, r)) != 0) bad++;
    if (pshm_am_reply_short(t, H_REP_TRY, 0, 0, NULL) != -EINVAL) bad++; /* replied already */
}

static int reached(void *arg) { return *(volatile long *)arg >= ((long *)arg)[1]; }

static void wait_count(long *cnt, long want)
{
    long c[2];
    for (;;) {
        c[0] = *(volatile long *)cnt;
        c[1] = want;
        if (reached(c)) return;
        CHECK(pshm_poll(ctx) >= 0);
    }
}

#define MSG(s) CHECK(strstr(pshm_last_error(), s) != NULL)

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    /* Twice: without and with PSHM_INIT_THREADS (queue locks held from the
     * prepare to the commit). */
    int st = th_launch(argc, argv, 2);
    if (st > 0) return st;
    if (st == 0) {
        setenv("T_AM_PREPARE_THREADS", "1", 1);
        return th_launch(argc, argv, 2);
    }
    bool threads = getenv("T_AM_PREPARE_THREADS") != NULL;
    ctx = am_setup(threads ? PSHM_INIT_THREADS : 0, 1 << 20);
    pshm_handler_entry_t tab[] = {{H_MED, on_med, 3}, {H_LONG, on_long, 3},
                                  {H_RMED, on_rmed, 3}, {H_RLONG, on_rlong, 3},
                                  {H_ASK, on_ask, 4}, {H_REP_TRY, on_rep_try, 0},
                                  {H_END, on_end, PSHM_AM_ANY_NARGS},
                                  {H_MED16, on_med16, 16}, {H_LONG16, on_long16, 16}};
    CHECK_OK(pshm_am_register(ctx, tab, 9));
    int me = pshm_rank(ctx), peer = 1 - me;
    pshm_seginfo_t mine, theirs;
    CHECK_OK(pshm_segment_info(ctx, me, &mine));
    CHECK_OK(pshm_segment_info(ctx, peer, &theirs));
    lbase = mine.local_base;
    volatile int *flag = mine.local_base;
    *flag = 0;
    CHECK_OK(pshm_barrier(ctx));
    void *b;
    size_t sz;
    uint32_t a[4];
    long sent = 0;

    /* 1. Requests, Medium and Long, every size, built in place. */
    for (int rep = 0; rep < 20; rep++) {
        for (int i = 0; i < NSIZES; i++) {
            uint32_t seed = (uint32_t)(me * 1000003 + rep * NSIZES + i);
            a[0] = (uint32_t)sent; a[1] = (uint32_t)sizes[i]; a[2] = seed;
            CHECK_OK(pshm_am_prepare_request_medium(ctx, peer, sizes[i], sizes[i] + 100, 0, 3,
                                                    &b, &sz));
            CHECK(sz == (sizes[i] + 100 < 65536 ? sizes[i] + 100 : 65536) && b != NULL);
            am_fill(b, sizes[i], seed);
            CHECK_OK(pshm_am_commit_request_medium(ctx, H_MED, sizes[i], 3, a));
            sent++;
        }
        /* Long: one at a time, the landing area is reused (the barrier: the
         * peer ran its handler too). */
        size_t n = sizes[rep % NSIZES] * 3;
        a[1] = (uint32_t)n; a[2] = (uint32_t)(rep + 77 * me);
        CHECK_OK(pshm_am_prepare_request_long(ctx, peer, (char *)theirs.owner_base + 4096, n, n,
                                              0, 3, &b, &sz));
        CHECK(sz == n);
        am_fill(b, n, a[2]);
        CHECK_OK(pshm_am_commit_request_long(ctx, H_LONG, n, 3, a));
        wait_count(&nlong, rep + 1);
        CHECK_OK(pshm_barrier(ctx));
    }
    wait_count(&nmed, sent);
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0 && nmed == sent && nlong == 20);

    /* 1b. 16 args: the args go in a chunk (with a Medium's payload, or
     * alone for a Long), each checked by the handler. */
    for (int rep = 0; rep < 2 * NSIZES; rep++) {
        uint32_t a16[16];
        size_t n = sizes[rep % NSIZES];
        a16[0] = (uint32_t)n;
        a16[1] = (uint32_t)(rep * 31 + me);
        for (unsigned i = 2; i < 16; i++)
            a16[i] = a16[1] + i;
        if (rep % 2 == 0) {
            CHECK_OK(pshm_am_prepare_request_medium(ctx, peer, n, n, 0, 16, &b, &sz));
            CHECK(sz == n);
            am_fill(b, n, a16[1]);
            CHECK_OK(pshm_am_commit_request_medium(ctx, H_MED16, n, 16, a16));
        } else {
            CHECK_OK(pshm_am_prepare_request_long(ctx, peer, (char *)theirs.owner_base + 4096, n,
                                                  n, 0, 16, &b, &sz));
            CHECK(sz == n);
            am_fill(b, n, a16[1]);
            CHECK_OK(pshm_am_commit_request_long(ctx, H_LONG16, n, 16, a16));
        }
        wait_count(&n16, rep + 1);
        CHECK_OK(pshm_barrier(ctx));
    }
    CHECK(bad == 0 && n16 == 2 * NSIZES);

    /* 2. Replies built in place: Medium and Long, and a reply handler's try. */
    if (me == 0) {
        long want = 0;
        for (int i = 0; i < NSIZES; i++) {
            for (uint32_t kind = 0; kind < 2; kind++) {
                a[0] = (uint32_t)(next_seq); a[1] = (uint32_t)sizes[i]; a[2] = 9000 + i;
                a[3] = kind;
                CHECK_OK(pshm_am_request_short(ctx, 1, H_ASK, 0, 4, a));
                want++;
                wait_count(kind == 0 ? &nrmed : &nrlong, kind == 0 ? nrmed + 1 : nrlong + 1);
            }
        }
        /* A reply prepared and not committed is given up: the next works. */
        a[1] = 100; a[3] = 3;
        CHECK_OK(pshm_am_request_short(ctx, 1, H_ASK, 0, 4, a));
        a[0] = (uint32_t)next_seq; a[3] = 0;
        CHECK_OK(pshm_am_request_short(ctx, 1, H_ASK, 0, 4, a));
        want++;
        wait_count(&nrmed, nrmed + 1);
        a[3] = 2;
        CHECK_OK(pshm_am_request_short(ctx, 1, H_ASK, 0, 4, a));
        while (in_rep_err == 0)
            CHECK(pshm_poll(ctx) >= 0);
        CHECK(in_rep_err == -EINVAL);
        CHECK(nrmed + nrlong == want);
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);

    /* 3. PSHM_IMMEDIATE: rank 1 stops polling; rank 0 fills the pool with
     * maximum Mediums, then the queue with ones that fit the slot; rank 1
     * then runs them all, in order (rank 1's sequence numbers go on from
     * part 1, where each rank sent `sent`). */
    long pool_msgs = 0, slot_msgs = 0;
    if (me == 1) {
        while (*flag == 0) usleep(1000); /* not polling */
        wait_count(&nmed, sent + *flag);
    } else {
        uint32_t seq = (uint32_t)sent;
        int rc;
        for (;;) {
            rc = pshm_am_prepare_request_medium(ctx, 1, 65536, 65536, PSHM_IMMEDIATE, 3, &b, &sz);
            if (rc != 0) break;
            pool_msgs++;
            a[0] = seq++; a[1] = 65536; a[2] = (uint32_t)pool_msgs;
            am_fill(b, 65536, a[2]);
            CHECK_OK(pshm_am_commit_request_medium(ctx, H_MED, 65536, 3, a));
        }
        CHECK_ERR(rc, -EAGAIN); MSG("pool is full");
        for (;;) {
            rc = pshm_am_prepare_request_medium(ctx, 1, 8, 8, PSHM_IMMEDIATE, 3, &b, &sz);
            if (rc != 0) break;
            slot_msgs++;
            a[0] = seq++; a[1] = 8; a[2] = (uint32_t)(100000 + slot_msgs);
            am_fill(b, 8, a[2]);
            CHECK_OK(pshm_am_commit_request_medium(ctx, H_MED, 8, 3, a));
        }
        CHECK_ERR(rc, -EAGAIN); MSG("queue to rank 1 is full");
        CHECK(pool_msgs >= 1 && slot_msgs >= 1);
        int total = (int)(pool_msgs + slot_msgs);
        CHECK_OK(pshm_put(ctx, 1, (void *)theirs.owner_base, &total, sizeof total));
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);

    /* 4. Misuse, nothing sent. */
    a[0] = a[1] = a[2] = 0;
    CHECK_ERR(pshm_am_commit_request_medium(ctx, H_MED, 0, 3, a), -EINVAL); MSG("no prepared");
    CHECK_ERR(pshm_am_commit_request_long(ctx, H_LONG, 0, 3, a), -EINVAL);
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, peer, 10, 5, 0, 3, &b, &sz), -EINVAL);
    MSG("exceeds most");
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, peer, 65537, 70000, 0, 3, &b, &sz), -EINVAL);
    MSG("Medium maximum");
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, peer, 0, 8, 0x10, 3, &b, &sz), -EINVAL);
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, peer, 0, 8, 0, 17, &b, &sz), -EINVAL);
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, peer, 0, 8, 0, 3, NULL, &sz), -EINVAL);
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, 5, 0, 8, 0, 3, &b, &sz), -EINVAL);
    CHECK_ERR(pshm_am_prepare_request_medium(NULL, peer, 0, 8, 0, 3, &b, &sz), -EINVAL);
    CHECK_ERR(pshm_am_prepare_request_long(ctx, peer, (char *)theirs.owner_base + theirs.size,
                                           1, 1, 0, 3, &b, &sz), -EFAULT);
    CHECK_ERR(pshm_am_prepare_reply_medium(NULL, 0, 8, 0, 3, &b, &sz), -EINVAL);
    CHECK_ERR(pshm_am_commit_reply_medium(NULL, H_RMED, 0, 3, a), -EINVAL);
    /* A Long bounded by the segment's end: *size is what is left. */
    CHECK_OK(pshm_am_prepare_request_long(ctx, peer, (char *)theirs.owner_base + theirs.size - 10,
                                          4, 100, 0, 3, &b, &sz));
    CHECK(sz == 10);
    CHECK_ERR(pshm_am_commit_request_long(ctx, H_LONG, 11, 3, a), -EINVAL); MSG("exceeds");
    CHECK_ERR(pshm_am_commit_request_medium(ctx, H_MED, 1, 3, a), -EINVAL);
    CHECK_ERR(pshm_am_commit_request_long(ctx, H_LONG, 4, 2, a), -EINVAL);
    MSG("arguments, 3 prepared");
    CHECK_ERR(pshm_am_commit_request_long(ctx, 77, 4, 3, a), -EINVAL); MSG("not registered");
    CHECK_ERR(pshm_am_prepare_request_medium(ctx, peer, 0, 8, 0, 3, &b, &sz), -EINVAL);
    MSG("already prepared");
    CHECK_ERR(pshm_am_request_short(ctx, peer, H_REP_TRY, 0, 0, NULL), -EINVAL);
    MSG("not committed");
    /* After all that, the prepared message still goes, once. */
    CHECK_OK(pshm_am_commit_request_long(ctx, H_END, 0, 3, a));
    CHECK_ERR(pshm_am_commit_request_long(ctx, H_END, 0, 3, a), -EINVAL);
    wait_count(&nend, 1);
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0 && nend == 1 && nmed == sent + (me == 1 ? *flag : nrmed));

    printf("rank %d%s: prepared requests and replies arrived byte for byte, once; IMMEDIATE "
           "-EAGAIN after %ld pool and %ld slot messages; misuse refused\n", me,
           threads ? " (threads)" : "", pool_msgs,
           slot_msgs);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
