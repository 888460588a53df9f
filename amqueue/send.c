/*
 * send.c - handler registration and the request/reply calls.
 *
 * Ordering guarantee: messages from one sender to one receiver on one network
 * (requests, or replies) run their handlers in the order the send calls
 * completed (with threads: in the order they took the queue lock). Nothing is
 * promised between the two networks or between different senders.
 *
 * Threads (PSHM_INIT_THREADS): each outgoing queue has a lock held from the
 * room check to the release of the stamp; each pool has a lock held only to
 * carve a chunk (never while waiting); a poll takes each incoming queue with
 * a trylock, so concurrent pollers share the queues rather than wait. Locks
 * are always taken in the order incoming queue -> outgoing reply queue ->
 * pool, and a thread waiting for room holds at most its outgoing queue lock,
 * polling with trylocks, so no cycle can form. Without the flag no lock is
 * touched (one predictable branch).
 */
#include "amq_internal.h"

#include <errno.h>
#include <string.h>

_Thread_local amq_tls_t amq_tls __attribute__((tls_model("initial-exec")));

int pshm_am_register(pshm_ctx_t *ctx, const pshm_handler_entry_t *table, size_t count)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_am_register");

    if (rc < 0)
        return rc;
    if (table == NULL || count == 0)
        return pshm_err(-EINVAL, "pshm_am_register: the table is %s; pass at least one entry",
                        table == NULL ? "NULL" : "empty (count 0)");
    /* Check everything first so that a bad table changes nothing. */
    for (size_t i = 0; i < count; i++) {
        const pshm_handler_entry_t *e = &table[i];
        if (e->index < PSHM_AM_HANDLER_MIN || e->index > PSHM_AM_HANDLER_MAX)
            return pshm_err(-EINVAL, "pshm_am_register: entry %zu has index %u, outside %d..%d",
                            i, e->index, PSHM_AM_HANDLER_MIN, PSHM_AM_HANDLER_MAX);
        if (e->fn == NULL)
            return pshm_err(-EINVAL, "pshm_am_register: entry %zu (index %u) has a NULL function",
                            i, e->index);
        if (e->nargs < PSHM_AM_ANY_NARGS || e->nargs > PSHM_AM_MAX_ARGS)
            return pshm_err(-EINVAL, "pshm_am_register: entry %zu (index %u) has nargs %d; use "
                            "0..%d or PSHM_AM_ANY_NARGS (-1)", i, e->index, e->nargs,
                            PSHM_AM_MAX_ARGS);
    }
    for (size_t i = 0; i < count; i++) {
        unsigned h = table[i].index;
        bool any = table[i].nargs == PSHM_AM_ANY_NARGS;
        /* The fast keys' count: for any count, 0 until another is seen. */
        uint8_t na = any ? 0 : (uint8_t)table[i].nargs;
        ctx->handlers[h] = table[i];
        ctx->am_fn[h] = table[i].fn;
        ctx->am_nargs[h] = any ? AMQ_NARGS_ANY : na;
        ctx->am_nfast[h] = na;
        ctx->am_meta[h] = AMQ_META(h, na, AMQ_SHORT, 0) | (any ? AMQ_META_ANY : 0);
        ctx->am_fast[h].s = AMQ_META(h, na, AMQ_SHORT, 0);
        ctx->am_fast[h].m = AMQ_META(h, na, AMQ_MEDIUM, 0);
    }
    return 0;
}

size_t pshm_am_max_medium(const pshm_ctx_t *ctx)
{
    (void)ctx;
    return PSHM_AM_MEDIUM_MAX;
}

int amq_check_dest_flags(pshm_ctx_t *ctx, const char *fn, int dest, unsigned flags,
                         unsigned nargs)
{
    if (dest < 0 || dest >= ctx->size)
        return pshm_err(-EINVAL, "%s: destination rank %d is outside 0..%d", fn, dest,
                        ctx->size - 1);
    if (ctx_local(ctx, dest) < 0)
        return pshm_err(-EHOSTUNREACH, "%s: rank %d is not in this process's supernode (it is "
                        "on another host or supernode); send to it through another transport",
                        fn, dest);
    if (flags & ~PSHM_IMMEDIATE)
        return pshm_err(-EINVAL, "%s: unknown flags 0x%x (known: PSHM_IMMEDIATE)", fn,
                        flags & ~PSHM_IMMEDIATE);
    if (nargs > PSHM_AM_MAX_ARGS)
        return pshm_err(-EINVAL, "%s: %u arguments, at most %d allowed", fn, nargs,
                        PSHM_AM_MAX_ARGS);
    return 0;
}

/* Argument checks shared by every send; cold path in a separate function. */
int __attribute__((noinline, cold))
amq_send_bad(pshm_ctx_t *ctx, const char *fn, int dest, unsigned handler, const void *buf,
             uint64_t nbytes, unsigned flags, unsigned nargs, const uint32_t *args, int cat)
{
    const pshm_handler_entry_t *e;
    int rc = amq_check_dest_flags(ctx, fn, dest, flags, nargs);

    if (rc < 0)
        return rc;
    if (nargs > 0 && args == NULL)
        return pshm_err(-EINVAL, "%s: %u arguments but the args pointer is NULL", fn, nargs);
    if (cat != AMQ_SHORT && nbytes > 0 && buf == NULL)
        return pshm_err(-EINVAL, "%s: %llu bytes but the buffer is NULL", fn,
                        (unsigned long long)nbytes);
    if (cat == AMQ_MEDIUM && nbytes > PSHM_AM_MEDIUM_MAX)
        return pshm_err(-EINVAL, "%s: %llu bytes exceeds the Medium maximum of %u "
                        "(pshm_am_max_medium); send a Long message instead", fn,
                        (unsigned long long)nbytes, PSHM_AM_MEDIUM_MAX);
    if (handler < PSHM_AM_HANDLER_MIN || handler > PSHM_AM_HANDLER_MAX)
        return pshm_err(-EINVAL, "%s: handler index %u is outside %d..%d", fn, handler,
                        PSHM_AM_HANDLER_MIN, PSHM_AM_HANDLER_MAX);
    e = &ctx->handlers[handler];
    if (e->fn == NULL)
        return pshm_err(-EINVAL, "%s: handler %u is not registered (pshm_am_register it in "
                        "every process first)", fn, handler);
    if (e->nargs != PSHM_AM_ANY_NARGS && (unsigned)e->nargs != nargs)
        return pshm_err(-EINVAL, "%s: handler %u takes %d arguments, %u given", fn, handler,
                        e->nargs, nargs);
    return 0;
}

/* With no args, a NULL args pointer stands for this (one compare then). */
static const uint32_t no_args[1];

/* Copies args (and a Medium payload, 8-aligned after them, `pad` bytes
 * further in a chunk) to dst; `small` when everything fits a slot's body. */
static inline __attribute__((always_inline)) void
put_data(unsigned char *dst, unsigned nargs, const uint32_t *args, const void *buf, uint64_t nbytes,
         int cat, bool small, uint64_t pad)
{
    if (small) {
        amq_copy_args(dst, args, nargs);
        if (cat == AMQ_MEDIUM)
            amq_copy_small(dst + PSHM_ALIGN_UP(4u * nargs, 8), buf, nbytes);
        return;
    }
    if (nargs)
        memcpy(dst, args, 4u * nargs);
    if (cat == AMQ_MEDIUM && nbytes)
        memcpy(dst + PSHM_ALIGN_UP(4u * nargs, 8) + pad, buf, nbytes);
}

/* Waits one step for room: polls (replies only for a reply) and yields per
 * the wait policy. Returns 0 to retry or < 0. */
int amq_wait_room(pshm_ctx_t *ctx, int net, uint32_t *spins)
{
    int rc = amq_poll(ctx, net == AMQ_REP ? 1u << AMQ_REP : 3u);

    if (rc < 0)
        return rc;
    if (rc > 0) {
        *spins = 0; /* messages ran: an idle stretch starts again */
        return 0;
    }
    return ctx_wait_step(ctx, spins);
}

/* A Short of at most 2 args goes in a cell, anything else in a slot. */
static inline bool is_cell(int cat, unsigned nargs)
{
    return cat == AMQ_SHORT && nargs <= AMQ_CELL_NARGS;
}

/* Fills the cell or slot at sq->slot (room checked, an open line ended
 * before a slot, chunk filled) and publishes it; `job`: the meta bits of a
 * copy job carrying a Long's payload. */
static inline __attribute__((always_inline)) void
post(amq_sq_t *sq, unsigned handler, int cat, bool spill, uint64_t off, const void *buf,
     uint64_t nbytes, uint64_t raddr, unsigned nargs, const uint32_t *args, uint32_t job)
{
    amq_slot_t *s = (amq_slot_t *)sq->slot;
    unsigned char *body = s->body;

    if (is_cell(cat, nargs)) {
        amq_post_cell(sq, AMQ_META(handler, nargs, AMQ_SHORT, 0), args, nargs, false);
        return;
    }
    s->meta = AMQ_META(handler, nargs, cat, spill) | job;
    if (cat == AMQ_SHORT && !spill) {
        /* A Short's args start at byte 8, as in a cell (amq_slot_t). */
        amq_copy_args((unsigned char *)&s->nbytes, args, nargs);
        amq_publish(sq, s);
        return;
    }
    if (cat != AMQ_SHORT)
        s->nbytes = nbytes; /* a Short's is not read */
    if (cat == AMQ_LONG) {
        __builtin_memcpy(body, &raddr, 8);
        body += 8;
    }
    if (spill)
        __builtin_memcpy(body, &off, 8);
    else
        put_data(body, nargs, args, buf, nbytes, cat, true, 0);
    amq_publish(sq, s);
}

/*
 * Waits (polling) for room for one message on sq: a cell of the open line,
 * else a line to start (an open line is ended first when a slot is due),
 * and when `spill`, a chunk of dsz data bytes in the pool (its offset in
 * *off). With PSHM_IMMEDIATE, -EAGAIN instead of waiting. sq is the
 * caller's (its lock taken with threads).
 */
int amq_reserve(pshm_ctx_t *ctx, amq_sq_t *sq, unsigned flags, bool cell, bool spill,
                uint64_t dsz, uint64_t *off)
{
    struct amq *q = ctx->amq;
    uint32_t spins = 0;
    int rc;

    if (amq_mid(sq)) {
        if (cell)
            return 0; /* the open line has a cell; a cell never spills */
        amq_end_line(sq);
        /* The skip mark may be what the receiver must pass before this
         * sender's next line has room: it hears of it now. */
        amq_ring(sq);
    }
    /* Room to start line seq: seq - cached <= depth (unsigned, amq_sq_t). */
    while (sq->seq - sq->cached > q->l.depth && !amq_room(sq, q->l.depth)) {
        if (flags & PSHM_IMMEDIATE)
            return pshm_err(-EAGAIN, "the queue to rank %d is full (depth %u); retry after "
                            "polling", ctx->nm.members[sq->dlocal], q->l.depth);
        if ((rc = amq_wait_room(ctx, sq->net, &spins)) < 0)
            return rc;
    }
    if (spill) {
        amq_pool_t *p = &q->pool[sq->net];
        uint64_t need = PSHM_ALIGN_UP(AMQ_CHUNK_HDR + dsz, AMQ_LINE);
        for (spins = 0;;) {
            if (q->threads)
                amq_lock(&p->lock);
            *off = amq_pool_alloc(p, need, sq->dlocal, sq->seq);
            if (q->threads)
                amq_unlock(&p->lock);
            if (PSHM_LIKELY(*off != UINT64_MAX))
                break;
            if (flags & PSHM_IMMEDIATE) {
                char a[32];
                return pshm_err(-EAGAIN, "the payload pool is full (%s in use); retry after "
                                "polling", pshm_fmt_size(a, sizeof a, amq_pool_used(p)));
            }
            if ((rc = amq_wait_room(ctx, sq->net, &spins)) < 0)
                return rc;
        }
    }
    return 0;
}

/*
 * A Medium in a chunk, when a line of the queue is known free (sq->avail:
 * never with threads, to self, or while the queue is prepared) and the
 * chunk fits before the pool's limit: carved inline as the prepare's fast
 * path does, none of send_slow's set-up; false (nothing done) otherwise.
 * A handler that read its request's payload just before replying waits
 * for that read's miss; the shorter the path from there to the reply's
 * stores, the more of the miss the core overlaps with them (section 13 of
 * README.PSHM). The chunk's `filled` mark is left alone: without threads
 * the reclaim does not look at it.
 */
static inline __attribute__((always_inline)) bool
send_chunk_fast(amq_sq_t *sq, unsigned handler, const void *buf, uint64_t nbytes, unsigned nargs,
                const uint32_t *args, uint64_t dsz)
{
    const uint64_t need = PSHM_ALIGN_UP(AMQ_CHUNK_HDR + dsz, AMQ_LINE);
    const uint64_t pad = dsz - PSHM_ALIGN_UP(4u * nargs, 8) - nbytes;
    uint64_t off;

    if (sq->avail == 0 ||
        (!amq_pool_fits(sq->pool, need) && !amq_pool_restart(sq->pool, need, sq->dlocal)))
        return false;
    amq_end_line(sq);
    sq->avail--;
    off = amq_pool_take(sq->pool, need, sq->dlocal, sq->seq);
    put_data((unsigned char *)sq->pool->base + off + AMQ_CHUNK_HDR, nargs, args, buf, nbytes,
             AMQ_MEDIUM, false, pad);
    post(sq, handler, AMQ_MEDIUM, true, off, buf, nbytes, 0, nargs, args, AMQ_META_PAD(pad));
    amq_ring(sq);
    return true;
}

/*
 * The general send path: threads, a queue whose known room is used up, a
 * payload that spills into the pool, a Long large enough to share its copy
 * (`try_job`, synergy.c). For a Long, `ldst` is where the payload goes in
 * this process's view and `raddr` the same place in the destination's view.
 */
static int __attribute__((noinline))
send_slow(pshm_ctx_t *ctx, amq_sq_t *sq, unsigned handler, int cat, const void *buf,
          uint64_t nbytes, void *ldst, uint64_t raddr, unsigned flags, unsigned nargs,
          const uint32_t *args, bool spill, uint64_t dsz, bool try_job)
{
    struct amq *q = ctx->amq;
    uint64_t off = 0;
    /* A Medium's payload pad in its chunk (amq_send put it in dsz). */
    uint64_t pad = cat == AMQ_MEDIUM && spill ? dsz - PSHM_ALIGN_UP(4u * nargs, 8) - nbytes : 0;
    uint32_t job = 0;
    int net = sq->net, rc = 0;

    /* Its next slot is reserved for a prepared message (prepare.c): with
     * threads, by this thread's (another one's waits for the lock). */
    if (PSHM_UNLIKELY(q->threads ? amq_prepared_by_me(sq) : sq->prepared))
        amq_prep_stale(); /* left by a handler that returned? */
    if (PSHM_UNLIKELY(q->threads ? amq_prepared_by_me(sq) : sq->prepared))
        return pshm_err(-EINVAL, "a prepared message to rank %d is not committed yet; commit "
                        "it before sending another on that queue", ctx->nm.members[sq->dlocal]);
    if (q->threads)
        amq_lock(&sq->lock);
    if ((rc = amq_reserve(ctx, sq, flags, is_cell(cat, nargs), spill, dsz, &off)) < 0)
        goto out;
    if (spill) {
        amq_pool_t *p = &q->pool[net];
        put_data((unsigned char *)p->base + off + AMQ_CHUNK_HDR, nargs, args, buf, nbytes, cat,
                 false, pad);
        amq_chunk_filled(p, off);
    }
    /* A shared copy is announced by the Long itself, before its payload is
     * copied: the receiver helps, and runs the handler once all is done. */
    if (try_job && !amq_job_open(ctx, sq->dlocal, ldst, buf, nbytes, &job))
        job = 0;
    if (cat == AMQ_LONG && nbytes && !job)
        memcpy(ldst, buf, nbytes);
    post(sq, handler, cat, spill, off, buf, nbytes, raddr, nargs, args, job | AMQ_META_PAD(pad));
    amq_ring(sq);
    if (sq->dlocal == q->me)
        amq_self_posted();
out:
    /* Posted or not, what is known free now (seq - 1 - cached in flight).
     * None known while the line is open: the count is read again now, else
     * each cell left in the line would come here. */
    if (q->threads) {
        amq_unlock(&sq->lock);
    } else {
        amq_avail_update(q, sq);
        if (sq->avail == 0 && sq->dlocal != q->me && amq_mid(sq)) {
            (void)amq_room(sq, q->l.depth);
            amq_avail_update(q, sq);
        }
    }
    if (job)
        rc = amq_job_run(ctx); /* the queue's lock is not held meanwhile */
    return rc;
}

/* A cell's send_slow, its arguments in registers so that the callers'
 * fast path needs no stack frame. */
static int __attribute__((noinline))
send_cell_slow(pshm_ctx_t *ctx, amq_sq_t *sq, unsigned handler, unsigned flags, unsigned nargs,
               const uint32_t *args)
{
    return send_slow(ctx, sq, handler, AMQ_SHORT, NULL, 0, NULL, 0, flags, nargs, args, false,
                     4u * nargs, false);
}

/* The same for a reply through token t, marked replied once it is sent. */
static int __attribute__((noinline))
reply_cell_slow(pshm_token_t *t, unsigned handler, unsigned flags, unsigned nargs,
                const uint32_t *args)
{
    int rc = send_cell_slow(t->ctx, t->rsq, handler, flags, nargs, args);

    if (rc == 0)
        t->state = AMQ_TOK_REPLIED;
    return rc;
}

/* The send path, inlined into each public call: with room known in the
 * queue (never with threads, see amq_sq_t) and data that fits the slot, a
 * message is one slot written; anything else goes to send_slow. A message
 * to self takes the slow path too, which tells the poll (amq_self_posted).
 * `t`: a reply's token, marked replied once the reply is sent; NULL for a
 * request. */
static inline __attribute__((always_inline)) int
amq_send(pshm_ctx_t *ctx, amq_sq_t *sq, pshm_token_t *t, unsigned handler, int cat,
         const void *buf, uint64_t nbytes, void *ldst, uint64_t raddr, unsigned flags,
         unsigned nargs, const uint32_t *args)
{
    uint64_t dsz;
    bool spill;
    int rc;

    /* avail != 0: a line may be started, so a cell or a slot has room. A
     * cell in the open line takes none; one that starts a line, or a slot,
     * takes one (a slot after a skip mark when the line is open). */
    if (is_cell(cat, nargs)) {
        if (PSHM_LIKELY(sq->avail != 0)) {
            /* Marked first: the post cannot fail, and t is then dead. */
            if (t != NULL)
                t->state = AMQ_TOK_REPLIED;
            amq_post_cell(sq, AMQ_META(handler, nargs, AMQ_SHORT, 0), args, nargs, true);
            amq_ring(sq); /* a wide layout's bell: one test below AMQ_WIDE_MIN */
            return 0;
        }
        /* A wide layout's queues are short (a line at P = 256 by default):
         * a cell in the open line needs no room (not while prepared: the
         * prepare ended the line), where avail is 0 until the line ends. */
        if (sq->wfast && amq_mid(sq) && !sq->prepared) {
            if (t != NULL)
                t->state = AMQ_TOK_REPLIED;
            amq_post_cell(sq, AMQ_META(handler, nargs, AMQ_SHORT, 0), args, nargs, false);
            amq_ring(sq);
            return 0;
        }
        return t != NULL ? reply_cell_slow(t, handler, flags, nargs, args)
                         : send_cell_slow(ctx, sq, handler, flags, nargs, args);
    }
    dsz = 4u * nargs;
    if (cat == AMQ_MEDIUM && nbytes)
        dsz = PSHM_ALIGN_UP(dsz, 8) + nbytes;
    spill = dsz > AMQ_BODY - (cat == AMQ_LONG ? 8 : 0);
    if (cat == AMQ_MEDIUM && spill)
        dsz += amq_medium_pad((uintptr_t)buf, nargs);
    if (cat == AMQ_LONG && PSHM_UNLIKELY(nbytes >= ctx->cfg.synergy_min)) {
        rc = send_slow(ctx, sq, handler, cat, buf, nbytes, ldst, raddr, flags, nargs, args,
                       spill, dsz, true);
    } else if (PSHM_LIKELY(sq->avail != 0 && !spill)) {
        amq_end_line(sq);
        sq->avail--;
        if (cat == AMQ_LONG && nbytes)
            memcpy(ldst, buf, nbytes);
        post(sq, handler, cat, false, 0, buf, nbytes, raddr, nargs, args, 0);
        amq_ring(sq);
        rc = 0;
    } else if (cat == AMQ_MEDIUM && send_chunk_fast(sq, handler, buf, nbytes, nargs, args, dsz)) {
        rc = 0;
    } else {
        rc = send_slow(ctx, sq, handler, cat, buf, nbytes, ldst, raddr, flags, nargs, args,
                       spill, dsz, false);
    }
    if (t != NULL && rc == 0)
        t->state = AMQ_TOK_REPLIED;
    return rc;
}

/* Long target: [raddr, raddr + n) must lie in dest's segment (owner view). */
int amq_long_target(pshm_ctx_t *ctx, const char *fn, int dlocal, const void *dest_addr,
                    uint64_t n, void **ldst)
{
    const pshm_seginfo_t *si = &ctx->seginfo[dlocal];
    uintptr_t a = (uintptr_t)dest_addr;

    if (a < si->owner_base || a - si->owner_base > si->size || n > si->size - (a - si->owner_base))
        return pshm_err(-EFAULT, "%s: %llu bytes at %p do not lie in the %zu-byte segment of "
                        "rank %d (at %#lx in its view)", fn, (unsigned long long)n, dest_addr,
                        si->size, ctx->nm.members[dlocal], (unsigned long)si->owner_base);
    *ldst = (void *)(a + (uintptr_t)ctx->seg_delta[dlocal]);
    return 0;
}

/* Debug: a Long whose source overlaps its destination would be copied with
 * memcpy, whose result is undefined for overlapping ranges. */
static int long_overlap(const char *fn, const void *buf, const void *ldst, uint64_t n)
{
    uintptr_t s = (uintptr_t)buf, d = (uintptr_t)ldst;

    if (n == 0 || s + n <= d || d + n <= s)
        return 0;
    return pshm_err(-EINVAL, "%s: the %llu-byte source at %p overlaps its destination (%p "
                    "here); copy it aside first", fn, (unsigned long long)n, buf, ldst);
}

/* Why a request was refused (the checks of request() in their order, with
 * their messages). */
static int __attribute__((noinline, cold))
request_bad(pshm_ctx_t *ctx, const char *fn, int dest, unsigned handler, const void *buf,
            uint64_t nbytes, unsigned flags, unsigned nargs, const uint32_t *args, int cat)
{
    int rc;

    if (!ctx_attached(ctx)) {
        rc = ctx_check(ctx, CTX_ATTACHED, fn);
        return rc < 0 ? rc : pshm_err(-EINVAL, "%s: call pshm_attach first", fn);
    }
    if ((rc = amq_send_bad(ctx, fn, dest, handler, buf, nbytes, flags, nargs, args, cat)) < 0)
        return rc;
    return pshm_err(-EINVAL, "%s: a handler may not send a request (it could deadlock); "
                    "reply through the token instead", fn);
}

/* The same for a Short, its arguments in registers: the fast path of
 * pshm_am_request_short then needs no stack frame. */
static int __attribute__((noinline, cold))
request_short_bad(pshm_ctx_t *ctx, int dest, unsigned handler, unsigned flags, unsigned nargs,
                  const uint32_t *args)
{
    return request_bad(ctx, "pshm_am_request_short", dest, handler, NULL, 0, flags, nargs, args,
                       AMQ_SHORT);
}

/* request() and reply() are inlined into each public call, so that the
 * category is a constant and its dead branches vanish from the fast path. */
static inline __attribute__((always_inline)) int
request(pshm_ctx_t *ctx, const char *fn, int dest, unsigned handler, int cat,
                   const void *buf, uint64_t nbytes, void *dest_addr, unsigned flags,
                   unsigned nargs, const uint32_t *args)
{
    amq_sq_t *sq;
    void *ldst = NULL;
    int rc;

    /* One unlikely branch for every refusal; the messages are made on the
     * cold path. */
    if (PSHM_UNLIKELY(!ctx_attached(ctx) || (unsigned)dest >= (unsigned)ctx->size ||
                      (sq = ctx->req_sq[dest]) == NULL ||
                      !amq_send_ok(ctx, handler, buf, nbytes, flags, nargs, cat) ||
                      amq_in_handler))
        goto bad;
    if (PSHM_UNLIKELY(args == NULL)) {
        if (nargs)
            goto bad;
        args = no_args;
    }
    /* A Short's count, bounded off a cell's path (amq_send_ok). */
    if (cat == AMQ_SHORT && !is_cell(cat, nargs) && PSHM_UNLIKELY(nargs > PSHM_AM_MAX_ARGS))
        goto bad;
    if (cat == AMQ_LONG &&
        (rc = amq_long_target(ctx, fn, sq->dlocal, dest_addr, nbytes, &ldst)) < 0)
        return rc;
    if (AMQ_DEBUG && cat == AMQ_LONG && (rc = long_overlap(fn, buf, ldst, nbytes)) < 0)
        return rc;
    return amq_send(ctx, sq, NULL, handler, cat, buf, nbytes, ldst,
                    (uint64_t)(uintptr_t)dest_addr, flags, nargs, args);
bad:
    return cat == AMQ_SHORT
               ? request_short_bad(ctx, dest, handler, flags, nargs, args)
               : request_bad(ctx, fn, dest, handler, buf, nbytes, flags, nargs, args, cat);
}

int __attribute__((noinline, cold)) amq_reply_bad(const pshm_token_t *t, const char *fn)
{
    if (t == NULL)
        return pshm_err(-EINVAL, "%s: the token is NULL", fn);
    if (t->state == AMQ_TOK_NOREPLY)
        return pshm_err(-EINVAL, "%s: a reply handler may not reply (handler of a message "
                        "from rank %d)", fn, t->src);
    if (t->state == AMQ_TOK_PREPARED)
        return pshm_err(-EINVAL, "%s: this handler prepared a reply (to rank %d); commit it "
                        "instead", fn, t->src);
    return pshm_err(-EINVAL, "%s: this request (from rank %d) was already replied to; a "
                    "request handler replies at most once", fn, t->src);
}

/* Why a Short reply was refused by amq_send_ok, or for its NULL args, its
 * arguments in registers: the fast path of pshm_am_reply_short then needs
 * no stack frame. */
static int __attribute__((noinline, cold))
reply_short_bad(const pshm_token_t *t, unsigned handler, unsigned flags, unsigned nargs,
                const uint32_t *args)
{
    return amq_send_bad(t->ctx, "pshm_am_reply_short", t->src, handler, NULL, 0, flags, nargs,
                        args, AMQ_SHORT);
}

/* A Short reply that takes a slot (more than 2 args): apart, so that the
 * cell's path of pshm_am_reply_short keeps no stack frame. */
static int __attribute__((noinline))
reply_short_slot(pshm_token_t *t, unsigned handler, unsigned flags, unsigned nargs,
                 const uint32_t *args)
{
    return amq_send(t->ctx, t->rsq, t, handler, AMQ_SHORT, NULL, 0, NULL, 0, flags, nargs, args);
}

static inline __attribute__((always_inline)) int
reply(pshm_token_t *t, const char *fn, unsigned handler, int cat, const void *buf,
                 uint64_t nbytes, void *dest_addr, unsigned flags, unsigned nargs,
                 const uint32_t *args)
{
    pshm_ctx_t *ctx;
    void *ldst = NULL;
    int rc;

    /* state 0: a request's handler that has not replied yet. */
    if (PSHM_UNLIKELY(t == NULL || t->state != 0))
        return amq_reply_bad(t, fn);
    if (AMQ_DEBUG && t != amq_cur_token)
        return pshm_err(-EINVAL, "%s: this token is not the one of the handler running now "
                        "(a token is valid only inside its own handler)", fn);
    ctx = t->ctx;
    if (PSHM_UNLIKELY(!amq_send_ok(ctx, handler, buf, nbytes, flags, nargs, cat)))
        goto bad;
    if (PSHM_UNLIKELY(args == NULL)) {
        if (nargs)
            goto bad;
        args = no_args;
    }
    if (cat == AMQ_LONG &&
        (rc = amq_long_target(ctx, fn, t->src_local, dest_addr, nbytes, &ldst)) < 0)
        return rc;
    if (AMQ_DEBUG && cat == AMQ_LONG && (rc = long_overlap(fn, buf, ldst, nbytes)) < 0)
        return rc;
    if (cat == AMQ_SHORT && !is_cell(cat, nargs)) {
        if (PSHM_UNLIKELY(nargs > PSHM_AM_MAX_ARGS)) /* bounded here (amq_send_ok) */
            goto bad;
        return reply_short_slot(t, handler, flags, nargs, args);
    }
    return amq_send(ctx, t->rsq, t, handler, cat, buf, nbytes, ldst,
                    (uint64_t)(uintptr_t)dest_addr, flags, nargs, args);
bad:
    return cat == AMQ_SHORT
               ? reply_short_bad(t, handler, flags, nargs, args)
               : amq_send_bad(ctx, fn, t->src, handler, buf, nbytes, flags, nargs, args, cat);
}

int pshm_am_request_short(pshm_ctx_t *ctx, int dest, unsigned handler, unsigned flags,
                          unsigned nargs, const uint32_t *args)
{
    return request(ctx, "pshm_am_request_short", dest, handler, AMQ_SHORT, NULL, 0, NULL, flags,
                   nargs, args);
}

int pshm_am_request_medium(pshm_ctx_t *ctx, int dest, unsigned handler, const void *buf,
                           size_t nbytes, unsigned flags, unsigned nargs, const uint32_t *args)
{
    return request(ctx, "pshm_am_request_medium", dest, handler, AMQ_MEDIUM, buf, nbytes, NULL,
                   flags, nargs, args);
}

int pshm_am_request_long(pshm_ctx_t *ctx, int dest, unsigned handler, const void *buf,
                         size_t nbytes, void *dest_addr, unsigned flags, unsigned nargs,
                         const uint32_t *args)
{
    return request(ctx, "pshm_am_request_long", dest, handler, AMQ_LONG, buf, nbytes, dest_addr,
                   flags, nargs, args);
}

int pshm_am_reply_short(pshm_token_t *token, unsigned handler, unsigned flags, unsigned nargs,
                        const uint32_t *args)
{
    return reply(token, "pshm_am_reply_short", handler, AMQ_SHORT, NULL, 0, NULL, flags, nargs,
                 args);
}

int pshm_am_reply_medium(pshm_token_t *token, unsigned handler, const void *buf, size_t nbytes,
                         unsigned flags, unsigned nargs, const uint32_t *args)
{
    return reply(token, "pshm_am_reply_medium", handler, AMQ_MEDIUM, buf, nbytes, NULL, flags,
                 nargs, args);
}

int pshm_am_reply_long(pshm_token_t *token, unsigned handler, const void *buf, size_t nbytes,
                       void *dest_addr, unsigned flags, unsigned nargs, const uint32_t *args)
{
    return reply(token, "pshm_am_reply_long", handler, AMQ_LONG, buf, nbytes, dest_addr, flags,
                 nargs, args);
}

int pshm_token_source(const pshm_token_t *token)
{
    if (token == NULL)
        return pshm_err(-EINVAL, "pshm_token_source: the token is NULL");
    return token->src;
}

pshm_ctx_t *pshm_token_ctx(const pshm_token_t *token)
{
    return token == NULL ? NULL : token->ctx;
}
