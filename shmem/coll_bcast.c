/*
 * coll_bcast.c - the broadcast kernel, and shmem_broadcast32/64 on it.
 *
 * The other members pull: the root tells each of them that its source is
 * ready (pSync slot 1), each copies the root's source into its own dest and
 * acknowledges (slot 2 on the root), and the root returns once all have
 * copied, so its source may change as soon as it returns. The copies run in
 * parallel on every member, and a member's dest is written only while that
 * member is inside the call. The root's dest is not written (1.4), or is
 * copied from its source by the root itself (the team form, 1.5).
 *
 * Across supernodes: the root sends its source down a binomial tree to the
 * leaders of the other supernodes, each receiving into its own dest; then
 * each supernode pulls as above, from the root's source in the root's
 * supernode and from the leader's dest in the others.
 */
#include "coll.h"

#include <stdint.h>
#include <string.h>

/* The root's side of coll_fanout, in two halves: tell the others (with n,
 * when publish) that the data is ready; wait until all have copied it. */
static void fanout_ready(const char *call, const coll_set_t *s, size_t n, long *pSync,
                         int publish)
{
    for (int i = 0; i < s->size; i++) {
        if (i == s->me)
            continue;
        if (publish)
            atomic_store_explicit(coll_slot(call, s, pSync, i, COLL_TOTAL), (long)n,
                                  memory_order_relaxed);
        /* Release: the data, and the count, before the signal. */
        coll_signal(coll_slot(call, s, pSync, i, COLL_READY));
    }
}

static void fanout_done(const char *call, const coll_set_t *s, long *pSync)
{
    coll_consume(coll_slot(call, s, pSync, s->me, COLL_ACK), s->size - 1);
}

size_t coll_fanout(const char *call, const coll_set_t *s, int root, const void *from,
                   void *dest, size_t n, long *pSync, int publish, const void *own,
                   size_t own_n)
{
    if (s->me == root) {
        fanout_ready(call, s, n, pSync, publish);
        fanout_done(call, s, pSync);
        return n;
    }
    coll_consume(coll_slot(call, s, pSync, s->me, COLL_READY), 1);
    if (publish) {
        atomic_long *total = coll_slot(call, s, pSync, s->me, COLL_TOTAL);

        n = (size_t)atomic_load_explicit(total, memory_order_relaxed);
        atomic_store_explicit(total, SHMEM_SYNC_VALUE, memory_order_relaxed);
    }
    coll_check_overlap(call, dest, n, own, own_n);
    if (n > 0)
        memcpy(shm_remote_range(call, dest, n, shm.me),
               shm_remote_range(call, from, n, coll_pe(s, root)), n);
    /* Release: the copy is done before the root may reuse its source. */
    coll_signal(coll_slot(call, s, pSync, root, COLL_ACK));
    return n;
}

/* Across supernodes (sp from coll_span or team_span_next). */
static void bcast_span(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                       const void *source, size_t n, int root, long *pSync)
{
    int root_pe = coll_pe(s, root);
    int root_node = sp->node_of[root];

    if (sp->node == root_node) {
        int lroot = 0;

        while (coll_pe(&sp->local, lroot) != root_pe)
            lroot++;
        if (shm.me == root_pe) {
            /* The local members copy while the root sends to the others. */
            fanout_ready(call, &sp->local, n, pSync, 0);
            coll_net_bcast(call, sp, (void *)source, n, root_node, root_pe);
            fanout_done(call, &sp->local, pSync);
            return;
        }
        coll_fanout(call, &sp->local, lroot, source, dest, n, pSync, 0, NULL, 0);
        return;
    }
    if (sp->local.me == 0)
        coll_net_bcast(call, sp, dest, n, root_node, root_pe);
    coll_fanout(call, &sp->local, 0, dest, dest, n, pSync, 0, NULL, 0);
}

void coll_bcast_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                    const void *source, size_t n, int root, long *pSync, int root_dest)
{
    if (root < 0 || root >= s->size)
        shm_fatal(call, "PE_root is %d; it is a member's index, 0 to %d", root, s->size - 1);
    if (n == 0)
        return;
    if (s->me == root) {
        shm_remote_range(call, source, n, shm.me);
        if (root_dest && dest != source) {
            shm_remote_range(call, dest, n, shm.me);
            /* Nobody reads the root's dest. The others read its source
             * meanwhile: a dest apart from it is written while they copy
             * (the root's copy costs no time of theirs), one that overlaps
             * it before they are told. */
            uintptr_t d = (uintptr_t)dest, o = (uintptr_t)source;
            if (s->size == 1 || sp != NULL || (d < o + n && o < d + n))
                memmove(dest, source, n);
            else {
                fanout_ready(call, s, n, pSync, 0);
                memcpy(dest, source, n);
                fanout_done(call, s, pSync);
                return;
            }
        }
    } else {
        shm_remote_range(call, dest, n, shm.me);
    }
    if (s->size == 1)
        return;
    if (sp != NULL)
        bcast_span(call, s, sp, dest, source, n, root, pSync);
    else
        coll_fanout(call, s, root, source, dest, n, pSync, 0, NULL, 0);
}

static void bcast_set(const char *call, void *dest, const void *source, size_t nelems,
                      size_t esize, int PE_root, int PE_start, int logPE_stride, int PE_size,
                      long *pSync)
{
    coll_set_t s;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    coll_bcast_run(call, &s, coll_span(call, &s), dest, source, coll_bytes(call, nelems, esize),
                   PE_root, pSync, 0);
}

void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root,
                       int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    bcast_set("shmem_broadcast32", dest, source, nelems, 4, PE_root, PE_start, logPE_stride,
              PE_size, pSync);
}

void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root,
                       int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    bcast_set("shmem_broadcast64", dest, source, nelems, 8, PE_root, PE_start, logPE_stride,
              PE_size, pSync);
}
