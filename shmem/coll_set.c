/*
 * coll_set.c - active sets, the pSync counters, shmem_barrier and shmem_sync.
 */
#include "coll.h"
#include "xport.h"

#include <limits.h>
#include <stdint.h>

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
    s->me = (shm.me - PE_start) / s->stride;
    if (shm.me < PE_start || (shm.me - PE_start) % s->stride != 0 || s->me >= PE_size)
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

void coll_sync(const char *call, const coll_set_t *s, long *pSync)
{
    /* Acquire/release pairs below order every store before the barrier
     * (on any member) before every load after it; a lone PE needs a fence. */
    if (s->size == 1) {
        coll_slot(call, s, pSync, 0, COLL_ROUND0); /* pSync must still be symmetric */
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    /* Round k's slot counts signals from one sender only, member me - 2^k.
     * It may hold that sender's signal of the next call too (the sender
     * has left this one), never two of one call: the count needs no reset. */
    for (int k = 0, d = 1; d < s->size; k++, d <<= 1) {
        if (k >= COLL_ROUNDS_MAX)
            shm_fatal(call, "PE_size is %d; sets of at most %d PEs are supported", s->size,
                      1 << COLL_ROUNDS_MAX);
        coll_signal(coll_slot(call, s, pSync, (s->me + d) % s->size, COLL_ROUND0 + k));
        coll_consume(coll_slot(call, s, pSync, s->me, COLL_ROUND0 + k), 1);
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

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    coll_set_t s;

    shm_check_init("shmem_sync");
    coll_set_init(&s, "shmem_sync", PE_start, logPE_stride, PE_size);
    coll_sync_span("shmem_sync", &s, coll_span("shmem_sync", &s), pSync);
}

struct barrier_arg {
    coll_set_t s;
    long *pSync;
};

static void barrier_sync(void *arg)
{
    struct barrier_arg *b = arg;

    coll_sync_span("shmem_barrier", &b->s, coll_span("shmem_barrier", &b->s), b->pSync);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    struct barrier_arg b = {.pSync = pSync};

    shm_check_init("shmem_barrier");
    coll_set_init(&b.s, "shmem_barrier", PE_start, logPE_stride, PE_size);
    /* The barrier implies quiet (the seam's barrier, xport.h). */
    shm_xp_barrier(barrier_sync, &b);
}
