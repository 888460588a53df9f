/*
 * pool.c - the sender's payload pool: a circular allocator with in-order
 * reclamation.
 *
 * Only the owning process allocates (under pool->lock with threads) and
 * writes the pool: all the allocator state (head, tail, wrap) is private to
 * it, and receivers only read the chunks they were sent.
 *
 * Why a chunk can be neither lost nor used twice: the live chunks are exactly
 * the byte interval [tail, head) (or [tail, wrap) + [0, head) once the head
 * has wrapped), allocated in address order. A new chunk is carved only from
 * outside that interval. The tail advances over a chunk only when the
 * message it carries is consumed: the consumer count of its queue, which
 * the receiver stores (release) once the handlers of a visit returned,
 * reaches the message's stamp (acquire: the receiver's reads of the chunk
 * happened before), or the chunk was given back unsent (dest -1). A
 * message's stamp is at most `depth` ahead of the count while it is in
 * flight (its line was started with room), so it is in flight exactly when
 * stamp - count, modulo 2^32, lies in [1, depth]; any other difference is
 * a count that went past it, however far (a chunk may wait in the pool
 * while its queue carries 2^31 lines and more of messages with no chunk,
 * where a signed difference would call it in flight again). When
 * everything is reclaimed the pool restarts at offset 0, and the head wraps
 * early when the start is free (amq_pool_alloc), so a steady stream reuses
 * the same cache-hot bytes and cannot fragment: free space is always at
 * most two contiguous runs.
 *
 * A stream to one destination (mixed == 0, see amq_pool_t) is reclaimed at
 * once when its newest chunk is consumed: its queue's count reaching that
 * chunk's stamp means every earlier message on the queue was consumed too
 * (a chunk given back unsent is free anyway), so the whole pool is free.
 */
#include "amq_internal.h"

/* lim after tail, wrap or ring changed (amq_pool_t). */
static void pool_set_lim(amq_pool_t *p) { p->lim = p->wrap != 0 ? p->tail : p->ring; }

void amq_pool_init(amq_pool_t *p, char *base, uint64_t size, struct amq_sq *sq, uint32_t depth,
                   bool threads)
{
    /* ring 0: the first chunk finds no room, and its size sizes the ring
     * (amq_pool_restart, amq_pool_alloc). */
    *p = (amq_pool_t){.base = base, .size = size, .sq = sq, .depth = depth, .threads = threads,
                      .hot = size < AMQ_POOL_HOT ? size : AMQ_POOL_HOT};
    pool_set_lim(p);
}

/* Whether the message of the chunk at off, to dest, was consumed (or never
 * sent: dest -1). */
static bool chunk_free(const amq_pool_t *p, uint64_t off, int dest)
{
    amq_chunk_t *c = (amq_chunk_t *)(p->base + off);

    /* Acquire (both): the filling thread's writes (amq_chunk_filled),
     * and the receiver's reads of the payload, which precede its
     * release of the count, are done before the bytes are reused. */
    if (p->threads && atomic_load_explicit(&c->filled, memory_order_acquire) == 0)
        return false;
    return dest < 0 ||
           c->seq - atomic_load_explicit(&p->sq[dest].ctl->consumed, memory_order_acquire) - 1 >=
               p->depth;
}

/* Advances the tail over freed chunks, in order: all at once for a stream
 * to one destination whose newest chunk is free. */
static void pool_reclaim(amq_pool_t *p)
{
    if (amq_pool_used(p) > 0 && !p->mixed && chunk_free(p, p->last, p->dest0))
        p->tail = p->head = p->wrap = 0;
    while (amq_pool_used(p) > 0) {
        amq_chunk_t *c;
        if (p->wrap != 0 && p->tail == p->wrap) {
            p->tail = 0;
            p->wrap = 0;
            continue;
        }
        c = (amq_chunk_t *)(p->base + p->tail);
        if (!chunk_free(p, p->tail, c->dest))
            break;
        p->tail += c->size;
    }
    if (amq_pool_used(p) == 0)
        p->head = p->tail = p->wrap = 0;
    pool_set_lim(p);
}

void amq_pool_reclaim(amq_pool_t *p, int dest, uint64_t bytes)
{
    pool_reclaim(p);
    if (amq_pool_used(p) == 0)
        (void)amq_pool_restart(p, bytes, dest); /* a new stream, in a ring of its size */
}

/* Carves from the head, or wraps to 0 once the head would pass `limit`
 * and the start of the pool is free. */
static uint64_t pool_carve(amq_pool_t *p, uint64_t bytes, uint64_t limit)
{
    uint64_t off;

    if (p->wrap == 0) {
        if (p->head + bytes <= limit) {
            off = p->head;
            p->head += bytes;
        } else if (bytes <= p->tail) {
            /* Wrap: the live run ends at the old head ([0, tail) is free;
             * an empty pool is at 0, so tail > 0 means live chunks). */
            p->wrap = p->head;
            off = 0;
            p->head = bytes;
            pool_set_lim(p);
        } else {
            return UINT64_MAX;
        }
    } else if (p->head + bytes <= p->tail) {
        off = p->head;
        p->head += bytes;
    } else {
        return UINT64_MAX;
    }
    return off;
}

/*
 * The pool is used as a ring of a few chunks (AMQ_POOL_RING_CHUNKS of the
 * size it started with) while the receiver keeps up, as in a ping-pong;
 * as a ring of AMQ_POOL_HOT bytes while it keeps up within that; and to
 * its full size only when it does not. The smaller the ring, the more of
 * its lines are still in this core's caches when they are written again:
 * a 4 KiB Medium's ping-pong ran 15-25% faster in a ring of 4 chunks than
 * in one of 256 KiB (README.PSHM section 13), and a stream that cycled
 * through the whole pool (1 MiB by default) would copy into lines evicted
 * from L2 since their last use. Reclaiming is done only when the ring in
 * use is exhausted: its one load of the consumer count per lap is the
 * price of the small ring.
 */
uint64_t amq_pool_alloc(amq_pool_t *p, uint64_t bytes, int dest, uint32_t seq)
{
    uint64_t off = UINT64_MAX;

    if (amq_pool_used(p) > 0)
        off = pool_carve(p, bytes, p->ring);
    if (off == UINT64_MAX) {
        pool_reclaim(p);
        if (amq_pool_used(p) == 0)
            p->ring = amq_pool_ring_of(p, bytes); /* everything consumed: a small ring again */
        off = pool_carve(p, bytes, p->ring);
    }
    if (off == UINT64_MAX && p->ring < p->hot) {
        /* The receiver lags: the hot ring, and its lim from now on. */
        p->ring = p->hot;
        off = pool_carve(p, bytes, p->ring);
    }
    if (off == UINT64_MAX)
        off = pool_carve(p, bytes, p->size);
    pool_set_lim(p);
    if (off != UINT64_MAX) {
        if (amq_pool_used(p) == bytes) {
            /* The only live chunk: a new stream. */
            p->dest0 = dest;
            p->mixed = false;
        }
        amq_pool_note(p, off, dest);
        amq_chunk_init(p, off, bytes, dest, seq);
    }
    return off;
}
