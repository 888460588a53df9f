/*
 * pshm-pingpong - latency, bandwidth and message rate between the two
 * processes of a `pshmrun -n 2` job, each printed next to the floor of the
 * same operation done by hand between the same two cores in the same run
 * (the limit-* kernels in tools/util/bench_limits.c):
 *
 *   limit-handoff    a round trip of one cache line per direction, 64 line
 *                    pairs in turn (Short)
 *   limit-ring       a round trip through a 1-copy ring (Medium, copied or
 *                    prepared)
 *   limit-copy-flag  a memcpy into the peer's memory and a flag line, the
 *                    peer answering alike (put and Long round trips, Long
 *                    copied or prepared)
 *   limit-memcpy     a local memcpy of the same size (get; copy bandwidth)
 *   limit-ring-rate  a streaming ring of one-line messages (the flood)
 *   limit-cell-rate  the flood's own queue protocol with nothing around it
 *   limit-copy2-bw   two processes each copying half (a shared copy's limit)
 *
 * The limits run in a piece of rank 0's segment and in the two data areas,
 * which both processes already map. --limits-only runs them alone in two
 * forked processes, without the library; --instructions counts the
 * library's instructions under callgrind (tools/util/bench_instr.c). Every
 * payload the library moves is checked after each repetition, outside the
 * timed loop. The library is measured through pshm.h only, as an application
 * uses it (tests/t-layers.sh keeps it so).
 *
 * Statistics (see pshm-pingpong(1)): latency = round trip / 2 for ping-pongs;
 * "median" is the median of the repetitions' medians (a repetition's median
 * taken over the means of blocks of BENCH_LAT_BLOCK iterations), "p99" the 99th
 * percentile of every timed iteration of every repetition pooled. Rates are
 * measured over a whole timed loop per repetition; "median" is the median of
 * the repetitions and "worst" the slowest repetition.
 */
#include "common/misc.h"
#include "pshm.h"
#include "tools/util/bench_instr.h"
#include "tools/util/bench_limits.h"
#include "tools/util/bench_opts.h"
#include "tools/util/bench_plot.h"
#include "tools/util/bench_startup.h"
#include "tools/util/bench_stats.h"
#include "tools/util/bench_sys.h"
#include "tools/util/bench_verify.h"
#include "tools/util/cli.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ job state */

static bench_opts_t o;
static cpu_set_t allowed_cpus;

static struct {
    bench_pair_t p;             /* ctx, rank, peer pid, limits area, buffers */
    int peer, size;
    int cpu[2];                 /* where the pair runs (-1: not known) */
    void *my_data;              /* my data area (local view) */
    void *peer_data;            /* the peer's data area, owner address (for put/get/Long) */
    _Atomic uint64_t *my_flag;  /* written by the peer */
    _Atomic uint64_t *peer_flag;/* the peer's flag line, local view */
    uint64_t flag_out, flag_in; /* sequence numbers sent / expected */
    uint64_t pongs, count, acks, exp_pongs, exp_acks;
    uint32_t win_left;          /* h_sink: messages before the next acknowledgement */
    int hrc;                    /* first error of a handler's reply */
    size_t max_medium;
    char placement[160];        /* how the two CPUs relate, from the kernel's topology */
} g;

static volatile unsigned char sink_byte;

static void reset_counters(void)
{
    g.pongs = g.count = g.acks = g.exp_pongs = g.exp_acks = 0;
    g.win_left = 0;
}

/* ------------------------------------------------------------ sizes */

typedef struct sizes { size_t v[MAX_SIZES + 32]; int n; } sizes_t;

/* The sweep 0, 8, 16, ... up to max, filtered by --min-size, or --sizes. */
static sizes_t sweep(uint64_t max, int nonzero)
{
    sizes_t s = {.n = 0};
    if (o.nsizes > 0) {
        for (int i = 0; i < o.nsizes; i++)
            if (o.sizes[i] <= max && !(nonzero && o.sizes[i] == 0)) s.v[s.n++] = o.sizes[i];
        return s;
    }
    if (o.quick) {
        static const size_t q[] = {0, 8, 64, 4096, 65536};
        for (size_t i = 0; i < ARRAY_LEN(q); i++)
            if (q[i] <= max && q[i] >= o.min_size && !(nonzero && q[i] == 0)) s.v[s.n++] = q[i];
        return s;
    }
    if (!nonzero && o.min_size == 0) s.v[s.n++] = 0;
    for (uint64_t v = 8; v <= max && s.n < (int)ARRAY_LEN(s.v); v *= 2)
        if (v >= o.min_size) s.v[s.n++] = v;
    return s;
}

static void sizes_union(sizes_t *a, const sizes_t *b)
{
    for (int i = 0; i < b->n; i++) {
        int found = 0;
        for (int j = 0; j < a->n; j++) found |= a->v[j] == b->v[i];
        if (!found && a->n < (int)ARRAY_LEN(a->v)) a->v[a->n++] = b->v[i];
    }
    qsort(a->v, (size_t)a->n, sizeof a->v[0], bench_cmp_u64);
}

static uint64_t long_max(void) { return o.max_set ? o.max_size : DEFAULT_LONG_MAX; }
static uint64_t put_max(void) { return o.max_set ? o.max_size : DEFAULT_PUT_MAX; }

/* The largest size any sweep may use: sizes the private buffers and segment. */
static uint64_t biggest_size(void)
{
    uint64_t m = put_max() > long_max() ? put_max() : long_max();
    if (o.nsizes > 0) {
        m = 64 * KiB;
        for (int i = 0; i < o.nsizes; i++) m = o.sizes[i] > m ? o.sizes[i] : m;
    }
    return m;
}

/* The hand-off again at the end: the host may have moved the virtual CPUs.
 * The run judges itself by its own spread (start against end, and the
 * repetitions of the first measurement), not by a fixed time. */
static void placement_recheck(void)
{
    const bench_result_t *h = bench_find_result("limit-handoff", 56);
    double end = bench_handoff_probe(o.quick ? 500 : 5000);
    if (g.p.me != 0 || !h) return;
    double start = h->row.median * 2000.0, lo = h->row.rep_min * 2000.0, hi = h->row.rep_max * 2000.0;
    if (end > 1.5 * start || start > 1.5 * end)
        bench_note("cache-line round trip moved from %.0f ns to %.0f ns during the run: the host "
                   "placed the two CPUs differently (one core's SMT siblings are faster); distrust "
                   "the ratios", start, end);
    else if (lo > 0 && hi > 1.5 * lo)
        bench_note("cache-line round trip ranged from %.0f to %.0f ns over the repetitions: the "
                   "host moved the CPUs; distrust the ratios", lo, hi);
}

/* ------------------------------------------------------------ the limits */

#define COPY2_MIN (4 * KiB) /* below, the two sides' hand-off is all a copy costs */

static void run_limits(void)
{
    unsigned t = o.tests;
    sizes_t lat = {.n = 0}, bw = {.n = 0}, mem = {.n = 0}, mbw = {.n = 0};
    sizes_t med = sweep(g.max_medium, 0), lng = sweep(long_max(), 0), put = sweep(put_max(), 0);
    sizes_t cf = {.n = 0}, two = {.n = 0};
    if (t & (T_MEDIUM | T_MEDIUM_PREP)) sizes_union(&lat, &med);
    if (t & (T_LONG | T_LONG_PREP)) sizes_union(&cf, &lng);
    if (t & T_PUT) sizes_union(&cf, &put);
    if (t & T_GET) sizes_union(&mem, &put);
    if (t & T_BW) {
        sizes_t mb = sweep(g.max_medium, 1), pb = sweep(put_max(), 1), lb = sweep(long_max(), 1);
        sizes_union(&bw, &mb);
        sizes_union(&mbw, &pb);
        sizes_union(&mbw, &lb);
        for (int i = 0; i < mbw.n; i++)
            if (mbw.v[i] >= COPY2_MIN) two.v[two.n++] = mbw.v[i];
    }
    bench_limit_lat("limit-handoff", 56);
    for (int i = 0; i < lat.n; i++)
        bench_limit_lat("limit-ring", lat.v[i]);
    for (int i = 0; i < cf.n; i++)
        bench_limit_lat("limit-copy-flag", cf.v[i]);
    if (t & T_FLOOD) {
        bench_limit_bw("limit-ring-rate", 8, o.iters * 20, 1);
        bench_limit_bw("limit-cell-rate", 8, o.iters * 20, 1);
    }
    for (int i = 0; i < bw.n; i++)
        bench_limit_bw("limit-ring-bw", bw.v[i], o.iters * 10, 0);
    for (int i = 0; i < mem.n; i++)
        bench_limit_lat("limit-memcpy", mem.v[i]);
    for (int i = 0; i < mbw.n; i++)
        bench_limit_bw("limit-memcpy-bw", mbw.v[i], o.iters * 10, 0);
    /* Against one core's memcpy: what a copy shared by both sides can reach. */
    for (int i = 0; i < two.n; i++)
        bench_bw_run("limit-copy2-bw", two.v[i], o.iters * 10, bench_copy2_stream, bench_copy2_sink,
                     0, "limit-memcpy-bw");
}

/* ------------------------------------------------------------ AM handlers */

enum {
    H_PING_SHORT = 1, H_PING_MEDIUM, H_PING_LONG, H_PONG, H_SINK, H_ACK, H_CHK_REQ, H_CHK_REP,
    H_PING_MEDIUM_PREP, H_PING_LONG_PREP, H_INCAST
};

/* The prepared kinds (medium-prepare, long-prepare): the sender writes its
 * payload straight into the buffer the prepare hands out, once, from its
 * own data, as the limits' senders write into the ring or the peer's
 * memory; the library copies nothing on the send side. dest_addr NULL: a
 * Medium. */
static int reply_prepared(pshm_token_t *tk, unsigned h, const void *src, size_t n, void *dest_addr)
{
    void *b;
    size_t room;
    int rc = dest_addr ? pshm_am_prepare_reply_long(tk, dest_addr, n, n, 0, 0, &b, &room)
                       : pshm_am_prepare_reply_medium(tk, n, n, 0, 0, &b, &room);
    if (rc < 0) return rc;
    if (n > 0) memcpy(b, src, n);
    return dest_addr ? pshm_am_commit_reply_long(tk, h, n, 0, NULL)
                     : pshm_am_commit_reply_medium(tk, h, n, 0, NULL);
}

static void h_ping_short(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)buf, (void)n;
    int rc = pshm_am_reply_short(tk, H_PONG, 0, nargs, args);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    g.count++;
}

/* The payload's first byte, read in place, when --touch says so. */
static void touch_payload(const void *buf, size_t n, int when)
{
    if (n > 0 && o.touch == when) sink_byte = *(const volatile unsigned char *)buf;
}

/* Does what the 1-copy ring limit's receiver does: looks at the payload's
 * first byte in place (before the reply, or as --touch says), answers with
 * the same size from its own buffer. (Echoing `buf` would add a cross-core
 * read of the whole payload that the limit does not pay, and compare unlike
 * things.) */
static void h_ping_medium(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)args, (void)nargs;
    touch_payload(buf, n, BENCH_TOUCH_BEFORE);
    int rc = pshm_am_reply_medium(tk, H_PONG, g.p.src, n, 0, 0, NULL);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    touch_payload(buf, n, BENCH_TOUCH_AFTER);
    g.count++;
}

/* Replies with a Long of the same size from this process's own data, into
 * the requester's data area, as the put ping-pong and the copy-and-flag
 * floor move it. (Echoing the payload that just landed would read every
 * line from the requester's cache first: on two cores that read costs more
 * than the copy.) */
static void h_ping_long(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)buf, (void)args, (void)nargs;
    int rc = pshm_am_reply_long(tk, H_PONG, g.p.src, n, g.peer_data, 0, 0, NULL);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    g.count++;
}

/* As h_ping_medium, through prepare/commit. */
static void h_ping_medium_prep(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args,
                               unsigned nargs)
{
    (void)args, (void)nargs;
    touch_payload(buf, n, BENCH_TOUCH_BEFORE);
    int rc = reply_prepared(tk, H_PONG, g.p.src, n, NULL);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    touch_payload(buf, n, BENCH_TOUCH_AFTER);
    g.count++;
}

/* As h_ping_long, through prepare/commit. */
static void h_ping_long_prep(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args,
                             unsigned nargs)
{
    (void)buf, (void)args, (void)nargs;
    int rc = reply_prepared(tk, H_PONG, g.p.src, n, g.peer_data);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    g.count++;
}

/* The requester's side: nothing follows its read (--touch none: no read). */
static void h_pong(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk, (void)args, (void)nargs;
    if (n > 0 && o.touch != BENCH_TOUCH_NONE) sink_byte = *(volatile unsigned char *)buf;
    g.pongs++;
}

/* Counts, reads the payload's first byte in place (as the ring limit does),
 * and acknowledges every args[0] messages: a countdown, as the limit's
 * receiver counts its window (a 64-bit division per message, tens of cycles
 * on the receiver's path, would weigh on the flood and not on its floor). */
static void h_sink(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    if (n > 0) sink_byte = *(volatile unsigned char *)buf;
    g.count++;
    if (nargs >= 1 && args[0] > 0) {
        if (g.win_left == 0) g.win_left = args[0];
        if (--g.win_left == 0) {
            int rc = pshm_am_reply_short(tk, H_ACK, 0, 0, NULL);
            if (rc < 0 && !g.hrc) g.hrc = rc;
        }
    }
}

static void h_ack(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk, (void)buf, (void)n, (void)args, (void)nargs;
    g.acks++;
}

/* ------------------------------------------------------------ payload checks */

static void wait_count(uint64_t *ctr, uint64_t target);

/* A request through prepare/commit, the payload written from g.p.src
 * (see reply_prepared). */
static void request_prepared(unsigned h, size_t size, void *dest_addr)
{
    void *b;
    size_t room;
    if (dest_addr)
        CHK(pshm_am_prepare_request_long(g.p.ctx, g.peer, dest_addr, size, size, 0, 0, &b, &room));
    else
        CHK(pshm_am_prepare_request_medium(g.p.ctx, g.peer, size, size, 0, 0, &b, &room));
    if (size > 0) memcpy(b, g.p.src, size);
    if (dest_addr) CHK(pshm_am_commit_request_long(g.p.ctx, h, size, 0, NULL));
    else CHK(pshm_am_commit_request_medium(g.p.ctx, h, size, 0, NULL));
}

/* The test, size and repetition being checked: set by check_before on both
 * ranks before the repetition starts, so a check message that arrives early
 * finds it. */
static struct {
    const char *test;
    size_t size;
    int rep;
    uint64_t served, answered, rounds; /* rounds: check messages so far (a counter of each side) */
    bench_mismatch_t bad;
    const char *what;
} chk;

static void check_failed(bench_mismatch_t m, const char *what)
{
    bench_die(1, "payload check failed: test %s, size %zu, repetition %d: %s: byte at offset %zu: "
                 "expected 0x%02x, got 0x%02x", chk.test, chk.size, chk.rep, what, m.off, m.want, m.got);
}

static void note_mismatch(bench_mismatch_t m, const char *what)
{
    if (m.bad && !chk.bad.bad) chk.bad = m, chk.what = what;
}

static int is_short_test(const char *t) { return !strcmp(t, "short") || !strcmp(t, "flood"); }
static int is_medium_test(const char *t) { return !strncmp(t, "medium", 6); }
static int is_get_test(const char *t) { return !strncmp(t, "get", 3); }
static int is_prepare_test(const char *t) { return strstr(t, "-prepare") != NULL; }
static int is_long_pingpong(const char *t) { return !strcmp(t, "long") || !strcmp(t, "long-prepare"); }

static uint32_t seed_of(int dir) { return bench_pattern_seed(chk.test, chk.size, chk.rep, dir); }

/* Rank 1: a check message from rank 0 (the test's payload in the Medium
 * payload, or for Shorts in 16 arguments): compares, answers with its own. */
static void h_chk_req(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    uint32_t mine[PSHM_AM_MAX_ARGS];
    int rc;
    if (buf)
        note_mismatch(bench_pattern_check(buf, n, seed_of(0)), "the Medium payload rank 0 sent");
    else
        note_mismatch(bench_pattern_check(args, 4 * nargs, seed_of(0)), "the Short arguments rank 0 sent");
    if (buf && is_prepare_test(chk.test)) {
        rc = reply_prepared(tk, H_CHK_REP, g.p.src, n, NULL);
    } else if (buf) {
        rc = pshm_am_reply_medium(tk, H_CHK_REP, g.p.src, n, 0, 0, NULL);
    } else {
        bench_pattern_fill(mine, sizeof mine, seed_of(1));
        rc = pshm_am_reply_short(tk, H_CHK_REP, 0, PSHM_AM_MAX_ARGS, mine);
    }
    if (rc < 0 && !g.hrc) g.hrc = rc;
    chk.served++;
}

static void h_chk_rep(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk;
    if (buf)
        note_mismatch(bench_pattern_check(buf, n, seed_of(1)), "the Medium payload rank 1 replied");
    else
        note_mismatch(bench_pattern_check(args, 4 * nargs, seed_of(1)),
                      "the Short arguments rank 1 replied");
    chk.answered++;
}

/* Before a repetition: each rank fills what it sends with its pattern. */
static void check_before(const char *test, size_t size, int rep)
{
    chk.test = test, chk.size = size, chk.rep = rep;
    if (strncmp(test, "limit-", 6) == 0 || !g.p.ctx) return;
    if (is_get_test(test)) { /* rank 1's data is what get moves */
        if (g.p.me == 1) {
            bench_pattern_fill(g.my_data, size, seed_of(1));
            bench_corrupt_hook(test, g.my_data, size);
        }
        return;
    }
    bench_pattern_fill(g.p.src, size, seed_of(g.p.me));
    if (g.p.me == 0) bench_corrupt_hook(test, g.p.src, size);
}

/* After it: the receivers compare what arrived. Where the payload does not
 * stay (AM arguments, Medium), one untimed check message of the same kind. */
static void check_after(const char *test, size_t size, int rep)
{
    (void)rep;
    if (strncmp(test, "limit-", 6) == 0 || !g.p.ctx) return;
    if (is_short_test(test) || is_medium_test(test)) {
        if (g.p.me == 0) {
            uint32_t a[PSHM_AM_MAX_ARGS];
            bench_pattern_fill(a, sizeof a, seed_of(0));
            if (is_short_test(test)) {
                bench_corrupt_hook(test, a, sizeof a);
                CHK(pshm_am_request_short(g.p.ctx, g.peer, H_CHK_REQ, 0, PSHM_AM_MAX_ARGS, a));
            } else if (is_prepare_test(test)) {
                request_prepared(H_CHK_REQ, size, NULL);
            } else {
                CHK(pshm_am_request_medium(g.p.ctx, g.peer, H_CHK_REQ, g.p.src, size, 0, 0, NULL));
            }
            wait_count(&chk.answered, ++chk.rounds);
        } else {
            /* it may have run already, in the poll that served the last round */
            wait_count(&chk.served, ++chk.rounds);
        }
    } else if (is_get_test(test)) {
        if (g.p.me == 0)
            note_mismatch(bench_pattern_check(g.p.dst, size, seed_of(1)),
                          "the data pshm_get read from rank 1");
    } else if (g.p.me == 1) { /* long, put: rank 0's payload landed in my data area */
        note_mismatch(bench_pattern_check(g.my_data, size, seed_of(0)),
                      "the data rank 0 moved into rank 1's segment");
    } else if (is_long_pingpong(test) || !strcmp(test, "put")) {
        note_mismatch(bench_pattern_check(g.my_data, size, seed_of(1)),
                      "the data rank 1 moved into rank 0's segment");
    }
    if (chk.bad.bad) check_failed(chk.bad, chk.what);
}

/* --incast: rank 0 counts each sender's messages and checks that they come
 * in its order with its rank (args: sequence number, sender). */
static struct {
    uint32_t *next;  /* per sender: the sequence number expected */
    uint64_t bad;    /* messages out of order or from the wrong sender */
} inc;

static void h_incast(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)buf, (void)n, (void)nargs;
    int src = pshm_token_source(tk);
    inc.bad += args[0] != inc.next[src]++ || args[1] != (uint32_t)src;
    g.count++;
}

static const pshm_handler_entry_t handlers[] = {
    {H_INCAST, h_incast, 2},
    {H_PING_SHORT, h_ping_short, PSHM_AM_ANY_NARGS}, {H_PING_MEDIUM, h_ping_medium, PSHM_AM_ANY_NARGS},
    {H_PING_LONG, h_ping_long, PSHM_AM_ANY_NARGS},   {H_PONG, h_pong, PSHM_AM_ANY_NARGS},
    {H_SINK, h_sink, PSHM_AM_ANY_NARGS},             {H_ACK, h_ack, PSHM_AM_ANY_NARGS},
    {H_CHK_REQ, h_chk_req, PSHM_AM_ANY_NARGS},       {H_CHK_REP, h_chk_rep, PSHM_AM_ANY_NARGS},
    {H_PING_MEDIUM_PREP, h_ping_medium_prep, PSHM_AM_ANY_NARGS},
    {H_PING_LONG_PREP, h_ping_long_prep, PSHM_AM_ANY_NARGS},
};

/* ------------------------------------------------------------ AM and put tests */

typedef struct until { uint64_t *ctr; uint64_t target; } until_t;

static int cond_reached(void *arg)
{
    until_t *u = arg;
    return *u->ctr >= u->target || g.hrc != 0;
}

static void wait_count(uint64_t *ctr, uint64_t target)
{
    until_t u = {ctr, target};
    CHK(pshm_wait_until(g.p.ctx, cond_reached, &u));
    if (g.hrc) bench_fail("pshm_am_reply (in a handler)", g.hrc);
}

static int cond_flag(void *arg)
{
    until_t *u = arg;
    return atomic_load_explicit((_Atomic uint64_t *)u->ctr, memory_order_acquire) >= u->target;
}

/* Waits for the peer's next put notification. */
static void wait_flag(void)
{
    until_t u = {(uint64_t *)(void *)g.my_flag, ++g.flag_in};
    CHK(pshm_wait_until(g.p.ctx, cond_flag, &u));
}

static void signal_flag(void)
{
    /* release: the put's bytes are visible before the flag that announces them */
    atomic_store_explicit(g.peer_flag, ++g.flag_out, memory_order_release);
}

static uint32_t short_args[PSHM_AM_MAX_ARGS];

static void short_op(size_t size)
{
    CHK(pshm_am_request_short(g.p.ctx, g.peer, H_PING_SHORT, 0, (unsigned)(size / 4), short_args));
    wait_count(&g.pongs, ++g.exp_pongs);
}

static void medium_op(size_t size)
{
    CHK(pshm_am_request_medium(g.p.ctx, g.peer, H_PING_MEDIUM, g.p.src, size, 0, 0, NULL));
    wait_count(&g.pongs, ++g.exp_pongs);
}

static void long_op(size_t size)
{
    CHK(pshm_am_request_long(g.p.ctx, g.peer, H_PING_LONG, g.p.src, size, g.peer_data, 0, 0, NULL));
    wait_count(&g.pongs, ++g.exp_pongs);
}

static void medium_prep_op(size_t size)
{
    request_prepared(H_PING_MEDIUM_PREP, size, NULL);
    wait_count(&g.pongs, ++g.exp_pongs);
}

static void long_prep_op(size_t size)
{
    request_prepared(H_PING_LONG_PREP, size, g.peer_data);
    wait_count(&g.pongs, ++g.exp_pongs);
}

/* Rank 1 of every AM ping-pong: its handlers reply. */
static void am_serve(size_t size, long n)
{
    (void)size;
    wait_count(&g.count, (uint64_t)n);
}

static void put_op(size_t size)
{
    CHK(pshm_put(g.p.ctx, g.peer, g.peer_data, g.p.src, size));
    signal_flag();
    wait_flag();
}

static void put_serve(size_t size, long n)
{
    for (long i = 0; i < n; i++) {
        wait_flag();
        CHK(pshm_put(g.p.ctx, g.peer, g.peer_data, g.p.src, size));
        signal_flag();
    }
}

static void get_op(size_t size) { CHK(pshm_get(g.p.ctx, g.peer, g.p.dst, g.peer_data, size)); }

static void flood_stream(size_t size, long nwin, long window)
{
    (void)size;
    uint32_t a[2] = {(uint32_t)window, 0};
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++, a[1]++)
            CHK(pshm_am_request_short(g.p.ctx, g.peer, H_SINK, 0, 2, a));
        wait_count(&g.acks, ++g.exp_acks);
    }
}

static void medium_stream(size_t size, long nwin, long window)
{
    uint32_t a = (uint32_t)window;
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++)
            CHK(pshm_am_request_medium(g.p.ctx, g.peer, H_SINK, g.p.src, size, 0, 1, &a));
        wait_count(&g.acks, ++g.exp_acks);
    }
}

static void long_stream(size_t size, long nwin, long window)
{
    uint32_t a = (uint32_t)window;
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++)
            CHK(pshm_am_request_long(g.p.ctx, g.peer, H_SINK, g.p.src, size, g.peer_data, 0, 1, &a));
        wait_count(&g.acks, ++g.exp_acks);
    }
}

static void am_sink(size_t size, long nwin, long window)
{
    (void)size;
    wait_count(&g.count, (uint64_t)(nwin * window));
}

/* Puts a window, then a flag; the peer answers with a flag (0-byte put). */
static void put_stream(size_t size, long nwin, long window)
{
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++) CHK(pshm_put(g.p.ctx, g.peer, g.peer_data, g.p.src, size));
        signal_flag();
        wait_flag();
    }
}

static void put_sink(size_t size, long nwin, long window)
{
    (void)size, (void)window;
    put_serve(0, nwin);
}

static void get_stream(size_t size, long nwin, long window)
{
    for (long i = 0; i < nwin * window; i++) CHK(pshm_get(g.p.ctx, g.peer, g.p.dst, g.peer_data, size));
}

static void run_tests(void)
{
    unsigned t = o.tests;
    if (t & T_SHORT)
        for (size_t s = 0; s <= 64; s = s ? s * 8 : 8)
            bench_lat_run("short", s, short_op, am_serve, 1, "limit-handoff");
    sizes_t med = sweep(g.max_medium, 0), lng = sweep(long_max(), 0), put = sweep(put_max(), 0);
    if (t & T_MEDIUM)
        for (int i = 0; i < med.n; i++)
            bench_lat_run("medium", med.v[i], medium_op, am_serve, 1, "limit-ring");
    if (t & T_MEDIUM_PREP)
        for (int i = 0; i < med.n; i++)
            bench_lat_run("medium-prepare", med.v[i], medium_prep_op, am_serve, 1, "limit-ring");
    if (t & T_LONG)
        for (int i = 0; i < lng.n; i++)
            bench_lat_run("long", lng.v[i], long_op, am_serve, 1, "limit-copy-flag");
    if (t & T_LONG_PREP)
        for (int i = 0; i < lng.n; i++)
            bench_lat_run("long-prepare", lng.v[i], long_prep_op, am_serve, 1, "limit-copy-flag");
    if (t & T_PUT)
        for (int i = 0; i < put.n; i++)
            bench_lat_run("put", put.v[i], put_op, put_serve, 1, "limit-copy-flag");
    if (t & T_GET)
        for (int i = 0; i < put.n; i++)
            bench_lat_run("get", put.v[i], get_op, bench_serve_nothing, 0, "limit-memcpy");
    if (t & T_FLOOD)
        bench_bw_run("flood", 8, o.iters * 20, flood_stream, am_sink, 1, o.flood_floor);
    if (t & T_BW) {
        sizes_t mb = sweep(g.max_medium, 1), lb = sweep(long_max(), 1), pb = sweep(put_max(), 1);
        for (int i = 0; i < mb.n; i++)
            bench_bw_run("medium-bw", mb.v[i], o.iters * 10, medium_stream, am_sink, 0, "limit-ring-bw");
        for (int i = 0; i < lb.n; i++)
            bench_bw_run("long-bw", lb.v[i], o.iters * 10, long_stream, am_sink, 0, "limit-memcpy-bw");
        for (int i = 0; i < pb.n; i++)
            bench_bw_run("put-bw", pb.v[i], o.iters * 10, put_stream, put_sink, 0, "limit-memcpy-bw");
        for (int i = 0; i < pb.n; i++)
            bench_bw_run("get-bw", pb.v[i], o.iters * 10, get_stream, bench_sink_nothing, 0,
                         "limit-memcpy-bw");
    }
}

/* ------------------------------------------------------------ placement */

static int pin_cpu_for(int rank)
{
    if (o.ncpus > 0) return o.cpus[rank % o.ncpus];
    int n = CPU_COUNT(&allowed_cpus), k = rank % (n > 0 ? n : 1);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed_cpus) && k-- == 0) return c;
    return 0;
}

static void pin(int rank)
{
    if (!o.pin) return;
    cpu_set_t s;
    int c = pin_cpu_for(rank);
    CPU_ZERO(&s);
    CPU_SET(c, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0)
        bench_die(1, "cannot pin to CPU %d: %s", c, strerror(errno));
}

/* Both processes record pid and CPU, then meet; rank 0 judges the placement. */
static void meet_peer(void)
{
    g.p.lim->who.pid[g.p.me] = getpid();
    g.p.lim->who.cpu[g.p.me] = sched_getcpu();
    bench_sync_pair();
    if (g.p.ctx) g.p.peer_pid = (pid_t)g.p.lim->who.pid[1 - g.p.me];
    int a = g.cpu[0] = (int)g.p.lim->who.cpu[0], b = g.cpu[1] = (int)g.p.lim->who.cpu[1];
    g.p.same_core = o.pin && a == b;
    if (o.pin) bench_placement(a, b, g.placement, sizeof g.placement);
    else snprintf(g.placement, sizeof g.placement, "not pinned: the scheduler places the processes "
                  "(last seen on CPUs %d and %d)", a, b);
    if (g.p.me != 0) return;
    if (!o.csv && !o.json) {
        printf("# pshm-pingpong: pshm %s; %s\n", pshm_version(),
               g.p.ctx ? "library between two processes" : "limits only (two forked processes)");
        printf("# CPUs %d,%d (%s); %d repetitions of %ld iterations (at most %llu MiB moved per "
               "repetition), warm-up %s, window %ld; %s timer\n",
               a, b, o.pin ? "pinned" : "not pinned, as last seen", o.reps, o.iters,
               (unsigned long long)(LAT_BYTES / MiB), o.warmup >= 0 ? "as given" : "iters/10",
               o.window, bench_use_tsc ? "TSC" : "clock_gettime");
        printf("# latency us, one-way = round trip / 2; median of repetition medians (each over "
               "%d-iteration blocks); p99 of all iterations pooled\n"
               "# bandwidth GB/s (1e9 B/s), rate Mmsg/s: median of repetitions; "
               "worst = slowest repetition; ratio = value / floor of the same operation\n", BENCH_LAT_BLOCK);
    }
    if (!o.csv && !o.json) printf("# placement: %s\n", g.placement);
    if (!o.csv && !o.json && o.touch != BENCH_TOUCH_BEFORE)
        printf("# --touch %s: the Medium ping-pongs' and limit-ring's server reads the payload %s\n",
               o.touch == BENCH_TOUCH_AFTER ? "after" : "none",
               o.touch == BENCH_TOUCH_AFTER ? "after its reply" : "nowhere (nor does the requester)");
    if (!o.csv && !o.json && strcmp(o.flood_floor, "limit-ring-rate") != 0)
        printf("# --flood-floor cell: the flood is set against limit-cell-rate, not "
               "limit-ring-rate\n");
    if (!o.csv && !o.json && o.ring_slots != LIM_NSLOT)
        printf("# --ring-slots %u: limit-ring goes round %u slots (the streaming rings %d)\n",
               o.ring_slots, o.ring_slots, LIM_NSLOT);
    if (g.p.same_core)
        bench_note("both processes run on CPU %d: latencies are scheduler time slices", a);
}

/* ------------------------------------------------------------ output */

static int finish_output(void)
{
    bench_header_t h = {{g.cpu[0], g.cpu[1]}, o.pin, o.reps, o.iters, o.window, g.placement};
    size_t n;
    const bench_result_t *res = bench_results(&n);
    bench_print_summary();
    bench_print_machine(&h);
    if (o.plot && bench_write_plots(o.plot, res, n) < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------ --limits-only */

static int run_forked(void)
{
    size_t big = (size_t)biggest_size();
    bench_lim_area_t *lim =
        mmap(NULL, sizeof *lim, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (lim == MAP_FAILED) {
        fprintf(stderr, "pshm-pingpong: cannot map %zu bytes of shared memory: %s\n", sizeof *lim,
                strerror(errno));
        return 1;
    }
    g.p.lim = lim;
    g.max_medium = pshm_am_max_medium(NULL); /* the same for every context */
    g.p.src = aligned_alloc(4096, ALIGN_UP(big + 64, 4096));
    g.p.dst = aligned_alloc(4096, ALIGN_UP(big + 64, 4096));
    size_t alen = 2 * ALIGN_UP(big + 64, 4096);
    unsigned char *areas = mmap(NULL, alen, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (!g.p.src || !g.p.dst || areas == MAP_FAILED) {
        fprintf(stderr, "pshm-pingpong: out of memory for the %zu-byte buffers\n", big);
        return 1;
    }
    g.p.area[0] = areas, g.p.area[1] = areas + alen / 2;
    memset(g.p.src, 'a', big), memset(g.p.dst, 'b', big);
    g.p.parent = getpid();
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "pshm-pingpong: fork: %s\n", strerror(errno));
        return 1;
    }
    g.p.me = pid == 0 ? 1 : 0;
    g.p.peer_pid = pid == 0 ? g.p.parent : pid;
    pin(g.p.me);
    meet_peer();
    o.tests |= T_LIMITS;
    if (g.p.me == 0) bench_interference_start(g.p.peer_pid);
    run_limits();
    placement_recheck();
    if (g.p.me == 0) bench_interference_report();
    bench_sync_pair();
    if (g.p.me == 1) _exit(0);
    int st;
    waitpid(pid, &st, 0);
    munmap(lim, sizeof *lim);
    munmap(areas, alen);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "pshm-pingpong: the second process failed\n");
        return 1;
    }
    return finish_output() < 0 ? 1 : 0;
}

/* ------------------------------------------------------------ --poll-idle */

/* Rank 0 times pshm_poll() while the others sleep (they look at a done flag
 * in rank 0's segment every 2 ms), so that a job with more processes than
 * cores measures the poll, not the scheduler. */
static void run_poll_idle(void *seg0)
{
    _Atomic uint64_t *done = seg0 ? (_Atomic uint64_t *)((char *)seg0 + OFF_IDLE_DONE) : NULL;
    long n = o.iters_set ? o.iters : o.quick ? 10000 : 1000000;
    CHK(pshm_barrier(g.p.ctx));
    if (g.p.me != 0) {
        uint64_t t0 = bench_now_ns();
        while (done && atomic_load_explicit(done, memory_order_acquire) == 0) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
            if (bench_now_ns() - t0 > 600000000000ull)
                bench_die(1, "rank 0 did not finish --poll-idle in 600 s");
        }
    } else {
        double vals[1000] = {0};
        uint64_t *pool = malloc((size_t)o.reps * sizeof *pool);
        if (!pool) bench_die(1, "out of memory");
        for (long i = 0; i < n / 10 + 1; i++) CHK(pshm_poll(g.p.ctx));
        for (int r = 0; r < o.reps; r++) {
            uint64_t t0 = bench_ticks();
            for (long i = 0; i < n; i++) CHK(pshm_poll(g.p.ctx));
            vals[r] = (double)(bench_ticks() - t0) * bench_tick_ns / (double)n;
        }
        double worst = vals[0];
        for (int r = 1; r < o.reps; r++) worst = worst > vals[r] ? worst : vals[r];
        if (!o.csv && !o.json)
            printf("# pshm-pingpong --poll-idle: pshm %s; %d processes; %d repetitions of %ld calls; "
                   "worst = slowest repetition\n", pshm_version(), g.size, o.reps, n);
        bench_add_result(&(bench_row_t){.test = "poll-idle", .unit = BENCH_US, .size = BENCH_NO_SIZE,
                                        .procs = g.size,
                                        .median = bench_median_dbl(vals, (size_t)o.reps) / 1e3,
                                        .worst = worst / 1e3, .reps = o.reps, .iters = n});
        free(pool);
        if (seg0) atomic_store_explicit(done, 1, memory_order_release);
    }
    CHK(pshm_barrier(g.p.ctx));
}

/* ------------------------------------------------------------ --incast */

/* P - 1 processes each send --iters Shorts of 2 arguments (default 20000)
 * to rank 0 as fast as the queues take them; rank 0 times, per repetition,
 * from the barrier that starts it to the last message run. */
static void run_incast(void)
{
    long n = o.iters_set ? o.iters : o.quick ? 2000 : 20000;
    uint64_t total = (uint64_t)(g.size - 1) * (uint64_t)n;
    double vals[1000];
    uint32_t a[2] = {0, (uint32_t)g.p.me};
    inc.next = calloc((size_t)g.size, sizeof *inc.next);
    if (!inc.next) bench_die(1, "out of memory");
    for (int r = -1; r < o.reps; r++) { /* -1: the warm-up */
        long m = r < 0 ? n / 10 + 1 : n;
        CHK(pshm_barrier(g.p.ctx));
        uint64_t t0 = bench_ticks();
        if (g.p.me != 0) {
            for (long i = 0; i < m; i++, a[0]++) CHK(pshm_am_request_short(g.p.ctx, 0, H_INCAST, 0, 2, a));
        } else {
            g.exp_pongs += (uint64_t)(g.size - 1) * (uint64_t)m;
            wait_count(&g.count, g.exp_pongs);
            if (r >= 0) vals[r] = (double)(total) / ((double)(bench_ticks() - t0) * bench_tick_ns / 1e3);
        }
    }
    CHK(pshm_barrier(g.p.ctx));
    if (g.p.me == 0) {
        if (inc.bad)
            bench_die(1, "--incast: %llu of %llu messages came out of their sender's order or with "
                      "another sender's rank", (unsigned long long)inc.bad, (unsigned long long)g.count);
        for (int s = 1; s < g.size; s++)
            if (inc.next[s] != (uint32_t)(n / 10 + 1 + (long)o.reps * n))
                bench_die(1, "--incast: rank %d's messages: %u arrived, %ld sent", s, inc.next[s],
                          n / 10 + 1 + (long)o.reps * n);
        double worst = vals[0];
        for (int r = 1; r < o.reps; r++) worst = worst < vals[r] ? worst : vals[r];
        if (!o.csv && !o.json)
            printf("# pshm-pingpong --incast: pshm %s; %d processes, %d sending Shorts of 2 "
                   "arguments to rank 0; %d repetitions of %ld messages per sender; rate = messages "
                   "rank 0 ran per second; worst = slowest repetition\n",
                   pshm_version(), g.size, g.size - 1, o.reps, n);
        bench_add_result(&(bench_row_t){.test = "incast", .unit = BENCH_MMSGPS, .size = BENCH_NO_SIZE,
                                        .procs = g.size,
                                        .median = bench_median_dbl(vals, (size_t)o.reps),
                                        .worst = worst, .reps = o.reps, .iters = (long)total});
    }
    free(inc.next);
}

/* ------------------------------------------------------------ --startup */

typedef struct startup_rec { uint64_t init_ns, attach_ns, cpu_ns; } startup_rec_t;

/* Rank 0's figures, kept until the floor is measured after finalize. */
static struct {
    uint64_t *init_ns, *attach_ns; /* every rank's, or rank 0's alone (nrec 1) */
    uint64_t cpu_ns;               /* CPU time of init and attach, all ranks */
    int nrec, first;               /* first: the first round trip was timed */
    uint64_t first_ns;             /* pshm_init's start to the first round trip */
    uint64_t launch_ns;            /* pshmrun's start to the same; 0: not known */
    uint64_t shmem_attached;       /* Shmem with the job attached (bench_shmem_bytes) */
    uint64_t seg_page;             /* page size of the segments' mapping (bench_page_of) */
} su;

static void run_startup(void *seg0, uint64_t init_ns, uint64_t attach_ns, uint64_t cpu_ns,
                        uint64_t t_init)
{
    int shared = seg0 != NULL;
    if (g.p.me == 0 && g.size > 1 && shared) {
        CHK(pshm_am_request_short(g.p.ctx, 1, H_PING_SHORT, 0, 0, NULL));
        wait_count(&g.pongs, 1);
        su.first_ns = bench_now_ns() - t_init;
        su.first = 1;
        if (bench_since_launch(&su.launch_ns) < 0) su.launch_ns = 0;
    }
    startup_rec_t rec = {init_ns, attach_ns, cpu_ns}, *all = &rec;
    if (shared) {
        pshm_seginfo_t si;
        CHK(pshm_segment_info(g.p.ctx, 0, &si));
        CHK(pshm_put(g.p.ctx, 0, (char *)si.owner_base + OFF_STARTUP + (size_t)g.p.me * sizeof rec, &rec,
                     sizeof rec));
        all = (startup_rec_t *)((char *)seg0 + OFF_STARTUP);
    }
    CHK(pshm_barrier(g.p.ctx));
    if (g.p.me != 0) return;
    su.shmem_attached = bench_shmem_bytes();
    su.seg_page = shared ? bench_page_of(seg0) : 0;
    su.nrec = shared ? g.size : 1;
    su.init_ns = malloc((size_t)su.nrec * sizeof *su.init_ns);
    su.attach_ns = malloc((size_t)su.nrec * sizeof *su.attach_ns);
    if (!su.init_ns || !su.attach_ns) bench_die(1, "out of memory");
    for (int r = 0; r < su.nrec; r++) {
        su.init_ns[r] = all[r].init_ns, su.attach_ns[r] = all[r].attach_ns;
        su.cpu_ns += all[r].cpu_ns;
    }
}

/* The floor rows, one process and one per usable CPU, reserving what the
 * job's segments hold; run after finalize, once the job's memory is freed. */
static void startup_floors(void)
{
    char dir[TOOL_PATH_MAX] = "/dev/shm", why[TOOL_PATH_MAX + 200];
    const char *tmp;
    uint64_t ns, cpu;
    pshm_host_limits_t hl;

    /* This rank was pinned to one CPU: the floor's workers get them all. */
    if (sched_setaffinity(0, sizeof allowed_cpus, &allowed_cpus) < 0)
        bench_note("cannot unpin for the reserve floor: %s", strerror(errno));
    int cpus = pshm_host_limits(&hl) == 0 && hl.usable_cpus > 0 ? hl.usable_cpus : 1;
    int counts[2] = {cpus, 1};

    /* Where the job's segments went (the file backend's temporary
     * directory, as README.PSHM section 6 gives it; the floor's files tell
     * a hugetlbfs themselves), and whether SysV took them from the hugetlb
     * pool (their mapping's page size). */
    if (strcmp(pshm_build_info()->backend, "file") == 0 &&
        (((tmp = getenv("GASNET_TMPDIR")) != NULL && *tmp) ||
         ((tmp = getenv("TMPDIR")) != NULL && *tmp) || (tmp = "/tmp")))
        snprintf(dir, sizeof dir, "%s", tmp);
    int hugetlb = su.seg_page > 4096;
    /* The last process out frees the segments: wait until most of them are
     * gone, lest the floor share the CPUs with that, or the store with the
     * job's pages (Shmem is machine-wide: others move it too). */
    uint64_t job = (uint64_t)g.size * o.segsize;
    if (job >= 64 * MiB && su.shmem_attached > job / 10 * 9 &&
        bench_shmem_wait(su.shmem_attached - job / 10 * 9, 30) < 0)
        bench_note("the job's shared memory was not freed 30 s after finalize (or another "
                   "program took as much): the floor ran beside it");
    for (int k = 0; k < 2; k++) {
        if (k == 1 && cpus == 1) break;
        if (bench_reserve_floor(dir, g.size, o.segsize, counts[k], hugetlb, &ns, &cpu,
                                why, sizeof why) < 0) {
            bench_note("no reserve floor: %s", why);
            return;
        }
        bench_add_result(&(bench_row_t){.test = k ? "limit-reserve-1cpu" : "limit-reserve",
                                        .unit = BENCH_US, .size = BENCH_NO_SIZE, .procs = g.size,
                                        .median = (double)ns / 1e3, .reps = 1, .iters = counts[k]});
        /* CPU time does not grow with what other programs run beside. */
        if (k == 0)
            bench_add_result(&(bench_row_t){.test = "limit-reserve-cpu", .unit = BENCH_US,
                                            .size = BENCH_NO_SIZE, .procs = g.size,
                                            .median = (double)cpu / 1e3, .reps = 1,
                                            .iters = counts[k]});
    }
}

static void report_startup(double finalize_us)
{
    uint64_t mx;
    if (!o.csv && !o.json)
        printf("# pshm-pingpong --startup: pshm %s; %d processes; segment %llu bytes each; times in ms\n",
               pshm_version(), g.size, (unsigned long long)o.segsize);
    if (su.first) startup_floors();
    for (int k = 0; k < 2; k++) {
        uint64_t *v = k ? su.attach_ns : su.init_ns;
        mx = 0;
        for (int r = 0; r < su.nrec; r++) mx = v[r] > mx ? v[r] : mx;
        bench_add_result(&(bench_row_t){.test = k ? "startup-attach" : "startup-init", .unit = BENCH_US,
                                        .size = BENCH_NO_SIZE, .procs = g.size,
                                        .median = bench_median_u64(v, (size_t)su.nrec) / 1e3,
                                        .worst = (double)mx / 1e3, .reps = 1, .iters = 1});
    }
    if (su.first)
        bench_add_result(&(bench_row_t){.test = "startup-first-msg", .unit = BENCH_US,
                                        .size = BENCH_NO_SIZE, .procs = g.size,
                                        .median = (double)su.first_ns / 1e3, .floor = "limit-reserve",
                                        .reps = 1, .iters = 1});
    if (su.first && su.nrec > 1)
        bench_add_result(&(bench_row_t){.test = "startup-cpu", .unit = BENCH_US,
                                        .size = BENCH_NO_SIZE, .procs = g.size,
                                        .median = (double)su.cpu_ns / 1e3,
                                        .floor = "limit-reserve-cpu", .reps = 1, .iters = 1});
    if (su.first && su.launch_ns)
        bench_add_result(&(bench_row_t){.test = "startup-launch", .unit = BENCH_US,
                                        .size = BENCH_NO_SIZE, .procs = g.size,
                                        .median = (double)su.launch_ns / 1e3, .floor = "limit-reserve",
                                        .reps = 1, .iters = 1});
    bench_add_result(&(bench_row_t){.test = "startup-finalize", .unit = BENCH_US,
                                    .size = BENCH_NO_SIZE, .procs = g.size, .median = finalize_us,
                                    .reps = 1, .iters = 1});
    free(su.init_ns);
    free(su.attach_ns);
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    cli_init("pshm-pingpong");
    if (argc > 1 && strcmp(argv[1], "--instr-shim") == 0) bench_instr_shim(argc, argv);
    bench_pair_bind(&g.p);
    g.cpu[0] = g.cpu[1] = -1;
    bench_parse_args(argc, argv, &o, &allowed_cpus);
    bench_set_format(o.csv ? BENCH_CSV : o.json ? BENCH_JSON : BENCH_TABLE);
    g.p.reps = o.reps, g.p.quick = o.quick, g.p.touch = o.touch, g.p.ring_slots = o.ring_slots;
    g.p.iters = o.iters, g.p.warmup = o.warmup, g.p.window = o.window;
    g.p.reset = reset_counters;
    g.p.before = check_before, g.p.after = check_after;
    bench_timer_init();
    if (o.limits_only) return run_forked();
    if (o.instructions) {
        if (!o.csv && !o.json)
            printf("# pshm-pingpong --instructions: pshm %s; valgrind --tool=callgrind, collection "
                   "toggled on the public calls of each count (pshm_am_request_short and pshm_poll; "
                   "the wait turn: pshm_wait_until; the barrier: pshm_barrier), the ranks doing the "
                   "work counted (processes: the job's; the others sit idle in %s), "
                   "paced liveness checks left out\n",
                   pshm_version(), o.ireq.idle == BENCH_IDLE_POLL ? "pshm_poll" : "pshm_wait_until");
        if (bench_instr_run(argv[0], &o.ireq) != 0) return 1;
        bench_print_machine(&(bench_header_t){{-1, -1}, 0, 1, 0, 0, ""});
        return 0;
    }

    pshm_ctx_t *ctx;
    uint64_t cpu0 = bench_cpu_ns(), t_init = bench_now_ns();
    int rc = pshm_init(&ctx, NULL);
    if (rc < 0) {
        fprintf(stderr, "pshm-pingpong: pshm_init failed: %s\n", pshm_last_error());
        return 1;
    }
    uint64_t init_ns = bench_now_ns() - t_init;
    g.p.ctx = ctx;
    g.p.me = pshm_rank(ctx);
    g.size = pshm_size(ctx);
    int suite = !o.poll_idle && !o.startup && !o.instr_child && !o.incast;
    if (suite && g.size != 2) {
        if (g.p.me == 0)
            fprintf(stderr, "pshm-pingpong: needs exactly 2 processes, has %d: run it as "
                            "'pshmrun -n 2 pshm-pingpong' (or use --limits-only, --poll-idle, --startup, "
                            "--incast)\n",
                    g.size);
        CHK(pshm_finalize(ctx));
        return 2;
    }
    if ((o.instr_child || o.incast) && (g.size < 2 || pshm_node_size(ctx) != g.size)) {
        if (g.p.me == 0)
            fprintf(stderr, "pshm-pingpong: %s needs 2 processes or more that share memory, has %d "
                    "(%d sharing it)\n", o.incast ? "--incast" : "--instr-child", g.size,
                    pshm_node_size(ctx));
        CHK(pshm_finalize(ctx));
        return 2;
    }
    if (suite && pshm_is_local(ctx, 1 - g.p.me) != 1) {
        if (g.p.me == 0)
            fprintf(stderr, "pshm-pingpong: rank 1 is not reachable through shared memory (a library "
                            "built with --disable-pshm, or two hosts): nothing to measure; "
                            "--limits-only still measures the machine\n");
        CHK(pshm_finalize(ctx));
        return 1;
    }
    g.peer = g.size > 1 ? (g.p.me == 0 ? 1 : 0) : 0;
    pin(g.p.me);

    /* The data area, then (suite) the source buffer: in the segment, where
     * the peer can read it, as a runtime's sources are (section 13). */
    uint64_t big = suite ? biggest_size() : 0, area = ALIGN_UP(big + 64, 4096);
    uint64_t need = OFF_DATA + (suite ? 2 : 1) * area;
    if (!suite && (uint64_t)g.size * sizeof(startup_rec_t) > OFF_DATA - OFF_STARTUP)
        bench_die(2, "--startup records %d ranks at most",
                  (int)((OFF_DATA - OFF_STARTUP) / sizeof(startup_rec_t)));
    if (o.segsize == 0) o.segsize = need;
    else if (o.segsize < need) {
        if (g.p.me == 0)
            fprintf(stderr, "pshm-pingpong: --segsize %llu is too small: the sizes need %llu bytes\n",
                    (unsigned long long)o.segsize, (unsigned long long)need);
        CHK(pshm_finalize(ctx));
        return 2;
    }
    CHK(pshm_am_register(ctx, handlers, ARRAY_LEN(handlers)));
    uint64_t t_attach = bench_now_ns();
    CHK(pshm_attach(ctx, o.segsize));
    uint64_t attach_ns = bench_now_ns() - t_attach, cpu_ns = bench_cpu_ns() - cpu0;

    /* Rank 0's segment holds the limits and the start-up records; without
     * shared memory (--disable-pshm) the modes that allow it go without. */
    pshm_seginfo_t s0, mine;
    void *seg0 = NULL;
    if (pshm_node_size(ctx) == g.size) {
        CHK(pshm_segment_info(ctx, 0, &s0));
        CHK(pshm_translate(ctx, 0, (void *)s0.owner_base, &seg0));
        g.p.lim = (bench_lim_area_t *)((char *)seg0 + OFF_LIM);
    }
    CHK(pshm_segment_info(ctx, g.p.me, &mine));
    g.my_flag = (_Atomic uint64_t *)((char *)mine.local_base + OFF_FLAG);
    g.my_data = (char *)mine.local_base + OFF_DATA;
    g.max_medium = pshm_am_max_medium(ctx);

    if (o.instr_child) {
        void *pf;
        pshm_seginfo_t sp;
        CHK(pshm_segment_info(ctx, g.peer, &sp));
        CHK(pshm_translate(ctx, g.peer, (char *)sp.owner_base + OFF_INSTR, &pf));
        _Atomic uint64_t *z = (_Atomic uint64_t *)((char *)seg0 + OFF_INSTR);
        bench_instr_lines_t ln = {(_Atomic uint64_t *)((char *)mine.local_base + OFF_INSTR), pf,
                                  z + 8, z + 16};
        rc = bench_instr_child(ctx, o.instr_child, o.ireq.idle, &ln);
        if (rc != 0) pshm_abort(ctx, rc);
    } else if (o.incast) run_incast();
    else if (o.startup) run_startup(seg0, init_ns, attach_ns, cpu_ns, t_init);
    else if (o.poll_idle) run_poll_idle(seg0);
    else {
        pshm_seginfo_t sp;
        void *flag;
        CHK(pshm_segment_info(ctx, g.peer, &sp));
        g.peer_data = (char *)sp.owner_base + OFF_DATA;
        CHK(pshm_translate(ctx, g.peer, (char *)sp.owner_base + OFF_FLAG, &flag));
        g.peer_flag = flag;
        void *pa;
        CHK(pshm_translate(ctx, g.peer, g.peer_data, &pa));
        g.p.area[g.p.me] = g.my_data, g.p.area[g.peer] = pa;
        g.p.src = (unsigned char *)mine.local_base + OFF_DATA + area;
        g.p.dst = aligned_alloc(4096, area);
        if (!g.p.dst)
            bench_die(1, "out of memory for two %llu-byte buffers", (unsigned long long)big);
        memset(g.p.src, 'a', big), memset(g.p.dst, 'b', big);
        memset(g.my_data, 'c', big);
        for (int i = 0; i < PSHM_AM_MAX_ARGS; i++) short_args[i] = (uint32_t)i;
        meet_peer();
        if (g.p.me == 0) bench_interference_start(g.p.peer_pid);
        if (o.tests & T_LIMITS) run_limits();
        run_tests();
        if (o.tests & T_LIMITS) placement_recheck();
        if (g.p.me == 0) bench_interference_report();
        free(g.p.dst);
    }
    CHK(pshm_barrier(ctx));
    uint64_t t_fin = bench_now_ns();
    CHK(pshm_finalize(ctx));
    g.p.ctx = NULL;
    if (o.startup && g.p.me == 0) report_startup((double)(bench_now_ns() - t_fin) / 1e3);
    if (g.p.me != 0) return 0;
    return finish_output() < 0 ? 1 : 0;
}