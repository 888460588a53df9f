/*
 * pe_quiet.c - shmem_pe_quiet and shmem_ctx_pe_quiet (1.6). Each round,
 * PE p sends its right neighbour nonblocking puts (heap and statics), a
 * put-with-signal_nbi, non-fetching atomics, and reads the neighbour's
 * data with get_nbi; then shmem_pe_quiet({right}) (or the context form,
 * or a list of every PE), then a flag put to the neighbour. The
 * neighbour, seeing the flag, checks every element and the counter
 * exactly: the flag left after pe_quiet returned, so what pe_quiet
 * completed must be there (across supernodes the flag, a put, travels
 * apart from the atomics). get_nbi's data is checked right after pe_quiet. With an
 * argument, one misuse (tests/t-shmem-pe-quiet.sh):
 *   bad-pe    a target PE out of range
 *   null      target_pes NULL with npes 2
 *   none      npes 0 with target_pes NULL: returns at once (exit 0)
 */
#include "check.h"

#include <string.h>

#define NEL 300          /* > the bounce ring's 2048 bytes as longs */
#define ROUNDS 20

static long sdata[NEL], sread[NEL];
static uint64_t flag, psig, counter;

int main(int argc, char **argv)
{
    int me, npes, right, left, *all;
    long *hdata, src[NEL], got[NEL];
    shmem_ctx_t ctx;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    if (argc > 1) {
        int bad[2] = {right, npes};
        if (strcmp(argv[1], "bad-pe") == 0)
            shmem_pe_quiet(bad, 2);
        if (strcmp(argv[1], "null") == 0)
            shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, NULL, 2);
        if (strcmp(argv[1], "none") == 0) {
            shmem_pe_quiet(NULL, 0);
            shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, NULL, 0);
            shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, bad, 2);
            shmem_barrier_all();
            if (me == 0)
                printf("pe_quiet: npes 0 and SHMEM_CTX_INVALID return at once\n");
        }
        shmem_finalize();
        return 0;
    }
    hdata = shmem_malloc(NEL * sizeof(long));
    all = malloc((size_t)npes * sizeof(int));
    CHECK(hdata != NULL && all != NULL, "allocation failed");
    for (int pe = 0; pe < npes; pe++)
        all[pe] = npes - 1 - pe; /* every PE, in another order */
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (int r = 1; r <= ROUNDS; r++) {
        for (int i = 0; i < NEL; i++) {
            src[i] = (long)VAL(me, i, r) + 1000L * r;
            sread[i] = (long)VAL(me, i, r) - 1000L * r;
        }
        shmem_barrier_all(); /* sread is ready on every PE */
        shmem_long_put_nbi(hdata, src, NEL, right);
        shmem_long_put_nbi(sdata, src, NEL / 2, right);
        shmem_long_put_nbi(sdata + NEL / 2, src + NEL / 2, NEL - NEL / 2, right);
        shmem_long_put_signal_nbi(hdata, src, 1, &psig, (uint64_t)r, SHMEM_SIGNAL_SET, right);
        for (int i = 0; i < 5; i++)
            shmem_uint64_atomic_add(&counter, (uint64_t)r, right);
        memset(got, 0, sizeof got);
        shmem_long_get_nbi(got, sread, NEL, right);
        switch (r % 3) {
        case 0: shmem_pe_quiet(&right, 1); break;
        case 1: shmem_ctx_pe_quiet(ctx, &right, 1); break;
        default: shmem_pe_quiet(all, (size_t)npes); break;
        }
        for (int i = 0; i < NEL; i++)
            CHECK(got[i] == (long)VAL(right, i, r) - 1000L * r, "round %d get_nbi [%d] = %ld",
                  r, i, got[i]);
        /* The flag is a put: to a PE of another supernode it travels
         * through the RMA window, apart from the atomics, which arrive
         * first only if pe_quiet waited for them. */
        shmem_uint64_p(&flag, (uint64_t)r, right);
        shmem_uint64_wait_until(&flag, SHMEM_CMP_EQ, (uint64_t)r);
        for (int i = 0; i < NEL; i++) {
            long want = (long)VAL(left, i, r) + 1000L * r;
            CHECK(hdata[i] == want, "round %d heap put_nbi [%d] = %ld, expected %ld", r, i,
                  hdata[i], want);
            CHECK(sdata[i] == want, "round %d static put_nbi [%d] = %ld, expected %ld", r, i,
                  sdata[i], want);
        }
        CHECK(shmem_signal_fetch(&psig) == (uint64_t)r, "round %d put_signal_nbi's signal %lu",
              r, (unsigned long)shmem_signal_fetch(&psig));
        CHECK(shmem_uint64_atomic_fetch(&counter, me) == 5u * (uint64_t)r * (uint64_t)(r + 1) / 2,
              "round %d counter %lu", r, (unsigned long)counter);
    }
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    shmem_free(hdata);
    free(all);
    if (me == 0)
        printf("pe_quiet: %d rounds of puts, signals, atomics and gets completed by pe_quiet on "
               "%d PEs\n", ROUNDS, npes);
    shmem_finalize();
    return 0;
}
