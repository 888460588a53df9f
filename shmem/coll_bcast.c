/*
 * coll_bcast.c - shmem_broadcast32/64.
 *
 * The other members pull: the root tells each of them that its source is
 * ready (pSync slot 1), each copies the root's source into its own dest and
 * acknowledges (slot 2 on the root), and the root returns once all have
 * copied, so its source may change as soon as it returns. The copies run in
 * parallel on every member, and a member's dest is written only while that
 * member is inside the call. The root's dest is not written (1.4).
 */
#include "coll.h"

#include <string.h>

static void coll_bcast(const char *call, void *dest, const void *source, size_t nelems,
                       size_t esize, int PE_root, int PE_start, int logPE_stride, int PE_size,
                       long *pSync)
{
    coll_set_t s;
    size_t n;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    if (PE_root < 0 || PE_root >= s.size)
        shm_fatal(call, "PE_root is %d; it is an index into the active set, 0 to %d", PE_root,
                  s.size - 1);
    n = coll_bytes(call, nelems, esize);
    if (n == 0 || s.size == 1)
        return;
    if (s.me == PE_root) {
        shm_remote_range(call, source, n, shm.me);
        for (int i = 0; i < s.size; i++)
            if (i != PE_root)
                coll_signal(coll_slot(call, &s, pSync, i, COLL_READY));
        coll_consume(coll_slot(call, &s, pSync, s.me, COLL_ACK), s.size - 1);
        return;
    }
    const void *src = shm_remote_range(call, source, n, coll_pe(&s, PE_root));

    shm_remote_range(call, dest, n, shm.me);
    coll_consume(coll_slot(call, &s, pSync, s.me, COLL_READY), 1);
    memcpy(dest, src, n);
    /* Release: the copy is done before the root may reuse its source. */
    coll_signal(coll_slot(call, &s, pSync, PE_root, COLL_ACK));
}

void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root,
                       int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    coll_bcast("shmem_broadcast32", dest, source, nelems, 4, PE_root, PE_start, logPE_stride,
               PE_size, pSync);
}

void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root,
                       int PE_start, int logPE_stride, int PE_size, long *pSync)
{
    coll_bcast("shmem_broadcast64", dest, source, nelems, 8, PE_root, PE_start, logPE_stride,
               PE_size, pSync);
}
