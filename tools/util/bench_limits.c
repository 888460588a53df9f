/*
 * bench_limits.c - pshm-pingpong's pair: waits, limit kernels, timing loops.
 */
#include "common/misc.h"
#include "tools/util/bench_limits.h"
#include "tools/util/bench_opts.h"
#include "tools/util/bench_stats.h"
#include "tools/util/bench_sys.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bench_pair_t *g;
static uint64_t lim_epoch, hs_seq, cf_seq, ring_head[2];
static volatile unsigned char sink_byte;
static uint64_t sink_words[8];

void bench_pair_bind(bench_pair_t *pair) { g = pair; }

void bench_die(int code, const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "pshm-pingpong: rank %d: ", g->me);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    /* one write: both ranks may fail at once, and their lines must not mix */
    fprintf(stderr, "%s\n", msg);
    if (g->ctx) pshm_abort(g->ctx, code);
    exit(code);
}

void bench_fail(const char *call, int rc)
{
    if (rc == -ECANCELED) {
        if (g->ctx) pshm_abort(g->ctx, 1);
        exit(1);
    }
    const char *why = pshm_last_error();
    bench_die(1, "%.*s failed: %s", (int)strcspn(call, "("), call, *why ? why : pshm_strerror(rc));
}
/* ------------------------------------------------------------ limits: waiting */

typedef struct spin { uint32_t n; uint64_t t0; } spin_t;

/* A step of a limits wait: PAUSE (yield if both processes share a CPU); every
 * 16K steps checks that the peer is alive and that 60 s have not passed. */
static void lim_spin(spin_t *s)
{
    if (g->same_core) sched_yield();
    else cpu_relax();
    if ((++s->n & 0x3fff) != 0) return;
    int dead;
    if (!g->ctx && g->me == 0) dead = waitpid(g->peer_pid, NULL, WNOHANG) == g->peer_pid;
    else if (!g->ctx) dead = getppid() != g->parent;
    else dead = g->peer_pid > 0 && kill(g->peer_pid, 0) != 0 && errno == ESRCH;
    if (dead) bench_die(1, "the other process (pid %d) died", (int)g->peer_pid);
    uint64_t t = bench_now_ns();
    if (s->t0 == 0) s->t0 = t;
    else if (t - s->t0 > 60000000000ull) bench_die(1, "no answer from the other process in 60 s");
}

static inline void wait_eq(_Atomic uint64_t *p, uint64_t v)
{
    spin_t s = {0, 0};
    while (atomic_load_explicit(p, memory_order_acquire) != v) lim_spin(&s);
}

static void lim_barrier(void)
{
    uint64_t e = ++lim_epoch;
    spin_t s = {0, 0};
    /* release: my writes before the barrier are seen by the peer after it */
    atomic_store_explicit(&g->lim->arrive[g->me].v, e, memory_order_release);
    while (atomic_load_explicit(&g->lim->arrive[1 - g->me].v, memory_order_acquire) < e) lim_spin(&s);
}

void bench_sync_pair(void)
{
    if (g->ctx) CHK(pshm_barrier(g->ctx));
    else lim_barrier();
}

/* ------------------------------------------------------------ limits: kernels */

/* Round trip i's pair of lines (bench_lim_area_t: pairs in turn). */
static inline lim_slot_t *hs_ping(uint64_t i) { return &g->lim->hs[i % LIM_NHS].ping; }
static inline lim_slot_t *hs_pong(uint64_t i) { return &g->lim->hs[i % LIM_NHS].pong; }

void bench_handoff_op(size_t size)
{
    (void)size;
    uint64_t i = ++hs_seq;
    lim_slot_t *ping = hs_ping(i), *pong = hs_pong(i);
    for (int k = 0; k < 7; k++) ping->payload[k] = i + (uint64_t)k;
    atomic_store_explicit(&ping->seq, i, memory_order_release); /* publishes the payload */
    wait_eq(&pong->seq, i);
    memcpy(sink_words, pong->payload, 56);
}

void bench_handoff_serve(size_t size, long n)
{
    (void)size;
    for (long j = 0; j < n; j++) {
        uint64_t i = ++hs_seq;
        lim_slot_t *ping = hs_ping(i), *pong = hs_pong(i);
        wait_eq(&ping->seq, i);
        memcpy(sink_words, ping->payload, 56);
        for (int k = 0; k < 7; k++) pong->payload[k] = sink_words[k] + 1;
        atomic_store_explicit(&pong->seq, i, memory_order_release);
    }
}

/* The ring's kernels are inlined into each floor's loop, and a payload in
 * the header is copied as whole words (8 bytes up to 8, else the field's
 * 48): the line moves whole either way, and a call per message (to the
 * kernel, or to memcpy for a few bytes: ~20 instructions a side) would be
 * the floor's own cost, not the machine's (docs/performance-history.md,
 * 2026-11-28: the ring floors without calls). */
#define RING_INLINE static inline __attribute__((always_inline))

RING_INLINE void inl_copy(unsigned char *dst, const unsigned char *src, size_t n)
{
    if (n <= 8) memcpy(dst, src, 8);
    else memcpy(dst, src, LIM_INL);
}

/* Each kernel takes `nslot`, the slots it goes round: a constant
 * LIM_NSLOT in the streaming floors, --ring-slots in limit-ring's. Both
 * are powers of 2, so a slot is a mask, not a division (which a count
 * known only at run time would cost per message). */
_Static_assert((LIM_NSLOT & (LIM_NSLOT - 1)) == 0, "LIM_NSLOT is a power of 2");
RING_INLINE unsigned slot_of(uint64_t h, unsigned nslot) { return (unsigned)(h & (nslot - 1)); }

RING_INLINE void ring_send(int k, const unsigned char *src, size_t len, unsigned nslot)
{
    lim_ring_t *r = &g->lim->ring[k];
    size_t off = 0;
    do {
        uint64_t h = ring_head[k];
        lim_hdr_t *hd = &r->hdr[slot_of(h, nslot)];
        size_t n = len - off < LIM_CHUNK ? len - off : LIM_CHUNK;
        wait_eq(&hd->seq, 0); /* acquire: the receiver is done with the slot */
        if (n <= LIM_INL) inl_copy(hd->inl, src + off, n);
        else memcpy(r->data[slot_of(h, nslot)], src + off, n);
        hd->len = n;
        atomic_store_explicit(&hd->seq, h + 1, memory_order_release); /* publishes len + data */
        ring_head[k] = h + 1;
        off += n;
    } while (off < len);
}

/* Reads slot h of ring k in place: the inline bytes, or the chunk's first
 * byte. */
RING_INLINE void ring_touch(int k, uint64_t h, unsigned nslot)
{
    lim_ring_t *r = &g->lim->ring[k];
    lim_hdr_t *hd = &r->hdr[slot_of(h, nslot)];
    if (hd->len <= LIM_INL) inl_copy((unsigned char *)sink_words, hd->inl, hd->len);
    else sink_byte = r->data[slot_of(h, nslot)][0];
}

RING_INLINE void ring_release(int k, uint64_t h, unsigned nslot)
{
    /* release: my reads of the slot happen before the sender reuses it */
    atomic_store_explicit(&g->lim->ring[k].hdr[slot_of(h, nslot)].seq, 0, memory_order_release);
}

/* Takes the next message of ring k: reads it in place (ring_touch) when
 * `touch`, and frees its slots unless `hold` (ring_touch_release later:
 * a message has at most 64 KiB / LIM_CHUNK = 2 slots, and a ring at least
 * 2, --ring-slots). */
RING_INLINE void ring_recv_as(int k, size_t len, bool touch, bool hold, unsigned nslot)
{
    lim_ring_t *r = &g->lim->ring[k];
    size_t off = 0;
    do {
        uint64_t h = ring_head[k];
        lim_hdr_t *hd = &r->hdr[slot_of(h, nslot)];
        wait_eq(&hd->seq, h + 1);
        off += hd->len; /* before the release: the sender may then reuse the slot */
        if (touch) ring_touch(k, h, nslot);
        if (!hold) ring_release(k, h, nslot);
        ring_head[k] = h + 1;
    } while (off < len);
}

RING_INLINE void ring_touch_release(int k, uint64_t from, uint64_t to, unsigned nslot)
{
    for (uint64_t h = from; h < to; h++) ring_touch(k, h, nslot);
    for (uint64_t h = from; h < to; h++) ring_release(k, h, nslot);
}

RING_INLINE void ring_recv(int k, size_t len) { ring_recv_as(k, len, true, false, LIM_NSLOT); }

void bench_ring_op(size_t size)
{
    ring_send(0, g->src, size, g->ring_slots);
    ring_recv_as(1, size, g->touch != BENCH_TOUCH_NONE, false, g->ring_slots);
}

/* The serving side reads the payload before its reply, after it (its slots
 * are freed then), or not at all (--touch). */
void bench_ring_serve(size_t size, long n)
{
    const unsigned ns = g->ring_slots;
    for (long j = 0; j < n; j++) {
        uint64_t from = ring_head[0];
        ring_recv_as(0, size, g->touch == BENCH_TOUCH_BEFORE, g->touch == BENCH_TOUCH_AFTER, ns);
        ring_send(1, g->src, size, ns);
        if (g->touch == BENCH_TOUCH_AFTER) ring_touch_release(0, from, ring_head[0], ns);
    }
}

void bench_ring_stream(size_t size, long nwin, long window)
{
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++) ring_send(0, g->src, size, LIM_NSLOT);
        ring_recv(1, 4);
    }
}

void bench_ring_sink(size_t size, long nwin, long window)
{
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++) ring_recv(0, size);
        ring_send(1, g->src, 4, LIM_NSLOT);
    }
}

/* limit-cell-rate: the queue protocol of the library's flood with nothing
 * around it (no call, no check, no handler): the rate a one-way stream of
 * 2-argument Shorts could reach on this machine. Sender: line cq_line
 * (its stamp; lines count from 1, so the zeroed area holds no stamp) is
 * being filled, cq_cell is its next cell, cq_avail lines are known free.
 * Receiver: line cq_rline, cell cq_rcell. */
static uint32_t cq_line, cq_cell, cq_avail, cq_rline = 1, cq_rcell;
static uint32_t cq_nsent, cq_nrecv; /* messages, carried in the args */
#define CQ_META (2u << 8 | 1u) /* a Short of 2 args to handler 1 */

RING_INLINE lim_cell_t *cq_at(uint32_t line, uint32_t cell)
{
    return &g->lim->cq[(line - 1) % LIM_CQ_DEPTH].cell[cell];
}

RING_INLINE void cell_send(uint32_t a0, uint32_t a1)
{
    if (cq_cell == 0) {
        /* A line is started once the receiver is done with its last lap:
         * its count of lines done, read only when none is known free.
         * Acquire: pairs with the receiver's release of the count, so its
         * reads of those lines are done before they are written over. */
        spin_t sp = {0, 0};
        while (cq_avail == 0) {
            uint64_t done = atomic_load_explicit(&g->lim->cq_consumed.v, memory_order_acquire);
            cq_avail = LIM_CQ_DEPTH - (cq_line - (uint32_t)done);
            if (cq_avail == 0) lim_spin(&sp);
        }
        cq_avail--;
        cq_line++;
        /* The other cells' stamps are cleared as the library's sender does
         * (a 64-byte slot in the last lap may have left any bytes there).
         * Relaxed: cq_line - 1 is no stamp the receiver waits for here, and
         * each cell's own release below publishes its contents. */
        lim_cell_t *c = cq_at(cq_line, 0);
        for (int k = 1; k < 4; k++)
            atomic_store_explicit(&c[k].stamp, cq_line - 1, memory_order_relaxed);
    }
    lim_cell_t *c = cq_at(cq_line, cq_cell);
    c->meta = CQ_META;
    c->arg[0] = a0;
    c->arg[1] = a1;
    atomic_store_explicit(&c->stamp, cq_line, memory_order_release); /* publishes the cell */
    cq_cell = (cq_cell + 1) % 4;
}

/* Takes the next cell, which must carry (a0, a1): a lost, repeated or torn
 * message stops the run. */
RING_INLINE void cell_recv(uint32_t a0, uint32_t a1)
{
    lim_cell_t *c = cq_at(cq_rline, cq_rcell);
    spin_t sp = {0, 0};
    while (atomic_load_explicit(&c->stamp, memory_order_acquire) != cq_rline) lim_spin(&sp);
    if (cq_rcell == 0) {
        /* The lines before this one are done (release: their reads first),
         * once a line as the library's receiver counts them; the line 4 rows
         * on is fetched meanwhile, as it does. */
        atomic_store_explicit(&g->lim->cq_consumed.v, cq_rline - 1, memory_order_release);
        __builtin_prefetch(cq_at(cq_rline + 4, 0), 0, 3);
    }
    if (c->meta != CQ_META || c->arg[0] != a0 || c->arg[1] != a1)
        bench_die(1, "limit-cell-rate: line %u cell %u holds (%#x, %u, %u), expected (%#x, %u, %u)",
                  cq_rline, cq_rcell, c->meta, c->arg[0], c->arg[1], CQ_META, a0, a1);
    if (++cq_rcell == 4) cq_rcell = 0, cq_rline++;
}

/* Acknowledged every window through ring 1, as limit-ring-rate is. */
void bench_cell_stream(size_t size, long nwin, long window)
{
    (void)size;
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++, cq_nsent++) cell_send(cq_nsent, ~cq_nsent);
        ring_recv(1, 4);
    }
}

void bench_cell_sink(size_t size, long nwin, long window)
{
    (void)size;
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++, cq_nrecv++) cell_recv(cq_nrecv, ~cq_nrecv);
        ring_send(1, g->src, 4, LIM_NSLOT);
    }
}

void bench_memcpy_op(size_t size) { memcpy(g->dst, g->src, size); }

void bench_memcpy_stream(size_t size, long nwin, long window)
{
    for (long i = 0; i < nwin * window; i++) memcpy(g->dst, g->src, size);
}

/* put's floor: the copy into the peer's memory, then a release store of a
 * flag line that the peer waits for; the peer answers alike. */
void bench_copy_flag_op(size_t size)
{
    uint64_t i = ++cf_seq;
    memcpy(g->area[1], g->src, size);
    atomic_store_explicit(&g->lim->cf_ping.v, i, memory_order_release); /* publishes the copy */
    wait_eq(&g->lim->cf_pong.v, i);
}

void bench_copy_flag_serve(size_t size, long n)
{
    for (long j = 0; j < n; j++) {
        uint64_t i = ++cf_seq;
        wait_eq(&g->lim->cf_ping.v, i);
        memcpy(g->area[0], g->src, size);
        atomic_store_explicit(&g->lim->cf_pong.v, i, memory_order_release);
    }
}

/* The two-core copy: rank 0's area to rank 1's, each process copying half
 * (rank 0 the first), one copy after the other; a copy ends when both
 * halves are done. */
void bench_copy2_stream(size_t size, long nwin, long window)
{
    size_t half = size / 2;
    for (long k = 0; k < nwin * window; k++) {
        uint64_t i = ++cf_seq;
        atomic_store_explicit(&g->lim->cf_ping.v, i, memory_order_release); /* go */
        memcpy(g->area[1], g->area[0], half);
        wait_eq(&g->lim->cf_pong.v, i); /* acquire: the peer's half is done */
    }
}

void bench_copy2_sink(size_t size, long nwin, long window)
{
    size_t half = size / 2;
    for (long k = 0; k < nwin * window; k++) {
        uint64_t i = ++cf_seq;
        wait_eq(&g->lim->cf_ping.v, i);
        memcpy(g->area[1] + half, g->area[0] + half, size - half);
        atomic_store_explicit(&g->lim->cf_pong.v, i, memory_order_release); /* my half is written */
    }
}

void bench_serve_nothing(size_t size, long n) { (void)size, (void)n; }
void bench_sink_nothing(size_t size, long nwin, long window) { (void)size, (void)nwin, (void)window; }

/* ------------------------------------------------------------ measurement */

static long lat_iters(size_t size)
{
    long n = g->iters, floor = g->iters < 10 ? g->iters : 10;
    if (size > 0 && (uint64_t)n > LAT_BYTES / size) n = (long)(LAT_BYTES / size);
    return n < floor ? floor : n;
}

static long warm_of(long iters)
{
    if (g->warmup >= 0) return g->warmup;
    return iters / 10 > 0 ? iters / 10 : 1;
}

/*
 * The floor kernels, by the name of their row in the limits (which runs
 * them through bench_limit_lat and bench_limit_bw): a test that names one
 * also measures it beside each of its repetitions, alternating,
 * so that each repetition's ratio compares two measurements a few
 * milliseconds apart. The host moves the two CPUs between placements of
 * very different speeds within seconds; a floor measured once at the start
 * of the run would set a later test against another machine.
 */
typedef struct floor_kernel {
    const char *name;
    bench_op_fn op;          /* latency floors: rank 0's round, rank 1's serve */
    bench_serve_fn serve;
    bench_stream_fn stream;  /* rate and bandwidth floors */
    bench_stream_fn sink;
    size_t size;             /* 0: the test's size; else the floor's only one */
    int halve;               /* a round trip, reported one way */
} floor_kernel_t;

static const floor_kernel_t floor_kernels[] = {
    {"limit-handoff", bench_handoff_op, bench_handoff_serve, NULL, NULL, 56, 1},
    {"limit-ring", bench_ring_op, bench_ring_serve, NULL, NULL, 0, 1},
    {"limit-copy-flag", bench_copy_flag_op, bench_copy_flag_serve, NULL, NULL, 0, 1},
    {"limit-memcpy", bench_memcpy_op, bench_serve_nothing, NULL, NULL, 0, 0},
    {"limit-ring-rate", NULL, NULL, bench_ring_stream, bench_ring_sink, 0, 0},
    {"limit-cell-rate", NULL, NULL, bench_cell_stream, bench_cell_sink, 0, 0},
    {"limit-ring-bw", NULL, NULL, bench_ring_stream, bench_ring_sink, 0, 0},
    {"limit-memcpy-bw", NULL, NULL, bench_memcpy_stream, bench_sink_nothing, 0, 0},
};

static const floor_kernel_t *floor_kernel(const char *name, int stream)
{
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof floor_kernels / sizeof floor_kernels[0]; i++)
        if (strcmp(floor_kernels[i].name, name) == 0)
            return (stream ? floor_kernels[i].stream != NULL : floor_kernels[i].op != NULL)
                       ? &floor_kernels[i]
                       : NULL;
    return NULL;
}

static const floor_kernel_t *known_kernel(const char *name, int stream)
{
    const floor_kernel_t *fk = floor_kernel(name, stream);
    if (!fk) bench_die(1, "no %s limit kernel named %s", stream ? "streaming" : "latency", name);
    return fk;
}

void bench_limit_lat(const char *name, size_t size)
{
    const floor_kernel_t *fk = known_kernel(name, 0);
    bench_lat_run(name, fk->size ? fk->size : size, fk->op, fk->serve, fk->halve, NULL);
}

void bench_limit_bw(const char *name, size_t size, long base, int msgs_rate)
{
    const floor_kernel_t *fk = known_kernel(name, 1);
    bench_bw_run(name, size, base, fk->stream, fk->sink, msgs_rate, NULL);
}

static double *alloc_dbl(int n)
{
    double *v = calloc((size_t)n, sizeof *v);
    if (!v) bench_die(1, "out of memory for %d repetitions", n);
    return v;
}

/* The row's floor from the paired repetitions: the floor's median and the
 * median of the repetitions' ratios (value / floor). */
static void pair_result(bench_row_t *row, const floor_kernel_t *fk, size_t size, double *fv,
                        double *ratio)
{
    row->paired = 1;
    row->floor_size = fk->size ? fk->size : size;
    row->floor_median = bench_median_dbl(fv, (size_t)g->reps);
    row->floor_ratio = bench_median_dbl(ratio, (size_t)g->reps);
}

/* One latency repetition of `iters` timed calls of op (rank 1 serves):
 * rank 0's median in ticks, its timings left in rt. lib: a library test,
 * whose counters are reset and payloads filled and checked around it. */
static double lat_rep(const char *test, size_t size, int r, bench_op_fn op, bench_serve_fn serve,
                      long iters, uint64_t *rt, int lib)
{
    long warm = warm_of(iters);
    if (lib) {
        g->reset();
        g->before(test, size, r);
    }
    bench_sync_pair();
    if (g->me != 0) {
        serve(size, warm + iters);
        if (lib) g->after(test, size, r);
        bench_sync_pair(); /* the next fill waits until the peer's reads are done */
        return 0;
    }
    for (long i = 0; i < warm; i++) op(size);
    for (long i = 0; i < iters; i++) {
        uint64_t t0 = bench_ticks();
        op(size);
        rt[i] = bench_ticks() - t0;
    }
    if (lib) g->after(test, size, r);
    bench_sync_pair();
    return bench_median_blocks(rt, (size_t)iters);
}

/* `iters` calls of op per repetition. */
void bench_lat_run(const char *test, size_t size, bench_op_fn op, bench_serve_fn serve, int halve,
                   const char *floor)
{
    const floor_kernel_t *fk = floor_kernel(floor, 0);
    size_t fsize = fk && fk->size ? fk->size : size;
    long iters = lat_iters(size), fiters = fk ? lat_iters(fsize) : 0;
    uint64_t *pool = NULL, *rt = NULL;
    double *meds = NULL, *fv = NULL, *ratio = NULL;
    double scale = bench_tick_ns / 1000.0 / (halve ? 2 : 1);
    if (g->me == 0) {
        pool = malloc((size_t)g->reps * (size_t)iters * sizeof *pool);
        rt = malloc((size_t)(iters > fiters ? iters : fiters) * sizeof *rt);
        meds = malloc((size_t)g->reps * sizeof *meds);
        if (!pool || !rt || !meds) bench_die(1, "out of memory for %ld timings", iters * g->reps);
        fv = alloc_dbl(g->reps), ratio = alloc_dbl(g->reps);
    }
    for (int r = 0; r < g->reps; r++) {
        if (fk) {
            double f = lat_rep(fk->name, fsize, r, fk->op, fk->serve, fiters, rt, 0);
            if (g->me == 0) fv[r] = f * bench_tick_ns / 1000.0 / (fk->halve ? 2 : 1);
        }
        double m = lat_rep(test, size, r, op, serve, iters, rt, 1);
        if (g->me != 0) continue;
        memcpy(pool + (size_t)r * (size_t)iters, rt, (size_t)iters * sizeof *rt);
        meds[r] = m;
        if (fk) ratio[r] = fv[r] > 0 ? m * scale / fv[r] : NAN;
    }
    if (g->me == 0) {
        size_t n = (size_t)g->reps * (size_t)iters, k = (n * 99 + 99) / 100;
        qsort(pool, n, sizeof *pool, bench_cmp_u64);
        double lo = meds[0], hi = meds[0];
        for (int r = 1; r < g->reps; r++) lo = meds[r] < lo ? meds[r] : lo, hi = meds[r] > hi ? meds[r] : hi;
        bench_row_t row = {.test = test, .unit = BENCH_US, .size = size, .procs = 2,
                           .median = bench_median_dbl(meds, (size_t)g->reps) * scale,
                           .p99 = (double)pool[k > 0 ? k - 1 : 0] * scale,
                           .rep_min = lo * scale, .rep_max = hi * scale,
                           .floor = floor, .reps = g->reps, .iters = iters};
        if (fk) pair_result(&row, fk, size, fv, ratio);
        bench_add_result(&row);
    }
    free(pool), free(rt), free(meds), free(fv), free(ratio);
}

/* Messages of `size` bytes per repetition, as nwin windows of `window`. */
static void bw_shape(size_t size, long base, long *nwin, long *window)
{
    long w = g->window, msgs = base;
    if (size > 0 && (uint64_t)msgs > BW_BYTES / size) msgs = (long)(BW_BYTES / size);
    if (g->quick && size > 0 && (uint64_t)msgs > 8 * MiB / size) msgs = (long)(8 * MiB / size);
    if (msgs < 1) msgs = 1;
    if (w > msgs) w = msgs;
    *window = w;
    *nwin = msgs / w;
}

/* One streaming repetition of nwin windows after a tenth as many untimed:
 * rank 0's rate (Mmsg/s when msgs_rate, else GB/s). lib: as lat_rep. */
static double bw_rep(const char *test, size_t size, int r, long base, bench_stream_fn active,
                     bench_stream_fn passive, int msgs_rate, int lib)
{
    long nwin, window;
    bw_shape(size, base, &nwin, &window);
    long warm = nwin / 10 > 0 ? nwin / 10 : 1;
    if (lib) {
        g->reset();
        g->before(test, size, r);
    }
    bench_sync_pair();
    if (g->me != 0) {
        passive(size, warm + nwin, window);
        if (lib) g->after(test, size, r);
        bench_sync_pair(); /* the next fill waits until the peer's reads are done */
        return 0;
    }
    active(size, warm, window);
    uint64_t t0 = bench_ticks();
    active(size, nwin, window);
    double ns = (double)(bench_ticks() - t0) * bench_tick_ns;
    if (lib) g->after(test, size, r);
    bench_sync_pair();
    double msgs = (double)nwin * (double)window;
    return msgs_rate ? msgs / ns * 1e3 : msgs * (double)size / ns;
}

/* nwin windows per repetition. */
void bench_bw_run(const char *test, size_t size, long base, bench_stream_fn active,
                  bench_stream_fn passive, int msgs_rate, const char *floor)
{
    const floor_kernel_t *fk = floor_kernel(floor, 1);
    long nwin, window;
    bw_shape(size, base, &nwin, &window);
    double *vals = alloc_dbl(g->reps), *fv = alloc_dbl(g->reps), *ratio = alloc_dbl(g->reps);
    for (int r = 0; r < g->reps; r++) {
        /* The floor streams as many messages of the same size. */
        if (fk) fv[r] = bw_rep(fk->name, size, r, base, fk->stream, fk->sink, msgs_rate, 0);
        vals[r] = bw_rep(test, size, r, base, active, passive, msgs_rate, 1);
        if (fk) ratio[r] = fv[r] > 0 ? vals[r] / fv[r] : NAN;
    }
    if (g->me == 0) {
        double worst = vals[0], best = vals[0];
        for (int r = 1; r < g->reps; r++)
            worst = vals[r] < worst ? vals[r] : worst, best = vals[r] > best ? vals[r] : best;
        bench_row_t row = {.test = test, .unit = msgs_rate ? BENCH_MMSGPS : BENCH_GBPS,
                           .size = size, .procs = 2,
                           .median = bench_median_dbl(vals, (size_t)g->reps),
                           .worst = worst, .rep_min = worst, .rep_max = best,
                           .floor = floor, .reps = g->reps, .iters = nwin * window};
        if (fk) pair_result(&row, fk, size, fv, ratio);
        bench_add_result(&row);
    }
    free(vals), free(fv), free(ratio);
}


double bench_handoff_probe(long n)
{
    uint64_t *rt = g->me == 0 ? malloc((size_t)n * sizeof *rt) : NULL;
    bench_sync_pair();
    if (g->me != 0) {
        bench_handoff_serve(0, n);
        return 0;
    }
    if (!rt) bench_die(1, "out of memory");
    for (long i = 0; i < n; i++) {
        uint64_t t0 = bench_ticks();
        bench_handoff_op(0);
        rt[i] = bench_ticks() - t0;
    }
    double m = bench_median_blocks(rt, (size_t)n) * bench_tick_ns;
    free(rt);
    return m;
}

