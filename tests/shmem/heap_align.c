/*
 * heap_align.c - shmem_align is symmetric for every alignment: for each
 * power of two from 8 up to the heap's size (argv[1], SHMEM_SYMMETRIC_SIZE),
 * behind a small block so that it needs padding, the block is aligned here,
 * at the same offset from the heap's start as on PE 0, and a put from the
 * previous PE lands in it; the shmem_malloc, shmem_calloc and shmem_realloc
 * that follow are at PE 0's offsets too. An alignment above the heap's size
 * gives NULL on every PE.
 */
#include "check.h"

#include <stdint.h>
#include <string.h>

enum { PRE, ALIGNED, MALLOC, CALLOC, REALLOC, NOFF };
static long offs[NOFF];
static const char *name[NOFF] = {"shmem_malloc before", "shmem_align", "shmem_malloc after",
                                 "shmem_calloc after", "shmem_realloc after"};

/* Every PE's offsets against PE 0's. */
static void same_offsets(size_t align, int n)
{
    long ref[NOFF];

    shmem_barrier_all();
    shmem_long_get(ref, offs, (size_t)n, 0);
    for (int i = 0; i < n; i++)
        CHECK(ref[i] == offs[i], "alignment %zu: %s at offset %ld here, %ld on PE 0", align,
              name[i], offs[i], ref[i]);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    size_t heap = argc > 1 ? strtoull(argv[1], NULL, 0) : 0, tested = 0;
    int me, npes, prev;
    char *start;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    prev = (me + npes - 1) % npes;
    CHECK(heap >= 4096, "usage: heap_align HEAP_BYTES (got '%s')", argc > 1 ? argv[1] : "");
    /* The first block of an empty heap is at its start. */
    start = shmem_malloc(1);
    CHECK(start != NULL, "shmem_malloc(1) failed");
    shmem_free(start);
    for (size_t align = 8; align <= heap; align *= 2) {
        /* Below the heap's size a block of 64 bytes goes first, so that
         * the aligned one needs padding; at the heap's size only its
         * start is aligned. */
        int pre = align < heap;
        char *p0 = pre ? shmem_malloc(64) : NULL;
        char *p = shmem_align(align, 64);

        CHECK(!pre || p0 != NULL, "shmem_malloc(64) failed");
        CHECK(p != NULL, "shmem_align(%zu, 64) failed on a heap of %zu bytes", align, heap);
        CHECK(((uintptr_t)p & (align - 1)) == 0, "shmem_align(%zu) gave %p", align, (void *)p);
        offs[PRE] = pre ? (long)(p0 - start) : 0;
        offs[ALIGNED] = (long)(p - start);
        same_offsets(align, 2);
        /* A put from the previous PE lands in this PE's block. */
        shmem_long_p((long *)p + 3, 1000 + me, (me + 1) % npes);
        shmem_barrier_all();
        CHECK(((long *)p)[3] == 1000 + prev, "alignment %zu: the put from PE %d is %ld here, "
              "expected %d", align, prev, ((long *)p)[3], 1000 + prev);
        /* What follows stays symmetric (NULL alike where the heap is full). */
        char *m = shmem_malloc(100);
        char *c = shmem_calloc(10, 10);
        offs[MALLOC] = m ? (long)(m - start) : -1;
        offs[CALLOC] = c ? (long)(c - start) : -1;
        for (int b = 0; c != NULL && b < 100; b++)
            CHECK(c[b] == 0, "shmem_calloc byte %d is %d", b, c[b]);
        char *r = m ? shmem_realloc(m, 3000) : NULL;
        if (r != NULL)
            m = r;
        offs[REALLOC] = r ? (long)(r - start) : -1;
        same_offsets(align, NOFF);
        shmem_free(c);
        shmem_free(m);
        shmem_free(p);
        shmem_free(p0);
        tested++;
    }
    /* Above the heap's size no block can be aligned: NULL everywhere. */
    size_t above = 8;
    while (above <= heap)
        above *= 2;
    CHECK(shmem_align(above, 64) == NULL, "shmem_align(%zu) on a heap of %zu bytes is not "
          "NULL", above, heap);
    /* Everything freed: the heap starts where it did. */
    char *again = shmem_malloc(1);
    CHECK(again == start, "after freeing everything the heap starts at %p, not %p",
          (void *)again, (void *)start);
    shmem_free(again);
    if (me == 0)
        printf("heap_align: %zu alignments symmetric on %d PEs\n", tested, npes);
    shmem_finalize();
    return 0;
}
