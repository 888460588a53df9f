/*
 * test_progress.c - a loop of failing array tests makes progress: each PE
 * spins on shmem_long_test_any, _test_all, _test_some or a _vector form
 * (in turn, a round each) until the previous PE's non-fetching atomics
 * have set its flags to the round. In the split layouts that PE is of
 * another supernode, its atomics are applied by this PE's own service of
 * the MPI side, and with SHMEM_PROGRESS_INTERVAL=0 no thread serves them:
 * only the tests' own progress (every 256th call) does.
 */
#include "check.h"

#include <stdint.h>

#define ROUNDS 60
#define NF 4

static long flags[NF];

int main(void)
{
    int me, npes;
    long vals[NF];
    size_t idx[NF];

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (long r = 1; r <= ROUNDS; r++) {
        int done = 0;
        for (int k = 0; k < NF; k++) {
            vals[k] = r;
            shmem_long_atomic_set(&flags[k], r, (me + 1) % npes);
        }
        while (!done) {
            switch (r % 6) {
            case 0: done = shmem_long_test_any(flags, NF, NULL, SHMEM_CMP_GE, r) != SIZE_MAX; break;
            case 1: done = shmem_long_test_all(flags, NF, NULL, SHMEM_CMP_GE, r); break;
            case 2: done = shmem_long_test_some(flags, NF, idx, NULL, SHMEM_CMP_GE, r) > 0; break;
            case 3: done = shmem_long_test_any_vector(flags, NF, NULL, SHMEM_CMP_GE, vals) != SIZE_MAX; break;
            case 4: done = shmem_long_test_all_vector(flags, NF, NULL, SHMEM_CMP_GE, vals); break;
            default: done = shmem_long_test_some_vector(flags, NF, idx, NULL, SHMEM_CMP_GE, vals) > 0; break;
            }
        }
    }
    shmem_barrier_all();
    if (me == 0)
        printf("test_progress: %d rounds of array tests progressed on %d PEs\n", ROUNDS, npes);
    shmem_finalize();
    return 0;
}
