/*
 * amq_internal.h - layout and private state of the active-message network.
 *
 * Region layout (the usable area after the header page; every offset is a
 * 64-bit byte offset computed by amq_layout(), a pure function of
 * (P, depth, memory, line), so no offset can wrap past 4 GiB):
 *
 *   line 0                    the supernode's control line (base/control.h)
 *   P * R lines               barrier flags, R = ceil(log2 P) rounds; flag
 *                             (r, k) is written only by (r - 2^k) mod P
 *   P receiver blocks         receiver r's block at r * rstride holds its
 *                             2 P incoming queues, j = n * P + s (network
 *                             n, sender s), interleaved by line:
 *       row 0: the 2 P consumer lines (line j written only by receiver r)
 *       row 1 + k: line k of queue j at line j (written only by sender s;
 *                  a slot or up to 4 cells, see amq_slot_t)
 *     with row = 2 P + 1 lines (the last one unused: an odd stride, see
 *     amq_layout), rstride = (depth + 1) * row. A sender's lines
 *     are never written by another process, yet the lines a receiver
 *     expects next lie side by side whenever its queues advance together
 *     (an idle network: all in row 1), so the idle scan touches 2 P
 *     adjacent lines in a few pages, not 2 P lines in 2 P pages.
 *   2 * P pools (page aligned) pool (process p, network n) at
 *                             (p * 2 + n) * poolsz, written by p only;
 *                             the last AMQ_JOB_BYTES of p's request pool
 *                             are p's copy job (synergy.c), not carved
 *
 * A wide layout (P >= AMQ_WIDE_MIN = 8; amq_layout_t.wide) puts before the
 * rows of a receiver's block, instead of row 0:
 *       line 0: the bell line: `armed` (u32 at byte 0), stored 1 by the
 *               receiver before it reads the bell words, 0 by a sender
 *               whose bit made a bell word non-zero (and by the receiver
 *               when it puts bits back); the rest unused
 *       lines 1..: nbell = ceil(2 P / 64) bell words (u64): bit i for
 *               incoming queue i in the receiver's order (amq_rq_t: REP
 *               self, REP others, REQ others, REQ self; the queues to self
 *               never ring), set by that queue's sender with fetch_or,
 *               taken by the receiver with exchange
 *       then:   the 2 P consumer counts packed, 4 bytes apart (queue j at
 *               j * 4, written only by the receiver), in whole lines
 *     then the depth rows as above (rstride = off_rows + depth * row).
 *     The protocol and its fences: poll.c, before wide_busy. The idle poll
 *     reads the bell line's word as it would a queue's stamp, so it costs
 *     what it costs at P = 2 at any P; the queues' depth when not set is
 *     256 / (P - 1) lines (pshm_queue_depth), so the queues grow with P.
 *
 * Networks: AMQ_REP = 0, AMQ_REQ = 1, so that a pass over the networks in
 * index order serves replies before requests.
 *
 * Size (bytes, usable area; add the 4096-byte header page for the object):
 *   page_up(L + L*P*R + P*(depth+1)*(2*P+1)*L) + 2*P*page_up(memory)
 *   rounded up to a page; L = cache line (64), R = ceil(log2 P); a wide
 *   layout's receiver block is L * (1 + ceil(2P/64 * 8 / L) + ceil(2P * 4 / L)
 *   + depth * (2P + 1)) instead of (depth+1)*(2*P+1)*L.
 */
#ifndef PSHM_AMQ_INTERNAL_H
#define PSHM_AMQ_INTERNAL_H

#include "base/ctx.h"
#include "amqueue/amqueue.h"

#include <sched.h>

#define AMQ_LINE PSHM_CACHE_LINE
#define AMQ_PAGE 4096u
enum { AMQ_REP = 0, AMQ_REQ = 1, AMQ_NETS = 2 };
/* AMQ_HELP: no handler, only a copy job to help with (synergy.c). */
enum { AMQ_SHORT = 0, AMQ_MEDIUM = 1, AMQ_LONG = 2, AMQ_HELP = 3 };

/* Poll bounds: messages taken from one queue per visit, and per call. */
#define AMQ_POLL_BATCH 16u
#define AMQ_POLL_MAX 256u

/*
 * A queue is a ring of `depth` lines; a line holds either one message of
 * the whole line (a slot, below) or up to AMQ_CELLS packed messages of one
 * 16-byte cell each. A cell message is a Short of at most 2 arguments
 * inline (AMQ_META_IS_CELL): stamp, meta, the 2 argument words (unused ones
 * unwritten). Any other message is a slot, from the line's first cell; the
 * sender then moves to the next line.
 *
 * `stamp`, at the start of every message (cell or slot), is the sequence
 * number of its LINE in the queue (1, 2, ... wrapping at 2^32): the four
 * cells of one line carry the same stamp. It is written LAST with a release
 * store: the receiver takes a message when an acquire load of the stamp
 * where it expects the next one equals the line's number. Stale values:
 *  - cell 0 of a line still holds the stamp of the line `depth` earlier (or
 *    0 when never used), which differs because 0 < depth < 2^32, so zero
 *    memory is "empty" and the receiver never clears a line;
 *  - cells 1-3 may hold a slot's body bytes of an earlier lap (anything, the
 *    expected stamp included): so when a cell message starts a line, the
 *    sender first stores stamp - 1 into cells 1-3's stamp words (relaxed;
 *    the release of cell 0 orders them), a value no message of this lap of
 *    the line carries; the receiver looks at cell k > 0 only after taking
 *    cell k - 1 of the same lap, so it sees that value or a newer one.
 * A line left partly unused by a slot that follows gets a skip mark in its
 * next cell (meta AMQ_META_SKIP, the line's stamp): the receiver moves to
 * the next line, runs nothing, counts nothing.
 *
 * meta: handler (bits 0-7), nargs (8-12), category (13-14), spilled (15),
 * job (16: the sender's copy job carries this Long's payload, or an
 * AMQ_HELP message asks to help with it), the job's generation (17-31);
 * for a Medium in a chunk, bits 16-18 are the pad / 8 between the args and
 * the payload (amq_medium_pad).
 * A Short's args (inline, up to 12) start at byte 8 (`nbytes`, which a
 * Short does not use), in a cell and in a slot alike.
 * Other slots' body: [Long: u64 destination address in the receiver's view]
 *       then either [spilled: u64 chunk offset in the sender's pool]
 *       or the inline data: args (4 * nargs), padded to 8 when a Medium
 *       payload follows, then the payload.
 * What does not fit the body (many args, a large Medium) goes in a chunk of
 * the sender's pool with the same data layout; the slot holds its offset.
 */
typedef struct amq_slot {
    _Atomic uint32_t stamp;
    uint32_t meta;
    uint64_t nbytes;
    unsigned char body[AMQ_LINE - 16];
} amq_slot_t;
_Static_assert(sizeof(amq_slot_t) == AMQ_LINE, "a slot is one cache line");

/* A cell: a Short of at most 2 args. */
typedef struct amq_cell {
    _Atomic uint32_t stamp;
    uint32_t meta;
    uint32_t args[2];
} amq_cell_t;
#define AMQ_CELL 16u
#define AMQ_CELLS (AMQ_LINE / AMQ_CELL)
_Static_assert(sizeof(amq_cell_t) == AMQ_CELL, "a cell is 16 bytes");
_Static_assert(AMQ_LINE % AMQ_CELL == 0 && AMQ_CELLS >= 2, "whole cells per line");
/* A Short's inline args: byte 8 of its cell or slot. */
#define AMQ_SHORT_ARGS(s) ((const uint32_t *)((const char *)(s) + 8))
/* Largest count of a cell message. */
#define AMQ_CELL_NARGS 2u
/* A cell message's meta: a Short of at most 2 args, inline, no other bit
 * (so meta >> 8 is its count). Any other meta is a slot's or a skip. */
#define AMQ_META_IS_CELL(m) (((m) >> 8) <= AMQ_CELL_NARGS)
/* Skip to the next line: category AMQ_HELP with no job, which no message
 * carries (an AMQ_HELP message always has its job bit). */
#define AMQ_META_SKIP ((uint32_t)AMQ_HELP << 13)

#define AMQ_BODY (AMQ_LINE - 16)
#define AMQ_META(h, na, cat, sp) ((uint32_t)(h) | (uint32_t)(na) << 8 | (uint32_t)(cat) << 13 | (uint32_t)(sp) << 15)
#define AMQ_META_H(m) ((m) & 0xffu)
#define AMQ_META_NA(m) (((m) >> 8) & 0x1fu)
#define AMQ_META_CAT(m) (((m) >> 13) & 0x3u)
#define AMQ_META_SP(m) (((m) >> 15) & 0x1u)
/* The poll's key of a handler of any count (ctx->am_meta): the meta word
 * of a Short of 0 args to it with bit 31 set, which no slot's meta has. A
 * Short with its data inline matches it once its count's low 4 bits are
 * masked and bit 31 flipped: counts 0-15 with bits 16-31 clear (a meta with
 * bit 31 set has it cleared, and misses); the poll then bounds the count by
 * what fits the slot (12). What misses is dropped by run_short_any. */
#define AMQ_META_ANY (1u << 31)
#define AMQ_META_ANY_NA (0xfu << 8)
#define AMQ_META_JOB(gen) (1u << 16 | ((uint32_t)(gen) & 0x7fffu) << 17)
#define AMQ_META_HAS_JOB(m) (((m) >> 16) & 0x1u)
#define AMQ_META_PAD(pad) ((uint32_t)(pad) >> 3 << 16)
#define AMQ_META_PAD_BYTES(m) (((m) >> 16 & 0x7u) << 3)

/* Bytes between a chunk's args and its Medium payload: the payload then
 * lies at the 8-aligned address of the source's line offset (a line start
 * when the source is unknown, src 0). On AMD Zen, memcpy (rep movsb) runs
 * 50-70x slower when the destination is 8 to 24 bytes past the source's
 * offset in a line, where args would put it. The data starts line-aligned
 * (the chunk header is a line). */
static inline uint64_t amq_medium_pad(uintptr_t src, unsigned nargs)
{
    return (((uint64_t)src & 56u) - PSHM_ALIGN_UP(4u * nargs, 8)) & 63u;
}

/* Consumer line of a queue: the number of LINES the receiver has finished
 * with (every handler of their messages returned; a line it is in the
 * middle of is not counted), stored with release by the receiver only.
 * In a wide layout the counts are packed 4 bytes apart: only `consumed`
 * is ever accessed through this type. */
typedef struct amq_ctl {
    _Atomic uint32_t consumed;
    unsigned char pad[AMQ_LINE - 4];
} amq_ctl_t;
_Static_assert(sizeof(amq_ctl_t) == AMQ_LINE, "one line");

/* A line holding one 64-bit word (barrier flags). */
typedef struct amq_word_line {
    _Atomic uint64_t v;
    unsigned char pad[AMQ_LINE - 8];
} amq_word_line_t;
_Static_assert(sizeof(amq_word_line_t) == AMQ_LINE, "one line");

/* Chunk header in a pool, written and read by the sender only: size in
 * bytes (header included, a multiple of the line), the message it carries
 * (destination's supernode rank and stamp; dest -1 when given back
 * unsent), and `filled` (looked at with threads only, see amq_chunk_filled).
 * The chunk is free once
 * that queue's consumer count reaches the stamp: the receiver writes
 * nothing in the pool, so the header line never leaves the sender's cache
 * and the sender never waits for it. The data (same layout as a slot's
 * inline data) follows. The header fills a whole line so that the data
 * starts line-aligned: memcpy (rep movsb) into a destination only
 * 16-aligned runs ~15x slower on some x86-64 CPUs (64 KiB: 21 us instead of
 * 1.4 us). */
typedef struct amq_chunk {
    uint64_t size;
    uint32_t seq;
    int32_t dest;
    _Atomic uint32_t filled;
    unsigned char pad[AMQ_LINE - 20];
} amq_chunk_t;
#define AMQ_CHUNK_HDR AMQ_LINE
_Static_assert(sizeof(amq_chunk_t) == AMQ_CHUNK_HDR, "chunk header");

/* Largest chunk: header, 16 args, the largest pad, a maximum Medium; the
 * pool must hold one. */
#define AMQ_CHUNK_MAX PSHM_ALIGN_UP(AMQ_CHUNK_HDR + 4 * PSHM_AM_MAX_ARGS + 56 + PSHM_AM_MEDIUM_MAX, AMQ_LINE)

/* The wide layout from this many processes on (amq_layout): the idle
 * poll reads the bells, not 2 (P - 1) stamps (base/base.h). */
#define AMQ_WIDE_MIN PSHM_AM_WIDE_MIN

typedef struct amq_layout {
    unsigned nprocs, rounds;
    /* depth: lines of one queue (pshm_queue_depth of the setting) */
    uint32_t depth;
    bool wide;      /* P >= AMQ_WIDE_MIN */
    uint32_t nbell; /* wide: bell words (line 1 on of a receiver's block) */
    /* row: bytes from line k to line k + 1 of a queue (2 P + 1 lines); ring:
     * depth * row; rstride: bytes of a receiver's block; in a block,
     * off_ctl: the first consumer count, cstride apart (a line, or 4 bytes
     * in a wide layout), off_rows: line 0 of queue 0. */
    uint64_t off_bar, off_q, row, ring, rstride, off_ctl, cstride, off_rows, off_pool, poolsz,
        total;
} amq_layout_t;

int amq_layout(unsigned nprocs, uint32_t depth, uint64_t memory, amq_layout_t *l);

/* Test-and-set lock, private memory; only taken with PSHM_INIT_THREADS. */
typedef struct { _Atomic uint32_t v; } amq_lock_t;

static inline int amq_trylock(amq_lock_t *l)
{
    return atomic_load_explicit(&l->v, memory_order_relaxed) == 0 &&
           atomic_exchange_explicit(&l->v, 1, memory_order_acquire) == 0;
}
static inline void amq_lock(amq_lock_t *l)
{
    uint32_t n = 0;
    while (!amq_trylock(l)) {
        if (++n < 128)
            pshm_cpu_relax();
        else
            sched_yield();
    }
}
static inline void amq_unlock(amq_lock_t *l) { atomic_store_explicit(&l->v, 0, memory_order_release); }

/*
 * Sender's private state of one outgoing queue. `slot` is where the next
 * message goes: a cell of the line whose stamp is `seq` (lines between end -
 * ring and `end`, step `row`). At a line's first cell the line is not
 * started yet; past it the line is open (amq_mid), and a cell message goes
 * there with no room check. `cached` is the last consumer count read (in
 * lines). Invariant: seq - 1 - cached <= depth (unsigned), i.e. at most
 * `depth` lines are in flight, so line `seq` may be started iff seq -
 * cached <= depth. `avail` counts the line starts known free without
 * reading the consumer line again, depth + 1 + cached - seq - (1 if the
 * line is open): the fast path posts while it is non-zero. With threads,
 * and to self, it stays 0, so every send takes the slow path.
 */
typedef struct amq_sq {
    uint32_t seq, avail;
    char *slot, *end;
    uint64_t row, ring;
    uint32_t cached;
    amq_lock_t lock;
    amq_ctl_t *ctl;
    struct amq_pool *pool; /* this process's pool of the network (prepare.c) */
    int dlocal, net;   /* destination's supernode rank, network */
    bool prepared;     /* its next line is reserved by a prepare (prepare.c) */
    /* Wide layout (to another process): the destination's bell word and
     * this queue's bit in it (else NULL; amq_ring). */
    bool wfast;        /* wide, without threads, to another process */
    _Atomic uint64_t *bell;
    uint64_t bellbit;
    _Atomic uint32_t *armed; /* the destination's bell line */
} amq_sq_t;

/* Receiver's private state of one incoming queue: the stamp expected next
 * (`seq`, its line's) and the cell it is expected in (`s`: a cell message
 * or a slot's start), and who sends on it (sender's supernode rank
 * << 1 | network). The idle poll reads these 16 bytes and the stamp they
 * point to, per queue. With PSHM_INIT_THREADS, one thread's scan reads them
 * while another, holding the queue's lock, writes them: relaxed atomics,
 * plain loads and stores on x86-64. A scan that reads a pair being changed
 * only takes a wrong hint: the queue is then read under its lock. */
typedef struct amq_rq {
    _Atomic(amq_slot_t *) s;
    _Atomic uint32_t seq;
    uint32_t who;
} amq_rq_t;
_Static_assert(sizeof(amq_rq_t) == 16, "one pointer and the stamp per queue");
/* The who of a wide layout's bell entries (struct amq: bellq). */
#define AMQ_WHO_BELL UINT32_MAX
#define AMQ_WHO_NET(w) ((int)((w) & 1u))
#define AMQ_WHO_SRC(w) ((int)((w) >> 1))

/*
 * Sender's pool of one network: a circular allocator over [0, size).
 * Live chunks are [tail, head) when wrap == 0, else [tail, wrap) + [0, head).
 * See pool.c.
 */
/* The rings a pool is used as (see amq_pool_alloc): first one of
 * AMQ_POOL_RING_CHUNKS chunks of the size it started with (at least
 * AMQ_POOL_RING_MIN bytes), then AMQ_POOL_HOT bytes while the receiver
 * keeps up within them; at least one largest chunk. */
#define AMQ_POOL_RING_CHUNKS 4u
#define AMQ_POOL_RING_MIN (16u * 1024u)
#define AMQ_POOL_HOT (256u * 1024u)
_Static_assert(AMQ_POOL_HOT >= AMQ_CHUNK_MAX, "the hot ring holds a largest chunk");

/* `ring`: the ring in use, at most `hot`, the hot ring (AMQ_POOL_HOT or
 * the whole pool if smaller); `lim`: how far the
 * head may grow with no other check, the ring's end (wrap == 0) or the
 * tail (wrap != 0); 0 before the first chunk. `last`: the newest chunk's offset;
 * `mixed` is false while every chunk carved since the pool last held one
 * chunk goes to `dest0`, so that the newest one being consumed frees all. */
typedef struct amq_pool {
    char *base;
    uint64_t head, lim, last, ring, hot;
    int dest0;
    bool mixed;
    bool threads;       /* chunks are marked filled (amq_chunk_filled) */
    uint32_t depth;     /* lines of a queue (see pool.c: in flight) */
    uint64_t size, tail, wrap;
    struct amq_sq *sq;  /* the network's outgoing queues, by destination */
    amq_lock_t lock;
} amq_pool_t;

/* Bytes of live chunks. */
static inline uint64_t amq_pool_used(const amq_pool_t *p)
{
    return p->wrap != 0 ? p->wrap - p->tail + p->head : p->head - p->tail;
}

/* An empty pool of `size` bytes at base, for the queues sq of `depth`
 * lines (pool.c). */
void amq_pool_init(amq_pool_t *p, char *base, uint64_t size, struct amq_sq *sq, uint32_t depth,
                   bool threads);

/*
 * A copy job (synergy.c): a large copy between cross-mapped areas that the
 * process owning the job splits into chunks, which a peer that polls may
 * claim too. One per process, at the end of its request pool. An area is
 * named so that every process finds it in its own view: a < P is the
 * segment of supernode rank a, P <= a < 2 P the range (pshm_attach_range)
 * of rank a - P.
 *
 *   line 0  what to copy: stored by the owner while the job is closed,
 *           relaxed atomics (a helper that read an old claim word may read
 *           them as they change; its compare-and-swap then fails)
 *   line 1  claim: gen << 40 | front << 20 | back, gen the low 24 bits
 *           of the owner's generation. The owner takes chunks from the
 *           front (chunk `front`) with fetch_add, a helper from the back
 *           (chunk nch - 1 - back) with a compare-and-swap that also
 *           checks the generation; a job is closed while front + back >=
 *           nch. From two ends, each side copies about the same chunks
 *           from one job to the next, so a destination that fits the
 *           caches stays in the cache of the core that writes it.
 *   line 2  sdone: chunks the owner finished, its release stores
 *   line 3  hdone: chunks helpers finished, their release fetch_adds
 * The job is complete when sdone + hdone == nch; the owner reuses it only
 * then, so a helper still holding a chunk always holds one of the current
 * generation.
 */
typedef struct amq_job {
    _Atomic uint64_t src_off, dst_off, n, chunk;
    _Atomic uint32_t src_area, dst_area, nch;
    unsigned char pad1[AMQ_LINE - 44];
    _Atomic uint64_t claim;
    unsigned char pad2[AMQ_LINE - 8];
    _Atomic uint32_t sdone;
    unsigned char pad3[AMQ_LINE - 4];
    _Atomic uint32_t hdone;
    unsigned char pad4[AMQ_LINE - 4];
} amq_job_t;
#define AMQ_JOB_BYTES ((uint64_t)sizeof(amq_job_t))
_Static_assert(sizeof(amq_job_t) == 4 * AMQ_LINE, "four lines");

struct amq {
    amq_layout_t l;
    char *region;
    int me, P;
    bool threads;
    _Atomic uint32_t rot;     /* first sender visited by the next serve */
    uint64_t bar_epoch;
    amq_word_line_t *bar;     /* P * rounds flags */
    amq_sq_t *sq[AMQ_NETS];   /* by destination supernode rank */
    /* The incoming queues, one array of 2 P: network REP at [0, P) (this
     * process's own queue first, then the others by rank), REQ at [P, 2 P)
     * (the others by rank, then its own). The idle scan reads [1, 2P - 1),
     * the queues of the other processes, or all of them with threads; see
     * poll.c for how a message to self is found. */
    amq_rq_t *rq;
    struct amq_rqx *rqx;      /* by the same index as rq */
    uintptr_t rqx_delta;      /* rqx - AMQ_RQX_SCALE * rq, as integers, modulo 2^64:
                               * rq[i]'s rqx[i] is AMQ_RQX_SCALE * &rq[i] + rqx_delta */
    char *inq;                /* this receiver's block: consumer line of incoming queue
                               * j = net * P + sender at inq + j * L, its line k at
                               * inq + (1 + k) * row + j * L */
    amq_lock_t *rlock[AMQ_NETS]; /* with threads: the incoming queues' locks */
    /* A wide layout without threads (else NULL): my bell line's word, my
     * nbell bell words, and what the idle scan reads instead of the
     * queues (scan_lo: bellq[0] hits when the bell line's word is 0,
     * bellq[1] never; see poll.c). */
    _Atomic uint32_t *armed;
    _Atomic uint64_t *bells;
    amq_rq_t bellq[2];
    amq_pool_t pool[AMQ_NETS];
    amq_job_t *job;           /* mine (synergy.c) */
    amq_lock_t job_lock;      /* held by the thread that owns the open job */
    uint32_t job_gen;         /* generation of my last job */
    uint64_t nbad;            /* messages dropped: unknown handler, bad count */
};

/* Token state: 0 while the handler may reply; PREPARED while its reply is
 * prepared and not committed (poll_queue resets the state after each
 * handler, which is how a prepare left by a returned handler is known).
 * NOREPLY, a reply handler's, never changes; the others are cleared by
 * one AND with it (state &= AMQ_TOK_NOREPLY), so the bits are distinct. */
enum { AMQ_TOK_REPLIED = 1, AMQ_TOK_PREPARED = 2, AMQ_TOK_NOREPLY = 4 };

struct pshm_token {
    pshm_ctx_t *ctx;
    amq_sq_t *rsq;  /* the reply queue to the sender */
    int src;        /* job rank */
    int src_local;  /* supernode rank */
    uint8_t net;    /* network the message came on */
    uint8_t state;  /* 0, or AMQ_TOK_* (NOREPLY: a reply's token) */
};

/* What poll_queue needs of an incoming queue besides its position, fixed at
 * init: its consumer line, its ring's end, its batches' token, and the
 * sender's pool of this network in this view (where a spilled message's
 * chunk offset points). Four times the size of amq_rq_t, so that one shift
 * of rq's offset finds it. */
typedef struct amq_rqx {
    pshm_token_t tok; /* first: the batch's one pointer to it and to the rest */
    amq_ctl_t *ctl;
    char *end;
    char *pool;
    unsigned char pad[8];
} amq_rqx_t;
#define AMQ_RQX_SCALE 4
_Static_assert(sizeof(amq_rqx_t) == AMQ_RQX_SCALE * sizeof(amq_rq_t),
               "poll_queue finds it from rq's offset");

/* --enable-debug adds the checks that cost time on the fast path: a token
 * is used only inside its own handler (a thread-local store per handler), a
 * Long's source does not overlap its destination. The release build keeps
 * the cheap ones (live context, ranks, handler, counts, sizes, bounds). A
 * constant, so that the release build compiles them away without #if. */
enum { AMQ_DEBUG = PSHM_DEBUG };

/*
 * This thread's AM state, one block so that a poll reaches all of it from
 * one address. Initial-exec: every send and poll reads it, and the default
 * model of a shared library would make that a call to __tls_get_addr.
 *   credit      idle polls left before the paced liveness check (0 in a new
 *               thread: its first idle poll checks); a message to self sets
 *               it to AMQ_CREDIT_SELF so that the next poll serves the
 *               queues to self, which the idle scan skips (poll.c); below
 *               zero while a handler runs (AMQ_CREDIT_HANDLER), so that a
 *               poll looks at the in-handler mark only when it is negative
 *   in_handler  set while a handler runs on this thread: requests and
 *               pshm_poll are refused
 *   token       debug builds: the token of the handler running, or NULL
 *   prep_tok    the token of the reply this thread prepared and did not
 *               commit yet, else NULL (prepare.c): the end of a batch
 *               compares it with the batch's token, with no call
 */
typedef struct amq_tls {
    int64_t credit; /* 64 bits: no count of idle polls inside a handler wraps */
    unsigned in_handler;
    const pshm_token_t *token;
    const pshm_token_t *prep_tok;
} amq_tls_t;
extern _Thread_local amq_tls_t amq_tls __attribute__((tls_model("initial-exec")));
#define amq_in_handler (amq_tls.in_handler)
#define amq_cur_token (amq_tls.token)
/* Why a reply with token t is refused (NULL, a reply handler's token, a
 * prepared or already sent reply): sets the message, returns -EINVAL. */
int amq_reply_bad(const pshm_token_t *t, const char *fn);

#define AMQ_POLL_CREDIT 1024
/* Far below any count of idle polls. */
#define AMQ_CREDIT_SELF (-(1 << 30))
/* Taken from the credit while handlers run and given back after (poll.c):
 * a credit of at most AMQ_POLL_CREDIT is negative meanwhile (whatever idle
 * polls a reply waiting for room makes), and a message to self posted
 * meanwhile (AMQ_CREDIT_SELF) leaves it at or below AMQ_CREDIT_SELF / 2,
 * still read as one. */
#define AMQ_CREDIT_HANDLER (-(AMQ_CREDIT_SELF / 2))
_Static_assert(AMQ_CREDIT_HANDLER > AMQ_POLL_CREDIT, "a handler's credit is negative");

/* A handler runs from now until amq_handler_leave: the in-handler mark, the
 * credit below zero (so that an idle pshm_poll inside it takes the path that
 * refuses it, and a poll's busy path needs no other test). Nested marks
 * (a reply waiting for room runs reply handlers) count up and back down. */
static inline void amq_handler_enter(void)
{
    amq_tls.in_handler++;
    amq_tls.credit -= AMQ_CREDIT_HANDLER;
}
static inline void amq_handler_leave(void)
{
    amq_tls.credit += AMQ_CREDIT_HANDLER;
    amq_tls.in_handler--;
}

/* Runs pending handlers of the networks in `netmask` (bit n = network n). */
int amq_poll(pshm_ctx_t *ctx, unsigned netmask);
/* A message to self was posted: this thread's next poll serves the queues
 * to self. Without threads one thread at a time calls in, so a message to
 * self that another thread polls for waits at most AMQ_POLL_CREDIT idle
 * polls of that thread; with threads every queue is scanned. */
static inline void amq_self_posted(void) { amq_tls.credit = AMQ_CREDIT_SELF; }
/* Non-zero if a message is waiting; acquire, so that what its sender did
 * before sending is visible to the caller's later loads. */
int amq_pending(pshm_ctx_t *ctx);

/* Pool (pool.c). Returns the offset of a chunk for the message of stamp
 * `seq` to supernode rank `dest`, or UINT64_MAX if no room. The caller
 * fills the chunk, then calls amq_chunk_filled. */
uint64_t amq_pool_alloc(amq_pool_t *p, uint64_t bytes, int dest, uint32_t seq);
/* Frees the chunks whose messages were consumed (in order), as
 * amq_pool_alloc does when its ring runs out; `dest` and `bytes`: the next
 * chunk's destination and size. */
void amq_pool_reclaim(amq_pool_t *p, int dest, uint64_t bytes);

static inline void amq_chunk_init(amq_pool_t *p, uint64_t off, uint64_t bytes, int dest,
                                  uint32_t seq)
{
    amq_chunk_t *c = (amq_chunk_t *)(p->base + off);

    c->size = bytes;
    c->seq = seq;
    c->dest = dest;
    /* Relaxed: see amq_chunk_filled. */
    atomic_store_explicit(&c->filled, 0, memory_order_relaxed);
}

/* A chunk carved at off for dest: the newest, and whether the live ones
 * still all go to one destination (see amq_pool_t). */
static inline void amq_pool_note(amq_pool_t *p, uint64_t off, int dest)
{
    p->last = off;
    if (PSHM_UNLIKELY(dest != p->dest0))
        p->mixed = true;
}

/* amq_pool_alloc's common case inline: a chunk of `bytes` at the head fits
 * before p->lim (else the caller takes the path of amq_pool_alloc)... */
static inline bool amq_pool_fits(const amq_pool_t *p, uint64_t bytes)
{
    return p->head + bytes <= p->lim;
}
/* ... and is carved there: returns its offset. */
static inline uint64_t amq_pool_take(amq_pool_t *p, uint64_t bytes, int dest, uint32_t seq)
{
    uint64_t off = p->head;

    p->head = off + bytes;
    amq_pool_note(p, off, dest);
    amq_chunk_init(p, off, bytes, dest, seq);
    return off;
}
/* The ring an empty pool starts with for chunks of `bytes`. */
static inline uint64_t amq_pool_ring_of(const amq_pool_t *p, uint64_t bytes)
{
    uint64_t r = bytes * AMQ_POOL_RING_CHUNKS;

    r = r < AMQ_POOL_RING_MIN ? AMQ_POOL_RING_MIN : r;
    return r < p->hot ? r : p->hot;
}
/* When a chunk of `bytes` does not fit (amq_pool_fits): if no chunk is
 * live, or the pool's stream was all consumed (its newest chunk is, see
 * amq_pool_t), the pool starts again at 0 in a ring sized for `bytes`,
 * for a stream to `dest`; true if the chunk fits now. A ping-pong comes
 * here once a lap of its small ring: inline, with no call, so that the
 * fast paths that use it keep their registers. */
static inline bool amq_pool_restart(amq_pool_t *p, uint64_t bytes, int dest)
{
    if (amq_pool_used(p) > 0) {
        const amq_chunk_t *c = (const amq_chunk_t *)(p->base + p->last);
        /* In flight unless its stamp is past the count (pool.c); acquire:
         * the receiver's reads of the chunks happened before (chunk_free).
         * Not with threads, whose chunks are also marked filled. */
        if (p->mixed || p->threads ||
            c->seq - atomic_load_explicit(&p->sq[p->dest0].ctl->consumed,
                                          memory_order_acquire) - 1 < p->depth)
            return false;
    }
    p->head = p->tail = p->wrap = 0; /* (all 0 already when nothing is live) */
    p->dest0 = dest;
    p->mixed = false;
    p->ring = p->lim = amq_pool_ring_of(p, bytes);
    return bytes <= p->lim;
}

/* Marks a chunk filled (or given back), before the slot that publishes it.
 * Release (a plain mov on x86-64, on the spill path only): the order that
 * matters runs through the receiver, another process, whose release of its
 * consumer count the reclaim acquires; this store, which the reclaim
 * acquires too, shows ThreadSanitizer (which sees only this process) the
 * same order, filled before reused, when another thread later reclaims and
 * reuses these bytes. Without threads the reclaim does not look at it (the
 * count alone says a chunk is free: it cannot reach the stamp of a message
 * not yet published), and the commit of a prepared message leaves it
 * unwritten. */
static inline void amq_chunk_done(amq_chunk_t *c)
{
    atomic_store_explicit(&c->filled, 1, memory_order_release);
}
static inline void amq_chunk_filled(amq_pool_t *p, uint64_t off)
{
    amq_chunk_done((amq_chunk_t *)(p->base + off));
}

/* ------------------------------------------------- shared by the send paths */

/* Whether the sender's line is open: its next cell is past the first. */
static inline bool amq_mid(const amq_sq_t *sq)
{
    return ((uintptr_t)sq->slot & (AMQ_LINE - 1)) != 0;
}

/* Moves the sender to the first cell of the line after `line`, its own. */
static inline void amq_next_line(amq_sq_t *sq, char *line)
{
    char *next = line + sq->row;

    sq->seq++;
    sq->slot = next == sq->end ? next - sq->ring : next;
}

/* Publishes a slot, filled, at the first cell of line sq->seq (started:
 * room checked), and moves to the next line. */
static inline void amq_publish(amq_sq_t *sq, amq_slot_t *s)
{
    /* Release: the slot's fields, the chunk (header and data) and a Long
     * payload are visible before the receiver can see the stamp. */
    atomic_store_explicit(&s->stamp, sq->seq, memory_order_release);
    amq_next_line(sq, (char *)s);
}

/* Rings the destination's bell once a message (or a skip mark) is
 * published on sq: a wide layout's receiver looks only at the queues
 * whose bits are set. Release: the stamps stored before are visible to
 * the receiver's acquire exchange of the word (poll.c). A locked RMW per
 * message, wide layouts only. When the bit was set already, the receiver
 * has yet to take it (only its exchange clears it) and serves the queue
 * after that exchange, this message included: `armed` is left alone, so
 * that many senders to one receiver (an incast) do not all write its bell
 * line (incast at 8 processes: 31.5 -> 50.3 Mmsg/s, docs/amnet-design.md). */
static inline void amq_ring(const amq_sq_t *sq)
{
    if (sq->bell != NULL &&
        !(atomic_fetch_or_explicit(sq->bell, sq->bellbit, memory_order_seq_cst) & sq->bellbit))
        atomic_store_explicit(sq->armed, 0, memory_order_seq_cst);
}

/* Posts a cell message at sq->slot (its line open, or room checked for a
 * line it starts) and moves to the next cell, or line after the last.
 * `fast`: the send's fast path, whose line start takes one of `avail`. */
static inline __attribute__((always_inline)) void
amq_post_cell(amq_sq_t *sq, uint32_t meta, const uint32_t *args, unsigned nargs, bool fast)
{
    amq_cell_t *c = (amq_cell_t *)sq->slot;
    const uintptr_t at = (uintptr_t)c & (AMQ_LINE - 1);
    const uint32_t seq = sq->seq;

    if (at == 0) {
        /* A line started with a cell: cells 1-3 may hold an earlier lap's
         * slot body; stamp - 1 is no stamp of this lap (see amq_slot_t).
         * Relaxed: ordered before the receiver's look at them by the
         * release of cell 0 below, which it takes first. */
        for (unsigned k = 1; k < AMQ_CELLS; k++)
            atomic_store_explicit(&c[k].stamp, seq - 1, memory_order_relaxed);
        if (fast)
            sq->avail--;
    }
    c->meta = meta;
    if (nargs == 2)
        __builtin_memcpy(c->args, args, 8);
    else if (nargs == 1)
        c->args[0] = args[0];
    /* Release: meta and args are visible before the stamp. */
    atomic_store_explicit(&c->stamp, seq, memory_order_release);
    if (PSHM_UNLIKELY(at == AMQ_LINE - AMQ_CELL))
        amq_next_line(sq, (char *)c - at);
    else
        sq->slot = (char *)(c + 1);
}

/* A slot comes next (it starts a line): if the line is open, a skip mark
 * in its next cell ends it (no room needed, the line is ours) and the
 * sender moves on. */
static inline void amq_end_line(amq_sq_t *sq)
{
    amq_cell_t *c = (amq_cell_t *)sq->slot;

    if (!amq_mid(sq))
        return;
    c->meta = AMQ_META_SKIP;
    /* Release: the meta word before the stamp. */
    atomic_store_explicit(&c->stamp, sq->seq, memory_order_release);
    amq_next_line(sq, (char *)((uintptr_t)c & ~(uintptr_t)(AMQ_LINE - 1)));
}

/* After a message posted off the fast path (or none): the line starts
 * known free again, without threads and to another process (amq_sq_t);
 * `open`: whether the sender's line is open (amq_mid), when the caller
 * knows better than a test. */
static inline void amq_avail_set(const struct amq *q, amq_sq_t *sq, bool open)
{
    uint32_t avail = q->l.depth + 1 + sq->cached - sq->seq - open;

    if (!q->threads && sq->dlocal != q->me)
        sq->avail = avail <= q->l.depth ? avail : 0;
}
static inline void amq_avail_update(const struct amq *q, amq_sq_t *sq)
{
    amq_avail_set(q, sq, amq_mid(sq));
}

/* Reads the consumer count again: whether line sq->seq may be started
 * (the sender is at its first cell). */
static inline bool amq_room(amq_sq_t *sq, uint32_t depth)
{
    /* Acquire: pairs with the receiver's release after its handlers
     * returned, so overwriting the line cannot race its reads. */
    sq->cached = atomic_load_explicit(&sq->ctl->consumed, memory_order_acquire);
    return sq->seq - sq->cached <= depth;
}

/* Copies n <= 64 bytes with a few overlapping fixed-size moves: no call and
 * no loop for the inline data of a slot or a prepared message's args
 * (libc's memcpy costs a call and a size dispatch, a sizable part of a
 * send). */
static inline void amq_copy_small(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n >= 16) {
        if (n >= 32) {
            __builtin_memcpy(d, s, 32);
            __builtin_memcpy(d + n - 32, s + n - 32, 32);
        } else {
            __builtin_memcpy(d, s, 16);
            __builtin_memcpy(d + n - 16, s + n - 16, 16);
        }
    } else if (n >= 8) {
        __builtin_memcpy(d, s, 8);
        __builtin_memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        __builtin_memcpy(d, s, 4);
        __builtin_memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Copies the args of a message whose data fits a slot (nargs <= 12): fixed
 * moves per count, one indirect jump. */
static inline void amq_copy_args(unsigned char *d, const uint32_t *a, unsigned nargs)
{
    switch (nargs) {
#define CASE(n) case n: __builtin_memcpy(d, a, 4 * n); break;
    CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10)
    CASE(11) CASE(12)
#undef CASE
    case 0: break;
    default: __builtin_unreachable(); /* callers: the data fits a slot's body */
    }
}

/*
 * The checks of every send, one compare each on the fast path: the handler
 * index (index 0 and unregistered ones have AMQ_NARGS_NONE), its argument
 * count (ctx->am_nfast: registered exact counts are at most
 * PSHM_AM_MAX_ARGS; a handler of any count takes the slower test when the
 * count is not the one it last sent, which becomes the fast one, as the
 * poll's am_fast, without threads), the flags, a Medium's size. The
 * destination and the args pointer are checked by the caller.
 */
static inline bool amq_send_ok(pshm_ctx_t *ctx, unsigned handler, const void *buf,
                           uint64_t nbytes, unsigned flags, unsigned nargs, int cat)
{
    if (PSHM_UNLIKELY(handler > PSHM_AM_HANDLER_MAX || (flags & ~PSHM_IMMEDIATE)))
        return false;
    if (PSHM_UNLIKELY(ctx->am_nfast[handler] != nargs)) {
        if (ctx->am_nargs[handler] != AMQ_NARGS_ANY || nargs > PSHM_AM_MAX_ARGS)
            return false;
        if (!(ctx->flags & PSHM_INIT_THREADS))
            ctx->am_nfast[handler] = (uint8_t)nargs;
    }
    /* A handler not registered keeps AMQ_NARGS_NONE (255), which a count
     * of 255 matches: the count is bounded here, but a Short's by its
     * caller, on its way to a slot (request(), reply(); a commit's count
     * was bounded by its prepare), so that a cell's (at most 2) skips it. */
    if (cat != AMQ_SHORT && PSHM_UNLIKELY(nargs > PSHM_AM_MAX_ARGS))
        return false;
    if (cat != AMQ_SHORT && nbytes && !buf)
        return false;
    if (cat == AMQ_MEDIUM && nbytes > PSHM_AM_MEDIUM_MAX)
        return false;
    return true;
}

/* The checks of a destination (job rank), flags and argument count, with
 * their messages; 0 if all are good. */
int amq_check_dest_flags(pshm_ctx_t *ctx, const char *fn, int dest, unsigned flags,
                         unsigned nargs);
/* The message of a send that failed the checks. */
int amq_send_bad(pshm_ctx_t *ctx, const char *fn, int dest, unsigned handler, const void *buf,
                 uint64_t nbytes, unsigned flags, unsigned nargs, const uint32_t *args, int cat);
/* Room for one message on sq (send.c): a cell (`cell`) or a line, and a
 * pool chunk of dsz data bytes when `spill`; waits, or -EAGAIN with
 * PSHM_IMMEDIATE. For a line, an open one is first ended (amq_end_line). */
int amq_reserve(pshm_ctx_t *ctx, amq_sq_t *sq, unsigned flags, bool cell, bool spill,
                uint64_t dsz, uint64_t *off);
/* One step of a wait for room: polls, then yields per the wait policy. */
int amq_wait_room(pshm_ctx_t *ctx, int net, uint32_t *spins);
/* A Long's target [dest_addr, + n) in dlocal's segment, owner view; *ldst
 * gets it in this process's view. -EFAULT (message set) if outside. */
int amq_long_target(pshm_ctx_t *ctx, const char *fn, int dlocal, const void *dest_addr,
                    uint64_t n, void **ldst);

/* Negotiated payload (prepare.c): whether this thread prepared a message
 * on sq and did not commit it yet; gives up a reply prepared by a handler
 * that returned without committing it (stale: any earlier handler of this
 * thread; abandon: the handlers of `tok`'s batch, at its end). */
bool amq_prepared_by_me(const amq_sq_t *sq);
void amq_prep_stale(void);
void amq_prep_abandon(const pshm_token_t *tok);
/* At the end of tok's batch: gives up a reply one of its handlers
 * prepared and did not commit (a compare when there is none). */
static inline void amq_prep_batch_end(const pshm_token_t *tok)
{
    if (PSHM_UNLIKELY(amq_tls.prep_tok == tok))
        amq_prep_abandon(tok);
}

/* Copy jobs (synergy.c). amq_job_open: whether [src, + n) -> dst can be
 * shared with supernode rank `helper` (sizes, areas, no overlap, my job
 * free); if so it opens my job, sets *meta to what a message announcing it
 * carries, and the caller must call amq_job_run. amq_job_run: copies with
 * whoever helps, returns once every chunk is done; < 0 if the wait for a
 * helper failed (the copy is then finished alone). amq_job_help: a message
 * from `owner` with `meta` asked for help; `wait`: until every chunk is
 * done (a Long's handler runs next). */
bool amq_job_open(pshm_ctx_t *ctx, int helper, void *dst, const void *src, uint64_t n,
                  uint32_t *meta);
int amq_job_run(pshm_ctx_t *ctx);
int amq_job_help(pshm_ctx_t *ctx, int owner, uint32_t meta, bool wait);
/* Test hook: called with the chunk index before each chunk a job's owner
 * (helper false) or helper copies; NULL in programs. */
extern void (*amq_job_hook)(bool helper, uint32_t chunk);

#endif /* PSHM_AMQ_INTERNAL_H */
