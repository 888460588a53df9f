/*
 * t-am-synergy: copies shared by sender and receiver (PSHM_SYNERGY_MIN,
 * PSHM_SYNERGY_CHUNK; amqueue/synergy.c). Two processes, a 4 KiB chunk and
 * a 16 KiB threshold. Every byte is checked, at sizes around the chunk and
 * the threshold, from and to unaligned addresses:
 *   - Long requests to a receiver that polls, and its Long replies from
 *     where the payload landed, to a requester that polls;
 *   - pshm_put and pshm_get while the target polls;
 *   - the same with the owner slowed down per chunk, so that the other
 *     side surely helps (counted): the handler must still see the whole
 *     payload, the call must still return with every byte copied;
 *   - a put from a range of pshm_attach_range, helped as from a segment;
 *   - a receiver that does not poll (asleep in a handler): puts and Longs
 *     complete without it, and its late look at the jobs does no harm;
 *   - the owner's chunks are taken from the front, one after the other,
 *     the helper's from the back.
 * Without shared copies (PSHM_SYNERGY_MIN=0 given as argument "off") the
 * same traffic must pass and nothing is helped.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SEG (16u << 20)
#define RECV 0u               /* [0, 8M): where the peer's Longs and puts land */
#define SRC (8u << 20)        /* [8M, 14M): sources */
#define FLAGS (15u << 20)     /* the sleeping receiver's two flags */

enum { H_LONG = 1, H_PONG, H_CHECK, H_RES, H_SLEEP };

static pshm_ctx_t *ctx;
static char *mine, *peer;    /* segments, local view */
static char *peer_owner;     /* the peer's segment, its view */
static long results, bad;
static uint32_t last_helped; /* the peer's count, from its last answer */
static _Atomic uint32_t helped;
static volatile int slow;    /* the owner sleeps per chunk */

static uint32_t own_next;    /* the owner's next chunk: its last + 1 */
static long own_gaps;        /* owner chunks that did not follow its last */

/* The owner takes chunks from the front, one after the other from 0, the
 * helpers from the back: a chunk of the owner's that is neither 0 (a new
 * job) nor its last + 1 was taken in the middle of the helper's. */
static void hook(bool helper, uint32_t k)
{
    if (helper) {
        atomic_fetch_add(&helped, 1);
        return;
    }
    if (k != 0 && k != own_next)
        own_gaps++;
    own_next = k + 1;
    if (slow)
        usleep(100);
}

/* Rank 1: a Long arrived: every byte checked, then the same bytes replied
 * as a Long from where they landed (its copy shared with rank 0), and the
 * result in the arguments. args: seed, reply offset, slow. */
static void h_long(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    long d = am_diff(buf, n, a[0]);
    uint32_t r[2] = {(uint32_t)(d + 1), atomic_load(&helped)};
    slow = (int)a[2];
    CHECK_OK(pshm_am_reply_long(t, H_PONG, buf, n, peer_owner + RECV + a[1], 0, 2, r));
    slow = 0;
}

/* Rank 0: the reply; its bytes are checked by the caller. */
static void h_pong(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)na;
    if (a[0] != 0) {
        printf("FAIL: rank 1 found byte %u of a Long wrong\n", a[0] - 1);
        bad++;
    }
    last_helped = a[1];
    results++;
}

/* Rank 1: check [RECV + off, + n) against seed. args: seed, n, off. */
static void h_check(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)buf, (void)n, (void)na;
    uint32_t r[2] = {(uint32_t)(am_diff(mine + RECV + a[2], a[1], a[0]) + 1),
                     atomic_load(&helped)};
    CHECK_OK(pshm_am_reply_short(t, H_RES, 0, 2, r));
}

static void h_res(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    h_pong(t, buf, n, a, na);
}

/* Rank 1: does not poll for a while (a handler that sleeps), and says when
 * it starts and ends in rank 0's flags. */
static void h_sleep(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)a, (void)na;
    atomic_store((_Atomic int *)(peer + FLAGS), 1);
    usleep(500000);
    atomic_store((_Atomic int *)(peer + FLAGS + 64), 1);
}

static const pshm_handler_entry_t table[] = {
    {H_LONG, h_long, 3}, {H_PONG, h_pong, 2}, {H_CHECK, h_check, 3}, {H_RES, h_res, 2},
    {H_SLEEP, h_sleep, 0},
};

static int reached(void *p) { return results >= *(long *)p; }

static void wait_results(long want)
{
    CHECK_OK(pshm_wait_until(ctx, reached, &want));
}

static const size_t sizes[] = {16383, 16384, 16385, 20479, 20481, 65536 + 13, (1u << 20) + 7};
static const unsigned offs[][2] = {{0, 0}, {1, 0}, {0, 3}, {13, 7}, {8, 24}};

/* One Long round: rank 0's payload to rank 1, echoed back. */
static void long_round(size_t n, unsigned so, unsigned dof, uint32_t seed, int slow_reply)
{
    uint32_t a[3] = {seed, dof + 64, (uint32_t)slow_reply};
    am_fill(mine + SRC + so, n, seed);
    memset(mine + RECV + dof + 64, 0, n);
    CHECK_OK(pshm_am_request_long(ctx, 1, H_LONG, mine + SRC + so, n, peer_owner + RECV + dof, 0,
                                  3, a));
    wait_results(results + 1);
    long d = am_diff(mine + RECV + dof + 64, n, seed);
    if (d >= 0) {
        printf("FAIL: Long reply of %zu bytes: byte %ld wrong\n", n, d);
        bad++;
    }
}

static void put_from(const char *src, size_t n, unsigned dof, uint32_t seed)
{
    uint32_t a[3] = {seed, (uint32_t)n, dof};
    am_fill((char *)src, n, seed);
    CHECK_OK(pshm_put(ctx, 1, peer_owner + RECV + dof, src, n));
    CHECK_OK(pshm_am_request_short(ctx, 1, H_CHECK, 0, 3, a));
    wait_results(results + 1);
}

/* Rank 1's count of chunks helped now (a get's help is in no answer). */
static uint32_t refresh(void)
{
    CHECK_OK(pshm_am_request_short(ctx, 1, H_CHECK, 0, 3, (uint32_t[3]){0, 0, 0}));
    wait_results(results + 1);
    return last_helped;
}

static void put_round(size_t n, unsigned so, unsigned dof, uint32_t seed)
{
    put_from(mine + SRC + so, n, dof, seed);
}

/* Rank 1's source area holds the pattern of seed 7 from its start. */
static void get_round(size_t n, unsigned so, unsigned dof)
{
    const unsigned char *d = (const unsigned char *)mine + RECV + dof;
    memset(mine + RECV + dof, 0, n);
    CHECK_OK(pshm_get(ctx, 1, mine + RECV + dof, peer_owner + SRC + so, n));
    for (size_t i = 0; i < n; i++)
        if (d[i] != am_byte(7, so + i)) {
            printf("FAIL: get of %zu bytes from offset %u: byte %zu wrong\n", n, so, i);
            bad++;
            return;
        }
}

/* A source in a range of pshm_attach_range is shared like one in a segment. */
static unsigned char range[1u << 20] __attribute__((aligned(4096)));

static int stop_flag;
static int stopped(void *p) { (void)p; return stop_flag; }
static void h_stop(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)a, (void)na;
    stop_flag = 1;
}

int main(int argc, char **argv)
{
    int off = argc > 1 && !strcmp(argv[1], "off");
    if (am_no_peers())
        return T_SKIP;
    setenv("PSHM_SYNERGY_MIN", off ? "0" : "16K", 1);
    setenv("PSHM_SYNERGY_CHUNK", "4K", 1);
    int rc = th_launch(argc, argv, 2);
    if (rc >= 0)
        return rc;
    amq_job_hook = hook;
    pshm_init_attr_t attr = {0, NULL};
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_am_register(ctx, table, PSHM_ARRAY_LEN(table)));
    pshm_handler_entry_t stop = {H_SLEEP + 1, h_stop, 0};
    CHECK_OK(pshm_am_register(ctx, &stop, 1));
    CHECK_OK(pshm_attach(ctx, SEG));
    CHECK_OK(pshm_attach_range(ctx, range, sizeof range));
    int me = am_pair(ctx, &mine, &peer, &peer_owner);
    am_fill(mine + SRC, 6u << 20, 7);
    CHECK_OK(pshm_barrier(ctx));

    if (me == 1) {
        /* Polls (in pshm_wait_until) until rank 0 is done. */
        CHECK_OK(pshm_wait_until(ctx, stopped, NULL));
        CHECK_OK(pshm_barrier(ctx));
        CHECK_OK(pshm_finalize(ctx));
        if (own_gaps)
            printf("FAIL: rank 1 owned %ld chunks out of front-to-back order\n", own_gaps);
        return own_gaps ? T_FAIL : T_PASS;
    }

    uint32_t seed = 100, h0;
    for (int s = 0; s < 2; s++) {
        slow = s;
        uint32_t mine0 = atomic_load(&helped), peer0 = last_helped;
        for (size_t i = 0; i < PSHM_ARRAY_LEN(sizes); i++)
            for (size_t k = 0; k < PSHM_ARRAY_LEN(offs); k++) {
                long_round(sizes[i], offs[k][0], offs[k][1], ++seed, s);
                put_round(sizes[i], offs[k][0], offs[k][1], ++seed);
                get_round(sizes[i], offs[k][0], offs[k][1]);
            }
        printf("%s owner: rank 1 helped with %u chunks, rank 0 with %u\n", s ? "slow" : "fast",
               last_helped - peer0, atomic_load(&helped) - mine0);
        /* Slowed down by 100 us a chunk, the other side must have helped
         * (Long requests, puts and gets to rank 1; Long replies to rank 0). */
        if (s && !off && (last_helped == peer0 || atomic_load(&helped) == mine0)) {
            printf("FAIL: with the owner slowed down, nobody helped\n");
            bad++;
        }
        if (off && (last_helped != 0 || atomic_load(&helped) != 0)) {
            printf("FAIL: PSHM_SYNERGY_MIN=0, yet %u + %u chunks were helped\n", last_helped,
                   atomic_load(&helped));
            bad++;
        }
    }
    /* Still slowed down: a put from the range, helped too. */
    uint32_t before = refresh();
    put_from((char *)range + 5, 300000, 7, ++seed);
    if (!off && last_helped == before) {
        printf("FAIL: a put from a pshm_attach_range range was not shared\n");
        bad++;
    }
    slow = 0;

    /* Rank 1 asleep in a handler: nobody helps, and nobody is waited for. */
    refresh();
    volatile int *asleep = (volatile int *)(mine + FLAGS), *awake = (volatile int *)(mine + FLAGS + 64);
    CHECK_OK(pshm_am_request_short(ctx, 1, H_SLEEP, 0, 0, NULL));
    CHECK_OK(pshm_wait_until(ctx, am_flag_set, (void *)asleep));
    h0 = last_helped;
    long r0 = results;
    for (unsigned i = 0; i < 4; i++) {
        uint32_t a[3] = {++seed, 1u << 20, i * (1u << 20)};
        am_fill(mine + SRC + i, 1u << 20, seed);
        CHECK_OK(pshm_put(ctx, 1, peer_owner + RECV + i * (1u << 20), mine + SRC + i, 1u << 20));
        if (*awake) {
            printf("FAIL: put %u returned only after the receiver woke up\n", i);
            bad++;
        }
        CHECK_OK(pshm_am_request_short(ctx, 1, H_CHECK, 0, 3, a));
    }
    /* Longs posted now run their handlers later: the payload must be whole. */
    for (unsigned i = 0; i < 3; i++) {
        uint32_t a[3] = {++seed, (5u << 20) + i * 300000u, 0};
        am_fill(mine + SRC + (2u << 20) + i * 300000u, 256u << 10, seed);
        CHECK_OK(pshm_am_request_long(ctx, 1, H_LONG, mine + SRC + (2u << 20) + i * 300000u,
                                      256u << 10, peer_owner + RECV + (6u << 20) + i * 300000u, 0,
                                      3, a));
    }
    if (*awake) {
        printf("FAIL: the Longs returned only after the receiver woke up\n");
        bad++;
    }
    wait_results(r0 + 7);
    printf("receiver asleep: 4 puts of 1 MiB and 3 Longs of 256 KiB done before it woke; "
           "it helped with %u chunks after\n", last_helped - h0);
    if (last_helped != h0) {
        printf("FAIL: the receiver helped with jobs that were complete\n");
        bad++;
    }
    for (unsigned i = 0; i < 3; i++) {
        long d = am_diff(mine + RECV + (5u << 20) + i * 300000u, 256u << 10, seed - 2 + i);
        if (d >= 0) {
            printf("FAIL: Long reply %u after the sleep: byte %ld wrong\n", i, d);
            bad++;
        }
    }

    CHECK_OK(pshm_am_request_short(ctx, 1, H_SLEEP + 1, 0, 0, NULL));
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    if (own_gaps) {
        printf("FAIL: rank 0 owned %ld chunks out of front-to-back order\n", own_gaps);
        bad++;
    }
    printf("%ld answers, %ld bad\n", results, bad);
    return bad ? T_FAIL : T_PASS;
}
