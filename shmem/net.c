/*
 * net.c - the layer under MPI: start-up, the windows, the end.
 *
 * Under mpirun the layer starts MPI itself (MPI_Init_thread) unless the
 * program did, and finalizes it only then, at exit: the library may be
 * initialized again after its last shmem_finalize (1.6), and MPI cannot
 * be. pshm is started through its MPI
 * bootstrap over MPI_COMM_WORLD, so PE = world rank, and finds the
 * supernodes; PEs of mine are reached through shared memory as under
 * oshrun. When the job spans supernodes (shm.multi), the others are reached
 * through MPI: one-sided windows over the heap and the statics (net_rma.c),
 * atomics shipped to the target (net_amo.c), and a progress thread
 * (net_thread.c).
 */
#include "shmem_internal.h"

#if PSHMEM_HAVE_MPI
#include "net.h"
#include "pshm_mpi.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

MPI_Comm shm_comm = MPI_COMM_NULL;
MPI_Win shm_win[SHM_NAREAS] = {MPI_WIN_NULL, MPI_WIN_NULL};

int shm_mpi_locked;
_Thread_local int shm_mpi_mine;

/* Until the lock looks free: spins on a plain load (no cache-line
 * ping-pong with the holder), yielding every so often, and at once when
 * PEs outnumber CPUs (the holder may be waiting for this CPU). */
#define LOCK_SPINS 64

void shm_word_wait(int *word)
{
    for (int i = 1; __atomic_load_n(word, __ATOMIC_RELAXED); i++) {
        if (shm.crowded || i % LOCK_SPINS == 0)
            sched_yield();
#if defined(__x86_64__) || defined(__i386__)
        else
            __builtin_ia32_pause();
#endif
    }
}

static int mpi_provided;   /* the thread level the layer may use: MPI's, or
                            * MULTIPLE over a SERIALIZED MPI of its own */

_Noreturn void shm_mpi_fail(const char *call, const char *mpi_call, int mrc)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;

    if (MPI_Error_string(mrc, text, &len) != MPI_SUCCESS)
        len = 0;
    text[len] = '\0';
    shm_fatal(call, "%s failed: %s", mpi_call, len ? text : "(no message from MPI)");
}

int shm_net_area(const char *call, const void *sym, size_t n, size_t *off)
{
    int a = shm_area_of(sym, n, off);
    if (a < 0)
        shm_fatal(call, "the %zu bytes at %p are not all symmetric (they pass the end of the "
                  "symmetric heap or of the program's data)", n, sym);
    return a;
}

int shm_net_start(pshm_bootstrap_t *boot, int mpi_thread)
{
    int init = 0, fin = 0, mrc, rc, rank, size;

    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (fin)
        shm_fatal("shmem_init", "MPI is already finalized: call shmem_init before "
                  "MPI_Finalize (and shmem_finalize before it too)");
    /* pshmrun's job (its socket in the environment) stays pshmrun's. */
    if (getenv("PSHM_BOOT_FD") != NULL || (!init && !shm_env_mpi_launch(&rank, &size)))
        return -1;
    if (!init) {
        mrc = shm_mpi_init(mpi_thread, &mpi_provided); /* net_hybrid.c */
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("shmem_init", "MPI_Init_thread", mrc);
        /* Nobody but the layer calls this MPI, always under its lock:
         * serialized calls serve any number of threads. */
        if (mpi_provided >= MPI_THREAD_SERIALIZED)
            mpi_provided = MPI_THREAD_MULTIPLE;
    } else if (!shm_mpi_owned()) {
        /* (Owned: initialized again after the last finalize, over the MPI
         * this layer started, at the level it got then.)
         * The program's own calls do not take the layer's lock: threads
         * of the layer (the progress thread, SHMEM_THREAD_MULTIPLE) need
         * MPI_THREAD_MULTIPLE of the program's MPI. */
        MPI_Query_thread(&mpi_provided);
    }
    shm.mpi = 1;
    mrc = MPI_Comm_dup(MPI_COMM_WORLD, &shm_comm);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("shmem_init", "MPI_Comm_dup", mrc);
    /* Failures come back as codes, told by shm_mpi_fail. */
    MPI_Comm_set_errhandler(shm_comm, MPI_ERRORS_RETURN);
    rc = pshm_mpi_bootstrap(MPI_COMM_WORLD, boot);
    if (rc < 0)
        shm_fatal("shmem_init", "%s", pshm_last_error());
    return mpi_provided;
}

/* Every PE's heap and statics have the same size (same executable, same
 * SHMEM_SYMMETRIC_SIZE): a displacement valid here is valid there. pshm
 * checked it within each supernode; this checks it across them. */
static void check_symmetric(void)
{
    uint64_t mine[2] = {shm_sym.size[SHM_HEAP], shm_sym.size[SHM_DATA]}, *all;
    int mrc;

    all = malloc((size_t)shm.npes * sizeof mine);
    if (all == NULL)
        shm_fatal("shmem_init", "out of memory for the sizes of %d PEs", shm.npes);
    mrc = MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, shm_comm);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("shmem_init", "MPI_Allgather", mrc);
    for (int pe = 0; pe < shm.npes; pe++) {
        if (all[2 * pe] != mine[0])
            shm_fatal_all("shmem_init", "PE %d's symmetric heap is %llu bytes, PE %d's %llu: "
                          "give every PE the same SHMEM_SYMMETRIC_SIZE", pe,
                          (unsigned long long)all[2 * pe], shm.me, (unsigned long long)mine[0]);
        if (all[2 * pe + 1] != mine[1])
            shm_fatal_all("shmem_init", "PE %d's global and static data is %llu bytes, PE "
                          "%d's %llu: every PE must run the same executable", pe,
                          (unsigned long long)all[2 * pe + 1], shm.me,
                          (unsigned long long)mine[1]);
    }
    free(all);
}

/* Init and fini run while no other thread of the layer does (before the
 * progress thread starts, after it stops, on the thread in shmem_init or
 * shmem_finalize): their MPI calls take no lock. */
void shm_net_init(void)
{
    int mrc;

    check_symmetric();
    shm_net_rma_init();
    for (int a = 0; a < SHM_NAREAS; a++) {
        void *base = shm_sym.size[a] ? (void *)shm_sym.mine[a] : NULL;
        mrc = MPI_Win_create(base, (MPI_Aint)shm_sym.size[a], 1, MPI_INFO_NULL, shm_comm,
                             &shm_win[a]);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("shmem_init", "MPI_Win_create", mrc);
        MPI_Win_set_errhandler(shm_win[a], MPI_ERRORS_RETURN);
        /* One passive-target epoch for the whole job: no lock per operation. */
        mrc = MPI_Win_lock_all(MPI_MODE_NOCHECK, shm_win[a]);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("shmem_init", "MPI_Win_lock_all", mrc);
    }
    shm_amo_init();
    shm_thread_start(mpi_provided);
}

/* After the final barrier: every PE's operations are complete, nobody
 * sends anything more. */
void shm_net_fini(void)
{
    shm_thread_stop();
    shm_amo_fini();
    for (int a = 0; a < SHM_NAREAS; a++) {
        MPI_Win_unlock_all(shm_win[a]);
        MPI_Win_free(&shm_win[a]);
    }
}

void shm_net_barrier(void)
{
    MPI_Request r;
    int mrc;

    shm_mpi_enter();
    mrc = MPI_Ibarrier(shm_comm, &r);
    shm_mpi_leave();
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("barrier", "MPI_Ibarrier", mrc);
    shm_net_waitall(1, &r);
}

/* How long an abort waits for another thread's MPI call to end, in 10 ms
 * steps (a flush to a dead PE may never end: then it aborts anyway). */
#define ABORT_WAIT_STEPS 100

/* Seconds MPI_Abort may take before the PE ends itself with the code. A
 * launcher can miss or delay an abort (Open MPI's runtime has had such
 * races, open-mpi/ompi #3225), and the PE would wait in MPI_Abort for
 * ever; a PE that exits with a non-zero code also ends the job under
 * mpirun (and hydra), with that code. Normal aborts take 1-3 s, and up
 * to a minute on a loaded machine. Not for a code whose low byte is 0:
 * mpirun takes a PE that exits 0 without MPI_Finalize for a failure and
 * ends the job with 1, where a slow MPI_Abort still ends it with 0. */
#define ABORT_EXIT_SECONDS 10

static void *abort_exit(void *arg)
{
    struct timespec t = {ABORT_EXIT_SECONDS, 0};

    /* nanosleep is cut short by a signal: sleep what is left. */
    while (nanosleep(&t, &t) != 0)
        ;
    _exit((int)(intptr_t)arg & 255);
}

void shm_net_abort(int code)
{
    int init = 0, fin = 0;
    pthread_attr_t attr;
    pthread_t th;

    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin)
        return;
    /* Without the thread (no resources left) the abort is MPI's alone. */
    if ((code & 255) != 0 && pthread_attr_init(&attr) == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        (void)pthread_create(&th, &attr, abort_exit, (void *)(intptr_t)code);
        pthread_attr_destroy(&attr);
    }
    for (int i = 0; !shm_mpi_mine && i < ABORT_WAIT_STEPS && !shm_mpi_try(); i++)
        usleep(10000);
    MPI_Abort(MPI_COMM_WORLD, code);
}

void shm_net_stop(pshm_bootstrap_t *boot)
{
    pshm_mpi_bootstrap_free(boot);
    MPI_Comm_free(&shm_comm);
    shm.mpi = 0;
    /* MPI_Finalize if the layer started MPI and the program did not
     * join it, or if the program's own was held (net_hybrid.c). */
    shm_mpi_done();
}

#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
