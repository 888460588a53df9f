/*
 * layout.c - region layout and size, per-process setup.
 */
#include "amq_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned ceil_log2(unsigned n)
{
    unsigned r = 0;
    while ((1u << r) < n)
        r++;
    return r;
}

#define MUL(a, b, out) __builtin_mul_overflow((a), (b), (out))
#define ADD(a, b, out) __builtin_add_overflow((a), (b), (out))

int amq_layout(unsigned nprocs, uint32_t depth, uint64_t memory, amq_layout_t *l)
{
    uint64_t bar, qbytes, pools, t;
    char a[32], b[32];

    if (nprocs == 0 || nprocs > (1u << 20))
        return pshm_err(-EINVAL, "active-message network: %u processes is out of range "
                        "(1..%u)", nprocs, 1u << 20);
    /* 0: not set, the default for P. */
    depth = pshm_queue_depth(nprocs, depth);
    if (depth < PSHM_QUEUE_DEPTH_MIN || depth > PSHM_QUEUE_DEPTH_MAX)
        return pshm_err(-EINVAL, "active-message network: queue depth %u is out of range "
                        "(%u..%u); set GASNET_PSHMNET_QUEUE_DEPTH within it", depth,
                        PSHM_QUEUE_DEPTH_MIN, PSHM_QUEUE_DEPTH_MAX);
    if (memory < AMQ_CHUNK_MAX)
        return pshm_err(-EINVAL, "active-message network: a payload pool of %s cannot hold "
                        "one maximum Medium message (%s); raise GASNET_PSHMNET_QUEUE_MEMORY",
                        pshm_fmt_size(a, sizeof a, memory),
                        pshm_fmt_size(b, sizeof b, AMQ_CHUNK_MAX));
    memset(l, 0, sizeof *l);
    l->nprocs = nprocs;
    l->rounds = ceil_log2(nprocs);
    l->depth = depth;
    l->off_bar = sizeof(pshm_control_t);
    /* One line more than the 2 P queues: an odd stride in lines, so that
     * a queue going round its lines visits every set of the L1 rather than
     * 64 / gcd(2 P, 64) of them (16 at P = 2, 1 at P = 32), where its
     * lines evicted one another (README.PSHM section 13). */
    l->row = (2ull * nprocs + 1) * AMQ_LINE;
    l->wide = nprocs >= AMQ_WIDE_MIN;
    if (l->wide) {
        l->nbell = (uint32_t)((2ull * nprocs + 63) / 64);
        l->off_ctl = AMQ_LINE + PSHM_ALIGN_UP((uint64_t)l->nbell * 8, AMQ_LINE);
        l->cstride = sizeof(uint32_t);
        l->off_rows = l->off_ctl + PSHM_ALIGN_UP(2ull * nprocs * sizeof(uint32_t), AMQ_LINE);
    } else {
        l->off_ctl = 0;
        l->cstride = AMQ_LINE;
        l->off_rows = l->row;
    }
    l->ring = (uint64_t)l->depth * l->row;
    l->rstride = l->off_rows + l->ring;
    bar = (uint64_t)nprocs * l->rounds * AMQ_LINE;
    l->off_q = l->off_bar + bar;
    if (memory > UINT64_MAX / 4)
        goto overflow;
    l->poolsz = PSHM_ALIGN_UP(memory, AMQ_PAGE);
    /* row <= 2^27 and rstride <= 2^44 (P <= 2^20, depth <= 2^16); the
     * products below may overflow. */
    if (MUL((uint64_t)nprocs, l->rstride, &qbytes) || ADD(l->off_q, qbytes, &t) ||
        t > UINT64_MAX - AMQ_PAGE)
        goto overflow;
    l->off_pool = PSHM_ALIGN_UP(t, AMQ_PAGE);
    if (MUL(2ull * nprocs, l->poolsz, &pools) || ADD(l->off_pool, pools, &t) ||
        t > (uint64_t)SIZE_MAX - 2 * AMQ_PAGE || t > (uint64_t)INTPTR_MAX)
        goto overflow;
    l->total = t;
    return 0;
overflow:
    return pshm_err(-EOVERFLOW, "active-message network: %u processes with queue depth %u "
                    "and %llu-byte pools need more memory than can be addressed; lower "
                    "GASNET_PSHMNET_QUEUE_DEPTH or GASNET_PSHMNET_QUEUE_MEMORY", nprocs, depth,
                    (unsigned long long)memory);
}

int amq_region_size(unsigned nprocs, uint32_t depth, uint64_t memory, uint64_t *bytes)
{
    amq_layout_t l;
    int rc = amq_layout(nprocs, depth, memory, &l);

    if (rc == 0)
        *bytes = l.total;
    return rc;
}

int amq_region_parts(unsigned nprocs, uint32_t depth, uint64_t memory, uint64_t *bytes,
                     uint64_t *queues, uint64_t *pools)
{
    amq_layout_t l;
    int rc = amq_layout(nprocs, depth, memory, &l);

    if (rc == 0) {
        *bytes = l.total;
        *queues = l.off_pool - l.off_q;
        *pools = l.total - l.off_pool;
    }
    return rc;
}

/* Sets up private state only: the zero-filled region is already an empty
 * network, and peers run this concurrently, so nothing shared is written. */
int amq_init(pshm_ctx_t *ctx, void *region, uint64_t len)
{
    struct amq *q;
    amq_layout_t l;
    unsigned P = (unsigned)ctx->nm.node_size;
    int me = ctx->nm.node_rank, rc;
    bool all;

    rc = amq_layout(P, ctx->cfg.queue_depth, ctx->cfg.queue_memory, &l);
    if (rc < 0)
        return rc;
    if (len < l.total)
        return pshm_err(-EINVAL, "active-message region is %llu bytes, the layout needs %llu",
                        (unsigned long long)len, (unsigned long long)l.total);
    if (((uintptr_t)region & (AMQ_LINE - 1)) != 0)
        return pshm_err(-EINVAL, "active-message region at %p is not aligned to a cache line",
                        region);
    q = calloc(1, sizeof *q);
    if (q == NULL)
        return pshm_err(-ENOMEM, "out of memory for the active-message state");
    ctx->amq = q;
    q->rq = calloc(AMQ_NETS * (size_t)P, sizeof(amq_rq_t));
    q->rqx = calloc(AMQ_NETS * (size_t)P, sizeof(amq_rqx_t));
    q->rqx_delta = (uintptr_t)q->rqx - AMQ_RQX_SCALE * (uintptr_t)q->rq;
    ctx->req_sq = calloc((size_t)ctx->size, sizeof *ctx->req_sq);
    for (int n = 0; n < AMQ_NETS; n++) {
        q->sq[n] = calloc(P, sizeof(amq_sq_t));
        q->rlock[n] = calloc(P, sizeof(amq_lock_t));
        if (q->sq[n] == NULL || q->rq == NULL || q->rqx == NULL || q->rlock[n] == NULL ||
            ctx->req_sq == NULL) {
            amq_fini(ctx);
            return pshm_err(-ENOMEM, "out of memory for the queue state of %u processes", P);
        }
    }
    q->l = l;
    q->region = region;
    q->me = me;
    q->P = (int)P;
    q->threads = (ctx->flags & PSHM_INIT_THREADS) != 0;
    q->inq = (char *)region + l.off_q + (uint64_t)me * l.rstride;
    q->bar = (amq_word_line_t *)((char *)region + l.off_bar);
    ctx->control = (pshm_control_t *)region;
    for (int n = 0; n < AMQ_NETS; n++) {
        for (unsigned p = 0; p < P; p++) {
            /* Outgoing: column n * P + me of receiver p's block. */
            char *rb = (char *)region + l.off_q + (uint64_t)p * l.rstride;
            uint64_t j = (uint64_t)n * P + (unsigned)me;
            amq_sq_t *sq = &q->sq[n][p];
            sq->seq = 1;
            sq->cached = 0;
            /* Messages to self always take the slow path (amq_self_posted). */
            sq->avail = q->threads || p == (unsigned)me ? 0 : l.depth;
            sq->wfast = !q->threads && p != (unsigned)me && l.wide;
            sq->ctl = (amq_ctl_t *)(rb + l.off_ctl + j * l.cstride);
            sq->slot = rb + l.off_rows + j * AMQ_LINE;
            sq->end = sq->slot + l.ring;
            if (l.wide && p != (unsigned)me) {
                /* My queue's bit in p's bells: its index in p's incoming
                 * array (amq_init's order below, seen from p). */
                unsigned i = n == AMQ_REP ? ((unsigned)me < p ? (unsigned)me + 1 : (unsigned)me)
                                          : P + ((unsigned)me < p ? (unsigned)me : (unsigned)me - 1);
                sq->bell = (_Atomic uint64_t *)(rb + AMQ_LINE) + i / 64;
                sq->bellbit = 1ull << (i % 64);
                sq->armed = (_Atomic uint32_t *)rb;
            }
            sq->row = l.row;
            sq->ring = l.ring;
            sq->dlocal = (int)p;
            sq->net = n;
            sq->pool = &q->pool[n];
        }
    }
    /* Incoming, in scan order (see struct amq): REP self, REP others, REQ
     * others, REQ self. */
    for (unsigned i = 0; i < AMQ_NETS * P; i++) {
        unsigned n = i / P, k = i % P, p;
        amq_rq_t *r = &q->rq[i];
        if (n == AMQ_REP)
            p = k == 0 ? (unsigned)me : k <= (unsigned)me ? k - 1 : k;
        else
            p = k == P - 1 ? (unsigned)me : k < (unsigned)me ? k : k + 1;
        atomic_init(&r->seq, 1);
        atomic_init(&r->s, (amq_slot_t *)(q->inq + l.off_rows + ((uint64_t)n * P + p) * AMQ_LINE));
        r->who = p << 1 | n;
        q->rqx[i].ctl = (amq_ctl_t *)(q->inq + l.off_ctl + ((uint64_t)n * P + p) * l.cstride);
        q->rqx[i].end = q->inq + l.off_rows + ((uint64_t)n * P + p) * AMQ_LINE + l.ring;
        q->rqx[i].pool = (char *)region + l.off_pool + ((uint64_t)p * AMQ_NETS + n) * l.poolsz;
        q->rqx[i].tok = (pshm_token_t){ctx, &q->sq[AMQ_REP][p], ctx->nm.members[p], (int)p,
                                       (uint8_t)n, n == AMQ_REQ ? 0 : AMQ_TOK_NOREPLY};
    }
    /* The idle scan: the other processes' queues, all queues with threads
     * or when there is no other process (so never fewer than 2). */
    all = q->threads || P == 1;
    ctx->scan_lo = all ? q->rq : q->rq + 1;
    ctx->scan_hi = all ? q->rq + 2 * P : q->rq + 2 * P - 1;
    /* A wide layout's idle poll reads the bells instead (poll.c); with
     * threads it scans every queue, and the bells are left to ring. */
    if (l.wide && !q->threads) {
        static amq_slot_t never; /* stamp 0: bellq[1] expects 1 */
        q->armed = (_Atomic uint32_t *)q->inq;
        q->bells = (_Atomic uint64_t *)(q->inq + AMQ_LINE);
        atomic_init(&q->bellq[0].s, (amq_slot_t *)q->inq);
        atomic_init(&q->bellq[0].seq, 0);
        atomic_init(&q->bellq[1].s, &never);
        atomic_init(&q->bellq[1].seq, 1);
        q->bellq[0].who = q->bellq[1].who = AMQ_WHO_BELL;
        ctx->scan_lo = q->bellq;
        ctx->scan_hi = q->bellq + 2;
    }
    for (int r = 0; r < ctx->size; r++)
        ctx->req_sq[r] = ctx_local(ctx, r) < 0 ? NULL : &q->sq[AMQ_REQ][ctx_local(ctx, r)];
    /* My copy job: the request pool's last lines, never carved. */
    for (int n = 0; n < AMQ_NETS; n++)
        amq_pool_init(&q->pool[n], (char *)region + l.off_pool + ((uint64_t)me * 2 + n) * l.poolsz,
                      l.poolsz - (n == AMQ_REQ ? AMQ_JOB_BYTES : 0), q->sq[n], l.depth,
                      q->threads);
    q->job = (amq_job_t *)(q->pool[AMQ_REQ].base + q->pool[AMQ_REQ].size);
    return 0;
}

void amq_fini(pshm_ctx_t *ctx)
{
    struct amq *q = ctx->amq;

    if (q == NULL)
        return;
    for (int n = 0; n < AMQ_NETS; n++) {
        free(q->sq[n]);
        free(q->rlock[n]);
    }
    free(q->rq);
    free(q->rqx);
    free(q);
    free(ctx->req_sq);
    ctx->amq = NULL;
    ctx->control = NULL;
    ctx->req_sq = NULL;
    ctx->scan_lo = ctx->scan_hi = NULL;
}
