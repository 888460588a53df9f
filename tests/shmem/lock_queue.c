/*
 * lock_queue.c - shmem_set_lock, shmem_test_lock, shmem_clear_lock.
 *
 *  1. Mutual exclusion: every PE increments a counter on PE 0 with a get and
 *     a put (not atomic) under the lock, on a heap lock and a static one; the
 *     count must be exact, and an owner word must never show another PE.
 *  2. test_lock: 1 while another PE holds the lock, 0 when it takes it, and
 *     every PE gets it exactly once when all race for it.
 *  3. FIFO: PE 0 holds the lock while PEs 1..N-1 queue one after the other
 *     (each waits until the one before it is the queue's tail: word 0 of PE
 *     0's copy of the lock, 1 + the last PE, as lock.c lays it out); they
 *     must then get the lock in that order.
 *  4. Two locks held at once, released in either order.
 */
#include "coll_test.h"

#include <sched.h>
#include <stdint.h>

#define ITERS 300

static long s_lock;

static void count_under(long *lock, long *counter, long *owner, const char *what)
{
    int me = shmem_my_pe();

    for (int i = 0; i < ITERS; i++) {
        shmem_set_lock(lock);
        long o = shmem_long_g(owner, 0);

        CT_CHECK(o == -1, "%s: PE %ld was inside when PE %d got the lock", what, o, me);
        shmem_long_p(owner, me, 0);
        shmem_quiet();
        long v = shmem_long_g(counter, 0);

        if (i % 16 == 0)
            sched_yield(); /* let the others pile up behind */
        shmem_long_p(counter, v + 1, 0);
        shmem_long_p(owner, -1, 0);
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    long total = shmem_long_g(counter, 0);

    CT_CHECK(total == (long)ITERS * shmem_n_pes(), "%s: the counter is %ld, expected %ld", what,
             total, (long)ITERS * shmem_n_pes());
    shmem_barrier_all();
}

static uint32_t tail_of(long *lock)
{
    long v = shmem_long_g(lock, 0);
    uint32_t w[2];

    memcpy(w, &v, sizeof w);
    return w[0];
}

int main(void)
{
    int me, npes;
    long *lock, *lock2, *counter, *owner, *order, *got;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    lock = shmem_calloc(1, sizeof(long));
    lock2 = shmem_calloc(1, sizeof(long));
    counter = shmem_calloc(1, sizeof(long));
    owner = shmem_malloc(sizeof(long));
    order = shmem_calloc((size_t)npes + 1, sizeof(long));
    got = shmem_calloc((size_t)npes, sizeof(long));
    *owner = -1;
    shmem_barrier_all();

    /* 1 */
    count_under(lock, counter, owner, "heap lock");
    if (me == 0)
        *counter = 0;
    shmem_barrier_all();
    count_under(&s_lock, counter, owner, "static lock");

    /* 2 */
    if (me == 0)
        shmem_set_lock(lock);
    shmem_barrier_all();
    if (me != 0)
        CT_CHECK(shmem_test_lock(lock) == 1, "test_lock took a lock PE 0 holds");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(lock);
    shmem_barrier_all();
    while (shmem_test_lock(lock) != 0)
        sched_yield();
    shmem_long_p(&got[me], shmem_long_g(&got[me], 0) + 1, 0);
    shmem_quiet();
    shmem_clear_lock(lock);
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            CT_CHECK(got[pe] == 1, "test_lock race: PE %d got the lock %ld times", pe, got[pe]);

    /* 3 */
    if (me == 0)
        shmem_set_lock(lock);
    shmem_barrier_all();
    if (me > 0) {
        while (tail_of(lock) != (uint32_t)me) /* PE me - 1 queued last */
            sched_yield();
        shmem_set_lock(lock);
        long n = shmem_long_g(&order[npes], 0);

        shmem_long_p(&order[n], me, 0);
        shmem_long_p(&order[npes], n + 1, 0);
        shmem_quiet();
        shmem_clear_lock(lock);
    } else {
        while (tail_of(lock) != (uint32_t)npes)
            sched_yield();
        shmem_clear_lock(lock);
    }
    shmem_barrier_all();
    if (me == 0) {
        CT_CHECK(order[npes] == npes - 1, "FIFO: %ld PEs logged, expected %d", order[npes],
                 npes - 1);
        for (int k = 0; k < npes - 1; k++)
            CT_CHECK(order[k] == k + 1, "FIFO: lock holder %d was PE %ld, expected PE %d", k,
                     order[k], k + 1);
    }

    /* 4 */
    for (int i = 0; i < 50; i++) {
        shmem_set_lock(lock);
        shmem_set_lock(lock2);
        if (i % 2) {
            shmem_clear_lock(lock);
            shmem_clear_lock(lock2);
        } else {
            shmem_clear_lock(lock2);
            shmem_clear_lock(lock);
        }
    }
    shmem_barrier_all();
    CT_CHECK(tail_of(lock) == 0 && tail_of(lock2) == 0, "the locks are not free at the end");
    if (me == 0)
        printf("locks: counter exact (heap and static lock), test_lock, FIFO order of %d "
               "waiters, two locks at once\n", npes - 1);
    shmem_free(got);
    shmem_free(order);
    shmem_free(owner);
    shmem_free(counter);
    shmem_free(lock2);
    shmem_free(lock);
    return ct_finish("lock_queue");
}
