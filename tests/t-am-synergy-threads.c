/*
 * t-am-synergy-threads: shared copies (amqueue/synergy.c) with
 * PSHM_INIT_THREADS. Rank 0 runs two threads that each send Long requests
 * and pshm_puts of sizes around the 4 KiB chunk, unaligned, to rank 1,
 * whose two threads poll (and help) at once; a thread whose job is taken by
 * the other copies alone. Every byte is checked by rank 1's handlers, and
 * with the owner slowed down per chunk some chunks must have been helped.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#define SEG (8u << 20)
#define AREA (1u << 20)  /* per thread: source in rank 0, destination in rank 1 */
#define ROUNDS 40

enum { H_LONG = 1, H_PUT, H_STOP, H_ACK };

static pshm_ctx_t *ctx;
static char *mine, *peer_owner;
static atomic_long bad, checked, helped;
static atomic_int stop;
static atomic_long acks[2];

/* The owner is slowed down per chunk, so that the pollers surely help. */
static void hook(bool helper, uint32_t k)
{
    (void)k;
    if (helper)
        atomic_fetch_add(&helped, 1);
    else
        usleep(20);
}

static void check(const void *p, size_t n, uint32_t seed)
{
    long d = am_diff(p, n, seed);
    if (d >= 0) {
        printf("FAIL: %zu bytes of seed %u: byte %ld wrong\n", n, seed, d);
        atomic_fetch_add(&bad, 1);
    }
    atomic_fetch_add(&checked, 1);
}

/* Rank 1. args: seed, n, offset of the put's destination. */
static void h_long(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    check(buf, n, a[0]);
    CHECK_OK(pshm_am_reply_short(t, H_ACK, 0, 1, a));
}
static void h_put(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)buf, (void)n, (void)na;
    check(mine + a[2], a[1], a[0]);
    CHECK_OK(pshm_am_reply_short(t, H_ACK, 0, 1, a));
}
/* Rank 0: args[0] = the seed, th * 1000 + round. */
static void h_ack(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)na;
    atomic_fetch_add(&acks[a[0] / 1000], 1);
}
static int acked(void *p)
{
    const long *w = p;
    return atomic_load(&acks[w[0]]) >= w[1];
}
static void h_stop(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)a, (void)na;
    atomic_fetch_add(&stop, 1);
}

static int stopped(void *p) { (void)p; return atomic_load(&stop) >= 2; }

static void *sender(void *arg)
{
    unsigned th = (unsigned)(uintptr_t)arg;
    static const size_t sizes[] = {16384, 16385, 20479, 65536 + 5, 300000};
    char *src = mine + th * AREA;
    for (unsigned r = 0; r < ROUNDS; r++) {
        size_t n = sizes[r % PSHM_ARRAY_LEN(sizes)];
        unsigned so = r % 7, doff = th * AREA + r % 5;
        uint32_t seed = th * 1000 + r, a[3] = {seed, (uint32_t)n, doff};
        long w[2] = {th, r + 1};
        am_fill(src + so, n, seed);
        if (r % 2)
            CHECK_OK(pshm_am_request_long(ctx, 1, H_LONG, src + so, n, peer_owner + doff, 0, 3, a));
        else {
            CHECK_OK(pshm_put(ctx, 1, peer_owner + doff, src + so, n));
            CHECK_OK(pshm_am_request_short(ctx, 1, H_PUT, 0, 3, a));
        }
        /* Checked before the next round overwrites the destination. */
        CHECK_OK(pshm_wait_until(ctx, acked, w));
    }
    CHECK_OK(pshm_am_request_short(ctx, 1, H_STOP, 0, 0, NULL));
    return NULL;
}

static void *poller(void *arg)
{
    (void)arg;
    CHECK_OK(pshm_wait_until(ctx, stopped, NULL));
    return NULL;
}

static const pshm_handler_entry_t table[] = {
    {H_LONG, h_long, 3}, {H_PUT, h_put, 3}, {H_STOP, h_stop, 0}, {H_ACK, h_ack, 1}};

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    setenv("PSHM_SYNERGY_MIN", "16K", 1);
    setenv("PSHM_SYNERGY_CHUNK", "4K", 1);
    int rc = th_launch(argc, argv, 2);
    if (rc >= 0)
        return rc;
    amq_job_hook = hook;
    pshm_init_attr_t attr = {PSHM_INIT_THREADS, NULL};
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_am_register(ctx, table, PSHM_ARRAY_LEN(table)));
    CHECK_OK(pshm_attach(ctx, SEG));
    char *peer;
    int me = am_pair(ctx, &mine, &peer, &peer_owner);
    CHECK_OK(pshm_barrier(ctx));
    pthread_t t[2];
    for (uintptr_t i = 0; i < 2; i++)
        CHECK(pthread_create(&t[i], NULL, me == 0 ? sender : poller, (void *)i) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(t[i], NULL) == 0);
    CHECK_OK(pshm_barrier(ctx));
    if (me == 1) {
        printf("rank 1: %ld payloads checked, %ld bad, %ld chunks helped\n", atomic_load(&checked),
               atomic_load(&bad), atomic_load(&helped));
        if (atomic_load(&checked) != 2 * ROUNDS || atomic_load(&bad) != 0 ||
            atomic_load(&helped) == 0)
            return T_FAIL;
    }
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
