/*
 * prepare.c - negotiated payload: the sender builds a Medium or Long payload
 * where the receiver will read it, then commits the message (GASNet-EX's
 * Prepare/Commit). Nothing is copied on the send side.
 *
 * Prepare reserves everything the message needs, so that its commit cannot
 * wait or fail for room: a whole line of the queue, for the slot (the
 * queue's lock with threads, held until the commit; a line the sender left
 * open is ended by a skip mark first), and for a Medium that does not fit
 * the slot a chunk of the pool. The buffer handed out is, for a Medium, the slot's body
 * or the chunk's data, after the room for the arguments; for a Long, the
 * destination itself in the receiver's segment, through the cross-mapping.
 *
 * One prepared message per thread at a time, committed by the same thread.
 * Until then the queue is the prepared message's: another send to it from
 * this thread fails (-EINVAL), from another thread waits for the lock.
 */
#include "amq_internal.h"

#include <errno.h>
#include <string.h>

/*
 * This thread's prepared message. `key` says whose it is: 0 when nothing is
 * prepared, else the context of a request or the token of a reply (both
 * 8-aligned) with the category in bits 0-1 and PREP_REPLY: a commit's
 * whole "is this mine" check is one compare, which a NULL or foreign
 * pointer fails without being read. The prepare keeps the slot's meta word
 * (less the handler) and body words (a Long's address, a chunk's offset)
 * here; the commit writes them with the args, the handler, nbytes and the
 * stamp, so that the slot's line, which the receiver may be polling, is
 * written once: a store into it at the prepare took the line from the
 * receiver, which read it back while the payload was built, and the commit
 * had to take it again (one more transfer of the line per message).
 */
typedef struct amq_prep {
    uintptr_t key;
    unsigned nargs;
    uint32_t avail;          /* sq->avail once committed, or PREP_SLOW */
    size_t size;             /* bytes of the buffer */
    amq_sq_t *sq;
    amq_chunk_t *chunk;      /* the chunk's header, or NULL */
    uint32_t meta;           /* the slot's meta word, less the handler */
    bool body;               /* body[0..16) is w: a Long, or a Medium in a chunk */
    uint64_t w[2];           /* a Long's address then a chunk's offset, or a chunk's offset */
} amq_prep_t;

#define PREP_REPLY 4u
/* The commit ends the reservation through prep_end (threads, to self, a
 * prepare that took the general path). */
#define PREP_SLOW UINT32_MAX
_Static_assert(_Alignof(pshm_token_t) >= 8 && _Alignof(pshm_ctx_t) >= 8,
               "a token's or a context's low 3 bits hold the key's");

static _Thread_local amq_prep_t prep __attribute__((tls_model("initial-exec")));

/* A request's key from its context, a reply's from its token. */
static inline uintptr_t prep_key(const void *owner, bool reply, int cat)
{
    return (uintptr_t)owner | (reply ? PREP_REPLY : 0u) | (unsigned)cat;
}
static inline int prep_cat(void) { return (int)(prep.key & 3u); }
static inline pshm_token_t *prep_tok(void)
{
    return prep.key & PREP_REPLY ? (pshm_token_t *)(prep.key & ~(uintptr_t)7) : NULL;
}
static inline pshm_ctx_t *prep_ctx(void)
{
    pshm_token_t *t = prep_tok();

    return t != NULL ? t->ctx : (pshm_ctx_t *)(prep.key & ~(uintptr_t)7);
}

static const char *cat_name(int cat) { return cat == AMQ_MEDIUM ? "Medium" : "Long"; }

bool amq_prepared_by_me(const amq_sq_t *sq) { return prep.key != 0 && prep.sq == sq; }

/* Ends this thread's reservation of its queue, committed or given back, off
 * the fast path: the queue's lock with threads, else what is known free.
 * The queue is at a line's first cell: the prepare ended an open line, the
 * commit's slot moved to the next one. */
static void __attribute__((noinline)) prep_end(amq_sq_t *sq)
{
    struct amq *q = prep_ctx()->amq;

    prep.key = 0;
    amq_tls.prep_tok = NULL;
    sq->prepared = false;
    if (q->threads)
        amq_unlock(&sq->lock);
    else
        amq_avail_set(q, sq, false);
}

/* Gives the reservation back (a failed prepare, a handler that returned
 * without committing its reply): the chunk is marked unsent, so the pool
 * reclaims it in turn. Nothing was published: the line stays the next. */
static void prep_release(void)
{
    if (prep.chunk != NULL) {
        /* Unsent: free at once, whatever the queue's count. */
        prep.chunk->dest = -1;
        amq_chunk_done(prep.chunk);
    }
    prep_end(prep.sq);
}

void amq_prep_abandon(const pshm_token_t *tok)
{
    if ((prep.key & ~(uintptr_t)3) == ((uintptr_t)tok | PREP_REPLY))
        prep_release();
}

void amq_prep_stale(void)
{
    const pshm_token_t *t = prep_tok();

    if (t != NULL && t->state != AMQ_TOK_PREPARED)
        prep_release();
}

/* Where the prepared message's args go: the chunk's data, or the slot's
 * body (after a Long's address). */
static inline unsigned char *prep_data(int cat, amq_slot_t *s, amq_chunk_t *chunk)
{
    return chunk != NULL ? (unsigned char *)chunk + AMQ_CHUNK_HDR
                         : s->body + (cat == AMQ_LONG ? 8 : 0);
}

/* Where a message's data goes: whether it spills into a chunk (args, then
 * a Medium's payload of sz bytes, or after a Long's address in the slot);
 * the bytes before a Medium's payload, args and in a chunk the pad that
 * starts the payload on a line (amq_medium_pad); the data bytes. */
static inline bool prep_spill(int cat, size_t sz, unsigned nargs)
{
    return cat == AMQ_MEDIUM ? PSHM_ALIGN_UP(4u * nargs, 8) + sz > AMQ_BODY
                             : 4u * nargs > AMQ_BODY - 8;
}
static inline uint64_t prep_argsz(int cat, bool spill, unsigned nargs)
{
    return spill && cat == AMQ_MEDIUM ? PSHM_ALIGN_UP(4u * nargs, AMQ_LINE)
                                      : PSHM_ALIGN_UP(4u * nargs, 8);
}
static inline uint64_t prep_dsz(int cat, bool spill, size_t sz, unsigned nargs)
{
    return cat == AMQ_MEDIUM ? prep_argsz(cat, spill, nargs) + sz : 4u * nargs;
}

/* The pool chunk of the message in the record (header, data, whole lines). */
static inline uint64_t prep_chunk(int cat, bool spill)
{
    return PSHM_ALIGN_UP(AMQ_CHUNK_HDR + prep_dsz(cat, spill, prep.size, prep.nargs), AMQ_LINE);
}

/* What the message is, in the record (the key last known free), and the
 * buffer's size for the caller. */
static inline __attribute__((always_inline)) void
prep_claim(uintptr_t key, amq_sq_t *sq, size_t sz, unsigned nargs, size_t *size)
{
    prep.key = key;
    prep.nargs = nargs;
    prep.size = sz;
    prep.sq = sq;
    *size = sz;
}

/* The record's owner: the request's context or the reply's token. */
static inline void *prep_owner(void) { return (void *)(prep.key & ~(uintptr_t)7); }

/* The meta word (less the handler) of a Medium in a chunk by its count: the
 * pad that starts the payload on a line is in it (amq_medium_pad(0, n),
 * spelt out for a constant); a load instead of its arithmetic on the fast
 * path. */
#define MCM(n)                                                                                 \
    (AMQ_META(0, n, AMQ_MEDIUM, 1) | AMQ_META_PAD((0u - PSHM_ALIGN_UP(4u * n, 8)) & 63u))
static const uint32_t medium_chunk_meta[PSHM_AM_MAX_ARGS + 1] = {
    MCM(0), MCM(1), MCM(2), MCM(3), MCM(4), MCM(5), MCM(6), MCM(7), MCM(8),
    MCM(9), MCM(10), MCM(11), MCM(12), MCM(13), MCM(14), MCM(15), MCM(16)};
#undef MCM

/* Once its line (and chunk, at `off` when `spill`) are reserved at
 * sq->slot: fills the record with the slot's meta word (less the handler)
 * and body words, written by the commit; returns where the args go. */
static inline __attribute__((always_inline)) unsigned char *
prep_fill(amq_sq_t *sq, int cat, bool spill, uint64_t off, uint64_t raddr, unsigned nargs,
          uint32_t avail)
{
    amq_slot_t *s = (amq_slot_t *)sq->slot;
    unsigned char *data = s->body;

    prep.meta = cat == AMQ_MEDIUM && spill ? medium_chunk_meta[nargs]
                                           : AMQ_META(0, nargs, cat, spill);
    prep.body = cat == AMQ_LONG || spill;
    prep.w[0] = cat == AMQ_LONG ? raddr : off;
    prep.w[1] = off;
    if (cat == AMQ_LONG)
        data += 8;
    prep.chunk = NULL;
    if (spill) {
        prep.chunk = (amq_chunk_t *)(sq->pool->base + off);
        data = (unsigned char *)prep.chunk + AMQ_CHUNK_HDR;
    }
    prep.avail = avail;
    sq->prepared = true;
    return data;
}

/* The caller's buffer: a Medium's payload after the args at data, a Long's
 * destination in this view; a reply's token says it prepared. */
static inline __attribute__((always_inline)) void
prep_hand(bool reply, int cat, bool spill, amq_sq_t *sq, unsigned char *data, uint64_t raddr,
          void **buf)
{
    if (cat == AMQ_LONG) {
        pshm_ctx_t *ctx = reply ? ((pshm_token_t *)prep_owner())->ctx : prep_owner();
        *buf = (void *)((uintptr_t)raddr + (uintptr_t)ctx->seg_delta[sq->dlocal]);
    } else {
        *buf = data + prep_argsz(cat, spill, prep.nargs);
    }
    if (reply) {
        ((pshm_token_t *)prep_owner())->state = AMQ_TOK_PREPARED;
        amq_tls.prep_tok = prep_owner();
    }
}

/*
 * The general prepare: the checks with their messages, a prepare left by
 * a handler that returned, threads (the queue's lock, held until the
 * commit), waiting for room. The caller checked the context (or token) and
 * the destination. `raddr` is a Long's destination in the receiver's view,
 * `seg_left` the bytes of its segment from there.
 */
static int __attribute__((noinline))
prepare(pshm_ctx_t *ctx, const char *fn, amq_sq_t *sq, pshm_token_t *tok, int cat,
        uint64_t raddr, size_t seg_left, size_t least, size_t most, unsigned flags,
        unsigned nargs, void **buf, size_t *size)
{
    struct amq *q = ctx->amq;
    uint64_t off = 0;
    size_t sz;
    bool spill;
    int rc;

    if (PSHM_UNLIKELY(buf == NULL || size == NULL))
        return pshm_err(-EINVAL, "%s: the %s pointer is NULL", fn, buf == NULL ? "buf" : "size");
    if (PSHM_UNLIKELY(least > most))
        return pshm_err(-EINVAL, "%s: least (%zu bytes) exceeds most (%zu)", fn, least, most);
    if (PSHM_UNLIKELY(cat == AMQ_MEDIUM && least > PSHM_AM_MEDIUM_MAX))
        return pshm_err(-EINVAL, "%s: least (%zu bytes) exceeds the Medium maximum of %u "
                        "(pshm_am_max_medium); prepare a Long message instead", fn, least,
                        PSHM_AM_MEDIUM_MAX);
    if (PSHM_UNLIKELY(prep.key != 0)) {
        amq_prep_stale();
        if (prep.key != 0)
            return pshm_err(-EINVAL, "%s: this thread already prepared a %s %s to rank %d and "
                            "did not commit it; commit it first (one prepared message per "
                            "thread)", fn, cat_name(prep_cat()), prep_tok() ? "reply" : "request",
                            prep_ctx()->nm.members[prep.sq->dlocal]);
    }
    if (PSHM_UNLIKELY(!q->threads && sq->prepared))
        return pshm_err(-EINVAL, "%s: a prepared message to rank %d is not committed yet", fn,
                        ctx->nm.members[sq->dlocal]);
    if (cat == AMQ_MEDIUM)
        sz = most < PSHM_AM_MEDIUM_MAX ? most : PSHM_AM_MEDIUM_MAX;
    else
        sz = most < seg_left ? most : seg_left;
    spill = prep_spill(cat, sz, nargs);

    if (q->threads)
        amq_lock(&sq->lock);
    else
        sq->avail = 0; /* the fast paths leave this queue alone until the commit */
    /* What prep_release needs if the reservation fails. */
    prep_claim(tok != NULL ? prep_key(tok, true, cat) : prep_key(ctx, false, cat), sq, sz, nargs,
               size);
    prep.chunk = NULL;
    sq->prepared = true;
    if ((rc = amq_reserve(ctx, sq, flags, false, spill, prep_dsz(cat, spill, sz, nargs),
                          &off)) < 0) {
        prep_release();
        return rc;
    }
    prep_hand(tok != NULL, cat, spill, sq,
              prep_fill(sq, cat, spill, off, raddr, nargs, PREP_SLOW), raddr, buf);
    return 0;
}

/*
 * The prepare's fast path. The public call checks its arguments and that
 * this thread has nothing prepared, then writes what the message is into
 * the record (prep_claim) and *size, and jumps to prep_go with what is
 * left: a line of the queue known free (sq->avail: never with threads, to
 * self, or while the queue is prepared), and for data that spills a chunk
 * before the pool's limit. If not, mid_* (below) renews them or hands over
 * to the general path, the checks passed. Few arguments cross the jump, so
 * that each part keeps its values in the registers a call may use.
 */
static inline __attribute__((always_inline)) int
prep_go(bool reply, int cat, bool spill, amq_sq_t *sq, void **buf, uint64_t raddr)
{
    const uint64_t need = prep_chunk(cat, spill);
    uint64_t off = 0;

    if (PSHM_UNLIKELY(buf == NULL || sq->avail == 0))
        return 1;
    if (spill && PSHM_UNLIKELY(!amq_pool_fits(sq->pool, need)) &&
        !amq_pool_restart(sq->pool, need, sq->dlocal))
        return 1; /* the general path reclaims */
    amq_end_line(sq);
    if (spill)
        off = sq->pool->head;
    prep_hand(reply, cat, spill, sq,
              prep_fill(sq, cat, spill, off, raddr, prep.nargs, sq->avail - 1), raddr, buf);
    sq->avail = 0; /* the fast paths leave this queue alone until the commit */
    /* The chunk last: its header's stores may alias the above for the
     * compiler, which would load them again. */
    if (spill)
        amq_pool_take(sq->pool, need, sq->dlocal, sq->seq);
    return 0;
}

/*
 * What the fast path lacked, when it is only the room known in the queue
 * (the consumer count is read again, as the general path would) or in the
 * pool's ring (reclaimed): true if the fast path may try again. Not
 * with threads, to self, or on a queue prepared already. Both are
 * renewed whichever ran out, so that a stream comes here about once per
 * lap of the queue rather than once for each.
 */
static bool __attribute__((noinline)) prep_recover(pshm_ctx_t *ctx, int cat, amq_sq_t *sq)
{
    struct amq *q = ctx->amq;

    if (q->threads || sq->dlocal == q->me || sq->prepared)
        return false;
    amq_room(sq, q->l.depth);
    amq_avail_update(q, sq);
    if (prep_spill(cat, prep.size, prep.nargs))
        amq_pool_reclaim(sq->pool, sq->dlocal, prep_chunk(cat, true));
    return sq->avail != 0;
}

/*
 * Per kind of message, the general path after the checks (so that
 * least = most = the record's size stand for the call's; the record is
 * given up first) and the fast one (a straight path each for data in the
 * slot and in a chunk), under one signature so that one jumps to the
 * other. `flags` are checked.
 */
#define PREP_KIND(kind, fn, reply, cat)                                                         \
    static inline __attribute__((always_inline)) int                                          \
    go_##kind(amq_sq_t *sq, void **buf, uint64_t raddr)                                       \
    {                                                                                         \
        if (prep_spill(cat, prep.size, prep.nargs))                                           \
            return prep_go(reply, cat, true, sq, buf, raddr);                                 \
        return prep_go(reply, cat, false, sq, buf, raddr);                                    \
    }                                                                                         \
    static int __attribute__((noinline))                                                      \
    mid_##kind(amq_sq_t *sq, void **buf, unsigned flags, uint64_t raddr)                      \
    {                                                                                         \
        void *owner = prep_owner();                                                           \
        pshm_ctx_t *ctx = reply ? ((pshm_token_t *)owner)->ctx : owner;                        \
        size_t sz = prep.size, size;                                                          \
        if (buf != NULL && prep_recover(ctx, cat, sq) && go_##kind(sq, buf, raddr) == 0)      \
            return 0;                                                                         \
        prep.key = 0;                                                                         \
        return prepare(ctx, fn, sq, reply ? owner : NULL, cat, raddr, sz, sz, sz, flags,      \
                       prep.nargs, buf, &size);                                               \
    }                                                                                         \
    static int __attribute__((noinline))                                                      \
    fast_##kind(amq_sq_t *sq, void **buf, unsigned flags, uint64_t raddr)                     \
    {                                                                                         \
        if (go_##kind(sq, buf, raddr) == 0)                                                   \
            return 0;                                                                         \
        return mid_##kind(sq, buf, flags, raddr);                                             \
    }
PREP_KIND(req_medium, "pshm_am_prepare_request_medium", false, AMQ_MEDIUM)
PREP_KIND(req_long, "pshm_am_prepare_request_long", false, AMQ_LONG)
PREP_KIND(rep_medium, "pshm_am_prepare_reply_medium", true, AMQ_MEDIUM)
PREP_KIND(rep_long, "pshm_am_prepare_reply_long", true, AMQ_LONG)
#undef PREP_KIND

/* Why a commit is refused (nothing of that kind prepared, a size or count
 * other than prepared, bad handler); a prepare left by a handler that
 * returned is given up first. */
static int __attribute__((noinline, cold))
commit_bad(pshm_ctx_t *ctx, const char *fn, pshm_token_t *tok, bool reply, int cat,
           unsigned handler, size_t nbytes, unsigned nargs, const uint32_t *args)
{
    if (reply && tok == NULL)
        return pshm_err(-EINVAL, "%s: the token is NULL", fn);
    amq_prep_stale();
    if (prep.key != (reply ? prep_key(tok, true, cat) : prep_key(ctx, false, cat)))
        return pshm_err(-EINVAL, "%s: this thread has no prepared %s %s to commit%s", fn,
                        cat_name(cat), reply ? "reply" : "request",
                        prep.key == 0 ? "" : " (it prepared another kind of message)");
    if (nbytes > prep.size)
        return pshm_err(-EINVAL, "%s: %zu bytes exceeds the %zu prepared; the message stays "
                        "prepared", fn, nbytes, prep.size);
    if (nargs != prep.nargs)
        return pshm_err(-EINVAL, "%s: %u arguments, %u prepared; the message stays prepared",
                        fn, nargs, prep.nargs);
    if (args == NULL && nargs)
        return pshm_err(-EINVAL, "%s: %u arguments but the args pointer is NULL", fn, nargs);
    ctx = prep_ctx();
    return amq_send_bad(ctx, fn, ctx->nm.members[prep.sq->dlocal], handler, NULL, 0, 0, nargs,
                        args, AMQ_SHORT);
}

/* The end of a commit off the fast path (threads, to self, a prepare that
 * took the general path): the chunk marked filled, the stamp, and the
 * reservation ends. */
static int __attribute__((noinline)) commit_end(pshm_token_t *tok, amq_sq_t *sq, amq_slot_t *s)
{
    if (prep.chunk != NULL)
        amq_chunk_done(prep.chunk);
    amq_publish(sq, s);
    amq_ring(sq);
    if (tok != NULL)
        tok->state = AMQ_TOK_REPLIED;
    if (sq->dlocal == prep_ctx()->amq->me)
        amq_self_posted();
    prep_end(sq);
    return 0;
}

/* The end of a commit, the args in place: the slot's handler, size and
 * stamp, and the reservation ends. */
static inline __attribute__((always_inline)) int
commit_post(pshm_token_t *tok, bool reply, unsigned handler, size_t nbytes)
{
    amq_sq_t *sq = prep.sq;
    amq_slot_t *s = (amq_slot_t *)sq->slot;

    s->meta = prep.meta | handler;
    s->nbytes = nbytes;
    if (PSHM_UNLIKELY(prep.avail == PREP_SLOW))
        return commit_end(reply ? tok : NULL, sq, s);
    amq_publish(sq, s);
    amq_ring(sq);
    if (reply) {
        tok->state = AMQ_TOK_REPLIED;
        amq_tls.prep_tok = NULL;
    }
    prep.key = 0;
    sq->prepared = false;
    sq->avail = prep.avail;
    return 0;
}

/* The slot's body words kept by the prepare (prep_fill), before the args:
 * a Long's follow its address in the body. A Medium in a chunk writes a
 * second word the receiver does not read. */
static inline __attribute__((always_inline)) void commit_body(void)
{
    if (prep.body)
        __builtin_memcpy(((amq_slot_t *)prep.sq->slot)->body, prep.w, 16);
}

/* A commit with args copies them first; out of line, so that the commit
 * of none keeps its values in the registers a call may use. */
static int __attribute__((noinline))
commit_args(pshm_token_t *tok, int cat, unsigned handler, size_t nbytes, unsigned nargs,
            const uint32_t *args)
{
    amq_copy_small(prep_data(cat, (amq_slot_t *)prep.sq->slot, prep.chunk),
                   (const unsigned char *)args, 4u * nargs);
    return tok != NULL ? commit_post(tok, true, handler, nbytes)
                       : commit_post(NULL, false, handler, nbytes);
}

/* The common part of the four commit calls: the checks against the
 * reservation (one compare for whose it is and of which kind), then the
 * args, meta word, size and stamp. `ctx` is NULL for a reply (the token's
 * then). A prepared reply's token is in state PREPARED until its handler
 * returns, so a prepare that matches the token is never a stale one. */
static inline __attribute__((always_inline)) int
commit(pshm_ctx_t *ctx, const char *fn, pshm_token_t *tok, bool reply, int cat,
       unsigned handler, size_t nbytes, unsigned nargs, const uint32_t *args)
{
    if (PSHM_UNLIKELY(prep.key != (reply ? prep_key(tok, true, cat) : prep_key(ctx, false, cat)) ||
                      nbytes > prep.size || nargs != prep.nargs))
        return commit_bad(ctx, fn, tok, reply, cat, handler, nbytes, nargs, args);
    if (reply)
        ctx = tok->ctx;
    if (PSHM_UNLIKELY(!amq_send_ok(ctx, handler, NULL, 0, 0, nargs, AMQ_SHORT)))
        return commit_bad(ctx, fn, tok, reply, cat, handler, nbytes, nargs, args);
    if (nargs) {
        if (PSHM_UNLIKELY(args == NULL))
            return commit_bad(ctx, fn, tok, reply, cat, handler, nbytes, nargs, args);
        commit_body();
        return commit_args(reply ? tok : NULL, cat, handler, nbytes, nargs, args);
    }
    commit_body();
    return commit_post(tok, reply, handler, nbytes);
}

/* The checks of a request, and its queue: one test when all is well,
 * the messages on the cold path. */
static int __attribute__((noinline, cold))
req_bad(pshm_ctx_t *ctx, const char *fn, int dest, unsigned flags, unsigned nargs)
{
    int rc;

    if (!ctx_attached(ctx)) {
        rc = ctx_check(ctx, CTX_ATTACHED, fn);
        return rc < 0 ? rc : pshm_err(-EINVAL, "%s: call pshm_attach first", fn);
    }
    if ((rc = amq_check_dest_flags(ctx, fn, dest, flags, nargs)) < 0)
        return rc;
    return pshm_err(-EINVAL, "%s: a handler may not send a request (it could deadlock); "
                    "reply through the token instead", fn);
}

static inline bool req_ok(pshm_ctx_t *ctx, int dest, unsigned flags, unsigned nargs,
                          amq_sq_t **sq)
{
    return ctx_attached(ctx) && (unsigned)dest < (unsigned)ctx->size &&
           (*sq = ctx->req_sq[dest]) != NULL && !(flags & ~PSHM_IMMEDIATE) &&
           nargs <= PSHM_AM_MAX_ARGS && !amq_in_handler;
}

static inline int req_queue(pshm_ctx_t *ctx, const char *fn, int dest, unsigned flags,
                            unsigned nargs, amq_sq_t **sq)
{
    if (PSHM_LIKELY(req_ok(ctx, dest, flags, nargs, sq)))
        return 0;
    return req_bad(ctx, fn, dest, flags, nargs);
}

/* The token checks of a reply: all good (the send path's, plus the debug
 * build's)? */
static inline bool rep_ok(pshm_token_t *t, unsigned flags, unsigned nargs)
{
    return (!AMQ_DEBUG || t == amq_cur_token) && t != NULL && t->state == 0 &&
           !(flags & ~PSHM_IMMEDIATE) && nargs <= PSHM_AM_MAX_ARGS;
}

/* The same, with the messages. */
static int rep_token(pshm_token_t *t, const char *fn, unsigned flags, unsigned nargs)
{
    if (AMQ_DEBUG && t != NULL && t != amq_cur_token)
        return pshm_err(-EINVAL, "%s: this token is not the one of the handler running now "
                        "(a token is valid only inside its own handler)", fn);
    if (PSHM_UNLIKELY(t == NULL || t->state != 0))
        return amq_reply_bad(t, fn);
    if (PSHM_UNLIKELY((flags & ~PSHM_IMMEDIATE) || nargs > PSHM_AM_MAX_ARGS))
        return amq_check_dest_flags(t->ctx, fn, t->src, flags, nargs);
    return 0;
}

/* The bytes of dlocal's segment from dest_addr (owner view) on, when
 * dest_addr lies in it (the end included); the fast paths' test, which
 * amq_long_target repeats with its message. */
static inline bool long_left(const pshm_ctx_t *ctx, int dlocal, void *dest_addr, size_t *left)
{
    const pshm_seginfo_t *si = &ctx->seginfo[dlocal];
    uintptr_t off = (uintptr_t)dest_addr - si->owner_base;

    if (off > si->size)
        return false;
    *left = si->size - off;
    return true;
}

/* A Long's destination in this view and the bytes from there, at least
 * `least`, with the message if not. */
static int long_dest(pshm_ctx_t *ctx, const char *fn, int dlocal, void *dest_addr, size_t least,
                     void **ldst, size_t *left)
{
    int rc = amq_long_target(ctx, fn, dlocal, dest_addr, least, ldst);

    if (rc == 0)
        long_left(ctx, dlocal, dest_addr, left);
    return rc;
}

/* The general paths of the four prepare calls, with the same arguments as
 * the public call, so that its fast path hands over with a jump. */
static int __attribute__((noinline))
prep_req_medium(pshm_ctx_t *ctx, int dest, size_t least, size_t most, unsigned flags,
                unsigned nargs, void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_request_medium";
    amq_sq_t *sq = NULL;
    int rc = req_queue(ctx, fn, dest, flags, nargs, &sq);

    if (rc < 0)
        return rc;
    return prepare(ctx, fn, sq, NULL, AMQ_MEDIUM, 0, 0, least, most, flags, nargs, buf, size);
}

static int __attribute__((noinline))
prep_req_long(pshm_ctx_t *ctx, int dest, void *dest_addr, size_t least, size_t most,
              unsigned flags, unsigned nargs, void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_request_long";
    amq_sq_t *sq = NULL;
    void *ldst;
    size_t left = 0;
    int rc = req_queue(ctx, fn, dest, flags, nargs, &sq);

    if (rc < 0 || (rc = long_dest(ctx, fn, sq->dlocal, dest_addr, least, &ldst, &left)) < 0)
        return rc;
    return prepare(ctx, fn, sq, NULL, AMQ_LONG, (uint64_t)(uintptr_t)dest_addr, left, least, most,
                   flags, nargs, buf, size);
}

static int __attribute__((noinline))
prep_rep_medium(pshm_token_t *token, size_t least, size_t most, unsigned flags, unsigned nargs,
                void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_reply_medium";
    int rc = rep_token(token, fn, flags, nargs);

    if (rc < 0)
        return rc;
    return prepare(token->ctx, fn, token->rsq, token, AMQ_MEDIUM, 0, 0, least, most, flags, nargs,
                   buf, size);
}

static int __attribute__((noinline))
prep_rep_long(pshm_token_t *token, void *dest_addr, size_t least, size_t most, unsigned flags,
              unsigned nargs, void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_reply_long";
    void *ldst;
    size_t left = 0;
    int rc = rep_token(token, fn, flags, nargs);

    if (rc < 0 ||
        (rc = long_dest(token->ctx, fn, token->src_local, dest_addr, least, &ldst, &left)) < 0)
        return rc;
    return prepare(token->ctx, fn, token->rsq, token, AMQ_LONG, (uint64_t)(uintptr_t)dest_addr,
                   left, least, most, flags, nargs, buf, size);
}

int pshm_am_prepare_request_medium(pshm_ctx_t *ctx, int dest, size_t least, size_t most,
                                   unsigned flags, unsigned nargs, void **buf, size_t *size)
{
    amq_sq_t *sq;

    /* least <= most, and within the Medium maximum. */
    if (PSHM_LIKELY(req_ok(ctx, dest, flags, nargs, &sq) && size != NULL && prep.key == 0 &&
                    least <= (most < PSHM_AM_MEDIUM_MAX ? most : PSHM_AM_MEDIUM_MAX))) {
        prep_claim(prep_key(ctx, false, AMQ_MEDIUM), sq,
                   most < PSHM_AM_MEDIUM_MAX ? most : PSHM_AM_MEDIUM_MAX, nargs, size);
        return fast_req_medium(sq, buf, flags, 0);
    }
    return prep_req_medium(ctx, dest, least, most, flags, nargs, buf, size);
}

int pshm_am_prepare_request_long(pshm_ctx_t *ctx, int dest, void *dest_addr, size_t least,
                                 size_t most, unsigned flags, unsigned nargs, void **buf,
                                 size_t *size)
{
    amq_sq_t *sq;
    size_t left;

    /* least <= most, and within the segment. */
    if (PSHM_LIKELY(req_ok(ctx, dest, flags, nargs, &sq) && size != NULL && prep.key == 0 &&
                    long_left(ctx, sq->dlocal, dest_addr, &left) &&
                    least <= (most < left ? most : left))) {
        prep_claim(prep_key(ctx, false, AMQ_LONG), sq, most < left ? most : left, nargs,
                   size);
        return fast_req_long(sq, buf, flags, (uint64_t)(uintptr_t)dest_addr);
    }
    return prep_req_long(ctx, dest, dest_addr, least, most, flags, nargs, buf, size);
}

int pshm_am_prepare_reply_medium(pshm_token_t *token, size_t least, size_t most, unsigned flags,
                                 unsigned nargs, void **buf, size_t *size)
{
    if (PSHM_LIKELY(rep_ok(token, flags, nargs) && size != NULL && prep.key == 0 &&
                    least <= (most < PSHM_AM_MEDIUM_MAX ? most : PSHM_AM_MEDIUM_MAX))) {
        prep_claim(prep_key(token, true, AMQ_MEDIUM), token->rsq,
                   most < PSHM_AM_MEDIUM_MAX ? most : PSHM_AM_MEDIUM_MAX, nargs, size);
        return fast_rep_medium(token->rsq, buf, flags, 0);
    }
    return prep_rep_medium(token, least, most, flags, nargs, buf, size);
}

int pshm_am_prepare_reply_long(pshm_token_t *token, void *dest_addr, size_t least, size_t most,
                               unsigned flags, unsigned nargs, void **buf, size_t *size)
{
    size_t left;

    if (PSHM_LIKELY(rep_ok(token, flags, nargs) && size != NULL && prep.key == 0 &&
                    long_left(token->ctx, token->src_local, dest_addr, &left) &&
                    least <= (most < left ? most : left))) {
        prep_claim(prep_key(token, true, AMQ_LONG), token->rsq, most < left ? most : left, nargs,
                   size);
        return fast_rep_long(token->rsq, buf, flags, (uint64_t)(uintptr_t)dest_addr);
    }
    return prep_rep_long(token, dest_addr, least, most, flags, nargs, buf, size);
}

int pshm_am_commit_request_medium(pshm_ctx_t *ctx, unsigned handler, size_t nbytes,
                                  unsigned nargs, const uint32_t *args)
{
    return commit(ctx, "pshm_am_commit_request_medium", NULL, false, AMQ_MEDIUM, handler, nbytes, nargs,
                  args);
}

int pshm_am_commit_request_long(pshm_ctx_t *ctx, unsigned handler, size_t nbytes,
                                unsigned nargs, const uint32_t *args)
{
    return commit(ctx, "pshm_am_commit_request_long", NULL, false, AMQ_LONG, handler, nbytes, nargs,
                  args);
}

int pshm_am_commit_reply_medium(pshm_token_t *token, unsigned handler, size_t nbytes,
                                unsigned nargs, const uint32_t *args)
{
    return commit(NULL, "pshm_am_commit_reply_medium", token, true, AMQ_MEDIUM, handler, nbytes, nargs,
                  args);
}

int pshm_am_commit_reply_long(pshm_token_t *token, unsigned handler, size_t nbytes,
                              unsigned nargs, const uint32_t *args)
{
    return commit(NULL, "pshm_am_commit_reply_long", token, true, AMQ_LONG, handler, nbytes, nargs,
                  args);
}
