/*
 * heap_quiet.c - the allocation routines end with a barrier that implies
 * quiet, as shmem_barrier_all does: in each round every PE adds 1, with
 * ROUNDS_ADDS non-fetching shmem_atomic_add, to a counter of the next PE
 * (in the split layouts, of another supernode: the adds travel through MPI
 * and are complete only once quiet says so), then calls one allocation
 * routine (shmem_malloc, shmem_calloc, shmem_align, shmem_realloc,
 * shmem_free in turn); after it the counter this PE receives holds every
 * add of the round. The counters are read after the call: an allocator's
 * barrier that only synchronized would let some adds arrive later.
 */
#include "check.h"

#define ROUNDS 300
#define ADDS 100

static long count;

int main(void)
{
    int me, npes;
    char *blk = NULL;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int r = 1; r <= ROUNDS; r++) {
        const char *call = "";
        for (int k = 0; k < ADDS; k++)
            shmem_long_atomic_add(&count, 1, (me + 1) % npes);
        switch (r % 5) {
        case 0: call = "shmem_malloc"; blk = shmem_malloc(64); break;
        case 1: call = "shmem_realloc"; blk = shmem_realloc(blk, 4096); break;
        case 2: call = "shmem_free"; shmem_free(blk); blk = NULL; break;
        case 3: call = "shmem_align"; blk = shmem_align(8192, 64); break;
        default: call = "shmem_calloc"; shmem_free(NULL); blk = shmem_calloc(8, 8); break;
        }
        long got = __atomic_load_n(&count, __ATOMIC_ACQUIRE);
        CHECK(got == (long)r * ADDS, "round %d: after %s the counter is %ld, expected %ld "
              "(the adds of PE %d not complete)", r, call, got, (long)r * ADDS,
              (me + npes - 1) % npes);
        /* Every PE has checked before the next round's adds. */
        shmem_sync_all();
        /* The block of align and calloc goes (malloc's is reallocated,
         * then freed, in the next two rounds). */
        if (r % 5 == 3 || r % 5 == 4) {
            shmem_free(blk);
            blk = NULL;
        }
    }
    shmem_free(blk);
    if (me == 0)
        printf("heap_quiet: %d rounds of %d adds complete after each allocation call on %d "
               "PEs\n", ROUNDS, ADDS, npes);
    shmem_finalize();
    return 0;
}
