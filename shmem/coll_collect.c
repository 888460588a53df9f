/*
 * coll_collect.c - shmem_collect32/64 and shmem_fcollect32/64.
 *
 * Every member pulls every member's source into its own dest, after a sync
 * that says all sources (and, for collect, all element counts) are in place,
 * and before a sync that says nobody still reads them. collect publishes its
 * count in its own pSync slot 0, where the others read it; the slot is set
 * back to SHMEM_SYNC_VALUE after the second sync. Each member starts with
 * the block after its own, so the members read different sources at once.
 */
#include "coll.h"

#include <limits.h>
#include <string.h>

static size_t count_of(const char *call, const coll_set_t *s, long *pSync, int i, size_t fixed)
{
    if (pSync == NULL)
        return fixed;
    return (size_t)atomic_load_explicit(coll_slot(call, s, pSync, i, COLL_COUNT),
                                        memory_order_relaxed);
}

/* pSync_counts: the pSync whose slot 0 holds each member's count (collect),
 * or NULL when every member gives nelems (fcollect). */
static void coll_gather(const char *call, char *dest, const void *source, size_t nelems,
                        size_t esize, const coll_set_t *s, long *pSync, long *pSync_counts)
{
    size_t mine = coll_bytes(call, nelems, esize);
    size_t total = 0, off = 0;

    /* Where the block after mine starts, and the size of the whole. */
    for (int i = 0; i < s->size; i++) {
        size_t b = coll_bytes(call, count_of(call, s, pSync_counts, i, nelems), esize);

        if (b > (size_t)LONG_MAX - total)
            shm_fatal(call, "the members' blocks add up to more than %ld bytes", LONG_MAX);
        total += b;
        if (i <= s->me)
            off += b;
    }
    if (total > 0)
        shm_remote_range(call, dest, total, shm.me);
    coll_check_overlap(call, dest, total, source, mine);
    for (int k = 1; k <= s->size; k++) {
        int i = (s->me + k) % s->size;
        size_t b = coll_bytes(call, count_of(call, s, pSync_counts, i, nelems), esize);

        if (i == 0)
            off = 0;
        if (b > 0) {
            const void *src = i == s->me ? source
                                         : shm_remote_range(call, source, b, coll_pe(s, i));
            memcpy(dest + off, src, b);
        }
        off += b;
    }
    /* Nobody reads this member's source or count after this. */
    coll_sync(call, s, pSync);
}

static void coll_collect(const char *call, void *dest, const void *source, size_t nelems,
                         size_t esize, int PE_start, int logPE_stride, int PE_size, long *pSync,
                         int fixed)
{
    coll_set_t s;
    atomic_long *count = NULL;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    if (!fixed) {
        count = coll_slot(call, &s, pSync, s.me, COLL_COUNT);
        coll_bytes(call, nelems, esize);
        atomic_store_explicit(count, (long)nelems, memory_order_relaxed);
    } else if (nelems == 0) {
        return;
    }
    if (nelems > 0)
        shm_remote_range(call, source, coll_bytes(call, nelems, esize), shm.me);
    /* Every source and count is in place after this. */
    coll_sync(call, &s, pSync);
    coll_gather(call, dest, source, nelems, esize, &s, pSync, fixed ? NULL : pSync);
    if (count != NULL)
        atomic_store_explicit(count, SHMEM_SYNC_VALUE, memory_order_relaxed);
}

#define COLL_COLLECT_DEF(NAME, BITS, FIXED)                                          \
    void shmem_##NAME##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                            int logPE_stride, int PE_size, long *pSync)                \
    {                                                                                  \
        coll_collect("shmem_" #NAME #BITS, dest, source, nelems, BITS / 8, PE_start,     \
                     logPE_stride, PE_size, pSync, FIXED);                             \
    }
COLL_COLLECT_DEF(collect, 32, 0)
COLL_COLLECT_DEF(collect, 64, 0)
COLL_COLLECT_DEF(fcollect, 32, 1)
COLL_COLLECT_DEF(fcollect, 64, 1)
