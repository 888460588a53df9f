/*
 * synergy.c - a large copy shared by its sender and a receiver that polls
 * anyway (HMPI's synergistic copy): the copy of a Long's payload, or of a
 * pshm_put or pshm_get, is cut into chunks that both processes claim, so
 * that two cores copy where one could not saturate the memory.
 *
 * The owner (the sender) opens its job (amq_job_t), announces it with a
 * message on the queue to the helper (the Long itself, or an AMQ_HELP
 * message that runs no handler), and copies chunks until none is left;
 * then it waits for the chunks a helper still copies, and returns: the
 * source may be reused. It never waits for a helper that is not there:
 * what nobody claimed it copies itself, and a helper only ever holds a
 * chunk it is copying. A helper sees the announcement in its poll like any
 * message (the idle poll pays nothing for this), claims chunks while some
 * are left, and for a Long waits until every chunk is done before the
 * handler runs. An announcement seen late finds the job complete or
 * replaced (another generation) and does nothing.
 *
 * Both sides may only touch memory every process maps: the source and the
 * destination must lie in segments or ranges of the supernode, else the
 * sender copies alone, as below the threshold (PSHM_SYNERGY_MIN).
 */
#include "amq_internal.h"

#include <errno.h>
#include <string.h>

void (*amq_job_hook)(bool helper, uint32_t chunk);

/* The claim word (amq_job_t): gen << 40 | front << 20 | back. */
#define CLAIM_BITS 20
#define CLAIM_MASK ((1ull << CLAIM_BITS) - 1)
#define GEN_SHIFT (2 * CLAIM_BITS)
#define GEN_MASK 0xffffffu
#define FRONT_ONE (1ull << CLAIM_BITS)
/* Chunks a job may have: the front count passes nch by one (the owner's
 * last fetch_add) without reaching the generation's bits. */
#define NCH_MAX ((1ull << (CLAIM_BITS - 1)) - 1)

static inline uint32_t claim_gen(uint64_t c) { return (uint32_t)(c >> GEN_SHIFT); }
static inline uint64_t claim_taken(uint64_t c)
{
    return (c >> CLAIM_BITS & CLAIM_MASK) + (c & CLAIM_MASK);
}

/* Area a: a segment (a < P) or a range (P <= a < 2P) of the supernode, in
 * this process's view; NULL past the last one. */
static const pshm_seginfo_t *area_info(const pshm_ctx_t *ctx, uint32_t a)
{
    const unsigned P = (unsigned)ctx->amq->P;

    if (a < P)
        return &ctx->seginfo[a];
    return a < 2 * P && ctx->rangeinfo != NULL ? &ctx->rangeinfo[a - P] : NULL;
}

/* The area holding [p, + n) and the offset of p in it; false if none. */
static bool area_of(const pshm_ctx_t *ctx, const void *p, uint64_t n, uint32_t *area,
                    uint64_t *off)
{
    const pshm_seginfo_t *si;

    for (uint32_t a = 0; (si = area_info(ctx, a)) != NULL; a++) {
        uintptr_t d = (uintptr_t)p - (uintptr_t)si->local_base;
        if (si->local_base != NULL && (uintptr_t)p >= (uintptr_t)si->local_base &&
            d <= si->size && n <= si->size - d) {
            *area = a;
            *off = d;
            return true;
        }
    }
    return false;
}

/* [off, + n) of an area in this process's view, or NULL if outside it (a
 * job's description is another process's word: checked before use). */
static char *area_at(const pshm_ctx_t *ctx, uint32_t area, uint64_t off, uint64_t n)
{
    const pshm_seginfo_t *si = area_info(ctx, area);

    if (si == NULL || si->local_base == NULL || off > si->size || n > si->size - off)
        return NULL;
    return (char *)si->local_base + off;
}

/* A job's description as this process sees it (line 0 of amq_job_t, read
 * relaxed: the caller has acquired the claim word that published it). */
typedef struct job_view {
    uint64_t n, chunk;
    uint32_t nch;
    const char *src;             /* NULL: outside every area */
    char *dst;
} job_view_t;

static job_view_t job_read(const pshm_ctx_t *ctx, amq_job_t *j)
{
    job_view_t v;

    v.n = atomic_load_explicit(&j->n, memory_order_relaxed);
    v.chunk = atomic_load_explicit(&j->chunk, memory_order_relaxed);
    v.nch = atomic_load_explicit(&j->nch, memory_order_relaxed);
    v.src = area_at(ctx, atomic_load_explicit(&j->src_area, memory_order_relaxed),
                    atomic_load_explicit(&j->src_off, memory_order_relaxed), v.n);
    v.dst = area_at(ctx, atomic_load_explicit(&j->dst_area, memory_order_relaxed),
                    atomic_load_explicit(&j->dst_off, memory_order_relaxed), v.n);
    return v;
}

bool amq_job_open(pshm_ctx_t *ctx, int helper, void *dst, const void *src, uint64_t n,
                  uint32_t *meta)
{
    struct amq *q = ctx->amq;
    uint64_t chunk = ctx->cfg.synergy_chunk, soff, doff, nch;
    uint32_t sa, da, gen;
    amq_job_t *j = q->job;

    if (n < ctx->cfg.synergy_min || helper == q->me || n == 0)
        return false;
    /* Overlapping ranges need memmove's order, which chunks do not keep. */
    if ((const char *)src < (char *)dst + n && (char *)dst < (const char *)src + n)
        return false;
    nch = (n + chunk - 1) / chunk;
    if (nch > NCH_MAX || !area_of(ctx, src, n, &sa, &soff) ||
        !area_of(ctx, dst, n, &da, &doff))
        return false;
    /* Taken by another thread's job: this copy goes alone. */
    if (!amq_trylock(&q->job_lock))
        return false;
    gen = ++q->job_gen & GEN_MASK;
    /* Closed under the new generation first (front at nch's bound): a
     * helper that read the old claim word fails its compare-and-swap,
     * whatever it read below. */
    atomic_store_explicit(&j->claim, (uint64_t)gen << GEN_SHIFT | (NCH_MAX + 1) << CLAIM_BITS,
                          memory_order_relaxed);
    atomic_store_explicit(&j->src_area, sa, memory_order_relaxed);
    atomic_store_explicit(&j->dst_area, da, memory_order_relaxed);
    atomic_store_explicit(&j->src_off, soff, memory_order_relaxed);
    atomic_store_explicit(&j->dst_off, doff, memory_order_relaxed);
    atomic_store_explicit(&j->n, n, memory_order_relaxed);
    atomic_store_explicit(&j->chunk, chunk, memory_order_relaxed);
    atomic_store_explicit(&j->nch, (uint32_t)nch, memory_order_relaxed);
    atomic_store_explicit(&j->sdone, 0, memory_order_relaxed);
    atomic_store_explicit(&j->hdone, 0, memory_order_relaxed);
    /* Release: the description (and the source's bytes, written before
     * the call) are visible to a helper that acquires the open word. */
    atomic_store_explicit(&j->claim, (uint64_t)gen << GEN_SHIFT, memory_order_release);
    *meta = AMQ_META_JOB(gen);
    return true;
}

static inline void copy_chunk(char *dst, const char *src, uint64_t n, uint64_t chunk, uint32_t k)
{
    uint64_t at = (uint64_t)k * chunk;

    memcpy(dst + at, src + at, n - at < chunk ? n - at : chunk);
}

int amq_job_run(pshm_ctx_t *ctx)
{
    struct amq *q = ctx->amq;
    amq_job_t *j = q->job;
    /* Our own description, written by this thread in amq_job_open. */
    const job_view_t v = job_read(ctx, j);
    const uint64_t n = v.n, chunk = v.chunk;
    const uint32_t nch = v.nch;
    const char *src = v.src;
    char *dst = v.dst;
    uint32_t mine = 0, spins = 0;
    int rc = 0;

    for (;;) {
        /* Relaxed: only the counts are shared; what a chunk's bytes need
         * is ordered by sdone and hdone. Chunk k is ours when the front
         * and back taken before it leave it free. */
        uint64_t c = atomic_fetch_add_explicit(&j->claim, FRONT_ONE, memory_order_relaxed);
        uint64_t k = c >> CLAIM_BITS & CLAIM_MASK;
        if (claim_taken(c) >= nch)
            break;
        if (amq_job_hook)
            amq_job_hook(false, (uint32_t)k);
        copy_chunk(dst, src, n, chunk, (uint32_t)k);
        /* Release: a Long's receiver that acquires it sees these bytes. */
        atomic_store_explicit(&j->sdone, ++mine, memory_order_release);
    }
    /* Acquire: the helpers' chunks are written before the call returns. */
    while (mine + atomic_load_explicit(&j->hdone, memory_order_acquire) < nch) {
        if ((rc = ctx_wait_step(ctx, &spins)) < 0) {
            /* A helper died (or the job was aborted) holding a chunk we
             * cannot name: copy everything again and close the job, so
             * that the bytes are complete even so. */
            atomic_store_explicit(&j->claim,
                                  (atomic_load_explicit(&j->claim, memory_order_relaxed) &
                                   ~(CLAIM_MASK << CLAIM_BITS | CLAIM_MASK)) |
                                      (uint64_t)nch << CLAIM_BITS,
                                  memory_order_relaxed);
            memcpy(dst, src, n);
            atomic_store_explicit(&j->sdone, nch, memory_order_release);
            break;
        }
    }
    amq_unlock(&q->job_lock);
    return rc;
}

int amq_job_help(pshm_ctx_t *ctx, int owner, uint32_t meta, bool wait)
{
    struct amq *q = ctx->amq;
    amq_job_t *j;
    uint64_t c, n, chunk;
    uint32_t nch, gen, spins = 0;
    const char *src;
    char *dst;
    int rc;

    if (owner < 0 || owner >= q->P || owner == q->me)
        return 0;
    j = (amq_job_t *)(q->region + q->l.off_pool + ((uint64_t)owner * AMQ_NETS + AMQ_REQ + 1) *
                                                      q->l.poolsz - AMQ_JOB_BYTES);
    /* Acquire: pairs with the release that opened the job. */
    c = atomic_load_explicit(&j->claim, memory_order_acquire);
    gen = claim_gen(c);
    if ((gen & 0x7fffu) != meta >> 17)
        return 0; /* replaced by a later job: this one was complete */
    job_view_t v = job_read(ctx, j);
    n = v.n, chunk = v.chunk, nch = v.nch, src = v.src, dst = v.dst;
    /* A description read as it changed, or not one of ours: no help (the
     * owner copies alone), and a Long still waits for the owner below. */
    if (src != NULL && dst != NULL && chunk >= PSHM_SYNERGY_CHUNK_MIN &&
        nch == (n + chunk - 1) / chunk) {
        /* Claim from the back while the job is this generation's and has
         * chunks left; a failed exchange reloads c. Acquire: another
         * helper's or the owner's reopening is seen before we read on. */
        while (claim_gen(c) == gen && claim_taken(c) < nch) {
            if (!atomic_compare_exchange_weak_explicit(&j->claim, &c, c + 1, memory_order_acquire,
                                                       memory_order_acquire))
                continue;
            uint32_t k = nch - 1 - (uint32_t)(c & CLAIM_MASK);
            if (amq_job_hook)
                amq_job_hook(true, k);
            copy_chunk(dst, src, n, chunk, k);
            /* Release: the owner's and the receiver's acquire see the chunk. */
            atomic_fetch_add_explicit(&j->hdone, 1, memory_order_release);
            c = atomic_load_explicit(&j->claim, memory_order_acquire);
        }
    }
    if (!wait)
        return 0;
    /* The Long's handler needs every chunk: wait for the owner's (it is
     * copying them now, or finished them while we did not poll). Acquire
     * on both counts; a new generation means the owner saw the job complete. */
    for (;;) {
        uint32_t done = atomic_load_explicit(&j->sdone, memory_order_acquire) +
                        atomic_load_explicit(&j->hdone, memory_order_acquire);
        if (done >= nch || claim_gen(atomic_load_explicit(&j->claim, memory_order_acquire)) != gen)
            return 0;
        if ((rc = ctx_wait_step(ctx, &spins)) < 0)
            return rc;
    }
}

int amq_copy_shared(pshm_ctx_t *ctx, int helper, void *dst, const void *src, uint64_t n)
{
    struct amq *q = ctx->amq;
    amq_sq_t *sq;
    uint32_t meta;
    int rc;

    if (q == NULL || helper < 0 || helper >= q->P)
        return 0;
    sq = &q->sq[AMQ_REQ][helper];
    if (!amq_job_open(ctx, helper, dst, src, n, &meta))
        return 0;
    /* Announce it if the queue has a slot now; never wait for one (a
     * target that does not poll would not help). With threads the queue's
     * lock is only tried: its holder may be this thread's prepare. */
    if (q->threads ? amq_trylock(&sq->lock) : !sq->prepared) {
        /* A slot: it ends an open line, then needs a line. */
        amq_end_line(sq);
        if (sq->seq - sq->cached <= q->l.depth || amq_room(sq, q->l.depth)) {
            amq_slot_t *s = (amq_slot_t *)sq->slot;
            s->meta = AMQ_META(0, 0, AMQ_HELP, 0) | meta;
            amq_publish(sq, s);
        }
        amq_ring(sq); /* the slot, or the skip mark alone */
        if (q->threads)
            amq_unlock(&sq->lock);
        else
            amq_avail_update(q, sq);
    }
    /* Not announced: the owner takes every chunk (a late message of an
     * earlier job whose generation matches may help, which is as good). */
    rc = amq_job_run(ctx);
    return rc < 0 ? rc : 1;
}
