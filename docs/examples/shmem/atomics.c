/* atomics.c - a shared counter and a reduction: every PE adds its number
 * plus one to a counter on PE 0 with an atomic, then all PEs sum their
 * numbers with shmem_long_sum_to_all; both must give n (n + 1) / 2.
 *   oshcc -o atomics atomics.c && oshrun -n 4 ./atomics */
#include <shmem.h>
#include <stdio.h>

static long counter;
static long mine, sum;
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    long want = (long)n * (n + 1) / 2;

    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    mine = me + 1;
    shmem_barrier_all(); /* psync is set on every PE before anyone uses it */
    shmem_long_atomic_add(&counter, mine, 0);
    shmem_long_sum_to_all(&sum, &mine, 1, 0, 0, n, pwrk, psync);
    shmem_barrier_all(); /* every add is done */
    if (sum != want || (me == 0 && counter != want)) {
        printf("PE %d: sum %ld, counter %ld, expected %ld\n", me, sum, me == 0 ? counter : want,
               want);
        shmem_global_exit(1);
    }
    if (me == 0)
        printf("atomics: counter and reduction agree: %ld\n", sum);
    shmem_finalize();
    return 0;
}
