/*
 * heap.c - the symmetric heap: the same sequence of allocation calls gives
 * the same offsets on every PE (checked against PE 0's), calloc zeroes,
 * realloc keeps the contents, align aligns, exhaustion gives NULL (and the
 * heap still works after it), shmem_ptr and the accessibility queries, the
 * legacy names, and a put into an object of every PE.
 */
#include "check.h"

#include <stdint.h>
#include <string.h>

#define NOPS 40
static long offs[NOPS];   /* offset of each allocation from the first */

int main(void)
{
    int me, npes, n = 0;
    char *base, *p[NOPS] = {0};

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    base = shmem_malloc(1);
    CHECK(base != NULL, "shmem_malloc(1) failed");
    for (int i = 0; i < NOPS; i++) {
        size_t sz = (size_t)(i * 37 % 500) + 1;
        switch (i % 5) {
        case 0: p[i] = shmem_malloc(sz); break;
        case 1: p[i] = shmem_align((size_t)1 << (i % 12 + 1), sz);
            CHECK(((uintptr_t)p[i] & (((uintptr_t)1 << (i % 12 + 1)) - 1)) == 0,
                  "shmem_align(%d) gave %p", 1 << (i % 12 + 1), (void *)p[i]);
            break;
        case 2: p[i] = shmem_calloc(sz, 3);
            for (size_t b = 0; b < sz * 3; b++)
                CHECK(p[i][b] == 0, "shmem_calloc byte %zu is %d", b, p[i][b]);
            break;
        case 3:
            p[i - 1] = shrealloc(p[i - 1], sz * 7); /* legacy name */
            p[i] = shmalloc(sz);
            break;
        default:
            shmem_free(p[i - 4]);
            p[i - 4] = NULL;
            p[i] = shmemalign(64, sz);
            break;
        }
        CHECK(p[i] != NULL, "allocation %d of %zu bytes failed", i, sz);
        memset(p[i], me + i, sz);
        offs[n++] = (long)(p[i] - base);
    }
    /* realloc keeps what was there */
    char *r = shmem_realloc(p[NOPS - 1], 100000);
    CHECK(r != NULL, "shmem_realloc to 100000 bytes failed");
    size_t last = (size_t)((NOPS - 1) * 37 % 500) + 1;
    for (size_t b = 0; b < last; b++)
        CHECK(r[b] == (char)(me + NOPS - 1), "realloc lost byte %zu", b);
    p[NOPS - 1] = r;
    shmem_barrier_all();
    /* the same offsets everywhere */
    long ref[NOPS];
    shmem_long_get(ref, offs, NOPS, 0);
    for (int i = 0; i < NOPS; i++)
        CHECK(ref[i] == offs[i], "allocation %d at offset %ld here, %ld on PE 0", i, offs[i],
              ref[i]);
    /* every PE's copy is reachable */
    for (int pe = 0; pe < npes; pe++) {
        CHECK((shmem_ptr(r, pe) != NULL) == test_shares_memory(pe), "shmem_ptr(heap, %d) is %p",
              pe, shmem_ptr(r, pe));
        CHECK(shmem_addr_accessible(r, pe), "addr_accessible(heap, %d)", pe);
        CHECK(shmem_pe_accessible(pe), "pe_accessible(%d)", pe);
        shmem_putmem(r + 1000 + me, "x", 1, pe);
    }
    CHECK(!shmem_pe_accessible(npes) && !shmem_pe_accessible(-1), "pe_accessible out of range");
    CHECK(shmem_ptr(&n, 0) == NULL, "shmem_ptr of a stack variable is not NULL");
    CHECK(!shmem_addr_accessible(&n, 0), "a stack variable is accessible");
    CHECK((shmem_ptr(&offs[1], npes - 1) != NULL) == test_shares_memory(npes - 1),
          "shmem_ptr of a static on PE %d is %p", npes - 1, shmem_ptr(&offs[1], npes - 1));
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        CHECK(r[1000 + pe] == 'x', "put from PE %d into the heap missing", pe);
    /* exhaustion: NULL on every PE, and the heap still works */
    CHECK(shmem_malloc((size_t)1 << 40) == NULL, "a 1 TiB allocation succeeded");
    char *again = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE);
    CHECK(again != NULL, "allocation after exhaustion failed");
    shmem_free(again);
    for (int i = 0; i < NOPS; i++)
        shmem_free(p[i]);
    shmem_free(base);
    shmem_free(NULL);
    /* all freed: the first allocation lands where the first one did */
    char *first = shmem_malloc(1);
    CHECK(first == base, "after freeing everything the heap starts at %p, not %p",
          (void *)first, (void *)base);
    if (me == 0)
        printf("heap: %d allocations at the same offsets on %d PEs\n", NOPS, npes);
    shmem_finalize();
    return 0;
}
