/*
 * heap_size.c - every byte of SHMEM_SYMMETRIC_SIZE can be allocated: with
 * the heap set to argv[1] bytes, shmem_malloc, shmem_calloc and shmem_align
 * of that many bytes succeed (one at a time), and a put of the whole block
 * from the previous PE arrives byte for byte.
 */
#include "check.h"

#include <string.h>

static void fill_and_check(char *p, size_t n, const char *what)
{
    int me = shmem_my_pe(), npes = shmem_n_pes(), prev = (me + npes - 1) % npes;
    char *src = malloc(n);

    CHECK(src != NULL, "out of memory");
    for (size_t b = 0; b < n; b++)
        src[b] = (char)(me * 7 + b);
    shmem_putmem(p, src, n, (me + 1) % npes);
    shmem_barrier_all();
    for (size_t b = 0; b < n; b++)
        CHECK(p[b] == (char)(prev * 7 + b), "%s(%zu): byte %zu is %d, expected %d", what, n, b,
              p[b], (char)(prev * 7 + b));
    free(src);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 0;
    char *p;

    shmem_init();
    CHECK(n > 0, "usage: heap_size BYTES (the SHMEM_SYMMETRIC_SIZE of the job)");
    p = shmem_malloc(n);
    CHECK(p != NULL, "shmem_malloc(%zu) failed with SHMEM_SYMMETRIC_SIZE=%s", n,
          getenv("SHMEM_SYMMETRIC_SIZE"));
    fill_and_check(p, n, "shmem_malloc");
    shmem_free(p);
    p = shmem_calloc(n, 1);
    CHECK(p != NULL, "shmem_calloc(%zu, 1) failed", n);
    for (size_t b = 0; b < n; b++)
        CHECK(p[b] == 0, "shmem_calloc byte %zu is %d", b, p[b]);
    shmem_barrier_all(); /* checked everywhere before the puts into it */
    fill_and_check(p, n, "shmem_calloc");
    shmem_free(p);
    p = shmem_align(64, n);
    CHECK(p != NULL, "shmem_align(64, %zu) failed", n);
    fill_and_check(p, n, "shmem_align");
    shmem_free(p);
    if (shmem_my_pe() == 0)
        printf("heap_size: %zu bytes allocatable on %d PEs\n", n, shmem_n_pes());
    shmem_finalize();
    return 0;
}
