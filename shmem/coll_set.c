/*
 * coll_set.c - active sets, the pSync counters, shmem_barrier and shmem_sync.
 */
#include "coll.h"
#include "xport.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

void coll_set_init(coll_set_t *s, const char *call, int PE_start, int logPE_stride,
                   int PE_size)
{
    long long last;

    if (PE_size < 1)
        shm_fatal(call, "PE_size is %d; an active set has at least 1 PE", PE_size);
    if (logPE_stride < 0 || logPE_stride > 30)
        shm_fatal(call, "logPE_stride is %d; it must be 0 to 30", logPE_stride);
    if (PE_start < 0 || PE_start >= shm.npes)
        shm_fatal(call, "PE_start is %d; the job has PEs 0 to %d", PE_start, shm.npes - 1);
    last = (long long)PE_start + ((long long)(PE_size - 1) << logPE_stride);
    if (last >= shm.npes)
        shm_fatal(call,
                  "the active set (PE_start %d, logPE_stride %d, PE_size %d) ends at PE %lld; "
                  "the job has PEs 0 to %d",
                  PE_start, logPE_stride, PE_size, last, shm.npes - 1);
    s->start = PE_start;
    s->stride = 1 << logPE_stride;
    s->size = PE_size;
    s->pes = NULL;
    /* A shift and a mask: every barrier passes here (no division). */
    s->me = (shm.me - PE_start) >> logPE_stride;
    if (shm.me < PE_start || ((shm.me - PE_start) & (s->stride - 1)) != 0 || s->me >= PE_size)
        shm_fatal(call,
                  "PE %d is not in the active set (PE_start %d, logPE_stride %d, PE_size %d); "
                  "only its members may call",
                  shm.me, PE_start, logPE_stride, PE_size);
}

atomic_long *coll_slot(const char *call, const coll_set_t *s, long *pSync, int i, int slot)
{
    long *p = shm_remote_range(call, pSync, (size_t)(slot + 1) * sizeof(long), coll_pe(s, i));

    return (atomic_long *)(p + slot);
}

struct coll_ge {
    atomic_long *p;
    long v;
};

static int coll_ge_cond(void *arg)
{
    const struct coll_ge *w = arg;

    return atomic_load_explicit(w->p, memory_order_acquire) >= w->v;
}

void coll_wait_ge(atomic_long *p, long v)
{
    struct coll_ge w = {p, v};

    if (atomic_load_explicit(p, memory_order_acquire) >= v)
        return;
    shm_wait(coll_ge_cond, &w);
}

void coll_consume(atomic_long *slot, long n)
{
    coll_wait_ge(slot, SHMEM_SYNC_VALUE + n);
    /* Only the count this call expects: a signal of the next call stays. */
    atomic_fetch_sub_explicit(slot, n, memory_order_relaxed);
}

/*
 * coll_sync: the epoch dissemination barrier of shmem_barrier_all over any
 * set, on lines the layer owns, so that the user's pSync is never written
 * (it stays at SHMEM_SYNC_VALUE whatever happens) and no signal needs
 * clearing. Each PE of the supernode has, in its scratch area, one line per
 * PE of the supernode (shm_scratch_size): line i holds how many signals
 * local PE i has sent it, over every set and pSync, stored by PE i alone.
 * A sender keeps the count it sent each PE, a receiver the count it
 * expects from each (pair_sent, pair_got): in round k the sender stores
 * its count + 1 into the receiver's line, the receiver waits until its
 * line holds at least its own count + 1. The two counts of a pair agree:
 * a set's members call its barriers in the same order, two PEs of two sets
 * call those sets' barriers in the same order (else the two barriers would
 * wait for each other), and a pair meets at most once per barrier (2^k
 * differs in each round). A fast sender already in its next barrier stores
 * a larger count, which still satisfies the slower receiver; counts only
 * grow, so there is no reset and no lost signal.
 *
 * The last triplet set's plan (its peers' lines, computed once) is kept and
 * its counts with it, as base + epoch (the barriers run since): a repeated
 * barrier then costs shmem_barrier_all's epoch barrier plus one add per
 * signal. The arrays hold every other pair's count; sync_settle writes the
 * plan's back before another set (or a set with a member list) runs.
 */
#define PAIR_LINE 64 /* bytes per line: each sender's on its own cache line */

static long long *pair_sent, *pair_got; /* [node_npes] by local PE */
static int *pair_local;                 /* [npes]: local index of a world PE, -1 elsewhere */
static int pair_me;                     /* my local index */

struct sync_plan {
    unsigned rounds;
    long long epoch;
    struct {
        atomic_llong *out, *in;
        long long sent, got; /* the counts when the plan took the pair */
        int to, from;        /* local indices */
    } r[COLL_ROUNDS_MAX];
};

/* The cached plan: the triplet it is for, and the key shmem_barrier and
 * shmem_sync compare (pSync: the last they checked; SYNC_NO_PSYNC, which
 * no caller can pass, when a collective made the plan, so that theirs is
 * checked once, and while there is no plan: before shmem_init too). */
struct sync_cache {
    long *pSync;
    int start, log, size;
    int stride, live;
    struct sync_plan plan;
};
static struct sync_cache sync_c = {.pSync = (long *)&sync_c};
#define SYNC_NO_PSYNC ((long *)&sync_c)

static void coll_die_oom(const char *what)
{
    shm_fatal("shmem_init", "out of memory for %s of %d PEs", what, shm.npes);
}

void coll_sync_init(void)
{
    pair_sent = calloc((size_t)shm.node_npes, sizeof *pair_sent);
    pair_got = calloc((size_t)shm.node_npes, sizeof *pair_got);
    pair_local = malloc((size_t)shm.npes * sizeof *pair_local);
    if (pair_sent == NULL || pair_got == NULL || pair_local == NULL)
        coll_die_oom("the barrier state");
    for (int pe = 0; pe < shm.npes; pe++)
        pair_local[pe] = -1;
    for (int i = 0; i < shm.node_npes; i++) {
        pair_local[shm.node_pes[i]] = i;
        if (shm.node_pes[i] == shm.me)
            pair_me = i;
    }
    sync_c.live = 0;
    sync_c.pSync = SYNC_NO_PSYNC;
}

void coll_sync_fini(void)
{
    sync_c.live = 0;
    sync_c.pSync = SYNC_NO_PSYNC;
    free(pair_sent);
    free(pair_got);
    free(pair_local);
    pair_sent = pair_got = NULL;
    pair_local = NULL;
}

/* Local PE from's line on local PE at (mapped here). */
static atomic_llong *pair_line(int at, int from)
{
    char *sym = (char *)shm_scratch + SHM_SCRATCH_FIXED + (size_t)from * PAIR_LINE;

    return (atomic_llong *)shm_fast(sym, shm.node_pes[at]);
}

/* The cached plan's counts back into the arrays. */
static void sync_settle(void)
{
    if (!sync_c.live)
        return;
    for (unsigned k = 0; k < sync_c.plan.rounds; k++) {
        pair_sent[sync_c.plan.r[k].to] = sync_c.plan.r[k].sent + sync_c.plan.epoch;
        pair_got[sync_c.plan.r[k].from] = sync_c.plan.r[k].got + sync_c.plan.epoch;
    }
    sync_c.live = 0;
    sync_c.pSync = SYNC_NO_PSYNC;
}

/* Round k's peers of s: the local indices of me + 2^k and me - 2^k. */
static unsigned sync_peers(const char *call, const coll_set_t *s, int *to, int *from)
{
    unsigned rounds = 0;

    for (int d = 1; d < s->size; d <<= 1, rounds++) {
        int t = s->me + d, f = s->me - d;

        if (rounds >= COLL_ROUNDS_MAX)
            shm_fatal(call, "PE_size is %d; sets of at most %d PEs are supported", s->size,
                      1 << COLL_ROUNDS_MAX);
        t -= t >= s->size ? s->size : 0;
        f += f < 0 ? s->size : 0;
        to[rounds] = pair_local[coll_pe(s, t)];
        from[rounds] = pair_local[coll_pe(s, f)];
    }
    return rounds;
}

/* The plan of triplet set s, taking its pairs' counts: the cached one. */
static void sync_install(const char *call, const coll_set_t *s)
{
    int to[COLL_ROUNDS_MAX], from[COLL_ROUNDS_MAX];
    struct sync_plan *p = &sync_c.plan;

    sync_settle();
    p->rounds = sync_peers(call, s, to, from);
    p->epoch = 0;
    for (unsigned k = 0; k < p->rounds; k++) {
        p->r[k].to = to[k];
        p->r[k].from = from[k];
        p->r[k].out = pair_line(to[k], pair_me);
        p->r[k].in = pair_line(pair_me, from[k]);
        p->r[k].sent = pair_sent[to[k]];
        p->r[k].got = pair_got[from[k]];
    }
    sync_c.start = s->start;
    sync_c.stride = s->stride;
    sync_c.size = s->size;
    sync_c.log = __builtin_ctz((unsigned)s->stride);
    sync_c.pSync = SYNC_NO_PSYNC;
    sync_c.live = 1;
}

static inline void sync_signal(atomic_llong *out, long long v, atomic_llong *in, long long want)
{
    /* Release: this PE's stores, and all it learned in earlier rounds,
     * are visible to whoever acquires the line. */
    atomic_store_explicit(out, v, memory_order_release);
    /* Acquire: pairs with the sender's release. */
    coll_wait_epoch(in, want);
}

/* sync_run from round k, whose signal has not come yet (out of line, as
 * coll_dbar_rest). */
static __attribute__((noinline)) void sync_rest(struct sync_plan *p, unsigned k, long long e)
{
    coll_wait_epoch(p->r[k].in, p->r[k].got + e);
    for (k++; k < p->rounds; k++)
        sync_signal(p->r[k].out, p->r[k].sent + e, p->r[k].in, p->r[k].got + e);
}

/* coll_dbar's rounds, each count its pair's base + the plan's epoch. */
static inline void sync_run(struct sync_plan *p)
{
    long long e = ++p->epoch;

    /* A set of one: no signal, but still a full fence, as coll_sync's. */
    if (SHM_UNLIKELY(p->rounds == 0))
        atomic_thread_fence(memory_order_seq_cst);
    for (unsigned k = 0; k < p->rounds; k++) {
        atomic_store_explicit(p->r[k].out, p->r[k].sent + e, memory_order_release);
        if (atomic_load_explicit(p->r[k].in, memory_order_acquire) < p->r[k].got + e) {
            sync_rest(p, k, e);
            return;
        }
    }
}

/* A set with a member list (a supernode's part of a set, a team of
 * SHMEM_TEAM_SHARED): the arrays' counts, no plan kept (a list at the same
 * address may hold other PEs later). */
static void sync_listed(const char *call, const coll_set_t *s)
{
    int to[COLL_ROUNDS_MAX], from[COLL_ROUNDS_MAX];
    unsigned rounds = sync_peers(call, s, to, from);

    sync_settle();
    for (unsigned k = 0; k < rounds; k++)
        sync_signal(pair_line(to[k], pair_me), ++pair_sent[to[k]], pair_line(pair_me, from[k]),
                    ++pair_got[from[k]]);
}

static inline int sync_is_cached(const coll_set_t *s)
{
    return sync_c.live && s->pes == NULL && s->start == sync_c.start &&
           s->stride == sync_c.stride && s->size == sync_c.size;
}

void coll_sync(const char *call, const coll_set_t *s, long *pSync)
{
    /* Acquire/release pairs order every store before the barrier (on any
     * member) before every load after it; a lone PE needs a fence. */
    if (s->size == 1) {
        coll_slot(call, s, pSync, 0, 0); /* pSync must still be symmetric */
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    if (SHM_LIKELY(sync_is_cached(s)))
        sync_run(&sync_c.plan);
    else if (s->pes != NULL)
        sync_listed(call, s);
    else {
        sync_install(call, s);
        sync_run(&sync_c.plan);
    }
}

size_t coll_bytes(const char *call, size_t nelems, size_t esize)
{
    if (nelems > (size_t)LONG_MAX / esize)
        shm_fatal(call, "nelems is %zu; at most %zu elements of %zu bytes fit", nelems,
                  (size_t)LONG_MAX / esize, esize);
    return nelems * esize;
}

void coll_check_overlap(const char *call, const void *a, size_t n, const void *b, size_t m)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

    if (n > 0 && m > 0 && x < y + m && y < x + n)
        shm_fatal(call, "dest %p (%zu bytes) and source %p (%zu bytes) overlap", a, n, b, m);
}

void coll_sync_span(const char *call, const coll_set_t *s, coll_span_t *sp, long *pSync)
{
    if (sp == NULL) {
        coll_sync(call, s, pSync);
        return;
    }
    /* The leader leaves the first once its supernode has arrived, and the
     * others leave the second once it is back from the other leaders. */
    coll_sync(call, &sp->local, pSync);
    if (sp->local.me == 0)
        coll_net_sync(call, sp);
    coll_sync(call, &sp->local, pSync);
}

/* shmem_barrier's and shmem_sync's key: the arguments of the call that
 * made or last checked the cached plan. A hit skips the checks (passed
 * then, on the same arguments); false before shmem_init and after
 * shmem_finalize (pSync is SYNC_NO_PSYNC then). */
static inline int sync_hit(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    return pSync == sync_c.pSync && PE_start == sync_c.start && logPE_stride == sync_c.log &&
           PE_size == sync_c.size;
}

/* A call that missed: the checks, then the cached plan (made anew unless
 * only pSync changed; a set of one PE has a plan of no rounds), or
 * coll_sync_span for a set over several supernodes. */
static void sync_first(const char *call, int PE_start, int logPE_stride, int PE_size,
                       long *pSync)
{
    coll_set_t s;
    coll_span_t *sp;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    /* pSync is not written, but it must be what the specification says,
     * over one supernode or several. */
    shm_remote_range(call, pSync, SHMEM_BARRIER_SYNC_SIZE * sizeof(long), shm.me);
    sp = coll_span(call, &s);
    if (sp != NULL) {
        coll_sync_span(call, &s, sp, pSync);
        return;
    }
    if (!sync_is_cached(&s))
        sync_install(call, &s);
    sync_c.pSync = pSync;
    sync_run(&sync_c.plan);
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    if (SHM_LIKELY(sync_hit(PE_start, logPE_stride, PE_size, pSync)))
        sync_run(&sync_c.plan);
    else
        sync_first("shmem_sync", PE_start, logPE_stride, PE_size, pSync);
}

struct barrier_arg {
    int start, log, size;
    long *pSync;
};

/* shmem_barrier's synchronization: shmem_sync's. */
static inline void barrier_sync(void *arg)
{
    const struct barrier_arg *b = arg;

    if (SHM_LIKELY(sync_hit(b->start, b->log, b->size, b->pSync)))
        sync_run(&sync_c.plan);
    else
        sync_first("shmem_barrier", b->start, b->log, b->size, b->pSync);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct barrier_arg b = {PE_start, logPE_stride, PE_size, pSync};

    /* The barrier implies quiet (the seam's barrier, xport.h); before
     * shmem_init the quiet is a fence and the miss says what is wrong. */
    shm_xp_barrier(barrier_sync, &b);
}
