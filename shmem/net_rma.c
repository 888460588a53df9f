/*
 * net_rma.c - put and get to a PE of another supernode: MPI-3 one-sided
 * operations on the windows over the heap and the statics (net.c), in the
 * one passive-target epoch opened at init.
 *
 * Completion, as OpenSHMEM asks it:
 *   blocking put: the source may be reused on return: MPI_Win_flush_local.
 *   blocking get: the data is here on return: MPI_Win_flush.
 *   _nbi forms: nothing; shmem_quiet flushes the windows (shm_net_quiet).
 * MPI counts in int: a transfer beyond INT_MAX bytes goes in pieces.
 * Each operation holds the MPI lock from its first MPI call to its flush.
 */
#include "shmem_internal.h"

#if PSHMEM_HAVE_MPI
#include "net.h"

#include <limits.h>

#define PIECE ((size_t)1 << 30)

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

static void flush(int local, int pe, int area)
{
    int mrc = local ? MPI_Win_flush_local(pe, shm_win[area]) : MPI_Win_flush(pe, shm_win[area]);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("rma", local ? "MPI_Win_flush_local" : "MPI_Win_flush", mrc);
}

void shm_net_flush_pe(int pe)
{
    shm_mpi_enter();
    for (int a = 0; a < SHM_NAREAS; a++)
        flush(0, pe, a);
    shm_mpi_leave();
}

void shm_net_put(const void *sym, const void *src, size_t n, int pe, int nbi)
{
    size_t off;
    int a = shm_net_area("put", sym, n, &off);

    shm_mpi_enter();
    rma("put", 1, (void *)src, n, pe, a, off);
    shm_net_mark(SHM_NET_RMA);
    if (!nbi)
        flush(1, pe, a);
    shm_mpi_leave();
}

void shm_net_get(void *dst, const void *sym, size_t n, int pe, int nbi)
{
    size_t off;
    int a = shm_net_area("get", sym, n, &off);

    shm_mpi_enter();
    rma("get", 0, dst, n, pe, a, off);
    if (nbi)
        shm_net_mark(SHM_NET_RMA);
    else
        flush(0, pe, a);
    shm_mpi_leave();
}

/* Strided: one operation per element (strides may be negative or zero),
 * then one flush for all. The caller checked the whole remote span. */
static void strided(int is_put, char *local, const char *sym, ptrdiff_t lst, ptrdiff_t tst,
                    size_t n, size_t size, int pe)
{
    size_t off;
    int a = shm_net_area(is_put ? "iput" : "iget", sym, size, &off);

    shm_mpi_enter();
    for (size_t i = 0; i < n; i++) {
        rma(is_put ? "iput" : "iget", is_put, local, size, pe, a, off);
        local += lst * (ptrdiff_t)size;
        off = (size_t)((ptrdiff_t)off + tst * (ptrdiff_t)size);
    }
    if (is_put)
        shm_net_mark(SHM_NET_RMA);
    flush(is_put, pe, a);
    shm_mpi_leave();
}

void shm_net_iput(void *sym, const void *src, ptrdiff_t tst, ptrdiff_t sst, size_t n,
                  size_t size, int pe)
{
    strided(1, (char *)src, sym, sst, tst, n, size, pe);
}

void shm_net_iget(void *dst, const void *sym, ptrdiff_t dst_st, ptrdiff_t tst, size_t n,
                  size_t size, int pe)
{
    strided(0, dst, sym, dst_st, tst, n, size, pe);
}
#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
