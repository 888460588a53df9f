/*
 * heap_hints.c - shmem_malloc_with_hints takes any hints (OpenSHMEM 1.6:
 * "If the implementation cannot optimize, the behavior is same as
 * shmem_malloc"): 0, each known hint, both, and bits no table names
 * (~SHMEM_MALLOC_ATOMICS_REMOTE, twice: the warning is told once) each give
 * a symmetric block that a put from the left neighbour fills, checked
 * element by element, and every block is freed.
 */
#include "check.h"

#define NB 6
#define LEN 32

int main(void)
{
    const long hints[NB] = {0, SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE,
                            SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE,
                            ~(long)SHMEM_MALLOC_ATOMICS_REMOTE, ~(long)SHMEM_MALLOC_ATOMICS_REMOTE};
    int *b[NB], src[LEN];

    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    for (int k = 0; k < NB; k++) {
        b[k] = shmem_malloc_with_hints(LEN * sizeof(int), hints[k]);
        CHECK(b[k] != NULL, "shmem_malloc_with_hints(%zu, 0x%lx) failed", LEN * sizeof(int),
              hints[k]);
        for (int i = 0; i < LEN; i++)
            src[i] = 1000 * me + 100 * k + i;
        shmem_int_put(b[k], src, LEN, right);
    }
    shmem_barrier_all();
    for (int k = 0; k < NB; k++)
        for (int i = 0; i < LEN; i++)
            CHECK(b[k][i] == 1000 * left + 100 * k + i, "block %d (hints 0x%lx) [%d] = %d, not %d",
                  k, hints[k], i, b[k][i], 1000 * left + 100 * k + i);
    for (int k = NB - 1; k >= 0; k--)
        shmem_free(b[k]);
    if (me == 0)
        printf("heap_hints: %d blocks with any hints on %d PEs\n", NB, npes);
    shmem_finalize();
    return 0;
}
