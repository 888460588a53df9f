/*
 * poll.c - the receiver: running handlers, pshm_poll, pshm_wait_until.
 *
 * The idle cost of a poll is one load per incoming queue of the other
 * processes (2 (P - 1)), of the slot the receiver expects next: a line that
 * stays in its cache until the sender writes it; from AMQ_WIDE_MIN
 * processes on, one load of the bell line (wide_busy). All consumer state is
 * private (amq_rq_t); the shared consumer count is written once per visit
 * of a queue, never read here.
 */
#include "amq_internal.h"

#include <errno.h>

static int __attribute__((noinline, cold))
bad_message(pshm_ctx_t *ctx, int src, int net, uint32_t meta, uint64_t nbytes, const char *why)
{
    ctx->amq->nbad++;
    return pshm_err(-EPROTO, "pshm_poll: dropped a %s from rank %d for handler %u (%u args, "
                    "%llu bytes): %s; register the same handler table in every process",
                    net == AMQ_REQ ? "request" : "reply", src, AMQ_META_H(meta),
                    AMQ_META_NA(meta), (unsigned long long)nbytes, why);
}

/*
 * A message other than a Short with inline data: decodes where its data
 * and payload are, checks them, runs the handler. Returns 0, or < 0 when
 * the message was dropped (its chunk is released all the same).
 */
static int __attribute__((noinline))
run_other(pshm_ctx_t *ctx, pshm_token_t *tok, amq_slot_t *s, uint32_t meta)
{
    struct amq *q = ctx->amq;
    unsigned na = AMQ_META_NA(meta), cat = AMQ_META_CAT(meta), h = AMQ_META_H(meta);
    /* A Short's nbytes field is not written (post). */
    uint64_t nbytes = cat == AMQ_SHORT ? 0 : s->nbytes, dsz;
    unsigned char *body = s->body, *data;
    amq_chunk_t *chunk = NULL;
    void *buf = NULL;
    int rc = 0;

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
        if (cat == AMQ_MEDIUM)
            dsz = PSHM_ALIGN_UP(dsz, 8) + AMQ_META_PAD_BYTES(meta) + nbytes;
        __builtin_memcpy(&off, body, 8);
        /* Bounds: a corrupt offset must not make us read or write outside
         * the sender's pool. */
        if (off > q->l.poolsz || q->l.poolsz - off < AMQ_CHUNK_HDR + dsz ||
            dsz > AMQ_CHUNK_MAX)
            return bad_message(ctx, tok->src, tok->net, meta, nbytes,
                               "its payload chunk lies outside the sender's pool");
        chunk = (amq_chunk_t *)(q->region + q->l.off_pool +
                                ((uint64_t)tok->src_local * AMQ_NETS + tok->net) * q->l.poolsz +
                                off);
        data = (unsigned char *)chunk + AMQ_CHUNK_HDR;
    } else if (cat == AMQ_MEDIUM && nbytes + PSHM_ALIGN_UP(4u * na, 8) > AMQ_BODY)
        /* Said to be inline: the handler would read past the slot. */
        return bad_message(ctx, tok->src, tok->net, meta, nbytes,
                           "its payload is said to be in the slot but does not fit there");
    if (cat == AMQ_MEDIUM)
        buf = data + PSHM_ALIGN_UP(4u * na, 8) + (chunk ? AMQ_META_PAD_BYTES(meta) : 0);
    /* A copy job (synergy.c): help with it; a Long's handler runs once the
     * whole payload is there. An AMQ_HELP message has nothing else. */
    if (AMQ_META_HAS_JOB(meta) && (cat == AMQ_LONG || cat == AMQ_HELP)) {
        rc = amq_job_help(ctx, tok->src_local, meta, cat == AMQ_LONG);
        if (cat == AMQ_HELP)
            return rc;
    }
    if (rc < 0) {
        /* the wait for the sender's chunks failed: dropped, rc reported */
    } else if (PSHM_UNLIKELY(cat > AMQ_LONG || (cat == AMQ_MEDIUM && nbytes > PSHM_AM_MEDIUM_MAX))) {
        rc = bad_message(ctx, tok->src, tok->net, meta, nbytes,
                         "its category or size is invalid");
    } else if (PSHM_UNLIKELY(na > PSHM_AM_MAX_ARGS ||
                             (ctx->am_nargs[h] != na && ctx->am_nargs[h] != AMQ_NARGS_ANY))) {
        rc = bad_message(ctx, tok->src, tok->net, meta, nbytes,
                         ctx->am_nargs[h] == AMQ_NARGS_NONE
                             ? "that handler is not registered here"
                             : "the argument count does not match the handler");
    } else {
        ctx->handlers[h].fn(tok, buf, (size_t)nbytes, (const uint32_t *)data, na);
    }
    /* The chunk is the sender's again once poll_queue stores the queue's
     * consumer count (release), after this handler returned. */
    return rc;
}

/* A Short the fast path did not take: one to drop (no sender writes more
 * args inline than 12, nor sets unknown meta bits), or one whose handler
 * was registered after the fast path read its key. Its args are at byte 8
 * of its cell or slot. */
static int __attribute__((noinline))
run_short_any(pshm_ctx_t *ctx, pshm_token_t *tok, amq_slot_t *s, uint32_t meta)
{
    unsigned na = AMQ_META_NA(meta), h = AMQ_META_H(meta);

    if (meta >> 16)
        return bad_message(ctx, tok->src, tok->net, meta, 0, "its meta word has unknown bits set");
    if (4 * na > AMQ_BODY)
        return bad_message(ctx, tok->src, tok->net, meta, 0,
                           "its arguments are said to be inline but do not fit there");
    if (ctx->am_nargs[h] != AMQ_NARGS_ANY)
        return bad_message(ctx, tok->src, tok->net, meta, 0,
                           ctx->am_nargs[h] == AMQ_NARGS_NONE
                               ? "that handler is not registered here"
                               : "the argument count does not match the handler");
    ctx->handlers[h].fn(tok, NULL, 0, AMQ_SHORT_ARGS(s), na);
    return 0;
}

/* The bits of a Medium's meta word that vary for one handler: spilled, and
 * the pad of a chunk. The rest, with the category, must be the handler's
 * key (ctx->am_meta) for medium_call: its exact count, or any count of at
 * most 16 for a handler of any count; no other bit set. */
#define MEDIUM_VAR (1u << 15 | 7u << 16)
/* A meta word's count (AMQ_META_NA): masked for a handler of any count. */
#define MEDIUM_NA (0x1fu << 8)
_Static_assert(AMQ_CHUNK_HDR + PSHM_ALIGN_UP(4 * PSHM_AM_MAX_ARGS, 8) + 56 + PSHM_AM_MEDIUM_MAX <=
                   AMQ_CHUNK_MAX,
               "medium_call's bound: a chunk of a handler's count fits AMQ_CHUNK_MAX");
#define MEDIUM_KEY (AMQ_MEDIUM << 13)

/* A handler of any count took meta, a Short's or (`medium`) a Medium's
 * without its spill and pad bits: its fast key for the next messages
 * (ctx->am_fast), without threads. `call`: in a call, for poll_queue's
 * loop, which then keeps no register nor address for this store (in
 * its loop they cost an instruction a message); else inline, for the
 * paths of one message, where a call would cost a frame. The index is
 * taken through an empty asm, so that its address is not computed ahead
 * to share with the first compare's load. */
static void __attribute__((noinline, cold)) fast_key_call(pshm_ctx_t *ctx, uint32_t meta,
                                                           bool medium);
static inline __attribute__((always_inline)) void fast_key_set(pshm_ctx_t *ctx, uint32_t meta,
                                                               bool medium, bool call)
{
    unsigned h = AMQ_META_H(meta);

    if (call) {
        fast_key_call(ctx, meta, medium);
        return;
    }
    if (ctx->flags & PSHM_INIT_THREADS)
        return;
    __asm__("" : "+r"(h));
    if (medium)
        ctx->am_fast[h].m = meta;
    else
        ctx->am_fast[h].s = meta;
}
static void fast_key_call(pshm_ctx_t *ctx, uint32_t meta, bool medium)
{
    fast_key_set(ctx, meta, medium, false);
}

/* Whether meta is that of a Medium to handler h (its low 8 bits), for
 * medium_call: one compare with the handler's fast key (ctx->am_fast, as
 * short_inline's); on a miss, for a handler of any count (whose key has
 * bit 31 set and a count of 0, see AMQ_META_ANY: the count masked and bit
 * 31 flipped, a meta with bit 31 set misses), a second of at most 16 args,
 * which then becomes the fast key without threads (`call`: see
 * fast_key_set). */
static inline bool medium_fast(pshm_ctx_t *ctx, uint32_t meta, unsigned h, bool call)
{
    const uint32_t m = meta & ~MEDIUM_VAR;

    if (PSHM_LIKELY(m == ctx->am_fast[h].m))
        return true;
    if (((m & ~MEDIUM_NA) ^ AMQ_META_ANY) != (ctx->am_meta[h] | MEDIUM_KEY) ||
        AMQ_META_NA(meta) > PSHM_AM_MAX_ARGS)
        return false;
    fast_key_set(ctx, m, true, call);
    return true;
}

/*
 * A Medium whose meta word medium_fast matched (its handler's count, or at
 * most 16 args to a handler of any count): the payload inline, or in the
 * sender's chunk, is found from the queue's pool (x->pool) and handed over
 * with no other decoding. The checks are run_other's, which reports what
 * fails.
 */
static inline __attribute__((always_inline)) int
medium_call(pshm_ctx_t *ctx, amq_rqx_t *x, amq_slot_t *s, uint32_t meta)
{
    const uint64_t nbytes = s->nbytes, poolsz = ctx->amq->l.poolsz;
    const unsigned na = AMQ_META_NA(meta);
    const uint64_t argsz = PSHM_ALIGN_UP(4u * na, 8);
    unsigned char *data = s->body, *buf;

    if (AMQ_META_SP(meta)) {
        uint64_t off, dsz = argsz + AMQ_META_PAD_BYTES(meta) + nbytes;
        __builtin_memcpy(&off, data, 8);
        /* With nbytes checked first, the chunk is at most AMQ_CHUNK_MAX
         * (the count is at most 16: medium_fast matched it), which every
         * pool holds, so the subtraction cannot wrap. */
        if (PSHM_UNLIKELY(nbytes > PSHM_AM_MEDIUM_MAX || off > poolsz - (AMQ_CHUNK_HDR + dsz)))
            return run_other(ctx, &x->tok, s, meta);
        data = (unsigned char *)x->pool + off + AMQ_CHUNK_HDR;
        buf = data + argsz + AMQ_META_PAD_BYTES(meta);
    } else {
        /* argsz first: 13 or more args do not fit the body, and the
         * subtraction would wrap. */
        if (PSHM_UNLIKELY(argsz > AMQ_BODY || nbytes > AMQ_BODY - argsz))
            return run_other(ctx, &x->tok, s, meta);
        buf = data + argsz;
    }
    ctx->am_fn[AMQ_META_H(meta)](&x->tok, buf, (size_t)nbytes, (const uint32_t *)data, na);
    return 0;
}

/* medium_call as a call, for poll_queue's loop. */
static int __attribute__((noinline))
run_medium(pshm_ctx_t *ctx, amq_rqx_t *x, amq_slot_t *s, uint32_t meta)
{
    return medium_call(ctx, x, s, meta);
}

/* Lines fetched ahead of the one being handled: a stream's next lines are
 * usually written already, and fetching them while a handler runs overlaps
 * their transfers from the sender's cache instead of paying them in turn. */
#define PREFETCH_AHEAD 4u

/* Whether the cell a queue expects next carries the expected stamp. Relaxed:
 * poll_queue takes the message with an acquire load. */
static inline bool rq_hit(const amq_rq_t *r)
{
    return atomic_load_explicit(&atomic_load_explicit(&r->s, memory_order_relaxed)->stamp,
                                memory_order_relaxed) ==
           atomic_load_explicit(&r->seq, memory_order_relaxed);
}

/* Puts bits of a wide layout's bell word w back, with the bell line's
 * word 0, so that the next poll serves those queues (see wide_busy). */
static inline void wide_put_back(struct amq *q, uint32_t w, uint64_t bits)
{
    /* Relaxed: this thread reads them again itself. */
    atomic_fetch_or_explicit(&q->bells[w], bits, memory_order_relaxed);
    atomic_store_explicit(q->armed, 0, memory_order_relaxed);
}

/* Whether no incoming queue other than `rq` has a message (all of them,
 * the queues to self included). With bells (a wide layout), whether no
 * queue rang since the bell words were taken (the bell line's word still
 * 1: a ring of rq's own sender counts too, and ends the batch, whose bit
 * then goes back), and the queues to self, which do not ring. The queues
 * whose bits wide_serve took and has not served yet are not seen: it
 * serves them in the same call, up to AMQ_POLL_MAX messages. */
static bool __attribute__((noinline)) alone(const pshm_ctx_t *ctx, const amq_rq_t *rq)
{
    const struct amq *q = ctx->amq;

    if (q->bells != NULL)
        return atomic_load_explicit(q->armed, memory_order_relaxed) != 0 && !rq_hit(q->rq) &&
               !rq_hit(q->rq + 2 * q->P - 1);
    for (const amq_rq_t *r = q->rq, *end = q->rq + 2 * q->P; r < end; r++)
        if (r != rq && rq_hit(r))
            return false;
    return true;
}

/* The first cell of the line after s's; *seq counts it. The line
 * PREFETCH_AHEAD further is fetched (once per line, not per cell). */
static inline amq_slot_t *rq_next_line(amq_slot_t *s, uint32_t *seq, uint64_t row,
                                       const char *end, uint64_t ring)
{
    char *t = (char *)((uintptr_t)s & ~(uintptr_t)(AMQ_LINE - 1)) + row;
    const char *ahead = t + PREFETCH_AHEAD * row;

    ++*seq;
    /* Near the wrap: not worth the arithmetic. */
    if (ahead < end)
        __builtin_prefetch(ahead, 0, 3);
    return (amq_slot_t *)(PSHM_UNLIKELY(t == end) ? t - ring : t);
}

/* Where the message after the one at s (of meta word `meta`) is: the next
 * cell after a cell message that is not its line's last (the sender's
 * framing, amq_slot_t), else the next line's first cell. */
static inline amq_slot_t *rq_next(amq_slot_t *s, uint32_t meta, uint32_t *seq, uint64_t row,
                                  const char *end, uint64_t ring)
{
    if (PSHM_LIKELY(AMQ_META_IS_CELL(meta) &&
                    ((uintptr_t)s & (AMQ_LINE - AMQ_CELL)) != AMQ_LINE - AMQ_CELL))
        return (amq_slot_t *)((char *)s + AMQ_CELL);
    return rq_next_line(s, seq, row, end, ring);
}

/* The rest of an incoming queue's state: rqx is indexed like rq, and 4
 * times as large, so it is found from rq's address in one step. */
static inline amq_rqx_t *rq_ext(const struct amq *q, const amq_rq_t *rq)
{
    return (amq_rqx_t *)(AMQ_RQX_SCALE * (uintptr_t)rq + q->rqx_delta);
}

/* Whether meta is that of a Short with its data inline to handler h (its
 * low 8 bits): one compare with the handler's fast key (ctx->am_fast);
 * for a handler of any count that missed, a second with the count's low 4
 * bits masked (see AMQ_META_ANY) and the count's bound. On that match the
 * fast key becomes this meta word, so that a stream of one count (a
 * flood's) costs one compare a message; not with threads, where pollers
 * would race on it (`call`: see fast_key_set). Either way meta >> 8 is the
 * count. */
static inline bool short_inline(pshm_ctx_t *ctx, uint32_t meta, unsigned h, bool call)
{
    if (PSHM_LIKELY(meta == ctx->am_fast[h].s))
        return true;
    if (((meta & ~AMQ_META_ANY_NA) ^ AMQ_META_ANY) != ctx->am_meta[h] ||
        meta >= (AMQ_BODY / 4 + 1) << 8) /* count <= 12 */
        return false;
    fast_key_set(ctx, meta, false, call);
    return true;
}

/* What run_rare did: where the queue's next message is, its line's stamp,
 * and 0, 1 for a skip mark (nothing run), or < 0 (dropped). Two
 * registers' worth, returned in them. */
typedef struct {
    amq_slot_t *s;
    int32_t rc;
    uint32_t seq;
} rq_step_t;

/* A message neither fast path took (a Short the fast compare missed, a
 * skip mark, any other category): runs it and finds the next one. Out of
 * poll_queue's loop, which keeps more in registers without it. */
static rq_step_t __attribute__((noinline))
run_rare(pshm_ctx_t *ctx, amq_rqx_t *x, amq_slot_t *s, uint32_t meta, uint32_t seq)
{
    const struct amq *q = ctx->amq;
    rq_step_t st = {NULL, 0, seq};

    /* A Short inline may be a cell; anything else is a slot, or a skip
     * mark: the next line follows. */
    if ((meta & (3u << 13 | 1u << 15)) == 0) {
        st.s = rq_next(s, meta, &st.seq, q->l.row, x->end, q->l.ring);
        st.rc = run_short_any(ctx, &x->tok, s, meta);
    } else {
        st.s = rq_next_line(s, &st.seq, q->l.row, x->end, q->l.ring);
        if (meta == AMQ_META_SKIP) {
            st.rc = 1;
            return st;
        }
        st.rc = run_other(ctx, &x->tok, s, meta);
    }
    x->tok.state &= AMQ_TOK_NOREPLY;
    return st;
}

/*
 * Runs up to `budget` messages of one incoming queue, and more batches of
 * as many, up to `max` in all, while no other queue has a message (fairness
 * only asks to take turns with those); returns the count (skip marks are
 * not messages), or < 0 when a message could not run: it is dropped (its
 * cell or line and chunk released), counted, and ends the call. The
 * queue's position is kept in locals and stored back when the loop ends
 * (s at each exit, where it is in hand: kept for the end it cost a
 * register move a message): nothing polls this queue meanwhile (handlers
 * may not poll; a reply waiting for room polls only the reply network, and a
 * reply handler cannot reply; threads hold the queue's lock). The in-handler
 * mark is set for the whole batch: between two handlers only this loop runs.
 * The handlers get the queue's own token, in place (for the same reason no
 * other batch uses it meanwhile); its state is reset after each.
 */
static int poll_queue(pshm_ctx_t *ctx, amq_rq_t *rq, unsigned budget, unsigned max)
{
    struct amq *q = ctx->amq;
    amq_rqx_t *const x = rq_ext(q, rq);
    pshm_token_t *const tok = &x->tok;
    const uint64_t row = q->l.row;
    amq_slot_t *s = atomic_load_explicit(&rq->s, memory_order_relaxed);
    /* seq: the stamp of s's line; `left` of the `granted` messages may
     * still run (granted - left have). */
    uint32_t seq = atomic_load_explicit(&rq->seq, memory_order_relaxed);
    unsigned left = budget, granted = budget;
    const uint32_t first = seq;
    const pshm_token_t *outer_tok = AMQ_DEBUG ? amq_cur_token : NULL;
    int rc = 0;

    amq_handler_enter();
    if (AMQ_DEBUG)
        amq_cur_token = tok;
    for (;;) {
        /* Acquire: pairs with the sender's release of the stamp, so the
         * message, its chunk and a Long payload are visible. */
        if (atomic_load_explicit(&s->stamp, memory_order_acquire) != seq) {
            atomic_store_explicit(&rq->s, s, memory_order_relaxed);
            break;
        }
        /* A message that starts a line: the lines before it are counted
         * before its handler runs, whose reply may reach their sender
         * before the batch ends (the sender may then need them). Release:
         * every read of those lines (handlers included) is done first (the
         * sender's acquire in amq_room). One store per line; the count may
         * already hold seq - 1 (the batch's first line). */
        if (((uintptr_t)s & (AMQ_LINE - 1)) == 0)
            atomic_store_explicit(&x->ctl->consumed, seq - 1, memory_order_release);
        uint32_t meta = s->meta;
        unsigned h = AMQ_META_H(meta);

        /* A Short with its data inline, the common case. */
        if (PSHM_LIKELY(short_inline(ctx, meta, h, true))) {
            ctx->am_fn[h](tok, NULL, 0, AMQ_SHORT_ARGS(s), meta >> 8);
            tok->state &= AMQ_TOK_NOREPLY; /* back to 0, or NOREPLY for a reply */
            s = rq_next(s, meta, &seq, row, x->end, q->l.ring);
        } else if (medium_fast(ctx, meta, h, true)) {
            /* A slot: the line PREFETCH_AHEAD further is fetched while
             * the handler runs. */
            if ((char *)s + PREFETCH_AHEAD * row < x->end)
                __builtin_prefetch((char *)s + PREFETCH_AHEAD * row, 0, 3);
            rc = run_medium(ctx, x, s, meta);
            tok->state &= AMQ_TOK_NOREPLY;
            /* A slot starts its line (every sender puts it there): the
             * next line follows; >= keeps a misplaced one in the ring. */
            s = (amq_slot_t *)((char *)s + row);
            seq++;
            if (PSHM_UNLIKELY((char *)s >= x->end))
                s = (amq_slot_t *)((char *)s - q->l.ring);
            if (PSHM_UNLIKELY(rc < 0)) {
                left--;
                atomic_store_explicit(&rq->s, s, memory_order_relaxed);
                break; /* one report per call: the caller sees its message */
            }
        } else {
            rq_step_t st = run_rare(ctx, x, s, meta, seq);
            s = st.s;
            seq = st.seq;
            if (st.rc > 0)
                continue; /* a skip mark: not a message */
            if (PSHM_UNLIKELY(st.rc < 0)) {
                rc = st.rc;
                left--;
                atomic_store_explicit(&rq->s, s, memory_order_relaxed);
                break;
            }
        }
        /* The budget (at least 1) is checked after each message run. */
        if (PSHM_UNLIKELY(--left == 0)) {
            if (granted >= max || !alone(ctx, rq)) {
                atomic_store_explicit(&rq->s, s, memory_order_relaxed);
                break;
            }
            left = max - granted < budget ? max - granted : budget;
            granted += left;
        }
    }
    /* A reply a handler prepared and did not commit is given up. */
    amq_prep_batch_end(tok);
    if (AMQ_DEBUG)
        amq_cur_token = outer_tok; /* a reply waiting for room runs reply handlers */
    amq_handler_leave();
    atomic_store_explicit(&rq->seq, seq, memory_order_relaxed);
    if (PSHM_UNLIKELY(q->bells != NULL) &&
        atomic_load_explicit(&atomic_load_explicit(&rq->s, memory_order_relaxed)->stamp,
                             memory_order_relaxed) == seq) {
        /* Messages left (a budget, a dropped one): this queue's bit goes
         * back, as wide_busy's. */
        const size_t i = (size_t)(rq - q->rq);
        wide_put_back(q, (uint32_t)(i / 64), 1ull << (i % 64));
    }
    if (seq != first)
        /* Lines finished: the one s is in is not (it may be mid-line).
         * Release: every read of these lines (handlers included) is done
         * before the sender sees them free (its acquire in amq_room). */
        atomic_store_explicit(&x->ctl->consumed, seq - 1, memory_order_release);
    return rc < 0 ? rc : (int)(granted - left);
}

/* One queue, with its lock when threads may poll: the count run, or < 0. */
static inline int poll_one(pshm_ctx_t *ctx, amq_rq_t *r, unsigned budget, unsigned max)
{
    struct amq *q = ctx->amq;
    int n = 0;
    amq_lock_t *l;

    if (!q->threads)
        return poll_queue(ctx, r, budget, max);
    l = &q->rlock[AMQ_WHO_NET(r->who)][AMQ_WHO_SRC(r->who)];
    if (amq_trylock(l)) {
        n = poll_queue(ctx, r, budget, max);
        amq_unlock(l);
    }
    return n;
}

/*
 * One message found alone (poll_found): runs it under the rules of
 * poll_queue's batch, for one message. The queue's position is stored
 * before the handler runs: nothing polls this queue meanwhile (see
 * poll_queue), and a nested scan then sees where it really is. Then the
 * in-handler mark and the negative credit while the handler runs, the
 * token's state reset after it and a reply it prepared and did not commit
 * given up, the consumer count stored with release once it returned. A
 * second message there already makes it a batch: poll_queue's. `medium`:
 * a Medium that medium_fast matched (a slot, run by medium_call),
 * else a Short with its data inline; a constant in each caller.
 */
static inline __attribute__((always_inline)) int
run_alone(pshm_ctx_t *ctx, amq_rq_t *rq, amq_slot_t *s, uint32_t meta, bool medium)
{
    const struct amq *q = ctx->amq;
    amq_rqx_t *const x = rq_ext(q, rq);
    const pshm_token_t *outer_tok = AMQ_DEBUG ? amq_cur_token : NULL;
    uint32_t seq = atomic_load_explicit(&rq->seq, memory_order_relaxed);
    pshm_handler_fn fn = ctx->am_fn[AMQ_META_H(meta)];
    amq_slot_t *next;
    int rc = 0;

    if (medium) {
        /* A slot starts its line: the next line follows, as in
         * poll_queue (>= keeps a misplaced one in the ring). */
        next = (amq_slot_t *)((char *)s + q->l.row);
        seq++;
        if (PSHM_UNLIKELY((char *)next >= x->end))
            next = (amq_slot_t *)((char *)next - q->l.ring);
    } else if (PSHM_LIKELY(AMQ_META_IS_CELL(meta) &&
                           ((uintptr_t)s & (AMQ_LINE - AMQ_CELL)) != AMQ_LINE - AMQ_CELL)) {
        next = (amq_slot_t *)((char *)s + AMQ_CELL);
    } else {
        /* Keeps the compiler from loading the ring's geometry before the
         * test, for the cells that do not need it: no instruction. */
        __asm__ volatile("" ::: "memory");
        next = rq_next_line(s, &seq, q->l.row, x->end, q->l.ring);
    }

    if (PSHM_UNLIKELY(atomic_load_explicit(&next->stamp, memory_order_relaxed) == seq))
        return poll_queue(ctx, rq, AMQ_POLL_BATCH, AMQ_POLL_MAX);
    atomic_store_explicit(&rq->s, next, memory_order_relaxed);
    atomic_store_explicit(&rq->seq, seq, memory_order_relaxed);
    amq_handler_enter();
    if (AMQ_DEBUG)
        amq_cur_token = &x->tok;
    if (medium) {
        /* < 0: dropped (reported); its line is released all the same. */
        rc = medium_call(ctx, x, s, meta);
    } else {
        fn(&x->tok, NULL, 0, AMQ_SHORT_ARGS(s), meta >> 8);
    }
    if (AMQ_DEBUG)
        amq_cur_token = outer_tok;
    amq_handler_leave();
    x->tok.state &= AMQ_TOK_NOREPLY;
    amq_prep_batch_end(&x->tok);
    /* The next message starts a line: the handler's was the last of its
     * line (a Medium's always is). Release: the handler's reads of it are
     * done before the sender sees it free (its acquire in amq_room). The
     * position is read back: one register fewer kept across the call. */
    if (medium ||
        ((uintptr_t)atomic_load_explicit(&rq->s, memory_order_relaxed) & (AMQ_LINE - 1)) == 0)
        atomic_store_explicit(&x->ctl->consumed,
                              atomic_load_explicit(&rq->seq, memory_order_relaxed) - 1,
                              memory_order_release);
    return rc < 0 ? rc : 1;
}

static int __attribute__((noinline))
run_short(pshm_ctx_t *ctx, amq_rq_t *rq, amq_slot_t *s, uint32_t meta)
{
    return run_alone(ctx, rq, s, meta, false);
}

static int __attribute__((noinline))
run_medium_alone(pshm_ctx_t *ctx, amq_rq_t *rq, amq_slot_t *s, uint32_t meta)
{
    return run_alone(ctx, rq, s, meta, true);
}

/*
 * The queue the scan found, when nobody else is to take turns with it (see
 * serve_found). The common case, a ping-pong's every poll, is one message,
 * a Short with its data inline or a Medium that medium_fast matches,
 * and no threads: run_short or run_medium_alone runs it with none of
 * poll_queue's set-up (a loop whose state is kept in registers, saved and
 * restored around it; a budget). This part keeps nothing across a call,
 * so that anything else reaches poll_queue with no frame on the way.
 */
static inline __attribute__((always_inline)) int poll_found(pshm_ctx_t *ctx, amq_rq_t *rq)
{
    amq_slot_t *s;
    uint32_t meta;

    /* The context's flag, as the amq's: one load fewer. */
    if (ctx->flags & PSHM_INIT_THREADS)
        return poll_one(ctx, rq, AMQ_POLL_BATCH, AMQ_POLL_MAX);
    s = atomic_load_explicit(&rq->s, memory_order_relaxed);
    /* Acquire: the scan's load of the stamp (rq_hit, relaxed) saw the
     * sender's release; the message is visible past this fence (no
     * instruction on x86-64). */
    atomic_thread_fence(memory_order_acquire);
    meta = s->meta;
    if (PSHM_LIKELY(short_inline(ctx, meta, AMQ_META_H(meta), false)))
        return run_short(ctx, rq, s, meta);
    if (medium_fast(ctx, meta, AMQ_META_H(meta), false))
        return run_medium_alone(ctx, rq, s, meta);
    return poll_queue(ctx, rq, AMQ_POLL_BATCH, AMQ_POLL_MAX);
}

/* poll_found as a call, for the polls of a wait or of a send waiting for
 * room. */
static int __attribute__((noinline)) poll_found_call(pshm_ctx_t *ctx, amq_rq_t *rq)
{
    return poll_found(ctx, rq);
}

/*
 * Serves the queues of the networks in `netmask` that have messages: for
 * each network, replies first, one pass over its senders starting at a
 * rotation that moves every call, so every sender is served first in turn;
 * AMQ_POLL_BATCH messages per queue (more while no other queue has any, see
 * poll_queue), at most AMQ_POLL_MAX per call.
 * Returns the count run, or < 0 when a message was dropped.
 */
static int __attribute__((noinline)) serve(pshm_ctx_t *ctx, unsigned netmask)
{
    struct amq *q = ctx->amq;
    const unsigned P = (unsigned)q->P;
    unsigned start, total = 0;

    /* A racy update with threads only skews the rotation. */
    start = atomic_load_explicit(&q->rot, memory_order_relaxed);
    atomic_store_explicit(&q->rot, start + 1 >= P ? 0 : start + 1, memory_order_relaxed);
    for (int net = 0; net < AMQ_NETS; net++) {
        amq_rq_t *base = q->rq + (unsigned)net * P;
        if (!(netmask & (1u << net)))
            continue;
        for (unsigned k = 0, i = start; k < P; k++, i = i + 1 == P ? 0 : i + 1) {
            unsigned left = AMQ_POLL_MAX - total;
            unsigned budget = left < AMQ_POLL_BATCH ? left : AMQ_POLL_BATCH;
            int n;
            if (!rq_hit(&base[i]))
                continue;
            if ((n = poll_one(ctx, &base[i], budget, left)) < 0)
                return n;
            total += (unsigned)n;
            if (total >= AMQ_POLL_MAX)
                return (int)total;
        }
    }
    return (int)total;
}

/*
 * The scan found a message at r, the first busy queue. When no other queue
 * has one (nor a message to self is signalled), there is nobody to take
 * turns with: r is served at once, with no pass over the senders (a
 * ping-pong's every poll). Else the rotation of serve() decides who goes
 * first. Inlined, so that pshm_poll's copy (both networks) drops the
 * network test.
 */
static inline __attribute__((always_inline)) int serve_found(pshm_ctx_t *ctx, unsigned netmask,
                                                             amq_rq_t *r, bool inline_found)
{
    if ((netmask != 3u && !(netmask & (1u << AMQ_WHO_NET(r->who)))) || amq_tls.credit < 0)
        return serve(ctx, netmask);
    /* The scan found the queues before r empty just now: the ones after it
     * are left to look at (the queues to self, when not scanned, are
     * signalled by the credit). */
    for (const amq_rq_t *e = r + 1; e < ctx->scan_hi; e++)
        if (rq_hit(e))
            return serve(ctx, netmask);
    return inline_found ? poll_found(ctx, r) : poll_found_call(ctx, r);
}

static int __attribute__((noinline, cold)) poll_refused(void)
{
    return pshm_err(-EINVAL, "pshm_poll: cannot poll from inside a handler");
}

/* pshm_poll found a message. The credit is negative inside a handler
 * (amq_handler_enter): only then is the mark looked at. */
static int __attribute__((noinline)) poll_busy(pshm_ctx_t *ctx, amq_rq_t *r)
{
    if (PSHM_UNLIKELY(amq_tls.credit < 0))
        return amq_in_handler ? poll_refused() : serve(ctx, 3u);
    return serve_found(ctx, 3u, r, true);
}

/* No message in the scanned queues, and this thread's idle credit ran out:
 * a message to self may be waiting (amq_self_posted), it is time for the
 * paced liveness check, or a handler runs (its credit is negative, see
 * amq_handler_enter). `public`: pshm_poll's call, refused inside a handler. */
static int __attribute__((noinline)) poll_spent(pshm_ctx_t *ctx, unsigned netmask, bool public)
{
    int64_t credit = amq_tls.credit;
    int rc;

    if (amq_in_handler)
        /* A reply waiting for room; its wait loop checks liveness. The
         * credit stays spent while the handler runs. */
        return public ? poll_refused() : serve(ctx, netmask);
    amq_tls.credit = AMQ_POLL_CREDIT;
    rc = serve(ctx, netmask);
    if (rc == 0 && credit > AMQ_CREDIT_SELF / 2)
        rc = live_check_paced(ctx);
    /* Messages to self left (a poll runs at most AMQ_POLL_MAX): the next
     * poll serves them too. The queues to self are the array's ends. */
    if (rq_hit(ctx->amq->rq) || rq_hit(ctx->amq->rq + 2 * ctx->amq->P - 1))
        amq_self_posted();
    return rc;
}

static int __attribute__((noinline, cold)) poll_spent_public(pshm_ctx_t *ctx)
{
    return poll_spent(ctx, 3u, true);
}

/*
 * A wide layout's poll (P >= AMQ_WIDE_MIN, no threads). The receiver's
 * block starts with its bell line (word `armed`) and its bell words: bit i
 * stands for its incoming queue i (amq_rq_t's order: replies first). A
 * sender, once it published a message or a skip mark, sets its queue's bit
 * (amq_ring: fetch_or), then stores 0 into `armed` unless the bit was
 * set already (the receiver has not taken it yet, and will look).
 * The idle scan reads [scan_lo, scan_hi) as at P = 2, two entries: bellq[0]
 * "hits" when `armed` is 0, bellq[1] never; so the idle poll costs what it
 * costs at P = 2 at any P. Then wide_busy stores 1 into `armed`, reads the
 * bell words, takes each one that is not 0 with an exchange and serves its
 * queues; bits of the queues it leaves messages in (a batch cut by its
 * budget or the call's, a network not served now, a message dropped) go
 * back (fetch_or, and `armed` 0 again).
 * Why no message is missed: the store of 1, the loads of the words and the
 * senders' fetch_or and store of 0 are seq_cst (on x86-64: xchg, mov,
 * lock or, xchg). A word the receiver reads without a sender's bit was
 * read before that fetch_or in the single total order, so the receiver's
 * store of 1 came before the sender's store of 0, which leaves `armed` 0:
 * the next poll looks again. A sender whose fetch_or finds its own bit
 * set skips the store: that bit is set only by it or by a put-back (which
 * stores 0 itself) and cleared only by the receiver's exchange, so the
 * receiver takes it later and serves the queue after. The exchange is acq_rel: its
 * acquire makes the messages before each bit it took visible (the senders'
 * release of the stamps precede their fetch_or).
 * A bit taken before its message is seen only costs a look at a queue.
 */

/* The general case of wide_busy: word w's bits x taken, the words after
 * it still to look at. */
static int __attribute__((noinline))
wide_serve(pshm_ctx_t *ctx, unsigned netmask, uint32_t w, uint64_t x)
{
    struct amq *q = ctx->amq;
    int total = 0, n;

    for (;;) {
        uint64_t back = 0;
        while (x != 0) {
            const uint64_t bit = x & (0 - x);
            amq_rq_t *r = q->rq + w * 64 + (unsigned)__builtin_ctzll(x);
            x ^= bit;
            if (!(netmask >> AMQ_WHO_NET(r->who) & 1u)) {
                back |= bit;
                continue;
            }
            if (!rq_hit(r))
                continue;
            /* One message alone, or a batch (poll_queue: while alone(),
             * and it puts the bit back if it leaves messages). */
            n = poll_found(ctx, r);
            if (PSHM_UNLIKELY(n < 0) || (total += n) >= (int)AMQ_POLL_MAX) {
                if (back | x)
                    wide_put_back(q, w, back | x);
                return n < 0 ? n : total;
            }
        }
        if (back != 0)
            wide_put_back(q, w, back);
        do {
            if (++w >= q->l.nbell)
                return total;
        } while (atomic_load_explicit(&q->bells[w], memory_order_seq_cst) == 0);
        x = atomic_exchange_explicit(&q->bells[w], 0, memory_order_acq_rel);
    }
}

/* The bell line read 0: the queues whose bits are set are served. The
 * common case, one bit in all the words (a ping-pong's), ends in a tail
 * call to poll_found's path. */
static int __attribute__((noinline)) wide_busy(pshm_ctx_t *ctx, unsigned netmask, bool public)
{
    struct amq *q = ctx->amq;
    const uint32_t nw = q->l.nbell;
    uint32_t w = 0, k;
    uint64_t x;
    amq_rq_t *r;

    /* Credit below zero: inside a handler (pshm_poll is refused; a reply
     * waiting for room polls the reply network, and every queue is
     * scanned, as at P < AMQ_WIDE_MIN: the credit cannot tell of a
     * message to self meanwhile, which rings nothing, and `armed` stays 0
     * until the handler returns), or a message to self waits, or the
     * paced liveness check is due (poll_spent, then the bells). */
    if (PSHM_UNLIKELY(amq_tls.credit < 0)) {
        int rc;
        if (amq_in_handler)
            return public ? poll_refused() : serve(ctx, netmask);
        if ((rc = poll_spent(ctx, netmask, false)) < 0)
            return rc;
        atomic_store_explicit(q->armed, 1, memory_order_seq_cst);
        return rc + wide_serve(ctx, netmask, 0, atomic_exchange_explicit(&q->bells[0], 0,
                                                                         memory_order_acq_rel));
    }
    atomic_store_explicit(q->armed, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&q->bells[w], memory_order_seq_cst) == 0)
        if (++w == nw)
            return 0; /* a bit already taken, or the first poll */
    x = atomic_exchange_explicit(&q->bells[w], 0, memory_order_acq_rel);
    for (k = w + 1; k < nw; k++)
        if (atomic_load_explicit(&q->bells[k], memory_order_seq_cst) != 0)
            return wide_serve(ctx, netmask, w, x);
    r = q->rq + w * 64 + (unsigned)__builtin_ctzll(x | 1ull << 63);
    if ((x & (x - 1)) != 0 || (netmask != 3u && !(netmask >> AMQ_WHO_NET(r->who) & 1u)))
        return wide_serve(ctx, netmask, w, x);
    if (x == 0 || !rq_hit(r))
        return 0;
    return poll_found(ctx, r);
}

/*
 * The poll: one scan of the other processes' queues (both networks, one
 * dense array) per call; per queue one private pointer and stamp and one
 * load of a line that stays in this cache until its sender writes it, two
 * queues per turn of the loop (there are 2 (P - 1), or 2 P with threads or
 * P = 1: even, at least 2). The queues to self are not scanned: a message to self
 * sets this thread's idle credit below zero, which the same decrement that
 * paces the liveness check looks at (amq_tls_t).
 */
static inline __attribute__((always_inline)) int
poll_inline(pshm_ctx_t *ctx, unsigned netmask, bool public)
{
    const amq_rq_t *r = ctx->scan_lo, *const hi = ctx->scan_hi;

    /* The first pair outside the loop: no jump into it (P = 2 is one pair).
     * A branch per queue, so that the busy path knows which one. */
    if (rq_hit(r))
        goto busy;
    if (rq_hit(r + 1))
        goto busy1;
    for (r += 2; r != hi; r += 2) {
        if (rq_hit(r))
            goto busy;
        if (rq_hit(r + 1))
            goto busy1;
    }
    if (PSHM_UNLIKELY(--amq_tls.credit < 0))
        return public ? poll_spent_public(ctx) : poll_spent(ctx, netmask, false);
    return 0;
busy1:
    r++;
busy:
    if (PSHM_UNLIKELY(r->who == AMQ_WHO_BELL))
        return wide_busy(ctx, netmask, public);
    return public ? poll_busy(ctx, (amq_rq_t *)r) : serve_found(ctx, netmask, (amq_rq_t *)r, false);
}

int amq_poll(pshm_ctx_t *ctx, unsigned netmask) { return poll_inline(ctx, netmask, false); }

int amq_pending(pshm_ctx_t *ctx)
{
    struct amq *q = ctx->amq;
    int r = 0;

    for (unsigned i = 0; i < 2 * (unsigned)q->P && !r; i++)
        r = rq_hit(&q->rq[i]);
    /* Acquire: pairs with the sender's release of the stamp just read. */
    atomic_thread_fence(memory_order_acquire);
    return r;
}

/* Inside a handler it fails with -EINVAL; the mark is looked at only off
 * the idle path (poll_busy, poll_spent), where a handler always ends up. */
int pshm_poll(pshm_ctx_t *ctx)
{
    int rc;

    if (PSHM_UNLIKELY(!ctx_attached(ctx))) {
        rc = ctx_check(ctx, CTX_ATTACHED, "pshm_poll");
        return rc < 0 ? rc : pshm_err(-EINVAL, "pshm_poll: call pshm_attach first");
    }
    return poll_inline(ctx, 3u, true);
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
        rc = poll_inline(ctx, 3u, false);
        if (rc < 0)
            return rc;
        if (rc > 0)
            spins = 0; /* messages ran: an idle stretch starts again (sleeps follow one) */
        else if ((rc = ctx_wait_step(ctx, &spins)) < 0)
            return rc;
    }
    return 0;
}
