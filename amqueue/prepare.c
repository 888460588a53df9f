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

typedef struct amq_prep {
    amq_sq_t *sq;            /* NULL: nothing prepared on this thread */
    pshm_ctx_t *ctx;
    pshm_token_t *tok;       /* a reply's token, else NULL */
    amq_pool_t *pool;        /* the chunk's pool, or NULL */
    int cat;
    unsigned nargs;
    bool spill;              /* data (args, Medium payload) in a chunk */
    uint64_t off;            /* the chunk's offset in its pool */
    unsigned char *data;     /* where the args go */
    size_t size;             /* bytes of the buffer */
    uint64_t raddr;          /* Long: destination in the receiver's view */
    uint32_t pad;            /* Medium in a chunk: bytes between args and payload */
} amq_prep_t;

static _Thread_local amq_prep_t prep __attribute__((tls_model("initial-exec")));

static const char *cat_name(int cat) { return cat == AMQ_MEDIUM ? "Medium" : "Long"; }

bool amq_prepared_by_me(const amq_sq_t *sq) { return prep.sq == sq; }

/* Ends this thread's reservation of its queue, committed or given back.
 * prep.sq == NULL is "nothing prepared"; prepare sets every field. The
 * queue is at a line's first cell: the prepare ended an open line, the
 * commit's slot moved to the next one. */
static inline __attribute__((always_inline)) void prep_end(struct amq *q, amq_sq_t *sq)
{
    sq->prepared = false;
    if (q->threads)
        amq_unlock(&sq->lock);
    else
        amq_avail_set(q, sq, false);
    prep.sq = NULL;
    prep.pool = NULL;
    amq_tls.prep_tok = NULL;
}

/* Gives the reservation back (a failed prepare, a handler that returned
 * without committing its reply): the chunk is marked unsent, so the pool
 * reclaims it in turn. */
static void prep_release(void)
{
    if (prep.pool != NULL) {
        /* Unsent: free at once, whatever the queue's count. */
        ((amq_chunk_t *)(prep.pool->base + prep.off))->dest = -1;
        amq_chunk_filled(prep.pool, prep.off);
    }
    prep_end(prep.ctx->amq, prep.sq);
}

void amq_prep_abandon(const pshm_token_t *tok)
{
    if (prep.sq != NULL && prep.tok == tok)
        prep_release();
}

void amq_prep_stale(void)
{
    if (prep.sq != NULL && prep.tok != NULL && prep.tok->state != AMQ_TOK_PREPARED)
        prep_release();
}

/*
 * The common part of the four prepare calls; the caller checked the
 * context (or token) and the destination. `ldst` is a Long's destination
 * in this view.
 */
static inline __attribute__((always_inline)) int
prepare(pshm_ctx_t *ctx, const char *fn, amq_sq_t *sq, pshm_token_t *tok, int cat,
                   void *ldst, uint64_t raddr, size_t seg_left, size_t least, size_t most,
                   unsigned flags, unsigned nargs, void **buf, size_t *size)
{
    struct amq *q = ctx->amq;
    uint64_t argsz = PSHM_ALIGN_UP(4u * nargs, 8), dsz, need, pad = 0;
    amq_pool_t *pool = &q->pool[sq->net];
    bool spill;
    int rc = 0;

    if (PSHM_UNLIKELY(buf == NULL || size == NULL))
        return pshm_err(-EINVAL, "%s: the %s pointer is NULL", fn, buf == NULL ? "buf" : "size");
    if (PSHM_UNLIKELY(least > most))
        return pshm_err(-EINVAL, "%s: least (%zu bytes) exceeds most (%zu)", fn, least, most);
    if (PSHM_UNLIKELY(cat == AMQ_MEDIUM && least > PSHM_AM_MEDIUM_MAX))
        return pshm_err(-EINVAL, "%s: least (%zu bytes) exceeds the Medium maximum of %u "
                        "(pshm_am_max_medium); prepare a Long message instead", fn, least,
                        PSHM_AM_MEDIUM_MAX);
    if (PSHM_UNLIKELY(prep.sq != NULL)) {
        amq_prep_stale();
        if (prep.sq != NULL)
            return pshm_err(-EINVAL, "%s: this thread already prepared a %s %s to rank %d and "
                            "did not commit it; commit it first (one prepared message per "
                            "thread)", fn, cat_name(prep.cat), prep.tok ? "reply" : "request",
                            prep.ctx->nm.members[prep.sq->dlocal]);
    }
    if (PSHM_UNLIKELY(!q->threads && sq->prepared))
        return pshm_err(-EINVAL, "%s: a prepared message to rank %d is not committed yet", fn,
                        ctx->nm.members[sq->dlocal]);
    if (cat == AMQ_MEDIUM) {
        *size = most < PSHM_AM_MEDIUM_MAX ? most : PSHM_AM_MEDIUM_MAX;
        dsz = argsz + *size;
        /* In a chunk the buffer starts a line (amq_medium_pad). */
        if (dsz > AMQ_BODY) {
            pad = amq_medium_pad(0, nargs);
            dsz += pad;
        }
    } else {
        *size = most < seg_left ? most : seg_left;
        dsz = 4u * nargs;
    }
    spill = dsz > AMQ_BODY - (cat == AMQ_LONG ? 8 : 0);
    need = PSHM_ALIGN_UP(AMQ_CHUNK_HDR + dsz, AMQ_LINE);

    if (q->threads)
        amq_lock(&sq->lock);
    prep.sq = sq;
    prep.ctx = ctx;
    prep.tok = tok;
    prep.pool = NULL;
    prep.cat = cat;
    prep.nargs = nargs;
    prep.spill = spill;
    prep.size = *size;
    prep.raddr = raddr;
    prep.pad = (uint32_t)pad;
    sq->prepared = true;
    /* The slot starts a line: end an open one now (no room needed). */
    amq_end_line(sq);
    /* A slot known free and a chunk at the pool's head: no wait, no call
     * (as the send path's fast case). Else the general reservation. */
    if (!q->threads && sq->avail != 0 &&
        (!spill || (prep.off = amq_pool_take(pool, need, sq->dlocal, sq->seq)) != UINT64_MAX)) {
        /* reserved */
    } else {
        if (!q->threads)
            sq->avail = 0; /* the fast path leaves this queue alone while we wait */
        if ((rc = amq_reserve(ctx, sq, flags, false, spill, dsz, &prep.off)) < 0)
            goto fail;
    }
    if (!q->threads)
        sq->avail = 0; /* ... and until the commit */
    if (!spill) {
        prep.data = ((amq_slot_t *)sq->slot)->body + (cat == AMQ_LONG ? 8 : 0);
    } else {
        prep.pool = pool;
        prep.data = (unsigned char *)pool->base + prep.off + AMQ_CHUNK_HDR;
    }
    *buf = cat == AMQ_MEDIUM ? (void *)(prep.data + argsz + pad) : ldst;
    if (tok != NULL) {
        tok->state = AMQ_TOK_PREPARED;
        amq_tls.prep_tok = tok;
    }
    (void)least;
    return 0;
fail:
    prep_release();
    return rc;
}

/* Why a commit is refused (nothing of that kind prepared, a size or count
 * other than prepared, bad handler); a prepare left by a handler that
 * returned is given up first. */
static int __attribute__((noinline, cold))
commit_bad(pshm_ctx_t *ctx, const char *fn, pshm_token_t *tok, int cat, unsigned handler,
           size_t nbytes, unsigned nargs, const uint32_t *args)
{
    amq_sq_t *sq;

    amq_prep_stale();
    sq = prep.sq;
    if (sq == NULL || prep.ctx != ctx || prep.tok != tok || prep.cat != cat)
        return pshm_err(-EINVAL, "%s: this thread has no prepared %s %s to commit%s", fn,
                        cat_name(cat), tok ? "reply" : "request",
                        sq == NULL ? "" : " (it prepared another kind of message)");
    if (nbytes > prep.size)
        return pshm_err(-EINVAL, "%s: %zu bytes exceeds the %zu prepared; the message stays "
                        "prepared", fn, nbytes, prep.size);
    if (nargs != prep.nargs)
        return pshm_err(-EINVAL, "%s: %u arguments, %u prepared; the message stays prepared",
                        fn, nargs, prep.nargs);
    if (args == NULL && nargs)
        return pshm_err(-EINVAL, "%s: %u arguments but the args pointer is NULL", fn, nargs);
    return amq_send_bad(ctx, fn, ctx->nm.members[sq->dlocal], handler, NULL, 0, 0, nargs, args,
                        AMQ_SHORT);
}

/* The common part of the four commit calls. A prepared reply's token is in
 * state PREPARED until its handler returns, so a prepare that matches the
 * token is never a stale one. */
static inline __attribute__((always_inline)) int
commit(pshm_ctx_t *ctx, const char *fn, pshm_token_t *tok, int cat, unsigned handler,
       size_t nbytes, unsigned nargs, const uint32_t *args)
{
    struct amq *q;
    amq_sq_t *sq = prep.sq;
    amq_slot_t *s;
    unsigned char *body;

    if (PSHM_UNLIKELY(sq == NULL || prep.ctx != ctx || prep.tok != tok || prep.cat != cat ||
                      nbytes > prep.size || nargs != prep.nargs || (args == NULL && nargs) ||
                      !amq_send_ok(ctx, handler, NULL, 0, 0, nargs, AMQ_SHORT)))
        return commit_bad(ctx, fn, tok, cat, handler, nbytes, nargs, args);
    q = ctx->amq;
    s = (amq_slot_t *)sq->slot;
    if (nargs)
        memcpy(prep.data, args, 4u * nargs);
    s->meta = AMQ_META(handler, nargs, cat, prep.spill) | AMQ_META_PAD(prep.pad);
    s->nbytes = nbytes;
    body = s->body;
    if (cat == AMQ_LONG) {
        __builtin_memcpy(body, &prep.raddr, 8);
        body += 8;
    }
    if (prep.spill) {
        __builtin_memcpy(body, &prep.off, 8);
        amq_chunk_filled(prep.pool, prep.off);
    }
    amq_publish(sq, s);
    if (sq->dlocal == q->me)
        amq_self_posted();
    if (tok != NULL)
        tok->state = AMQ_TOK_REPLIED;
    prep_end(q, sq); /* the chunk is the message's now */
    return 0;
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

static inline int req_queue(pshm_ctx_t *ctx, const char *fn, int dest, unsigned flags,
                            unsigned nargs, amq_sq_t **sq)
{
    if (PSHM_LIKELY(ctx_attached(ctx) && (unsigned)dest < (unsigned)ctx->size &&
                    (*sq = ctx->req_sq[dest]) != NULL && !(flags & ~PSHM_IMMEDIATE) &&
                    nargs <= PSHM_AM_MAX_ARGS && !amq_in_handler))
        return 0;
    return req_bad(ctx, fn, dest, flags, nargs);
}

/* The token checks of a reply (the send path's, plus the debug build's),
 * its flags and count. */
static inline int rep_token(pshm_token_t *t, const char *fn, unsigned flags, unsigned nargs)
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

/* A Long's destination: as much of [dest_addr, + most) as the segment
 * holds, at least `least` bytes. */
static int long_dest(pshm_ctx_t *ctx, const char *fn, int dlocal, void *dest_addr, size_t least,
                     void **ldst, size_t *left)
{
    const pshm_seginfo_t *si = &ctx->seginfo[dlocal];
    uintptr_t a = (uintptr_t)dest_addr;
    int rc = amq_long_target(ctx, fn, dlocal, dest_addr, least, ldst);

    if (rc == 0)
        *left = si->size - (a - si->owner_base);
    return rc;
}

int pshm_am_prepare_request_medium(pshm_ctx_t *ctx, int dest, size_t least, size_t most,
                                   unsigned flags, unsigned nargs, void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_request_medium";
    amq_sq_t *sq = NULL;
    int rc = req_queue(ctx, fn, dest, flags, nargs, &sq);

    if (rc < 0)
        return rc;
    return prepare(ctx, fn, sq, NULL, AMQ_MEDIUM, NULL, 0, 0, least, most, flags, nargs, buf,
                   size);
}

int pshm_am_prepare_request_long(pshm_ctx_t *ctx, int dest, void *dest_addr, size_t least,
                                 size_t most, unsigned flags, unsigned nargs, void **buf,
                                 size_t *size)
{
    static const char fn[] = "pshm_am_prepare_request_long";
    amq_sq_t *sq = NULL;
    void *ldst;
    size_t left = 0;
    int rc = req_queue(ctx, fn, dest, flags, nargs, &sq);

    if (rc < 0 || (rc = long_dest(ctx, fn, sq->dlocal, dest_addr, least, &ldst, &left)) < 0)
        return rc;
    return prepare(ctx, fn, sq, NULL, AMQ_LONG, ldst, (uint64_t)(uintptr_t)dest_addr, left,
                   least, most, flags, nargs, buf, size);
}

int pshm_am_prepare_reply_medium(pshm_token_t *token, size_t least, size_t most, unsigned flags,
                                 unsigned nargs, void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_reply_medium";
    int rc = rep_token(token, fn, flags, nargs);

    if (rc < 0)
        return rc;
    return prepare(token->ctx, fn, token->rsq, token, AMQ_MEDIUM, NULL, 0, 0, least, most, flags,
                   nargs, buf, size);
}

int pshm_am_prepare_reply_long(pshm_token_t *token, void *dest_addr, size_t least, size_t most,
                               unsigned flags, unsigned nargs, void **buf, size_t *size)
{
    static const char fn[] = "pshm_am_prepare_reply_long";
    void *ldst;
    size_t left = 0;
    int rc = rep_token(token, fn, flags, nargs);

    if (rc < 0 ||
        (rc = long_dest(token->ctx, fn, token->src_local, dest_addr, least, &ldst, &left)) < 0)
        return rc;
    return prepare(token->ctx, fn, token->rsq, token, AMQ_LONG, ldst,
                   (uint64_t)(uintptr_t)dest_addr, left, least, most, flags, nargs, buf, size);
}

int pshm_am_commit_request_medium(pshm_ctx_t *ctx, unsigned handler, size_t nbytes,
                                  unsigned nargs, const uint32_t *args)
{
    return commit(ctx, "pshm_am_commit_request_medium", NULL, AMQ_MEDIUM, handler, nbytes, nargs,
                  args);
}

int pshm_am_commit_request_long(pshm_ctx_t *ctx, unsigned handler, size_t nbytes,
                                unsigned nargs, const uint32_t *args)
{
    return commit(ctx, "pshm_am_commit_request_long", NULL, AMQ_LONG, handler, nbytes, nargs,
                  args);
}

static int commit_reply(pshm_token_t *token, const char *fn, int cat, unsigned handler,
                        size_t nbytes, unsigned nargs, const uint32_t *args)
{
    if (token == NULL)
        return pshm_err(-EINVAL, "%s: the token is NULL", fn);
    return commit(token->ctx, fn, token, cat, handler, nbytes, nargs, args);
}

int pshm_am_commit_reply_medium(pshm_token_t *token, unsigned handler, size_t nbytes,
                                unsigned nargs, const uint32_t *args)
{
    return commit_reply(token, "pshm_am_commit_reply_medium", AMQ_MEDIUM, handler, nbytes, nargs,
                        args);
}

int pshm_am_commit_reply_long(pshm_token_t *token, unsigned handler, size_t nbytes,
                              unsigned nargs, const uint32_t *args)
{
    return commit_reply(token, "pshm_am_commit_reply_long", AMQ_LONG, handler, nbytes, nargs,
                        args);
}
