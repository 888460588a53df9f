/*
 * t-am-pool: the sender's payload pool (amqueue/pool.c) on its own, with
 * consumer counts the test sets. A stream to one destination restarts at
 * offset 0 as soon as its newest chunk is consumed (no walk); a ping-pong
 * (each chunk consumed before the next is taken) stays in a ring of
 * AMQ_POOL_RING_CHUNKS chunks, a stream that runs ahead grows it to the
 * hot ring, and the ring is small again once all is consumed; with a chunk
 * to a second destination that is not consumed, that chunk is never handed
 * out again however far the first stream goes; a chunk given back unsent
 * is free at once; amq_pool_reclaim (the prepare's) frees what the
 * allocator would. Then 200000 random steps (two destinations, sizes up
 * to the largest chunk, the fast carve and the allocator, counts that
 * advance by random amounts, chunks given back): every chunk handed out
 * lies in the pool and overlaps no chunk whose message is not consumed,
 * and once everything is consumed the whole hot ring is free again.
 */
#include "tests/helpers.h"
#include "amqueue/amq_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL (1u << 20)
#define CH 4160u /* a prepared 4 KiB Medium's chunk */
#define MAXLIVE 4096

static amq_ctl_t ctl[2];
static amq_sq_t sq[2];
static amq_pool_t p;

/* The model: chunks whose messages are not consumed (nor given back). */
static struct {
    uint64_t off, bytes;
    int dest;
    uint32_t seq;
} live[MAXLIVE];
static int nlive;

static void consume(int d, uint32_t upto)
{
    atomic_store_explicit(&ctl[d].consumed, upto, memory_order_release);
    for (int i = 0; i < nlive;)
        if (live[i].dest == d && (int32_t)(upto - live[i].seq) >= 0)
            live[i] = live[--nlive];
        else
            i++;
}

/* A chunk for (dest, seq): the fast carve when it fits, else the
 * allocator, as the prepare does; checked against the model. */
static uint64_t take(uint64_t bytes, int dest, uint32_t seq, int fast)
{
    uint64_t off;

    if (fast && amq_pool_fits(&p, bytes))
        off = amq_pool_take(&p, bytes, dest, seq);
    else if ((off = amq_pool_alloc(&p, bytes, dest, seq)) == UINT64_MAX)
        return off;
    if (off > POOL || bytes > POOL - off) {
        fprintf(stderr, "chunk [%llu, +%llu) outside the %u-byte pool\n",
                (unsigned long long)off, (unsigned long long)bytes, POOL);
        exit(T_FAIL);
    }
    for (int i = 0; i < nlive; i++)
        if (off < live[i].off + live[i].bytes && live[i].off < off + bytes) {
            fprintf(stderr, "chunk [%llu, +%llu) for dest %d seq %u overlaps the live chunk "
                    "[%llu, +%llu) of dest %d seq %u (consumed %u)\n",
                    (unsigned long long)off, (unsigned long long)bytes, dest, seq,
                    (unsigned long long)live[i].off, (unsigned long long)live[i].bytes,
                    live[i].dest, live[i].seq, atomic_load(&ctl[live[i].dest].consumed));
            exit(T_FAIL);
        }
    CHECK(nlive < MAXLIVE);
    live[nlive].off = off;
    live[nlive].bytes = bytes;
    live[nlive].dest = dest;
    live[nlive++].seq = seq;
    return off;
}

/* Gives the newest chunk back unsent, as prep_release does. */
static void give_back(uint64_t off)
{
    ((amq_chunk_t *)(p.base + off))->dest = -1;
    amq_chunk_filled(&p, off);
    CHECK(nlive > 0 && live[nlive - 1].off == off);
    nlive--;
}

#define DEPTH 64u

static void reset(void)
{
    memset(ctl, 0, sizeof ctl);
    nlive = 0;
    amq_pool_init(&p, p.base, POOL, sq, DEPTH, false);
}

int main(void)
{
    char *base = aligned_alloc(AMQ_PAGE, POOL);
    uint32_t seq[2] = {0, 0};
    uint64_t off;
    int n;

    CHECK(base != NULL);
    for (int d = 0; d < 2; d++) {
        sq[d].ctl = &ctl[d];
        sq[d].dlocal = d;
    }
    p.base = base;

    /* 1. One destination. An empty pool has no room for the fast carve:
     * the allocator sizes the ring by the first chunk. Nothing consumed,
     * the small ring runs out and grows to the hot ring, which runs out;
     * the newest chunk is consumed, and the pool starts again at 0 in a
     * small ring. */
    reset();
    CHECK(!amq_pool_fits(&p, CH));
    CHECK(take(CH, 1, ++seq[1], 1) == 0);
    for (n = 1; amq_pool_fits(&p, CH); n++)
        take(CH, 1, ++seq[1], 1);
    CHECK(n == (int)AMQ_POOL_RING_CHUNKS);
    CHECK(take(CH, 1, ++seq[1], 0) == (uint64_t)n * CH);
    for (n++; amq_pool_fits(&p, CH); n++)
        take(CH, 1, ++seq[1], 1);
    CHECK(n == (int)(AMQ_POOL_HOT / CH));
    consume(1, seq[1]);
    CHECK(take(CH, 1, ++seq[1], 0) == 0 && amq_pool_used(&p) == CH);
    for (n = 1; amq_pool_fits(&p, CH); n++)
        take(CH, 1, ++seq[1], 1);
    CHECK(n == (int)AMQ_POOL_RING_CHUNKS);
    printf("one stream: %u chunks, then %d, then offset 0 again in a ring of %u once the "
           "newest was consumed\n", AMQ_POOL_RING_CHUNKS, (int)(AMQ_POOL_HOT / CH),
           AMQ_POOL_RING_CHUNKS);

    /* 1b. A ping-pong: each chunk consumed before the next is taken. It
     * goes round the small ring, whose every chunk is used, and never
     * beyond; then chunks of 128 bytes, in a ring of AMQ_POOL_RING_MIN. */
    for (int k = 0; k < 2; k++) {
        const uint64_t ch = k == 0 ? CH : 2 * AMQ_LINE;
        const uint64_t ring = k == 0 ? AMQ_POOL_RING_CHUNKS * CH : AMQ_POOL_RING_MIN;
        uint64_t top = 0;
        reset();
        seq[1] = 0;
        for (n = 0; n < 10000; n++) {
            off = take(ch, 1, ++seq[1], n % 2);
            CHECK(off != UINT64_MAX && off + ch <= ring);
            if (off + ch > top)
                top = off + ch;
            consume(1, seq[1]);
        }
        CHECK(top == ring / ch * ch);
        printf("ping-pong of %llu-byte chunks: %d chunks within the first %llu bytes\n",
               (unsigned long long)ch, n, (unsigned long long)top);
    }

    /* 2. A stream to destination 1 consumed as it goes, with one chunk to
     * destination 0 among its first that is never consumed: that chunk
     * stays out of reach, lap after lap, through the allocator and the
     * prepare's reclaim alike. */
    reset();
    seq[0] = seq[1] = 0;
    take(CH, 1, ++seq[1], 0); /* the pool's stream is to 1 */
    take(CH, 0, ++seq[0], 1);
    for (n = 0; n < (int)(20 * AMQ_POOL_HOT / CH); n++) {
        uint32_t s = ++seq[1];
        if (n % 3 == 0 && !amq_pool_fits(&p, CH))
            amq_pool_reclaim(&p, 1, CH);
        take(CH, 1, s, 1);
        consume(1, s);
    }
    CHECK(nlive == 1 && live[0].dest == 0);
    printf("two streams: %d chunks to one went by a chunk the other did not consume\n", n);

    /* 3. Given back unsent: free at once, with no count. */
    reset();
    seq[0] = seq[1] = 0;
    take(CH, 1, ++seq[1], 0);
    while (amq_pool_fits(&p, CH))
        take(CH, 1, ++seq[1], 1);
    off = live[nlive - 1].off;
    CHECK(off > 0);
    give_back(off);
    consume(1, seq[1] - 1);
    CHECK(take(CH, 1, seq[1], 0) == 0);
    printf("given back: the pool started again with the last chunk never sent\n");

    /* 4. A chunk left while its queue's count went 2^31 + 5 lines further
     * (messages with no chunk: a flood of Shorts): consumed all the same,
     * so the pool starts again at 0. The count is at most `depth` behind
     * a chunk's line while its message is in flight, never more. */
    reset();
    take(CH, 1, 5, 1);
    while (amq_pool_fits(&p, CH))
        take(CH, 1, 5, 1);
    consume(1, 5u + 0x80000005u);
    nlive = 0; /* the model's signed compare says live: the point of this part */
    CHECK(take(CH, 1, 5u + 0x80000006u, 0) == 0);
    printf("a count 2^31 lines past the chunks: the pool started again at 0\n");

    /* 5. Random steps; each destination's lines advance by 1 to 3 per
     * message (messages with no chunk in between). */
    reset();
    srand(12345);
    seq[0] = seq[1] = 0x7ffffff0u; /* the counts wrap past 2^31 on the way */
    uint32_t cons[2] = {seq[0], seq[1]};
    consume(0, cons[0]);
    consume(1, cons[1]);
    long taken = 0, full = 0;
    for (long step = 0; step < 200000; step++) {
        int d = rand() % 4 == 0, r = rand() % 16;
        uint64_t bytes = r < 12 ? CH : PSHM_ALIGN_UP((uint64_t)(rand() % AMQ_CHUNK_MAX) + 1,
                                                     AMQ_LINE);
        if (bytes < AMQ_CHUNK_HDR + AMQ_LINE)
            bytes = AMQ_CHUNK_HDR + AMQ_LINE;
        if (rand() % 3 == 0 && cons[d] != seq[d]) {
            uint32_t ahead = seq[d] - cons[d];
            cons[d] += 1 + (uint32_t)rand() % ahead;
            consume(d, cons[d]);
        }
        seq[d] += 1 + (uint32_t)(rand() % 3);
        if (seq[d] - cons[d] > DEPTH) { /* the queue holds DEPTH lines */
            cons[d] = seq[d] - DEPTH;
            consume(d, cons[d]);
        }
        if (rand() % 8 == 0 && !amq_pool_fits(&p, bytes))
            amq_pool_reclaim(&p, d, bytes);
        off = take(bytes, d, seq[d], rand() % 2);
        if (off == UINT64_MAX) {
            full++;
            continue;
        }
        taken++;
        if (rand() % 50 == 0)
            give_back(off);
    }
    consume(0, seq[0]);
    consume(1, seq[1]);
    CHECK(take(AMQ_POOL_HOT, 1, seq[1] + 1, 0) == 0);
    printf("random: %ld chunks handed out, %ld refused (pool full), none over a live one; "
           "all consumed, the whole hot ring was free\n", taken, full);
    free(base);
    return T_PASS;
}
