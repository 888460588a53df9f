/*
 * xport.c - the seam's out-of-line half (xport.h): where an operation
 * whose translation missed is checked and then sent down one of the two
 * paths, the mapped one (a PE of my supernode, reached here on the
 * debug mode's or a range's slow path) or MPI's (net*.c); shmem_pe_quiet's
 * completion; the layer's own barrier; progress and waits, which serve
 * the MPI path's shipped atomics in a job over several supernodes.
 *
 * shm_range_or_net does the checks of every slow path: a bad PE or an
 * address outside the symmetric areas ends the job naming the routine;
 * it returns the local pointer, or NULL for a PE of another supernode.
 */
#include "xport.h"

static void debug_checks(const char *call, void *dest, const void *src, size_t n,
                         const void *remote)
{
    shm_check_null(call, "dest", dest, n);
    shm_check_null(call, "source", src, n);
    /* A copy within one process's memory must not overlap itself. */
    if ((const char *)dest < (const char *)remote + n && (const char *)remote < (const char *)dest + n &&
        dest != remote)
        shm_fatal(call, "source [%p, +%zu) and dest [%p, +%zu) overlap", src, n, dest, n);
}

void shm_xp_put_slow(const char *call, void *dest, const void *src, size_t n, int pe, int nbi)
{
    void *r = shm_range_or_net(call, dest, n, pe);

    if (SHM_UNLIKELY(shm_sym.debug))
        debug_checks(call, r != NULL ? r : dest, src, n, r != NULL ? src : NULL);
    if (r != NULL)
        memcpy(r, src, n);
    else
        shm_net_put(dest, src, n, pe, nbi);
}

void shm_xp_get_slow(const char *call, void *dest, const void *src, size_t n, int pe, int nbi)
{
    const void *r = shm_range_or_net(call, src, n, pe);

    if (SHM_UNLIKELY(shm_sym.debug))
        debug_checks(call, dest, r != NULL ? r : src, n, r);
    if (r != NULL)
        memcpy(dest, r, n);
    else
        shm_net_get(dest, src, n, pe, nbi);
}

/* Strided copy of nblocks blocks of bsize elements of `size` bytes
 * (shmem_internal.h); strides in elements. The first and last remote
 * block bound the remote range, checked whole before the first copy. */
void shm_strided(const char *call, int is_put, void *dest, const void *src, ptrdiff_t dst,
                 ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size, int pe)
{
    ptrdiff_t rst = is_put ? dst : sst;
    size_t arst = rst < 0 ? (size_t)0 - (size_t)rst : (size_t)rst, blk;
    const char *sym = is_put ? (const char *)dest : (const char *)src, *lo, *hi;
    char *r;

    if (nblocks == 0 || bsize == 0)
        return;
    blk = shm_xp_bytes(call, bsize, size);
    /* (nblocks - 1) * stride * size plus a block must fit a ptrdiff_t: no
     * wrapped span. */
    if (SHM_UNLIKELY(nblocks > (size_t)PTRDIFF_MAX / size || blk > (size_t)PTRDIFF_MAX / 2 ||
                     (arst != 0 && arst > (size_t)PTRDIFF_MAX / 2 / size / nblocks)))
        shm_fatal(call, "%zu blocks of %zu elements with stride %td of %zu-byte elements span "
                  "more than the address space", nblocks, bsize, rst, size);
    lo = sym;
    hi = sym + (ptrdiff_t)(nblocks - 1) * rst * (ptrdiff_t)size;
    if (hi < lo) {
        const char *t = lo;
        lo = hi;
        hi = t;
    }
    r = shm_range_or_net(call, lo, (size_t)(hi - lo) + blk, pe);
    if (SHM_UNLIKELY(shm_sym.debug)) {
        shm_check_null(call, "dest", dest, nblocks);
        shm_check_null(call, "source", src, nblocks);
    }
    if (r == NULL) {
        if (is_put)
            shm_net_iput(dest, src, dst, sst, bsize, nblocks, size, pe);
        else
            shm_net_iget(dest, src, dst, sst, bsize, nblocks, size, pe);
        return;
    }
    r += sym - lo;
    if (is_put) {
        const char *s = src;
        for (size_t i = 0; i < nblocks; i++, r += dst * (ptrdiff_t)size, s += sst * (ptrdiff_t)size)
            memcpy(r, s, blk);
    } else {
        char *d = dest;
        for (size_t i = 0; i < nblocks; i++, d += dst * (ptrdiff_t)size, r += sst * (ptrdiff_t)size)
            memcpy(d, r, blk);
    }
}

/* Here the same instruction as the fast path's, by its code (amo_apply.h);
 * for a PE of another supernode the target applies it (net_amo.c). */
uint64_t shm_xp_amo_slow(const char *call, const void *sym, int pe, int op, size_t size,
                         uint64_t val, uint64_t cond, int fetching)
{
    void *p = shm_remote_or_net(call, sym, pe);

    if (p != NULL)
        return shm_amo_apply(p, size, op, val, cond);
    return shm_net_amo(sym, pe, op, size, val, cond, fetching);
}

void shm_xp_signal_slow(const char *call, uint64_t *sig_addr, uint64_t signal, int add, int pe,
                        int after_put)
{
    uint64_t *sig = shm_remote_or_net(call, sig_addr, pe);

    if (sig != NULL) {
        shm_map_signal(sig, signal, add, after_put);
        return;
    }
    /* Another supernode: the data is there once flushed; then the signal,
     * applied by the target like any non-fetching atomic (net_amo.c),
     * complete at the next quiet. */
    if (after_put)
        shm_net_flush_pe(pe);
    shm_net_amo(sig_addr, pe, add ? SHM_AOP_FADD : SHM_AOP_SET, sizeof *sig_addr, signal, 0, 0);
}

/* To a PE of my supernode every operation is complete on return: the
 * fence makes this PE's stores visible to all at once. To a PE of another
 * supernode what went through MPI since the last quiet is completed for
 * that PE alone (its puts and gets flushed, its atomics acknowledged). A
 * PE listed twice is completed twice. */
void shm_xp_pe_quiet(const int *pes, size_t npes)
{
    shm_map_quiet();
    if (SHM_LIKELY(__atomic_load_n(&shm_net_pending, __ATOMIC_ACQUIRE) == 0))
        return;
    for (size_t i = 0; i < npes; i++)
        if (!shm_pe_local(pes[i]))
            shm_net_quiet_pe(pes[i]);
}

void shm_xp_sync_all(void)
{
    int rc;

    /* pshm's barrier would block in MPI_Barrier without serving the atomics
     * a PE still waiting for an answer sent here: a barrier of MPI's that
     * does not block, waited for in shm_net_waitall. */
    if (shm.multi) {
        shm_net_barrier();
        return;
    }
    rc = pshm_barrier(shm.ctx);
    if (SHM_UNLIKELY(rc < 0))
        shm_lost("barrier", rc);
}

static void sync_all(void *arg)
{
    (void)arg;
    shm_xp_sync_all();
}

/* What this PE sent through MPI (non-fetching atomics, puts) is applied at
 * its target before any PE leaves, so a value read after an allocation
 * call is final. */
void shm_barrier(void)
{
    shm_xp_barrier(sync_all, NULL);
}

void shm_progress(void)
{
    shm_poll();
    if (shm.multi)
        shm_net_serve();
}

/* In a job over several supernodes, a wait also serves the atomics other
 * PEs send here: the condition pshm_wait_until checks between its polls
 * does it. */
typedef struct net_cond {
    int (*cond)(void *);
    void *arg;
} net_cond_t;

static int cond_and_serve(void *arg)
{
    net_cond_t *c = arg;

    if (c->cond(c->arg))
        return 1;
    shm_net_serve();
    return c->cond(c->arg);
}

void shm_wait(int (*cond)(void *), void *arg)
{
    net_cond_t c = {cond, arg};
    int rc;

    if (cond(arg))
        return;
    rc = shm.multi ? pshm_wait_until(shm.ctx, cond_and_serve, &c)
                   : pshm_wait_until(shm.ctx, cond, arg);
    if (SHM_UNLIKELY(rc < 0))
        shm_lost("wait", rc);
}
