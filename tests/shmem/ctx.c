/*
 * ctx.c - communication contexts: a created context and SHMEM_CTX_DEFAULT
 * carry puts, gets and atomics to the heap and to statics like the forms
 * without a context (checked element by element and counted), fence and
 * quiet on a context order a flag after data, the C11 generic forms take a
 * context as first argument or none, destroy works, and bad
 * options are refused (driver: t-shmem-rma.sh).
 */
#include "check.h"

#include <string.h>

#define NEL 16
static long sdata[NEL], sflag, scount;

int main(int argc, char **argv)
{
    int me, npes, right, left;
    shmem_ctx_t ctx;
    long src[NEL], got[NEL], *hdata, *hcount;

    shmem_init();
    if (argc > 1 && strcmp(argv[1], "bad-options") == 0)
        (void)shmem_ctx_create(1L << 20, &ctx);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    hdata = shmem_calloc(NEL, sizeof(long));
    hcount = shmem_calloc(1, sizeof(long));
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "shmem_ctx_create failed");
    for (int i = 0; i < NEL; i++)
        src[i] = me * 100 + i;
    for (int w = 0; w < 2; w++) {
        long *data = w ? hdata : sdata, *count = w ? hcount : &scount;
        shmem_ctx_t c = w ? SHMEM_CTX_DEFAULT : ctx;
        sflag = 0;
        shmem_barrier_all();
        shmem_ctx_long_put(c, data, src, NEL, right);
        shmem_ctx_fence(c);
        shmem_ctx_long_p(c, &sflag, 1, right);
        shmem_long_wait_until(&sflag, SHMEM_CMP_EQ, 1);
        for (int i = 0; i < NEL; i++)
            CHECK(data[i] == left * 100 + i, "ctx put (%s) [%d] = %ld", w ? "heap" : "static",
                  i, data[i]);
        shmem_ctx_long_get(c, got, data, NEL, right);
        for (int i = 0; i < NEL; i++)
            CHECK(got[i] == me * 100 + i, "ctx get [%d] = %ld", i, got[i]);
        shmem_barrier_all(); /* everyone has checked data[0] before it changes */
        for (int pe = 0; pe < npes; pe++) {
            shmem_ctx_long_atomic_inc(c, count, pe);
            (void)shmem_ctx_long_atomic_fetch_add(c, count, 2, pe);
            shmem_ctx_putmem_nbi(c, &data[0], &src[1], sizeof(long), right);
        }
        shmem_ctx_quiet(c);
        shmem_barrier_all();
        CHECK(*count == 3L * npes, "ctx atomics (%s): %ld, expected %d", w ? "heap" : "static",
              *count, 3 * npes);
        CHECK(shmem_ctx_long_g(c, &data[0], right) == me * 100 + 1, "ctx putmem_nbi");
        shmem_barrier_all();
    }
    /* the C11 generic forms, with and without a context */
    {
        static int gi[4];
        static unsigned long gu;
        int v = me + 1, w;
        shmem_barrier_all();
        shmem_put(ctx, &gi[0], &v, 1, right);
        shmem_p(ctx, &gi[1], v * 2, right);
        shmem_iput(ctx, &gi[2], &v, 1, 1, 1, right);
        shmem_atomic_add(ctx, &gu, 3UL, right);
        (void)shmem_atomic_fetch_or(ctx, &gu, 0x100UL, right);
        shmem_atomic_inc(&gu, right);
        shmem_ctx_quiet(ctx);
        shmem_barrier_all();
        CHECK(gi[0] == left + 1 && gi[1] == 2 * (left + 1) && gi[2] == left + 1,
              "generic ctx put/p/iput: %d %d %d", gi[0], gi[1], gi[2]);
        CHECK(gu == 0x104UL, "generic ctx atomics: %#lx", gu);
        shmem_get(ctx, &w, &gi[1], 1, right);
        CHECK(w == 2 * (me + 1) && shmem_g(ctx, &gi[0], right) == me + 1, "generic ctx get/g");
        CHECK(shmem_atomic_fetch(ctx, &gu, right) == 0x104UL, "generic ctx fetch");
        shmem_barrier_all(); /* read before the owner changes it below */
        CHECK(shmem_atomic_compare_swap(ctx, &gu, 0x104UL, 1UL, me) == 0x104UL && gu == 1,
              "generic ctx compare_swap");
        shmem_barrier_all();
    }
    shmem_ctx_destroy(ctx);
    if (me == 0)
        printf("ctx: puts, gets and atomics through contexts on %d PEs\n", npes);
    shmem_finalize();
    return 0;
}
