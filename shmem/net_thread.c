/*
 * net_thread.c - the progress thread: a PE that computes without calling
 * the library still answers the atomics other supernodes send it.
 *
 * It sleeps SHMEM_PROGRESS_INTERVAL microseconds between polls (0: no
 * thread) and serves what arrived (shm_net_serve, which also drives MPI's
 * own progress). It makes its MPI calls under the MPI lock like every
 * thread, so it needs an MPI the layer initialized at (at least)
 * MPI_THREAD_SERIALIZED, or MPI_THREAD_MULTIPLE from a program that
 * initialized MPI itself (whose own calls do not take the lock): with
 * less, no thread is started and a PE answers only when it calls the
 * library (any wait, quiet, barrier, or an operation of its own through
 * MPI).
 */
#include "shmem_internal.h"

#if PSHMEM_HAVE_MPI
#include "net.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

static pthread_t thread;
static int running, stop;

static void *progress_main(void *arg)
{
    struct timespec ts = {shm.progress_us / 1000000, (shm.progress_us % 1000000) * 1000};
    (void)arg;

    while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
        nanosleep(&ts, NULL);
        shm_net_serve();
    }
    return NULL;
}

void shm_thread_start(int mpi_level)
{
    sigset_t all, old;

    if (shm.progress_us <= 0 || mpi_level < MPI_THREAD_MULTIPLE)
        return;
    __atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
    /* Signals stay the application's threads' business. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    running = pthread_create(&thread, NULL, progress_main, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!running)
        shm_fatal("shmem_init", "cannot start the progress thread; set "
                  "SHMEM_PROGRESS_INTERVAL=0 to run without it");
}

void shm_thread_stop(void)
{
    if (!running)
        return;
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
    running = 0;
}
#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
