/*
 * net_bounce.c - blocking puts to PEs of other supernodes and the quiet
 * after them. A blocking put of up to 2 KiB leaves from the layer's bounce
 * ring, so it makes no MPI_Win_flush_local (the source is free once
 * copied); the ring, 64 KiB, is completed with MPI_Win_flush_local_all
 * when full. Quiet flushes only the windows that were used, and only the
 * one PE they went to when there was one (MPI_Win_flush, not
 * MPI_Win_flush_all). The program counts the layer's flush calls by
 * defining them over their PMPI forms, and every byte put is checked at
 * its target.
 *
 * Needs 3 PEs, each in a supernode of its own. PE 0:
 *   part 1: 1000 shmem_long_p to PE 1's heap, then one quiet: no local
 *           flush, one MPI_Win_flush (the heap's window), no flush_all.
 *   part 2: 300 blocking puts of 1 byte to 3 KiB (beyond the bounce
 *           limit too), to PE 1 and PE 2, the heap and the statics, the
 *           source overwritten after each: the ring fills (local flushes
 *           of the whole ring), quiet flushes both windows of all PEs.
 * Run it with SHMEM_PROGRESS_INTERVAL=0 (nothing else calls MPI).
 */
#include "check.h"

#if PSHMEM_HAVE_MPI
#include <mpi.h>
#include <string.h>

static long n_flush, n_flush_all, n_local, n_local_all;

int MPI_Win_flush(int rank, MPI_Win w)
{
    n_flush++;
    return PMPI_Win_flush(rank, w);
}

int MPI_Win_flush_all(MPI_Win w)
{
    n_flush_all++;
    return PMPI_Win_flush_all(w);
}

int MPI_Win_flush_local(int rank, MPI_Win w)
{
    n_local++;
    return PMPI_Win_flush_local(rank, w);
}

int MPI_Win_flush_local_all(MPI_Win w)
{
    n_local_all++;
    return PMPI_Win_flush_local_all(w);
}

static void zero_counts(void)
{
    n_flush = n_flush_all = n_local = n_local_all = 0;
}

#define PUTS 300
#define SLOT 3200               /* bytes of target per put (the largest is 3072) */
#define WORDS 1000

static char stat_area[PUTS * SLOT];

/* Put j's size and its byte k: sizes run 1 .. 3072, most under the bounce
 * limit; every put's bytes differ from its neighbours'. */
static size_t put_size(int j)
{
    return j % 10 == 9 ? 2049 + (size_t)(j * 37) % 1024 : 1 + (size_t)(j * 211) % 2048;
}

static unsigned char put_byte(int j, size_t k)
{
    return (unsigned char)(j * 131 + k * 7 + 1);
}

int main(void)
{
    long *words;
    char *heap_area;
    static unsigned char src[SLOT];

    shmem_init();
    CHECK(shmem_n_pes() == 3 && !test_shares_memory((shmem_my_pe() + 1) % 3) &&
              !test_shares_memory((shmem_my_pe() + 2) % 3),
          "needs 3 PEs, each in a supernode of its own");
    words = shmem_calloc(WORDS, sizeof *words);
    heap_area = shmem_calloc(PUTS, SLOT);
    CHECK(words != NULL && heap_area != NULL, "out of memory");
    shmem_barrier_all();

    if (shmem_my_pe() == 0) {
        zero_counts();
        for (long i = 0; i < WORDS; i++)
            shmem_long_p(&words[i], i * 3 + 1, 1);
        shmem_quiet();
        CHECK(n_local == 0 && n_local_all == 0,
              "%ld MPI_Win_flush_local and %ld MPI_Win_flush_local_all for %d blocking puts "
              "of 8 bytes, expected none (they leave from the bounce ring)", n_local,
              n_local_all, WORDS);
        CHECK(n_flush == 1 && n_flush_all == 0,
              "quiet after puts to one PE's heap made %ld MPI_Win_flush and %ld "
              "MPI_Win_flush_all, expected 1 and 0 (that PE, that window)", n_flush,
              n_flush_all);
        /* Nothing pending: quiet makes no MPI call. */
        zero_counts();
        shmem_quiet();
        CHECK(n_flush + n_flush_all + n_local + n_local_all == 0,
              "a quiet with nothing pending made %ld flush calls",
              n_flush + n_flush_all + n_local + n_local_all);

        zero_counts();
        long big = 0;
        for (int j = 0; j < PUTS; j++) {
            size_t n = put_size(j);
            char *dst = (j % 2 ? heap_area : stat_area) + (size_t)j * SLOT;
            for (size_t k = 0; k < n; k++)
                src[k] = put_byte(j, k);
            shmem_putmem(dst, src, n, 1 + j % 3 % 2);
            memset(src, 0xee, n);   /* the put had to copy it out already */
            big += n > 2048;
        }
        CHECK(n_local == big && n_local_all >= 1,
              "%ld MPI_Win_flush_local and %ld MPI_Win_flush_local_all for %d blocking puts, "
              "%ld of them over 2 KiB: expected one local flush per large put, and the full "
              "ring completed at least once", n_local, n_local_all, PUTS, big);
        zero_counts();
        shmem_quiet();
        CHECK(n_flush_all == 2 && n_flush == 0,
              "quiet after puts to two PEs' heaps and statics made %ld MPI_Win_flush_all "
              "and %ld MPI_Win_flush, expected 2 and 0", n_flush_all, n_flush);
    }
    shmem_barrier_all();

    if (shmem_my_pe() == 1)
        for (long i = 0; i < WORDS; i++)
            CHECK(words[i] == i * 3 + 1, "word %ld is %ld, expected %ld", i, words[i], i * 3 + 1);
    for (int j = 0; j < PUTS; j++) {
        int pe = 1 + j % 3 % 2;
        const unsigned char *got =
            (const unsigned char *)(j % 2 ? heap_area : stat_area) + (size_t)j * SLOT;
        for (size_t k = 0; k < SLOT; k++) {
            unsigned char want = shmem_my_pe() == pe && k < put_size(j) ? put_byte(j, k) : 0;
            CHECK(got[k] == want, "put %d (%zu bytes to PE %d's %s): byte %zu is 0x%02x, "
                  "expected 0x%02x", j, put_size(j), pe, j % 2 ? "heap" : "statics", k,
                  got[k], want);
        }
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("net_bounce: %d blocking 8-byte puts with no local flush and a quiet of one "
               "flush; %d puts of 1..3072 bytes to 2 PEs checked byte by byte\n", WORDS, PUTS);
    shmem_finalize();
    return 0;
}
#else
int main(void)
{
    printf("net_bounce: no MPI in this build\n");
    return 77;
}
#endif
