/*
 * net_rma.c - put and get to a PE of another supernode: MPI-3 one-sided
 * operations on the windows over the heap and the statics (net.c), in the
 * one passive-target epoch opened at init.
 *
 * Completion, as OpenSHMEM asks it:
 *   blocking put: the source may be reused on return. Up to BOUNCE_MAX
 *                 bytes it is copied into the bounce ring and put from
 *                 there (no flush); larger, MPI_Win_flush_local.
 *   blocking get: the data is here on return: MPI_Win_flush.
 *   _nbi forms: nothing; shmem_quiet flushes the windows (shm_net_rma_quiet).
 * MPI counts in int: a transfer beyond INT_MAX bytes goes in pieces.
 * Each operation holds the MPI lock from its first MPI call to its flush;
 * the state below is read and written only under that lock.
 */
#include "shmem_internal.h"

#if PSHMEM_HAVE_MPI
#include "net.h"

#include <limits.h>
#include <string.h>

#define PIECE ((size_t)1 << 30)

/* Where each window's operations since its last flush went: NONE, one PE
 * (quiet flushes that PE alone: MPI_Win_flush_all walks every peer of the
 * window), or MANY. */
enum { TO_NONE = -1, TO_MANY = -2 };
static int rma_to[SHM_NAREAS];

/* The bounce ring: a blocking put of up to BOUNCE_MAX bytes leaves from a
 * copy here, so that it returns without MPI_Win_flush_local (in Open MPI
 * 4.1 a run of the progress engine, ~330 instructions; the copy costs a
 * few). A byte of the ring is written again only once the put that read
 * it is complete at the origin: after a local flush of every window when
 * the ring is full, or after a quiet's flushes. Slots are cache-line
 * multiples, so two puts never share a line. */
#define BOUNCE_MAX 2048
#define BOUNCE_SIZE ((size_t)64 * 1024)
static _Alignas(64) char bounce[BOUNCE_SIZE];
static size_t bounce_used;

void shm_net_rma_init(void)
{
    for (int a = 0; a < SHM_NAREAS; a++)
        rma_to[a] = TO_NONE;
    bounce_used = 0;
}

static void note_to(int a, int pe)
{
    if (rma_to[a] == TO_NONE)
        rma_to[a] = pe;
    else if (rma_to[a] != pe)
        rma_to[a] = TO_MANY;
}

static void rma(const char *what, int is_put, void *buf, size_t n, int pe, int area, size_t off)
{
    while (n > 0) {
        int c = (int)(n < PIECE ? n : PIECE);
        int mrc = is_put ? MPI_Put(buf, c, MPI_BYTE, pe, (MPI_Aint)off, c, MPI_BYTE, shm_win[area])
                         : MPI_Get(buf, c, MPI_BYTE, pe, (MPI_Aint)off, c, MPI_BYTE, shm_win[area]);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail(what, is_put ? "MPI_Put" : "MPI_Get", mrc);
        buf = (char *)buf + c;
        off += (size_t)c;
        n -= (size_t)c;
    }
}

/* A local flush completes at the origin only; a remote one completes
 * everything to pe on the window, so the window's record forgets pe. */
static void flush(int local, int pe, int area)
{
    int mrc = local ? MPI_Win_flush_local(pe, shm_win[area]) : MPI_Win_flush(pe, shm_win[area]);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("rma", local ? "MPI_Win_flush_local" : "MPI_Win_flush", mrc);
    if (!local && rma_to[area] == pe)
        rma_to[area] = TO_NONE;
}

void shm_net_flush_pe(int pe)
{
    shm_mpi_enter();
    for (int a = 0; a < SHM_NAREAS; a++)
        flush(0, pe, a);
    shm_mpi_leave();
}

void shm_net_rma_quiet(void)
{
    shm_mpi_enter();
    for (int a = 0; a < SHM_NAREAS; a++) {
        int to = rma_to[a], mrc;
        if (to == TO_NONE)
            continue;
        mrc = to >= 0 ? MPI_Win_flush(to, shm_win[a]) : MPI_Win_flush_all(shm_win[a]);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("shmem_quiet", to >= 0 ? "MPI_Win_flush" : "MPI_Win_flush_all", mrc);
        rma_to[a] = TO_NONE;
    }
    /* Every operation issued is complete: the bounce ring is free. */
    bounce_used = 0;
    shm_mpi_leave();
}

/* A place in the bounce ring for n bytes (n <= BOUNCE_MAX); when the ring
 * is full, the puts that read it are completed at the origin first. */
static char *bounce_take(size_t n)
{
    size_t len = (n + 63) & ~(size_t)63;
    char *p;

    if (bounce_used + len > BOUNCE_SIZE) {
        for (int a = 0; a < SHM_NAREAS; a++) {
            int mrc;
            if (rma_to[a] == TO_NONE)
                continue;
            mrc = MPI_Win_flush_local_all(shm_win[a]);
            if (mrc != MPI_SUCCESS)
                shm_mpi_fail("put", "MPI_Win_flush_local_all", mrc);
        }
        bounce_used = 0;
    }
    p = bounce + bounce_used;
    bounce_used += len;
    return p;
}

void shm_net_put(const void *sym, const void *src, size_t n, int pe, int nbi)
{
    size_t off;
    int a = shm_net_area("put", sym, n, &off), local = 0;

    shm_mpi_enter();
    if (!nbi && n <= BOUNCE_MAX)
        src = memcpy(bounce_take(n), src, n);
    else
        local = !nbi;
    rma("put", 1, (void *)src, n, pe, a, off);
    note_to(a, pe);
    shm_net_mark(SHM_NET_RMA);
    if (local)
        flush(1, pe, a);
    shm_mpi_leave();
}

void shm_net_get(void *dst, const void *sym, size_t n, int pe, int nbi)
{
    size_t off;
    int a = shm_net_area("get", sym, n, &off);

    shm_mpi_enter();
    rma("get", 0, dst, n, pe, a, off);
    if (nbi) {
        note_to(a, pe);
        shm_net_mark(SHM_NET_RMA);
    } else {
        flush(0, pe, a);
    }
    shm_mpi_leave();
}

/* Strided: one operation per block (strides may be negative or zero),
 * then one flush for all. The caller checked the whole remote span. */
static void strided(int is_put, char *local, const char *sym, ptrdiff_t lst, ptrdiff_t tst,
                    size_t bsize, size_t n, size_t size, int pe)
{
    size_t off, blk = bsize * size;
    int a = shm_net_area(is_put ? "iput" : "iget", sym, blk, &off);

    shm_mpi_enter();
    for (size_t i = 0; i < n; i++) {
        rma(is_put ? "iput" : "iget", is_put, local, blk, pe, a, off);
        local += lst * (ptrdiff_t)size;
        off = (size_t)((ptrdiff_t)off + tst * (ptrdiff_t)size);
    }
    if (is_put) {
        note_to(a, pe);
        shm_net_mark(SHM_NET_RMA);
    }
    flush(is_put, pe, a);
    shm_mpi_leave();
}

void shm_net_iput(void *sym, const void *src, ptrdiff_t tst, ptrdiff_t sst, size_t bsize,
                  size_t n, size_t size, int pe)
{
    strided(1, (char *)src, sym, sst, tst, bsize, n, size, pe);
}

void shm_net_iget(void *dst, const void *sym, ptrdiff_t dst_st, ptrdiff_t tst, size_t bsize,
                  size_t n, size_t size, int pe)
{
    strided(0, dst, sym, dst_st, tst, bsize, n, size, pe);
}
#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
