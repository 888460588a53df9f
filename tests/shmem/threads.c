/*
 * threads.c - SHMEM_THREAD_MULTIPLE: shmem_init_thread provides it; four
 * threads per PE add to every PE's static and heap counters at once
 * (counted exactly) and wait for flags the matching thread of the left PE
 * puts (each thread its own flag), so waits poll pshm from several threads.
 */
#include "check.h"

#include <pthread.h>

#define NT 4
#define ITER 2000

static long scount;
static long *hcount;
static long flags[NT];
static int me, npes;

static void *worker(void *arg)
{
    int t = (int)(long)arg, right = (me + 1) % npes;

    for (int i = 0; i < ITER; i++)
        for (int pe = 0; pe < npes; pe++) {
            shmem_long_atomic_add(&scount, 1, pe);
            (void)shmem_long_atomic_fetch_inc(hcount, pe);
        }
    for (long r = 1; r <= 20; r++) {
        shmem_long_atomic_set(&flags[t], r, right);
        shmem_long_wait_until(&flags[t], SHMEM_CMP_GE, r);
    }
    return NULL;
}

int main(void)
{
    int provided = -1;
    pthread_t th[NT];

    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "shmem_init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d, expected MULTIPLE", provided);
    shmem_query_thread(&provided);
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "query_thread %d", provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    hcount = shmem_calloc(1, sizeof(long));
    CHECK(hcount != NULL, "shmem_calloc");
    for (long t = 0; t < NT; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    shmem_barrier_all();
    CHECK(scount == (long)NT * ITER * npes, "static counter %ld, expected %ld", scount,
          (long)NT * ITER * npes);
    CHECK(*hcount == (long)NT * ITER * npes, "heap counter %ld, expected %ld", *hcount,
          (long)NT * ITER * npes);
    if (me == 0)
        printf("threads: %d threads per PE on %d PEs, counters exact\n", NT, npes);
    shmem_finalize();
    return 0;
}
