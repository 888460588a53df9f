/*
 * mpi_serial.c - the layer makes its MPI calls one at a time, whatever
 * the threads: a layer that initialized MPI asks for
 * MPI_THREAD_SERIALIZED (not MULTIPLE), yet provides SHMEM_THREAD_MULTIPLE
 * and runs its progress thread, because every MPI call it makes holds its
 * one lock. The program defines the MPI calls the layer makes after init
 * over their PMPI forms, counting the threads inside them at once.
 *
 * Every PE runs four threads that ship fetch_adds, adds, puts and gets to
 * every PE of another supernode, with the progress thread polling every
 * 50 us (SHMEM_PROGRESS_INTERVAL, set by the driver); then a quiet and a
 * barrier: the counters are exact, no MPI call ever overlapped another.
 */
#include "check.h"

#if PSHMEM_HAVE_MPI
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int inside, overlaps, asked = -1;
static atomic_long calls;

static void enter(void)
{
    if (atomic_fetch_add(&inside, 1) != 0)
        atomic_fetch_add(&overlaps, 1);
    atomic_fetch_add(&calls, 1);
}

static int leave(int rc)
{
    atomic_fetch_sub(&inside, 1);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    atomic_store(&asked, required);
    return PMPI_Init_thread(argc, argv, required, provided);
}

#define WRAP(name, params, args) \
    int name params { enter(); return leave(P##name args); }
WRAP(MPI_Send, (const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c), (b, n, t, d, g, c))
WRAP(MPI_Isend, (const void *b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request *r),
     (b, n, t, d, g, c, r))
WRAP(MPI_Irecv, (void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r),
     (b, n, t, s, g, c, r))
WRAP(MPI_Recv_init, (void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r),
     (b, n, t, s, g, c, r))
WRAP(MPI_Start, (MPI_Request *r), (r))
WRAP(MPI_Test, (MPI_Request *r, int *f, MPI_Status *s), (r, f, s))
WRAP(MPI_Testall, (int n, MPI_Request r[], int *f, MPI_Status s[]), (n, r, f, s))
WRAP(MPI_Testsome, (int n, MPI_Request r[], int *o, int i[], MPI_Status s[]), (n, r, o, i, s))
WRAP(MPI_Ibarrier, (MPI_Comm c, MPI_Request *r), (c, r))
WRAP(MPI_Put, (const void *o, int on, MPI_Datatype ot, int t, MPI_Aint d, int tn, MPI_Datatype tt,
               MPI_Win w), (o, on, ot, t, d, tn, tt, w))
WRAP(MPI_Get, (void *o, int on, MPI_Datatype ot, int t, MPI_Aint d, int tn, MPI_Datatype tt,
               MPI_Win w), (o, on, ot, t, d, tn, tt, w))
WRAP(MPI_Win_flush, (int r, MPI_Win w), (r, w))
WRAP(MPI_Win_flush_local, (int r, MPI_Win w), (r, w))
WRAP(MPI_Win_flush_all, (MPI_Win w), (w))

#define NT 4
#define ITER 300

static long *fcount, *acount, *slot;
static int me, npes;

static void *worker(void *arg)
{
    int t = (int)(long)arg;

    for (int i = 0; i < ITER; i++)
        for (int pe = 0; pe < npes; pe++) {
            long v = (long)me * 1000000 + t * 10000 + i, got;
            if (test_shares_memory(pe))
                continue;
            (void)shmem_long_atomic_fetch_add(fcount, 1, pe);
            shmem_long_atomic_add(acount, 1, pe);
            /* Slot (me, t) of pe: written by this thread only. */
            shmem_long_p(&slot[me * NT + t], v, pe);
            got = shmem_long_g(&slot[me * NT + t], pe);
            CHECK(got == v, "read %ld back from PE %d, expected %ld", got, pe, v);
        }
    shmem_quiet();
    return NULL;
}

int main(void)
{
    int provided = -1, remote = 0;
    pthread_t th[NT];

    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "shmem_init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d, expected SHMEM_THREAD_MULTIPLE",
          provided);
    CHECK(atomic_load(&asked) == MPI_THREAD_SERIALIZED,
          "the layer asked MPI for thread level %d, expected MPI_THREAD_SERIALIZED (%d)",
          atomic_load(&asked), MPI_THREAD_SERIALIZED);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int pe = 0; pe < npes; pe++)
        remote += !test_shares_memory(pe);
    CHECK(remote > 0, "needs PEs on other supernodes");
    fcount = shmem_calloc(1, sizeof(long));
    acount = shmem_calloc(1, sizeof(long));
    slot = shmem_calloc((size_t)npes * NT, sizeof(long));
    CHECK(fcount != NULL && acount != NULL && slot != NULL, "shmem_calloc");
    atomic_store(&calls, 0);
    for (long t = 0; t < NT; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    /* As many remote PEs send here as this PE sends to (the layouts are
     * symmetric: every supernode has the same number of PEs). */
    CHECK(*fcount == (long)NT * ITER * remote && *acount == (long)NT * ITER * remote,
          "counters %ld and %ld, expected %ld", *fcount, *acount, (long)NT * ITER * remote);
    CHECK(atomic_load(&overlaps) == 0, "%d of %ld MPI calls began while another thread was "
          "inside MPI", atomic_load(&overlaps), atomic_load(&calls));
    CHECK(atomic_load(&calls) > (long)NT * ITER * remote, "only %ld MPI calls",
          atomic_load(&calls));
    if (me == 0)
        printf("mpi_serial: %ld MPI calls from %d threads and the progress thread, none "
               "overlapping; MPI asked for MPI_THREAD_SERIALIZED\n", atomic_load(&calls), NT);
    shmem_finalize();
    return 0;
}
#else
int main(void)
{
    printf("mpi_serial: no MPI in this build\n");
    return 77;
}
#endif
