/*
 * t-am-onemsg: the rules of a poll that finds one message and no other
 * queue busy (a ping-pong's every poll), through pshm_poll and
 * pshm_wait_until, for handlers of an exact count and of any count:
 * every request and reply runs once, its arguments intact; inside the
 * handler pshm_poll (idle, and with a message waiting), pshm_wait_until
 * and a request are refused, a second reply is refused, a reply handler
 * cannot reply; a reply prepared and not committed is given up, so the next
 * handler replies; and the queues' consumer counts are published, so that
 * senders using PSHM_IMMEDIATE on queues of 3 lines never see EAGAIN (a
 * reply leaves its handler before the line is counted, and a skip mark ends
 * the line before a Medium's: 3 lines, not 2, are always counted free). After
 * each poll this thread's AM state is back to rest: no in-handler mark, no
 * prepared reply held, the idle credit neither spent by the handler nor
 * read as a message to self. Mediums that follow a Medium (a whole line
 * each) are found alone too, and keep the same rules; while one's handler
 * runs its line stays the receiver's: the sender fills the other two and
 * is then refused, and the payload is still intact when the handler ends.
 * Last, a Medium found alone whose size is corrupted after it was sent is
 * dropped (EPROTO, its handler not run) and its line released: the next
 * Medium runs.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"
#include "amslot.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 3000 /* a multiple of KINDS */
#define KINDS 12
enum { H_REQ = 1, H_REQ_ANY = 2, H_REP = 3, H_REP_ANY = 4, H_PREP = 5, H_BUSY = 6, H_MED = 7,
       H_MED_PREP = 8, H_MED_HOLD = 9 };
enum { MED_LEN = 24 };

/* One line of flags at the start of each segment: the writer is the
 * segment's owner, the reader the peer (cross-mapped). */
typedef struct {
    _Atomic uint32_t served;  /* rank 1: requests handled */
    _Atomic uint32_t started; /* rank 1: H_BUSY's handler runs */
    _Atomic uint32_t sent;    /* rank 0: the next request is in the queue */
} flags_t;

static pshm_ctx_t *ctx;
static flags_t *mine, *peer;
static uint32_t replies, next_req, bad;
static int refused_busy;

#define BAD(...) do { if (bad++ < 5) fprintf(stderr, __VA_ARGS__); } while (0)

/* A wait that is not refused returns at once. */
static int always(void *arg) { (void)arg; return 1; }

/* What every request handler checks: the calls refused inside it. */
static void inside_checks(pshm_token_t *t)
{
    if (amq_tls.in_handler != 1 || amq_tls.credit >= 0)
        BAD("inside a handler: mark %u, credit %lld\n", amq_tls.in_handler,
            (long long)amq_tls.credit);
    if (pshm_poll(ctx) != -EINVAL) BAD("an idle pshm_poll inside a handler was not refused\n");
    if (pshm_wait_until(ctx, always, NULL) != -EINVAL)
        BAD("pshm_wait_until inside a handler was not refused\n");
    if (pshm_am_request_short(ctx, pshm_token_source(t), H_REQ, PSHM_IMMEDIATE, 0, NULL) != -EINVAL)
        BAD("a request inside a handler was not refused\n");
}

static void served(void)
{
    atomic_store_explicit(&mine->served, mine->served + 1, memory_order_release);
}

static void on_req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p; (void)n;
    if (na < 1 || a[0] != next_req)
        BAD("request %u arrived when %u was due\n", na ? a[0] : 0, next_req);
    if (na == 2 && a[1] != ~a[0]) BAD("request %u: second argument %#x\n", a[0], a[1]);
    next_req++;
    inside_checks(t);
    if (pshm_am_reply_short(t, na == 2 ? H_REP : H_REP_ANY, PSHM_IMMEDIATE, na, a) != 0)
        BAD("reply to %u failed: %s\n", a[0], pshm_last_error());
    if (pshm_am_reply_short(t, H_REP, PSHM_IMMEDIATE, 2, a) != -EINVAL)
        BAD("a second reply to %u was not refused\n", a[0]);
    served();
}

/* Prepares a reply and returns without committing it: given up. */
static void on_prep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    void *buf;
    size_t room;
    (void)p; (void)n; (void)na;
    if (a[0] != next_req) BAD("request %u arrived when %u was due\n", a[0], next_req);
    next_req++;
    if (pshm_am_prepare_reply_medium(t, 8, 8, PSHM_IMMEDIATE, 0, &buf, &room) != 0)
        BAD("prepare of a reply to %u failed: %s\n", a[0], pshm_last_error());
    served();
}

/* Waits, inside the handler, until the next request is in the queue; a
 * poll then finds a message and must still be refused. */
static void on_busy(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    time_t t0 = time(NULL);
    (void)p; (void)n; (void)na;
    if (a[0] != next_req) BAD("request %u arrived when %u was due\n", a[0], next_req);
    next_req++;
    atomic_store_explicit(&mine->started, a[0] + 1, memory_order_release);
    while (atomic_load_explicit(&peer->sent, memory_order_acquire) != a[0] + 1)
        if (time(NULL) - t0 > 20) {
            BAD("request %u: rank 0 did not send the next one in 20 s\n", a[0]);
            break;
        }
    if (pshm_poll(ctx) == -EINVAL) refused_busy++;
    else BAD("pshm_poll with a message waiting inside a handler was not refused\n");
    inside_checks(t);
    if (pshm_am_reply_short(t, H_REP, PSHM_IMMEDIATE, 2, (uint32_t[]){a[0], ~a[0]}) != 0)
        BAD("reply to %u failed: %s\n", a[0], pshm_last_error());
    served();
}

/* A Medium's handler: its order and payload, the refusals inside it. */
static void med_checks(pshm_token_t *t, const void *p, size_t n, const uint32_t *a)
{
    if (a[0] != next_req) BAD("request %u arrived when %u was due\n", a[0], next_req);
    next_req++;
    if (n != MED_LEN || am_diff(p, n, a[0]) >= 0) BAD("Medium %u: payload wrong\n", a[0]);
    inside_checks(t);
}

static void med_reply(pshm_token_t *t, const uint32_t *a)
{
    if (pshm_am_reply_short(t, H_REP_ANY, PSHM_IMMEDIATE, 1, a) != 0)
        BAD("reply to %u failed: %s\n", a[0], pshm_last_error());
    if (pshm_am_reply_short(t, H_REP, PSHM_IMMEDIATE, 2, a) != -EINVAL)
        BAD("a second reply to %u was not refused\n", a[0]);
    served();
}

static void on_med(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    med_checks(t, p, n, a);
    med_reply(t, a);
}

/* A Medium whose handler prepares a reply and does not commit it. */
static void on_med_prep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    void *buf;
    size_t room;
    (void)na;
    med_checks(t, p, n, a);
    if (pshm_am_prepare_reply_medium(t, 8, 8, PSHM_IMMEDIATE, 0, &buf, &room) != 0)
        BAD("prepare of a reply to %u failed: %s\n", a[0], pshm_last_error());
    served();
}

/* Holds its line until the sender has filled the queue's other two and
 * been refused a third: the payload must be untouched. */
static void on_med_hold(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    time_t t0 = time(NULL);
    (void)na;
    med_checks(t, p, n, a);
    atomic_store_explicit(&mine->started, a[0] + 1, memory_order_release);
    while (atomic_load_explicit(&peer->sent, memory_order_acquire) != a[0] + 1)
        if (time(NULL) - t0 > 20) {
            BAD("Medium %u: rank 0 did not fill the queue in 20 s\n", a[0]);
            break;
        }
    if (am_diff(p, n, a[0]) >= 0) BAD("Medium %u: payload overwritten in its handler\n", a[0]);
    med_reply(t, a);
}

static void on_rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p; (void)n;
    if (a[0] != replies || (na == 2 && a[1] != ~a[0]))
        BAD("reply %u (%u args) arrived when %u was due\n", a[0], na, replies);
    if (pshm_am_reply_short(t, H_REP, PSHM_IMMEDIATE, na, a) != -EINVAL)
        BAD("a reply handler's reply was not refused\n");
    if (pshm_poll(ctx) != -EINVAL) BAD("pshm_poll inside a reply handler was not refused\n");
    replies++;
}

/* After a poll: the thread's AM state at rest, and nothing went wrong (a
 * failure ends the test at once: the peer's wait then sees it gone). */
static void at_rest(void)
{
    CHECK(amq_tls.in_handler == 0 && amq_tls.prep_tok == NULL);
    CHECK(amq_tls.credit > AMQ_CREDIT_SELF / 2 && amq_tls.credit <= AMQ_POLL_CREDIT);
    CHECK(bad == 0);
}

static int reached(void *arg) { return replies >= *(uint32_t *)arg; }
static int peer_served(void *arg)
{
    return atomic_load_explicit(&peer->served, memory_order_acquire) >= *(uint32_t *)arg;
}
static int mine_started(void *arg)
{
    return atomic_load_explicit(&peer->started, memory_order_acquire) == *(uint32_t *)arg;
}

static void send_med(int h, uint32_t i)
{
    uint8_t buf[MED_LEN];
    am_fill(buf, MED_LEN, i);
    CHECK_OK(pshm_am_request_medium(ctx, 1, h, buf, MED_LEN, PSHM_IMMEDIATE, 1, &i));
}

/* Rank 0's i-th request, of kind i % KINDS; returns the replies it expects
 * (the requests sent: i + 1 or more). A Medium after a Medium starts a
 * line, so a poll finds it alone (kinds 7, 8, 9); kinds 10 and 11 are sent
 * while 9's handler runs. */
static uint32_t send_one(uint32_t i)
{
    uint32_t a[2] = {i, ~i}, want = i + 1;
    uint8_t buf[MED_LEN];
    switch (i % KINDS) {
    case 0: CHECK_OK(pshm_am_request_short(ctx, 1, H_REQ, PSHM_IMMEDIATE, 2, a)); break;
    case 1: CHECK_OK(pshm_am_request_short(ctx, 1, H_REQ_ANY, PSHM_IMMEDIATE, 1, a)); break;
    case 2:
        CHECK_OK(pshm_am_request_short(ctx, 1, H_PREP, PSHM_IMMEDIATE, 1, a));
        replies++; /* none comes */
        CHECK_OK(pshm_wait_until(ctx, peer_served, &want));
        break;
    case 3: case 6: case 8: send_med(H_MED, i); break;
    case 7:
        send_med(H_MED_PREP, i);
        replies++; /* none comes */
        CHECK_OK(pshm_wait_until(ctx, peer_served, &want));
        break;
    case 9:
        send_med(H_MED_HOLD, i);
        CHECK_OK(pshm_wait_until(ctx, mine_started, &want));
        send_med(H_MED, i + 1);
        send_med(H_MED, i + 2);
        am_fill(buf, MED_LEN, i + 3);
        CHECK(pshm_am_request_medium(ctx, 1, H_MED, buf, MED_LEN, PSHM_IMMEDIATE, 1,
                                     (uint32_t[]){i + 3}) == -EAGAIN);
        atomic_store_explicit(&mine->sent, i + 1, memory_order_release);
        want = i + 3;
        break;
    case 4:
        /* H_BUSY, then once its handler runs the next request (kind 5),
         * which its handler's poll finds waiting. */
        CHECK_OK(pshm_am_request_short(ctx, 1, H_BUSY, PSHM_IMMEDIATE, 1, a));
        CHECK_OK(pshm_wait_until(ctx, mine_started, &want));
        a[0] = i + 1, a[1] = ~(i + 1);
        CHECK_OK(pshm_am_request_short(ctx, 1, H_REQ, PSHM_IMMEDIATE, 2, a));
        atomic_store_explicit(&mine->sent, i + 1, memory_order_release);
        want = i + 2;
        break;
    }
    return want;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    if (!getenv("PSHM_RANK")) {
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "3", 1);
        return th_launch(argc, argv, 2);
    }
    ctx = am_setup(0, 1 << 20);
    pshm_handler_entry_t tab[] = {{H_REQ, on_req, 2},       {H_REQ_ANY, on_req, PSHM_AM_ANY_NARGS},
                                  {H_REP, on_rep, 2},       {H_REP_ANY, on_rep, PSHM_AM_ANY_NARGS},
                                  {H_PREP, on_prep, 1},     {H_BUSY, on_busy, PSHM_AM_ANY_NARGS},
                                  {H_MED, on_med, 1},       {H_MED_PREP, on_med_prep, 1},
                                  {H_MED_HOLD, on_med_hold, 1}};
    CHECK_OK(pshm_am_register(ctx, tab, sizeof tab / sizeof tab[0]));
    int me = pshm_rank(ctx);
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, me, &si));
    mine = si.local_base;
    CHECK_OK(pshm_segment_info(ctx, 1 - me, &si));
    peer = si.local_base;
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0) {
        /* Each reply waited for alone: by pshm_wait_until, or by polls
         * that each run at most the one message there is. */
        for (uint32_t i = 0; i < N; i++) {
            uint32_t want = send_one(i);
            i = want - 1; /* the requests sent past i */
            if (i % 2)
                CHECK_OK(pshm_wait_until(ctx, reached, &want));
            else
                while (replies < want) {
                    int rc = pshm_poll(ctx);
                    CHECK(rc == 0 || rc == 1);
                }
            at_rest();
        }
        /* Medium N after a Medium, at a line's start: found alone. Then
         * N + 1, made too large for its slot once sent, dropped, and N + 1
         * again once rank 1 polled. am_last_slot finds my last message
         * to rank 1 as it does to self. */
        uint32_t want = N + 1;
        send_med(H_MED, N);
        CHECK_OK(pshm_wait_until(ctx, reached, &want));
        send_med(H_MED, N + 1);
        amq_slot_t *s = am_last_slot(ctx, 1);
        CHECK(AMQ_META_CAT(s->meta) == AMQ_MEDIUM && !AMQ_META_SP(s->meta));
        s->nbytes = AMQ_BODY + 1;
        atomic_store_explicit(&mine->sent, N + 1, memory_order_release);
        CHECK_OK(pshm_wait_until(ctx, mine_started, &want));
        send_med(H_MED, N + 1);
        want = N + 2;
        CHECK_OK(pshm_wait_until(ctx, reached, &want));
    } else {
        uint32_t total = 0;
        while (mine->served < N) {
            int rc = pshm_poll(ctx);
            CHECK(rc >= 0);
            total += (uint32_t)rc;
            at_rest();
        }
        CHECK(total == N);
        CHECK(refused_busy == N / KINDS);
        while (mine->served < N + 1) {
            CHECK(pshm_poll(ctx) >= 0);
            at_rest();
        }
        time_t t0 = time(NULL);
        while (atomic_load_explicit(&peer->sent, memory_order_acquire) != N + 1)
            CHECK(time(NULL) - t0 < 20);
        uint32_t ran = next_req;
        CHECK(am_dropped_ok(pshm_poll(ctx), (long)(next_req - ran),
                            "a Medium too large for its slot, found alone"));
        at_rest();
        atomic_store_explicit(&mine->started, N + 1, memory_order_release);
        while (mine->served < N + 2) {
            CHECK(pshm_poll(ctx) >= 0);
            at_rest();
        }
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK(bad == 0);
    CHECK(me == 1 ? next_req == N + 2 : replies == N + 2);
    printf("rank %d: %u %s, each once, in order; refusals inside handlers as due\n", me, N + 2,
           me ? "requests served" : "replies");
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
