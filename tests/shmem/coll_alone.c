/*
 * coll_alone.c - a program whose only collectives are a broadcast and a
 * reduction: no shmem_barrier_all anywhere, so a statically linked build
 * takes from the library just the collectives it calls, and their setup at
 * shmem_init must come with them (tests/t-shmem-mpi-coll-sets.sh runs it
 * with the PEs split into supernodes). Each PE checks its own results and
 * exits 1 on a wrong one.
 */
#include <shmem.h>
#include <stdio.h>

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src[4], dst[4];

int main(void)
{
    int me, npes, bad = 0;

    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int i = 0; i < 4; i++)
        src[i] = 1000L * me + i;
    shmem_broadcast64(dst, src, 4, npes - 1, 0, 0, npes, pSync);
    for (int i = 0; i < 4 && me != npes - 1; i++)
        if (dst[i] != 1000L * (npes - 1) + i) {
            printf("FAIL: PE %d: broadcast element %d is %ld, expected %ld\n", me, i, dst[i],
                   1000L * (npes - 1) + i);
            bad = 1;
        }
    shmem_long_sum_to_all(dst, src, 4, 0, 0, npes, pWrk, pSync);
    for (int i = 0; i < 4; i++)
        if (dst[i] != 1000L * npes * (npes - 1) / 2 + (long)npes * i) {
            printf("FAIL: PE %d: sum element %d is %ld, expected %ld\n", me, i, dst[i],
                   1000L * npes * (npes - 1) / 2 + (long)npes * i);
            bad = 1;
        }
    if (me == 0 && !bad)
        printf("coll_alone with %d PEs: passed\n", npes);
    shmem_finalize();
    return bad;
}
