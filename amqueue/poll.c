/*
 * poll.c - the receiver: running handlers, pshm_poll, pshm_wait_until.
 *
 * The idle cost of a poll is one acquire load per incoming queue (2 P), of
 * the slot the receiver expects next: a line that stays in its cache until
 * the sender writes it. All consumer state is private (amq_rq_t); the shared
 * consumer count is written once per batch, never read here.
 */
#include "amq_internal.h"

#include <errno.h>

/* Idle polls between liveness checks of pshm_poll (a clock read each). */
#define IDLE_CHECK_MASK 1023u
#define LIVE_CHECK_NS 1000000ull

static int __attribute__((noinline, cold))
bad_message(pshm_ctx_t *ctx, int src, int net, uint32_t meta, uint64_t nbytes, const char *why)
{
    ctx->amq->nbad++;
    return pshm_err(-EPROTO, "pshm_poll: dropped a %s from rank %d for handler %u (%u args, "
                    "%llu bytes): %s; register the same handler table in every process",
                    net == AMQ_REQ ? "request" : "reply", src, AMQ_META_H(meta),
                    AMQ_META_NA(meta), (unsigned long long)nbytes, why);
}

/* Runs up to `budget` messages of one incoming queue; returns the count. A
 * message that cannot run is dropped (its slot and chunk released), counted,
 * and ends the call with *err set. */
static unsigned poll_queue(pshm_ctx_t *ctx, amq_rq_t *rq, int net, int src, unsigned budget,
                           int *err)
{
    const uint32_t depth = ctx->amq->l.depth;
    unsigned n = 0;

    while (n < budget) {
        amq_slot_t *s = amq_slot_at(rq->slots, rq->idx);
        /* Acquire: pairs with the sender's release of the stamp, so the
         * slot, its chunk and a Long payload are visible. */
        if (atomic_load_explicit(&s->stamp, memory_order_acquire) != rq->seq)
            break;
        uint32_t meta = s->meta;
        unsigned h = AMQ_META_H(meta), na = AMQ_META_NA(meta), cat = AMQ_META_CAT(meta);
        uint64_t nbytes = s->nbytes, dsz;
        unsigned char *body = s->body, *data;
        amq_chunk_t *chunk = NULL;
        void *buf = NULL;
        const pshm_handler_entry_t *e = &ctx->handlers[h];

        if (cat == AMQ_LONG) {
            uint64_t a;
            __builtin_memcpy(&a, body, 8);
            buf = (void *)(uintptr_t)a;
            body += 8;
        }
        data = body;
        dsz = 4u * na;
        if (cat == AMQ_MEDIUM && nbytes)
            dsz = PSHM_ALIGN_UP(dsz, 8) + nbytes;
        if (PSHM_UNLIKELY(AMQ_META_SP(meta))) {
            uint64_t off;
            __builtin_memcpy(&off, body, 8);
            /* Bounds: a corrupt offset must not make us read or write
             * outside the sender's pool. */
            if (off > ctx->amq->l.poolsz || ctx->amq->l.poolsz - off < AMQ_CHUNK_HDR + dsz ||
                dsz > AMQ_CHUNK_MAX) {
                *err = bad_message(ctx, ctx->nm.members[src], net, meta, nbytes,
                                   "its payload chunk lies outside the sender's pool");
                goto next;
            }
            chunk = (amq_chunk_t *)(rq->pool + off);
            data = (unsigned char *)chunk + AMQ_CHUNK_HDR;
        }
        if (cat == AMQ_MEDIUM)
            buf = data + PSHM_ALIGN_UP(4u * na, 8);
        if (PSHM_UNLIKELY(e->fn == NULL || (e->nargs != PSHM_AM_ANY_NARGS &&
                                            (unsigned)e->nargs != na) ||
                          cat > AMQ_LONG || na > PSHM_AM_MAX_ARGS ||
                          (cat == AMQ_MEDIUM && nbytes > PSHM_AM_MEDIUM_MAX))) {
            *err = bad_message(ctx, ctx->nm.members[src], net, meta, nbytes,
                               e->fn == NULL ? "that handler is not registered here"
                                             : "the argument count does not match the handler");
        } else {
            pshm_token_t tok = {ctx, ctx->nm.members[src], src, (uint8_t)net, 0};
            amq_in_handler++;
            e->fn(&tok, buf, (size_t)nbytes, (const uint32_t *)data, na);
            amq_in_handler--;
        }
        if (chunk)
            /* Release: the handler's reads of the chunk are done before the
             * sender may reuse it (its acquire in pool_reclaim). */
            atomic_store_explicit(&chunk->freed, 1, memory_order_release);
    next:
        rq->seq++;
        if (++rq->idx == depth)
            rq->idx = 0;
        n++;
        if (PSHM_UNLIKELY(*err < 0))
            break; /* one report per call: the caller sees its message */
    }
    if (n)
        /* Release: every read of these slots (handlers included) is done
         * before the sender sees them free (its acquire in amq_send). */
        atomic_store_explicit(&((amq_ctl_t *)rq->slots - 1)->consumed, rq->seq - 1,
                              memory_order_release);
    return n;
}

int amq_poll(pshm_ctx_t *ctx, unsigned netmask)
{
    struct amq *q = ctx->amq;
    const unsigned P = (unsigned)q->P;
    unsigned start, total = 0;
    int err = 0;

    /* Rotate the first sender so that every sender is served in turn. A
     * racy update with threads only skews the rotation. */
    start = atomic_load_explicit(&q->rot, memory_order_relaxed);
    atomic_store_explicit(&q->rot, start + 1 >= P ? 0 : start + 1, memory_order_relaxed);
    for (int net = 0; net < AMQ_NETS && err == 0; net++) {
        amq_rq_t *rqs = q->rq[net];
        if (!(netmask & (1u << net)))
            continue;
        for (unsigned i = 0, s = start; i < P && total < AMQ_POLL_MAX && err == 0; i++) {
            amq_rq_t *rq = &rqs[s];
            unsigned budget = AMQ_POLL_MAX - total < AMQ_POLL_BATCH ? AMQ_POLL_MAX - total
                                                                    : AMQ_POLL_BATCH;
            if (!q->threads) {
                total += poll_queue(ctx, rq, net, (int)s, budget, &err);
            } else if (amq_trylock(&rq->lock)) {
                total += poll_queue(ctx, rq, net, (int)s, budget, &err);
                amq_unlock(&rq->lock);
            }
            if (++s == P)
                s = 0;
        }
    }
    return err < 0 ? err : (int)total;
}

int pshm_poll(pshm_ctx_t *ctx)
{
    int rc;

    if (PSHM_UNLIKELY(ctx == NULL || ctx->state != CTX_ATTACHED || ctx->amq == NULL)) {
        rc = ctx_check(ctx, CTX_ATTACHED, "pshm_poll");
        return rc < 0 ? rc : pshm_err(-EINVAL, "pshm_poll: call pshm_attach first");
    }
    if (PSHM_UNLIKELY(amq_in_handler))
        return pshm_err(-EINVAL, "pshm_poll: cannot poll from inside a handler");
    rc = amq_poll(ctx, 3u);
    if (rc == 0) {
        /* A program that only polls must still learn of a dead peer: every
         * 1024 idle polls, at most every ~1 ms, check liveness. */
        struct amq *q = ctx->amq;
        uint32_t idle = atomic_load_explicit(&q->idle, memory_order_relaxed) + 1;
        atomic_store_explicit(&q->idle, idle, memory_order_relaxed);
        if (PSHM_UNLIKELY((idle & IDLE_CHECK_MASK) == 0)) {
            uint64_t now = pshm_now_ns();
            if (now >= q->next_check_ns) {
                q->next_check_ns = now + LIVE_CHECK_NS;
                rc = live_check(ctx, -1);
            }
        }
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
        rc = amq_poll(ctx, 3u);
        if (rc < 0)
            return rc;
        if (rc == 0 && (rc = ctx_wait_step(ctx, &spins)) < 0)
            return rc;
    }
    return 0;
}
