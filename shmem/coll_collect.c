/*
 * coll_collect.c - the collect kernel, and shmem_collect32/64 and
 * shmem_fcollect32/64 on it.
 *
 * Every member pulls every member's source into its own dest, after a sync
 * that says all sources (and, for collect, all element counts) are in place,
 * and before a sync that says nobody still reads them. collect publishes its
 * count in its own pSync slot 0, where the others read it; the slot is set
 * back to SHMEM_SYNC_VALUE after the second sync. Each member starts with
 * the block after its own, so the members read different sources at once.
 *
 * Across supernodes: after the first sync (within each supernode), every
 * leader learns all members' counts from the other leaders, builds the
 * whole result in its own dest (its supernode's blocks pulled from the
 * members' sources, the others' blocks received, one message per pair of
 * leaders), then its members copy that dest (coll_fanout, which hands them
 * the size).
 */
#include "coll.h"

#include <limits.h>
#include <stdlib.h>
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

static void *gather_alloc(const char *call, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);

    if (p == NULL)
        shm_fatal(call, "out of memory for %zu bytes of a collect between supernodes",
                  n * size);
    return p;
}

/* The leader's part across supernodes: the whole result in its dest;
 * returns its size in bytes. */
static size_t leader_gather(const char *call, char *dest, const void *source, size_t nelems,
                            size_t esize, coll_span_t *sp, long *pSync, int fixed)
{
    const coll_set_t *l = &sp->local;
    int nn = sp->nnodes, me = sp->node;
    long *count = gather_alloc(call, (size_t)sp->size, sizeof(long)); /* by idx[] position */
    size_t *off = gather_alloc(call, (size_t)sp->size + 1, sizeof(size_t)); /* by set index */
    size_t *len = gather_alloc(call, 4 * (size_t)nn, sizeof(size_t));
    void **buf = gather_alloc(call, 2 * (size_t)nn, sizeof(void *));
    size_t *slen = len, *rlen = len + nn, *node_bytes = len + 2 * (size_t)nn;
    void **send = buf, **recv = buf + nn;
    size_t total = 0, others = 0, o;
    char *in, *out;

    for (int j = 0; fixed && j < sp->size; j++)
        count[j] = (long)nelems;
    for (int k = 0; !fixed && k < l->size; k++)
        count[sp->first[me] + k] =
            atomic_load_explicit(coll_slot(call, l, pSync, k, COLL_COUNT), memory_order_relaxed);
    if (!fixed) {
        for (int g = 0; g < nn; g++) {
            send[g] = &count[sp->first[me]];
            slen[g] = (size_t)l->size * sizeof(long);
            recv[g] = &count[sp->first[g]];
            rlen[g] = (size_t)(sp->first[g + 1] - sp->first[g]) * sizeof(long);
        }
        coll_net_exchange(call, sp, COLL_STEP_COUNTS, send, slen, recv, rlen);
    }
    /* off[i + 1] is member i's block size for now, then the prefix sums. */
    for (int j = 0; j < sp->size; j++) {
        size_t b = coll_bytes(call, (size_t)count[j], esize);

        off[sp->idx[j] + 1] = b;
        node_bytes[sp->node_of[sp->idx[j]]] += b;
    }
    for (int i = 0; i < sp->size; i++) {
        if (off[i + 1] > (size_t)LONG_MAX - total)
            shm_fatal(call, "the members' blocks add up to more than %ld bytes", LONG_MAX);
        total += off[i + 1];
        off[i + 1] = total;
    }
    if (total > 0)
        shm_remote_range(call, dest, total, shm.me);
    coll_check_overlap(call, dest, total, source, coll_bytes(call, nelems, esize));
    /* This supernode's blocks, from the members' sources. */
    for (int k = 0; k < l->size; k++) {
        int i = sp->idx[sp->first[me] + k];
        size_t b = off[i + 1] - off[i];

        if (b > 0)
            memcpy(dest + off[i],
                   k == l->me ? source : shm_remote_range(call, source, b, coll_pe(l, k)), b);
    }
    /* One message to each other leader with this supernode's blocks in set
     * order, one from each with its own. */
    for (int g = 0; g < nn; g++)
        if (g != me)
            others += node_bytes[g];
    out = gather_alloc(call, node_bytes[me], 1);
    in = gather_alloc(call, others, 1);
    o = 0;
    for (int j = sp->first[me]; j < sp->first[me + 1]; j++) {
        int i = sp->idx[j];

        memcpy(out + o, dest + off[i], off[i + 1] - off[i]);
        o += off[i + 1] - off[i];
    }
    o = 0;
    for (int g = 0; g < nn; g++) {
        send[g] = out;
        slen[g] = node_bytes[me];
        recv[g] = in + o;
        rlen[g] = node_bytes[g];
        if (g != me)
            o += node_bytes[g];
    }
    coll_net_exchange(call, sp, COLL_STEP_DATA, send, slen, recv, rlen);
    for (int g = 0; g < nn; g++) {
        char *p = recv[g];

        for (int j = sp->first[g]; j < sp->first[g + 1] && g != me; j++) {
            int i = sp->idx[j];

            memcpy(dest + off[i], p, off[i + 1] - off[i]);
            p += off[i + 1] - off[i];
        }
    }
    free(in);
    free(out);
    free(buf);
    free(len);
    free(off);
    free(count);
    return total;
}

static void collect_span(const char *call, void *dest, const void *source, size_t nelems,
                         size_t esize, coll_span_t *sp, long *pSync, int fixed)
{
    const coll_set_t *l = &sp->local;
    size_t total = 0;

    /* Every source and count of this supernode is in place after this. */
    coll_sync(call, l, pSync);
    if (l->me == 0)
        total = leader_gather(call, dest, source, nelems, esize, sp, pSync, fixed);
    coll_fanout(call, l, 0, dest, dest, total, pSync, 1, source,
                coll_bytes(call, nelems, esize));
}

void coll_collect_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                      const void *source, size_t nelems, size_t esize, long *pSync, int fixed)
{
    atomic_long *count = NULL;

    if (!fixed) {
        count = coll_slot(call, s, pSync, s->me, COLL_COUNT);
        coll_bytes(call, nelems, esize);
        atomic_store_explicit(count, (long)nelems, memory_order_relaxed);
    } else if (nelems == 0) {
        return;
    }
    if (nelems > 0)
        shm_remote_range(call, source, coll_bytes(call, nelems, esize), shm.me);
    if (sp != NULL) {
        collect_span(call, dest, source, nelems, esize, sp, pSync, fixed);
    } else {
        /* Every source and count is in place after this. */
        coll_sync(call, s, pSync);
        coll_gather(call, dest, source, nelems, esize, s, pSync, fixed ? NULL : pSync);
    }
    if (count != NULL)
        atomic_store_explicit(count, SHMEM_SYNC_VALUE, memory_order_relaxed);
}

static void collect_set(const char *call, void *dest, const void *source, size_t nelems,
                        size_t esize, int PE_start, int logPE_stride, int PE_size, long *pSync,
                        int fixed)
{
    coll_set_t s;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    coll_collect_run(call, &s, coll_span(call, &s), dest, source, nelems, esize, pSync, fixed);
}

#define COLL_COLLECT_DEF(NAME, BITS, FIXED)                                          \
    void shmem_##NAME##BITS(void *dest, const void *source, size_t nelems, int PE_start, \
                            int logPE_stride, int PE_size, long *pSync)                \
    {                                                                                  \
        collect_set("shmem_" #NAME #BITS, dest, source, nelems, BITS / 8, PE_start,      \
                    logPE_stride, PE_size, pSync, FIXED);                              \
    }
COLL_COLLECT_DEF(collect, 32, 0)
COLL_COLLECT_DEF(collect, 64, 0)
COLL_COLLECT_DEF(fcollect, 32, 1)
COLL_COLLECT_DEF(fcollect, 64, 1)
