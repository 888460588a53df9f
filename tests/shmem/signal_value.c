/*
 * signal_value.c - shmem_signal_wait_until returns the value that satisfied
 * the wait, not a later one: in each round a writer PE stores the round's
 * value into the signal of its partner and, at once, 0, again and again
 * until the partner says it saw the round; the partner's wait (>= the
 * round) must return exactly the round's value, though the word may already
 * hold 0 again. The even PEs write, the odd ones wait (an odd last PE
 * idles).
 */
#include "check.h"

#include <sched.h>
#include <stdint.h>

#define ROUNDS 3000

static uint64_t sig, ack;

int main(void)
{
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (me % 2 == 0 && me + 1 < npes) {
        unsigned spins = 0;
        for (uint64_t r = 1; r <= ROUNDS; r++)
            while (!shmem_uint64_test(&ack, SHMEM_CMP_GE, r)) {
                shmem_uint64_atomic_set(&sig, r, me + 1);
                /* With more PEs than CPUs the waiter must run too, and
                 * see the round's value: now and then the writer yields
                 * with it in place. */
                if ((++spins & 15) == 0)
                    sched_yield();
                shmem_uint64_atomic_set(&sig, 0, me + 1);
            }
    } else if (me % 2 == 1) {
        for (uint64_t r = 1; r <= ROUNDS; r++) {
            uint64_t v = shmem_signal_wait_until(&sig, SHMEM_CMP_GE, r);
            CHECK(v == r, "round %llu: shmem_signal_wait_until(>= %llu) returned %llu",
                  (unsigned long long)r, (unsigned long long)r, (unsigned long long)v);
            shmem_uint64_atomic_set(&ack, r, me - 1);
        }
    }
    shmem_barrier_all();
    if (me == 0)
        printf("signal_value: %d rounds, each wait returned its value, on %d PEs\n", ROUNDS,
               npes);
    shmem_finalize();
    return 0;
}
