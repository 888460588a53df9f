/*
 * session.c - communication sessions (1.6), after the specification's
 * example: inside a session (SHMEM_CTX_SESSION_BATCH, a total_ops hint),
 * every PE XORs pseudo-random values into a table spread over all PEs with
 * non-blocking atomics on a context, and puts its round's block to the
 * next PE; after session_stop, quiet and sync_all each PE replays every
 * PE's sequence and checks its own table element by element. The session
 * is started twice (options combined) and stopped twice; one on
 * SHMEM_CTX_INVALID does nothing. With an argument, one misuse
 * (tests/t-shmem-session.sh):
 *   bad-options, bad-mask   unknown bits
 *   null-config             TOTAL_OPS in the mask, config NULL
 */
#include "check.h"

#include <string.h>

#define UPDATES 4000
#define INDICES 256
#define BLOCK 64
#define STEP (UPDATES / BLOCK)

static uint64_t block[BLOCK];

/* A sequence every PE can replay: the update k of PE pe. */
static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

int main(int argc, char **argv)
{
    int me, npes, right, left;
    uint64_t *table, want[INDICES], src[BLOCK];
    shmem_ctx_session_config_t config = {.total_ops = UPDATES};
    shmem_ctx_t ctx;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    if (argc > 1) {
        if (strcmp(argv[1], "bad-options") == 0)
            shmem_ctx_session_start(ctx, 0x10, &config, 0);
        if (strcmp(argv[1], "bad-mask") == 0)
            shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, 6);
        if (strcmp(argv[1], "null-config") == 0)
            shmem_ctx_session_start(ctx, 0, NULL, SHMEM_CTX_SESSION_TOTAL_OPS);
        shmem_finalize();
        return 0;
    }
    table = shmem_calloc(INDICES, sizeof *table);
    CHECK(table != NULL, "shmem_calloc failed");
    for (int i = 0; i < BLOCK; i++)
        src[i] = (uint64_t)VAL(me, i, 3) << 20 | (uint64_t)i;
    shmem_ctx_session_start(SHMEM_CTX_INVALID, 0x7f, NULL, 0x7f); /* no action */
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config, SHMEM_CTX_SESSION_TOTAL_OPS);
    shmem_ctx_session_start(ctx, 0, NULL, 0); /* combined with the first: still a batch */
    uint64_t s = (uint64_t)me + 1;
    for (int k = 0; k < UPDATES; k++) {
        uint64_t pe = next(&s) % (uint64_t)npes, idx = next(&s) % INDICES, v = next(&s);
        shmem_ctx_uint64_atomic_xor(ctx, &table[idx], v, (int)pe);
        if (k % STEP == 0 && k / STEP < BLOCK)
            shmem_ctx_uint64_put_nbi(ctx, &block[k / STEP], &src[k / STEP], 1, right);
    }
    shmem_ctx_session_stop(ctx);
    shmem_ctx_session_stop(ctx); /* stopped already: no effect */
    shmem_ctx_session_stop(SHMEM_CTX_INVALID);
    shmem_ctx_quiet(ctx); /* session_stop neither quiets ... */
    shmem_sync_all();     /* ... nor synchronizes */
    memset(want, 0, sizeof want);
    for (int q = 0; q < npes; q++) {
        uint64_t t = (uint64_t)q + 1;
        for (int k = 0; k < UPDATES; k++) {
            uint64_t pe = next(&t) % (uint64_t)npes, idx = next(&t) % INDICES, v = next(&t);
            if ((int)pe == me)
                want[idx] ^= v;
        }
    }
    for (int i = 0; i < INDICES; i++)
        CHECK(table[i] == want[i], "table[%d] = %#llx, expected %#llx", i,
              (unsigned long long)table[i], (unsigned long long)want[i]);
    for (int i = 0; i < BLOCK; i++)
        CHECK(block[i] == ((uint64_t)VAL(left, i, 3) << 20 | (uint64_t)i), "block[%d]", i);
    shmem_ctx_destroy(ctx);
    shmem_free(table);
    if (me == 0)
        printf("session: %d xor updates per PE in a batch session, every table entry checked, "
               "on %d PEs\n", UPDATES, npes);
    shmem_finalize();
    return 0;
}
