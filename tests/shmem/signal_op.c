/*
 * signal_op.c - shmem_signal_add and shmem_signal_set (1.6). Every PE adds
 * to one word on every PE through each form (the function, the context
 * form, the C11 generic with and without a context) and through
 * put-with-signal's SIGNAL_ADD on the same word, ROUNDS times: each word
 * must hold the exact sum (the updates are atomic with respect to each
 * other, whichever path and form). Then a ring of signal_set: each round
 * PE p sets its right neighbour's word to the round and waits for its own.
 * With an argument, one misuse (tests/t-shmem-signal-op.sh):
 *   bad-pe     shmem_signal_add to a PE out of range
 *   not-sym    shmem_ctx_signal_set on a local (non-symmetric) variable
 */
#include "check.h"

#include <string.h>

#define ROUNDS 50

static uint64_t sum, ring;
static long data[4];

int main(int argc, char **argv)
{
    int me, npes, right;
    uint64_t *hsum, local = 0, want = 0;
    long src[4] = {1, 2, 3, 4};
    shmem_ctx_t ctx;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    if (argc > 1) {
        if (strcmp(argv[1], "bad-pe") == 0)
            shmem_signal_add(&sum, 1, npes + 3);
        if (strcmp(argv[1], "not-sym") == 0)
            shmem_ctx_signal_set(SHMEM_CTX_DEFAULT, &local, 1, right);
        shmem_finalize();
        return 0;
    }
    hsum = shmem_calloc(1, sizeof *hsum);
    CHECK(hsum != NULL, "shmem_calloc failed");
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (uint64_t r = 1; r <= ROUNDS; r++) {
        for (int k = 0; k < npes; k++) {
            int pe = (me + k) % npes; /* every PE starts on another target */
            shmem_signal_add(&sum, r, pe);
            shmem_ctx_signal_add(ctx, hsum, r, pe);
            shmem_signal_add(ctx, &sum, 2 * r, pe);
            shmem_signal_add(hsum, 3 * r, pe);
            shmem_long_put_signal(data, src, 4, &sum, 5 * r, SHMEM_SIGNAL_ADD, pe);
            shmem_putmem_signal_nbi(data, src, 8, hsum, 7 * r, SHMEM_SIGNAL_ADD, pe);
        }
        want += r;
    }
    shmem_quiet();
    shmem_barrier_all();
    CHECK(shmem_signal_fetch(&sum) == 8u * want * (uint64_t)npes,
          "static signal %lu, expected %lu", (unsigned long)shmem_signal_fetch(&sum),
          (unsigned long)(8u * want * (uint64_t)npes));
    CHECK(shmem_signal_fetch(hsum) == 11u * want * (uint64_t)npes,
          "heap signal %lu, expected %lu", (unsigned long)shmem_signal_fetch(hsum),
          (unsigned long)(11u * want * (uint64_t)npes));
    for (int i = 0; i < 4; i++)
        CHECK(data[i] == src[i], "put_signal data[%d] = %ld", i, data[i]);
    shmem_barrier_all();
    /* signal_set around the ring: the word takes each round's value. */
    for (uint64_t r = 1; r <= ROUNDS; r++) {
        switch (r % 4) {
        case 0: shmem_signal_set(&ring, r, right); break;
        case 1: shmem_ctx_signal_set(ctx, &ring, r, right); break;
        case 2: shmem_signal_set(ctx, &ring, r, right); break;
        default: shmem_signal_set(&ring, r, right); break;
        }
        CHECK(shmem_signal_wait_until(&ring, SHMEM_CMP_EQ, r) == r, "ring round %lu",
              (unsigned long)r);
        shmem_barrier_all(); /* nobody sets round r + 1 before all saw r */
    }
    shmem_ctx_destroy(ctx);
    shmem_free(hsum);
    if (me == 0)
        printf("signal_op: signal_add counted exactly and signal_set around the ring on %d "
               "PEs\n", npes);
    shmem_finalize();
    return 0;
}
