/*
 * hosts_order.c - ordering and waits between every pair of PEs, whichever
 * path joins them: each round, every PE puts data to every peer (a block
 * to the statics, one to the heap, a non-blocking one, a large one), calls
 * shmem_fence, then sets the peer's flag for that round (shmem_long_p, or
 * an atomic set, or an atomic add, by turns). The peer waits for the flag
 * with wait_until and must then find every byte of the round's data: fence
 * orders the flag after the data toward that PE. It answers with an atomic
 * increment of the sender's acknowledgement counter, which the sender waits
 * for (wait_until GE) before it overwrites the data in the next round.
 *
 * argv[1]: rounds (default 30).
 */
#include "check.h"

#include <string.h>

#define MAXPE 16
#define SMALL 24
#define LARGE (48 * 1024 / 8)   /* longs: a transfer that is not one packet */

static int me, npes;
static long sdata[MAXPE][SMALL];  /* statics: slot per origin */
static long flag[MAXPE];          /* flag[o]: the last round o sent here */
static long acks;                 /* acknowledgements from the peers */

static long val(int o, int r, int i) { return (long)o * 1000003 + (long)r * 7919 + i; }

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 30;
    long *hdata, *nbi, *big, *src;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= MAXPE && rounds > 0, "%d PEs (at most %d), %d rounds", npes, MAXPE, rounds);
    hdata = shmem_calloc((size_t)MAXPE * SMALL, sizeof *hdata);
    nbi = shmem_calloc((size_t)MAXPE * SMALL, sizeof *nbi);
    big = shmem_calloc((size_t)MAXPE * LARGE, sizeof *big);
    src = malloc(LARGE * sizeof *src);
    CHECK(hdata && nbi && big && src, "out of memory");
    shmem_barrier_all();

    for (int r = 1; r <= rounds; r++) {
        for (int i = 0; i < LARGE; i++)
            src[i] = val(me, r, i);
        for (int d = 1; d < npes; d++) {
            int pe = (me + d) % npes;
            shmem_long_put(sdata[me], src, SMALL, pe);
            shmem_long_put(&hdata[me * SMALL], &src[SMALL], SMALL, pe);
            shmem_long_put_nbi(&nbi[me * SMALL], &src[2 * SMALL], SMALL, pe);
            shmem_long_put(&big[(size_t)me * LARGE], src, LARGE, pe);
            shmem_fence();
            switch (r % 3) {
            case 0: shmem_long_p(&flag[me], r, pe); break;
            case 1: shmem_long_atomic_set(&flag[me], r, pe); break;
            default: shmem_long_atomic_add(&flag[me], 1, pe); break; /* r - 1 -> r */
            }
        }
        /* the data of round r from every peer, once its flag says r */
        for (int d = 1; d < npes; d++) {
            int o = (me + npes - d) % npes;
            shmem_long_wait_until(&flag[o], SHMEM_CMP_GE, r);
            CHECK(flag[o] == r, "flag from PE %d is %ld in round %d", o, flag[o], r);
            for (int i = 0; i < SMALL; i++) {
                CHECK(sdata[o][i] == val(o, r, i), "round %d: static data [%d] from PE %d: "
                      "%ld, expected %ld (the flag overtook it)", r, i, o, sdata[o][i], val(o, r, i));
                CHECK(hdata[o * SMALL + i] == val(o, r, SMALL + i), "round %d: heap data [%d] "
                      "from PE %d (the flag overtook it)", r, i, o);
                CHECK(nbi[o * SMALL + i] == val(o, r, 2 * SMALL + i), "round %d: put_nbi data "
                      "[%d] from PE %d (the flag overtook it)", r, i, o);
            }
            for (int i = 0; i < LARGE; i++)
                CHECK(big[(size_t)o * LARGE + i] == val(o, r, i), "round %d: large put [%d] "
                      "from PE %d (the flag overtook it)", r, i, o);
            shmem_long_atomic_inc(&acks, o);
        }
        /* every peer has read round r before round r + 1 overwrites it */
        shmem_long_wait_until(&acks, SHMEM_CMP_GE, (long)r * (npes - 1));
    }
    shmem_barrier_all();
    CHECK(acks == (long)rounds * (npes - 1), "%ld acknowledgements, expected %ld", acks,
          (long)rounds * (npes - 1));
    if (me == 0)
        printf("hosts_order: %d rounds of data, fence, flag between every pair of %d PEs\n",
               rounds, npes);
    shmem_finalize();
    return 0;
}
