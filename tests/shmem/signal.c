/*
 * signal.c - put with signal (1.5): a ring of PEs passing data with
 * shmem_put_signal (SET), each PE waiting on its signal word with
 * shmem_signal_wait_until and checking the data that came with it; then
 * every PE adds to every PE's signal (SIGNAL_ADD, typed, sized, memory,
 * non-blocking, context and generic forms), counted exactly.
 */
#include "check.h"

#include <string.h>

#define NEL 32
#define ROUNDS 30

static long data[NEL];
static uint64_t sig, count;

int main(int argc, char **argv)
{
    int me, npes, right;
    long src[NEL];
    shmem_ctx_t ctx;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    if (argc > 1 && strcmp(argv[1], "bad-op") == 0)
        shmem_long_put_signal(data, src, 1, &sig, 1, 7, right);
    for (uint64_t r = 1; r <= ROUNDS; r++) {
        if (me != 0 || npes == 1) {
            if (npes > 1)
                CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_GE, r) == r, "signal %lu",
                      (unsigned long)shmem_signal_fetch(&sig));
            for (int i = 0; i < NEL && npes > 1; i++)
                CHECK(data[i] == (long)(r * 1000 + (uint64_t)i), "round %lu data[%d] = %ld",
                      (unsigned long)r, i, data[i]);
        }
        for (int i = 0; i < NEL; i++)
            src[i] = (long)(r * 1000 + (uint64_t)i);
        shmem_long_put_signal(data, src, NEL, &sig, r, SHMEM_SIGNAL_SET, right);
        if (me == 0 && npes > 1) {
            CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_GE, r) == r, "ring back %lu",
                  (unsigned long)r);
            for (int i = 0; i < NEL; i++)
                CHECK(data[i] == (long)(r * 1000 + (uint64_t)i), "ring back data[%d]", i);
        }
    }
    shmem_barrier_all();
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (int pe = 0; pe < npes; pe++) {
        shmem_putmem_signal(&data[0], src, 8, &count, 1, SHMEM_SIGNAL_ADD, pe);
        shmem_put64_signal_nbi(&data[1], src, 1, &count, 2, SHMEM_SIGNAL_ADD, pe);
        shmem_ctx_long_put_signal(ctx, &data[2], src, 1, &count, 3, SHMEM_SIGNAL_ADD, pe);
        shmem_put_signal(&data[3], src, 1, &count, 4, SHMEM_SIGNAL_ADD, pe);
        shmem_put_signal(ctx, &data[4], src, 1, &count, 5, SHMEM_SIGNAL_ADD, pe);
    }
    shmem_quiet();
    shmem_barrier_all();
    CHECK(shmem_signal_fetch(&count) == 15u * (uint64_t)npes, "added signals %lu, expected %d",
          (unsigned long)count, 15 * npes);
    shmem_ctx_destroy(ctx);
    if (me == 0)
        printf("signal: %d rounds of put_signal around %d PEs, added signals counted\n",
               ROUNDS, npes);
    shmem_finalize();
    return 0;
}
