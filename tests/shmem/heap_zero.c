/*
 * heap_zero.c - the allocation calls that perform no action (OpenSHMEM 1.5
 * and 1.6) do not barrier: PE 0 calls shmem_malloc(0), shmem_calloc(0, n)
 * and (n, 0), shmem_align(a, 0), shmem_malloc_with_hints(0, h),
 * shmem_realloc(NULL, 0) and shmem_free(NULL), all returning NULL, while
 * every other PE waits for a flag PE 0 sets only after them (a barrier in
 * any of them would never end). Then shmem_realloc(p, 0) frees p on every
 * PE (a barrier on entry, as shmem_free) and returns NULL, and the block
 * is free again.
 */
#include "check.h"

static int go;

int main(void)
{
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (me == 0) {
        CHECK(shmem_malloc(0) == NULL, "shmem_malloc(0) is not NULL");
        CHECK(shmem_calloc(0, 8) == NULL, "shmem_calloc(0, 8) is not NULL");
        CHECK(shmem_calloc(8, 0) == NULL, "shmem_calloc(8, 0) is not NULL");
        CHECK(shmem_align(4096, 0) == NULL, "shmem_align(4096, 0) is not NULL");
        CHECK(shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE) == NULL,
              "shmem_malloc_with_hints(0) is not NULL");
        CHECK(shmem_realloc(NULL, 0) == NULL, "shmem_realloc(NULL, 0) is not NULL");
        shmem_free(NULL);
        for (int pe = 1; pe < npes; pe++)
            shmem_int_atomic_set(&go, 1, pe);
    } else {
        /* Busy elsewhere: never in any allocation call until PE 0 is done. */
        shmem_int_wait_until(&go, SHMEM_CMP_EQ, 1);
    }
    char *p = shmem_malloc(100);
    CHECK(p != NULL, "shmem_malloc(100) failed");
    CHECK(shmem_realloc(p, 0) == NULL, "shmem_realloc(p, 0) is not NULL");
    char *q = shmem_malloc(100);
    CHECK(q == p, "shmem_realloc(p, 0) did not free p: the next block is at %p, not %p",
          (void *)q, (void *)p);
    shmem_free(q);
    if (me == 0)
        printf("heap_zero: no barrier in the calls of size 0 on %d PEs\n", npes);
    shmem_finalize();
    return 0;
}
