/*
 * poll.c - the receiver: running handlers, pshm_poll, pshm_wait_until.
 *
 * The idle cost of a poll is one load per incoming queue (2 P), of the slot
 * the receiver expects next: a line that stays in its cache until the sender
 * writes it. All consumer state is private (amq_rq_t); the shared consumer
 * count is written once per visit of a queue, never read here.
 */
#include "amq_internal.h"

#include <errno.h>

/*
 * The queue positions (amq_rq_t) are written by poll_queue, under the
 * queue's lock with threads, and read by scans without it. With threads
 * those reads race with the writes, so they and the writes are relaxed
 * atomics (GNU builtins on plain fields: the type stays the same for both
 * modes). A relaxed store is the same plain mov on x86-64; a relaxed load
 * is a plain mov too, but GCC does not fold it into the comparison after
 * it, so a process without threads, where nothing runs concurrently, keeps
 * plain loads: its scan is the same code as before (`threads` is a
 * constant in each inlined copy), after one test of the mode per call.
 */
#define AMQ_RQ_LOAD(threads, x) ((threads) ? __atomic_load_n(&(x), __ATOMIC_RELAXED) : (x))
#define AMQ_RQ_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

/* Idle polls between paced liveness checks of pshm_poll (a clock read each). */
#define IDLE_CHECK_MASK 1023u

static int __attribute__((noinline, cold))
bad_message(pshm_ctx_t *ctx, int src, int net, uint32_t meta, uint64_t nbytes, const char *why)
{
    ctx->amq->nbad++;
    return pshm_err(-EPROTO, "pshm_poll: dropped a %s from rank %d for handler %u (%u args, "
                    "%llu bytes): %s; register the same handler table in every process",
                    net == AMQ_REQ ? "request" : "reply", src, AMQ_META_H(meta),
                    AMQ_META_NA(meta), (unsigned long long)nbytes, why);
}

/* Slots fetched ahead of the one being handled: a stream's next slots are
 * usually written already, and fetching them while a handler runs overlaps
 * their transfers from the sender's cache instead of paying them in turn. */
#define PREFETCH_AHEAD 4u

static inline const void *slot_ahead(const char *s, uint64_t row, const char *end, uint64_t ring)
{
    const char *a = s + PREFETCH_AHEAD * row;
    return a < end ? a : a - ring;
}

/* Runs up to `budget` messages of one incoming queue; returns the count. A
 * message that cannot run is dropped (its slot and chunk released), counted,
 * and ends the call with *err set. The queue's position is kept in locals
 * and stored back at the end: nothing polls this queue meanwhile (handlers
 * may not poll; a reply waiting for room polls only the reply network, and a
 * reply handler cannot reply; threads hold the queue's lock). */
static inline __attribute__((always_inline)) unsigned
poll_queue(pshm_ctx_t *ctx, unsigned j, int net, int src, unsigned budget, int *err)
{
    struct amq *q = ctx->amq;
    const uint64_t row = q->l.row, ring = q->l.ring;
    amq_rq_t *rq = &q->rq[AMQ_REP][j];
    amq_ctl_t *ctl = (amq_ctl_t *)(q->inq + (uint64_t)j * AMQ_LINE);
    char *const first = (char *)ctl + row, *const end = first + ring;
    /* Plain loads: with threads, every write of them is made under the
     * lock this thread holds. */
    amq_slot_t *s = rq->s;
    uint32_t seq = rq->seq;
    unsigned n = 0;
    /* The token is the same for the whole batch: built once. */
    pshm_token_t tok = {ctx, ctx->nm.members[src], src, (uint8_t)net, 0};

    while (n < budget) {
        /* Acquire: pairs with the sender's release of the stamp, so the
         * slot, its chunk and a Long payload are visible. */
        if (atomic_load_explicit(&s->stamp, memory_order_acquire) != seq)
            break;
        if (PREFETCH_AHEAD < q->l.depth)
            __builtin_prefetch(slot_ahead((const char *)s, row, end, ring), 0, 3);
        uint32_t meta = s->meta;
        unsigned na = AMQ_META_NA(meta), cat = AMQ_META_CAT(meta);
        uint64_t nbytes = s->nbytes, dsz;
        unsigned char *body = s->body, *data;
        amq_chunk_t *chunk = NULL;
        void *buf = NULL;
        const pshm_handler_entry_t *e = &ctx->handlers[AMQ_META_H(meta)];
        pshm_handler_fn fn = e->fn;
        int enargs = e->nargs;

        /* A Short with its data inline, the common case, goes straight to
         * the checks and the call. */
        if (PSHM_LIKELY((meta & (3u << 13 | 1u << 15)) == 0))
            goto checked;
        if (cat == AMQ_LONG) {
            uint64_t a;
            __builtin_memcpy(&a, body, 8);
            buf = (void *)(uintptr_t)a;
            body += 8;
        }
        data = body;
        if (AMQ_META_SP(meta)) {
            uint64_t off;
            dsz = 4u * na;
            if (cat == AMQ_MEDIUM && nbytes)
                dsz = PSHM_ALIGN_UP(dsz, 8) + nbytes;
            __builtin_memcpy(&off, body, 8);
            /* Bounds: a corrupt offset must not make us read or write
             * outside the sender's pool. */
            if (off > q->l.poolsz || q->l.poolsz - off < AMQ_CHUNK_HDR + dsz ||
                dsz > AMQ_CHUNK_MAX) {
                *err = bad_message(ctx, tok.src, net, meta, nbytes,
                                   "its payload chunk lies outside the sender's pool");
                goto next;
            }
            chunk = (amq_chunk_t *)(q->region + q->l.off_pool +
                                    ((uint64_t)src * AMQ_NETS + (unsigned)net) * q->l.poolsz + off);
            data = (unsigned char *)chunk + AMQ_CHUNK_HDR;
        }
        if (cat == AMQ_MEDIUM)
            buf = data + PSHM_ALIGN_UP(4u * na, 8);
        if (PSHM_UNLIKELY(cat > AMQ_LONG || (cat == AMQ_MEDIUM && nbytes > PSHM_AM_MEDIUM_MAX))) {
            *err = bad_message(ctx, tok.src, net, meta, nbytes,
                               "its category or size is invalid");
            goto release;
        }
        body = data;
    checked:
        if (PSHM_UNLIKELY(fn == NULL || na > PSHM_AM_MAX_ARGS ||
                          (enargs != PSHM_AM_ANY_NARGS && (unsigned)enargs != na))) {
            *err = bad_message(ctx, tok.src, net, meta, nbytes,
                               fn == NULL ? "that handler is not registered here"
                                          : "the argument count does not match the handler");
        } else {
            const pshm_token_t *outer = AMQ_DEBUG ? amq_cur_token : NULL;
            amq_in_handler++;
            if (AMQ_DEBUG)
                amq_cur_token = &tok;
            fn(&tok, buf, (size_t)nbytes, (const uint32_t *)body, na);
            if (AMQ_DEBUG)
                amq_cur_token = outer; /* a reply waiting for room runs reply handlers */
            amq_in_handler--;
            tok.replied = 0;
        }
    release:
        if (chunk)
            /* Release: the handler's reads of the chunk are done before the
             * sender may reuse it (its acquire in pool_reclaim). */
            atomic_store_explicit(&chunk->freed, 1, memory_order_release);
    next:
        seq++;
        s = (char *)s + row == end ? (amq_slot_t *)first : (amq_slot_t *)((char *)s + row);
        n++;
        if (PSHM_UNLIKELY(*err < 0))
            break; /* one report per call: the caller sees its message */
    }
    AMQ_RQ_STORE(rq->s, s);
    AMQ_RQ_STORE(rq->seq, seq);
    if (n)
        /* Release: every read of these slots (handlers included) is done
         * before the sender sees them free (its acquire in amq_send). */
        atomic_store_explicit(&ctl->consumed, seq - 1, memory_order_release);
    return n;
}

/*
 * The idle scan: the first incoming queue j in [i, to) (both networks'
 * indices) whose expected slot carries the expected stamp, or `to`. Per
 * queue, one private word and one load of a line that stays in this cache
 * until its sender writes it; four queues per branch. Relaxed: poll_queue
 * takes the message with an acquire load.
 */
static inline __attribute__((always_inline)) unsigned
scan(const struct amq *q, unsigned i, unsigned to, const bool threads)
{
    const amq_rq_t *r = q->rq[AMQ_REP] + i, *const rend = q->rq[AMQ_REP] + to;
/* int, so that the four tests below combine with a branch-free '|'. */
#define HIT(k)                                                                            \
    ((int)(atomic_load_explicit(&AMQ_RQ_LOAD(threads, r[k].s)->stamp, memory_order_relaxed) == \
           AMQ_RQ_LOAD(threads, r[k].seq)))
    for (; rend - r >= 4; r += 4)
        if (HIT(0) | HIT(1) | HIT(2) | HIT(3))
            break;
    for (; r < rend; r++)
        if (HIT(0))
            break;
#undef HIT
    return (unsigned)(r - q->rq[AMQ_REP]);
}

/* One queue, with its lock when threads may poll: the count run, or < 0. */
static inline int poll_one(pshm_ctx_t *ctx, int net, unsigned i, unsigned budget, int *err)
{
    struct amq *q = ctx->amq;
    unsigned n = 0;

    if (!q->threads) {
        n = poll_queue(ctx, (unsigned)net * q->l.nprocs + i, net, (int)i, budget, err);
    } else if (amq_trylock(&q->rlock[net][i])) {
        n = poll_queue(ctx, (unsigned)net * q->l.nprocs + i, net, (int)i, budget, err);
        amq_unlock(&q->rlock[net][i]);
    }
    return n;
}

/* Serves the queues that have messages. The caller's scan of [lo, hi)
 * (indices into both networks' array) found the first message at `first`.
 * When no other queue has any (a ping-pong), its batch runs at once. When
 * others do, `first` is only the lowest-numbered busy queue: serving it
 * first would favour low ranks in every call, so the pass over the senders
 * in rotation decides the order; its start moves every call. The scan of
 * the other queues is the one the lone case made after its batch before:
 * the same work, done earlier. */
static inline __attribute__((always_inline)) int
serve(pshm_ctx_t *ctx, unsigned netmask, unsigned first, unsigned hi, const bool threads)
{
    struct amq *q = ctx->amq;
    const unsigned P = (unsigned)q->P;
    unsigned start, total = 0;
    int err = 0, fnet = first >= P ? AMQ_REQ : AMQ_REP;

    if (scan(q, first + 1, hi, threads) == hi) {
        total = (unsigned)poll_one(ctx, fnet, first - (unsigned)fnet * P, AMQ_POLL_BATCH, &err);
        if (err < 0)
            return err;
        /* Done unless that queue filled its batch. */
        if (total < AMQ_POLL_BATCH)
            return (int)total;
    }

    /* A racy update with threads only skews the rotation. */
    start = atomic_load_explicit(&q->rot, memory_order_relaxed);
    atomic_store_explicit(&q->rot, start + 1 >= P ? 0 : start + 1, memory_order_relaxed);
    for (int net = 0; net < AMQ_NETS; net++) {
        unsigned base = (unsigned)net * P;
        if (!(netmask & (1u << net)))
            continue;
        /* Senders start .. P-1, then 0 .. start-1. */
        for (unsigned from = start, to = P, pass = 0; pass < 2; pass++, to = start, from = 0) {
            for (unsigned j = scan(q, base + from, base + to, threads); j < base + to;
                 j = scan(q, j + 1, base + to, threads)) {
                unsigned budget = AMQ_POLL_MAX - total < AMQ_POLL_BATCH ? AMQ_POLL_MAX - total
                                                                        : AMQ_POLL_BATCH;
                total += (unsigned)poll_one(ctx, net, j - base, budget, &err);
                if (err < 0)
                    return err;
                if (total >= AMQ_POLL_MAX)
                    return (int)total;
            }
        }
    }
    return (int)total;
}

/* One copy of the busy path per mode. */
static int __attribute__((noinline))
serve_plain(pshm_ctx_t *ctx, unsigned netmask, unsigned first, unsigned hi)
{
    return serve(ctx, netmask, first, hi, false);
}

static int __attribute__((noinline))
serve_threads(pshm_ctx_t *ctx, unsigned netmask, unsigned first, unsigned hi)
{
    return serve(ctx, netmask, first, hi, true);
}

/* The incoming queues of both networks are one array, replies first (see
 * amq_init), so an idle poll is a single scan over [lo, hi). */
static inline __attribute__((always_inline)) int
poll_mode(pshm_ctx_t *ctx, unsigned netmask, const bool threads)
{
    struct amq *q = ctx->amq;
    unsigned P = (unsigned)q->P, hi = netmask & (1u << AMQ_REQ) ? 2 * P : P;
    unsigned first = scan(q, netmask & (1u << AMQ_REP) ? 0 : P, hi, threads);

    if (first == hi)
        return 0;
    return threads ? serve_threads(ctx, netmask, first, hi)
                   : serve_plain(ctx, netmask, first, hi);
}

static int __attribute__((noinline)) poll_threads(pshm_ctx_t *ctx, unsigned netmask)
{
    return poll_mode(ctx, netmask, true);
}

static inline __attribute__((always_inline)) int poll_inline(pshm_ctx_t *ctx, unsigned netmask)
{
    if (PSHM_UNLIKELY(ctx->amq->threads))
        return poll_threads(ctx, netmask);
    return poll_mode(ctx, netmask, false);
}

int amq_poll(pshm_ctx_t *ctx, unsigned netmask) { return poll_inline(ctx, netmask); }

int amq_pending(pshm_ctx_t *ctx)
{
    struct amq *q = ctx->amq;
    unsigned hi = 2 * (unsigned)q->P;
    int r = (q->threads ? scan(q, 0, hi, true) : scan(q, 0, hi, false)) != hi;

    /* Acquire: pairs with the sender's release of the stamp just read. */
    atomic_thread_fence(memory_order_acquire);
    return r;
}

int pshm_poll(pshm_ctx_t *ctx)
{
    int rc;

    if (PSHM_UNLIKELY(!ctx_attached(ctx))) {
        rc = ctx_check(ctx, CTX_ATTACHED, "pshm_poll");
        return rc < 0 ? rc : pshm_err(-EINVAL, "pshm_poll: call pshm_attach first");
    }
    if (PSHM_UNLIKELY(amq_in_handler))
        return pshm_err(-EINVAL, "pshm_poll: cannot poll from inside a handler");
    rc = poll_inline(ctx, 3u);
    if (rc == 0) {
        /* A program that only polls must still learn of a dead peer: every
         * 1024 idle polls, at most every ~1 ms, check liveness. */
        struct amq *q = ctx->amq;
        uint32_t idle = atomic_load_explicit(&q->idle, memory_order_relaxed) + 1;
        atomic_store_explicit(&q->idle, idle, memory_order_relaxed);
        if (PSHM_UNLIKELY((idle & IDLE_CHECK_MASK) == 0))
            rc = live_check_paced(ctx);
    }
    return rc;
}

int pshm_wait_until(pshm_ctx_t *ctx, int (*cond)(void *arg), void *arg)
{
    uint32_t spins = 0;
    int rc = ctx_check(ctx, CTX_ATTACHED, "pshm_wait_until");

    if (rc < 0)
        return rc;
    if (cond == NULL)
        return pshm_err(-EINVAL, "pshm_wait_until: the condition function is NULL");
    if (amq_in_handler)
        return pshm_err(-EINVAL, "pshm_wait_until: cannot wait from inside a handler");
    while (!cond(arg)) {
        rc = poll_inline(ctx, 3u);
        if (rc < 0)
            return rc;
        if (rc == 0 && (rc = ctx_wait_step(ctx, &spins)) < 0)
            return rc;
    }
    return 0;
}
