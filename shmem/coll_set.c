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
 * coll_sync's signals are flags: round k's sender stores SHMEM_SYNC_VALUE + 1
 * into the receiver's slot, the receiver waits for it and stores
 * SHMEM_SYNC_VALUE back, one store and one load each way, as in
 * shmem_barrier_all. A flag alone could lose a signal: the sender, once out
 * of this call, may signal the next one on the same pSync before the
 * receiver has cleared this one, and the clearing store would wipe it. So
 * the signals from one PE to another take the two slots of their round by
 * turns (ROUND0 + k, ROUND1 + k), whatever the set or the pSync, both PEs
 * counting them alike in sync_turn: every PE of a set calls its
 * collectives in the same order, and each pair meets at most once per
 * barrier (2^k differs in each round). The next signal lands in the other
 * slot; the one after it cannot come before the receiver has cleared this
 * one, as the sender would need the receiver to have entered the call
 * between (and the receiver clears before it signals anything there, so
 * the clearing store comes first: release and acquire order it). Every
 * slot is back at SHMEM_SYNC_VALUE when the call returns, unless a PE
 * already signals the next call.
 */
static struct sync_turn {
    unsigned char sent; /* next signal to this PE: 0 ROUND0, 1 ROUND1 */
    unsigned char got;  /* next signal from this PE */
} *sync_turn;           /* [npes] by PE */

void coll_sync_init(void)
{
    sync_turn = calloc((size_t)shm.npes, sizeof *sync_turn);
    if (sync_turn == NULL)
        shm_fatal("shmem_init", "out of memory for the barrier state of %d PEs", shm.npes);
}

static void sync_forget(void);

void coll_sync_fini(void)
{
    sync_forget();
    free(sync_turn);
    sync_turn = NULL;
}

/* The rounds of one PE in one set's barrier on one pSync, computed once:
 * the receiver's slot ROUND0 + k (ROUND1 + k is SYNC_TURN longs on), mine,
 * and the turns of the two peers. */
#define SYNC_TURN (COLL_ROUND1 - COLL_ROUND0)
struct sync_plan {
    unsigned rounds;
    struct {
        atomic_long *out, *in;
        unsigned char *sent, *got;
    } r[COLL_ROUNDS_MAX];
};

static void sync_plan(const char *call, const coll_set_t *s, long *pSync, struct sync_plan *p)
{
    p->rounds = 0;
    for (int k = 0, d = 1; d < s->size; k++, d <<= 1) {
        int to = s->me + d, from = s->me - d, pto, pfrom;
        size_t span = (size_t)(COLL_ROUND1 + k + 1) * sizeof(long);
        long *peer;

        if (k >= COLL_ROUNDS_MAX)
            shm_fatal(call, "PE_size is %d; sets of at most %d PEs are supported", s->size,
                      1 << COLL_ROUNDS_MAX);
        to -= to >= s->size ? s->size : 0;
        from += from < 0 ? s->size : 0;
        pto = coll_pe(s, to);
        pfrom = coll_pe(s, from);
        /* Both of the round's slots on the receiver, checked at once: the
         * same symmetric range holds mine. */
        peer = shm_fast_range(pSync, span, pto);
        if (SHM_UNLIKELY(peer == NULL))
            peer = shm_remote_range(call, pSync, span, pto);
        p->r[k].out = (atomic_long *)&peer[COLL_ROUND0 + k];
        p->r[k].in = (atomic_long *)&pSync[COLL_ROUND0 + k];
        p->r[k].sent = &sync_turn[pto].sent;
        p->r[k].got = &sync_turn[pfrom].got;
        p->rounds = (unsigned)k + 1;
    }
}

static void sync_run(const struct sync_plan *p)
{
    for (unsigned k = 0; k < p->rounds; k++) {
        atomic_long *in = p->r[k].in + (*p->r[k].got ? SYNC_TURN : 0);

        /* Release: this PE's stores, and all it learned in earlier rounds,
         * are visible to whoever acquires the flag. */
        atomic_store_explicit(p->r[k].out + (*p->r[k].sent ? SYNC_TURN : 0), SHMEM_SYNC_VALUE + 1,
                              memory_order_release);
        *p->r[k].sent ^= 1;
        *p->r[k].got ^= 1;
        /* Acquire: pairs with the sender's release. */
        if (atomic_load_explicit(in, memory_order_acquire) == SHMEM_SYNC_VALUE)
            coll_wait_ge(in, SHMEM_SYNC_VALUE + 1);
        /* Only this PE writes the slot now: the sender's next signal goes
         * to the other one. Relaxed: this PE's next release orders it. */
        atomic_store_explicit(in, SHMEM_SYNC_VALUE, memory_order_relaxed);
    }
}

void coll_sync(const char *call, const coll_set_t *s, long *pSync)
{
    struct sync_plan p;

    /* Acquire/release pairs order every store before the barrier (on any
     * member) before every load after it; a lone PE needs a fence. */
    if (s->size == 1) {
        coll_slot(call, s, pSync, 0, COLL_ROUND0); /* pSync must still be symmetric */
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    sync_plan(call, s, pSync, &p);
    sync_run(&p);
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

/* The set and pSync of the last shmem_barrier or shmem_sync that found the
 * set in this supernode, with its plan: a program's barriers mostly repeat
 * one call, which then skips the checks (passed before, on the same
 * arguments) and the plan's arithmetic, as shmem_barrier_all does. */
static struct {
    long *pSync;
    int start, log, size;
    struct sync_plan plan;
} sync_last;

static void sync_forget(void)
{
    sync_last.pSync = NULL;
}

static inline int sync_again(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    return pSync == sync_last.pSync && PE_start == sync_last.start &&
           logPE_stride == sync_last.log && PE_size == sync_last.size;
}

/* A call that is not the last one again: the checks, then a new plan (or,
 * for a set over several supernodes or of one PE, coll_sync_span). */
static void sync_first(const char *call, int PE_start, int logPE_stride, int PE_size,
                       long *pSync)
{
    coll_set_t s;
    coll_span_t *sp;

    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    sp = coll_span(call, &s);
    if (sp != NULL || s.size == 1) {
        coll_sync_span(call, &s, sp, pSync);
        return;
    }
    sync_plan(call, &s, pSync, &sync_last.plan);
    sync_last.pSync = pSync;
    sync_last.start = PE_start;
    sync_last.log = logPE_stride;
    sync_last.size = PE_size;
    sync_run(&sync_last.plan);
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    shm_check_init("shmem_sync");
    if (SHM_LIKELY(sync_again(PE_start, logPE_stride, PE_size, pSync)))
        sync_run(&sync_last.plan);
    else
        sync_first("shmem_sync", PE_start, logPE_stride, PE_size, pSync);
}

struct barrier_arg {
    int start, log, size;
    long *pSync;
};

/* shmem_barrier's synchronization: shmem_sync's, the last plan again or
 * the checks and a new one. */
static void barrier_sync(void *arg)
{
    const struct barrier_arg *b = arg;

    if (SHM_LIKELY(sync_again(b->start, b->log, b->size, b->pSync)))
        sync_run(&sync_last.plan);
    else
        sync_first("shmem_barrier", b->start, b->log, b->size, b->pSync);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct barrier_arg b = {PE_start, logPE_stride, PE_size, pSync};

    shm_check_init("shmem_barrier");
    /* The barrier implies quiet (the seam's barrier, xport.h). */
    shm_xp_barrier(barrier_sync, &b);
}
