/*
 * team_ctx.c - team contexts: shmem_team_create_ctx, shmem_ctx_get_team and
 * the team-relative PE numbers of a context's point-to-point routines (put,
 * p, get, g, atomics, nbi, put_signal) on a reversed team and on the odds;
 * SHMEM_CTX_DEFAULT and shmem_ctx_create's contexts belong to WORLD;
 * SHMEM_CTX_INVALID and SHMEM_TEAM_INVALID as the specification says;
 * more contexts than num_contexts asked for (SOS: allowed); a team
 * destroyed with contexts alive (its contexts go with it).
 */
#include "check.h"

#include <stdint.h>

static long data[64];
static long counter;
static uint64_t sig;

static void ctx_round(shmem_team_t t, shmem_ctx_t ctx, const char *name, long base)
{
    int me = shmem_my_pe(), n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    int right = (tme + 1) % n, left = (tme + n - 1) % n;
    int wleft = shmem_team_translate_pe(t, left, SHMEM_TEAM_WORLD);
    int wright = shmem_team_translate_pe(t, right, SHMEM_TEAM_WORLD);
    long v = base + me, got[2];

    /* Team member `right` is world PE wright: the data must land there. */
    shmem_ctx_long_put(ctx, &data[0], &v, 1, right);
    shmem_ctx_long_p(ctx, &data[1], v + 1, right);
    shmem_ctx_long_atomic_add(ctx, &counter, 1, right);
    (void)shmem_ctx_long_atomic_fetch_add(ctx, &counter, 10, right);
    shmem_ctx_long_put_signal(ctx, &data[2], &v, 1, &sig, (uint64_t)v, SHMEM_SIGNAL_SET, right);
    shmem_ctx_quiet(ctx);
    shmem_team_sync(t);
    CHECK(data[0] == base + wleft && data[1] == base + wleft + 1 && data[2] == base + wleft,
          "%s: from member %d (PE %d): %ld %ld %ld, expected %ld", name, left, wleft, data[0],
          data[1], data[2], base + wleft);
    CHECK(sig == (uint64_t)(base + wleft), "%s: signal %lu", name, (unsigned long)sig);
    CHECK(counter == 11 * (base / 1000), "%s: counter %ld, expected %ld", name, counter,
          11 * (base / 1000));
    shmem_ctx_long_get(ctx, &got[0], &data[0], 1, right);
    got[1] = shmem_ctx_long_g(ctx, &data[1], right);
    CHECK(got[0] == base + me && got[1] == base + me + 1,
          "%s: get from member %d (PE %d): %ld %ld", name, right, wright, got[0], got[1]);
    shmem_ctx_long_atomic_fetch_nbi(ctx, &got[0], &counter, right);
    shmem_ctx_quiet(ctx);
    CHECK(got[0] == counter, "%s: fetch_nbi %ld, mine %ld", name, got[0], counter);
    shmem_team_sync(t);
}

int main(void)
{
    shmem_team_t rev, odd, t;
    shmem_ctx_t ctx, c2[3], wctx;
    shmem_team_config_t cfg = {.num_contexts = 1};
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t) == 0 && t == SHMEM_TEAM_WORLD,
          "SHMEM_CTX_DEFAULT's team is not WORLD");
    CHECK(shmem_ctx_create(0, &wctx) == 0, "shmem_ctx_create");
    CHECK(shmem_ctx_get_team(wctx, &t) == 0 && t == SHMEM_TEAM_WORLD,
          "shmem_ctx_create's team is not WORLD");
    t = SHMEM_TEAM_WORLD;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID,
          "shmem_ctx_get_team(SHMEM_CTX_INVALID)");
    ctx = wctx;
    CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID,
          "shmem_team_create_ctx(SHMEM_TEAM_INVALID)");
    shmem_ctx_destroy(SHMEM_CTX_INVALID); /* no operation */

    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, &cfg,
                                   SHMEM_TEAM_NUM_CONTEXTS, &rev) == 0, "reversed");
    CHECK(shmem_team_create_ctx(rev, SHMEM_CTX_PRIVATE, &ctx) == 0, "create_ctx on reversed");
    CHECK(shmem_ctx_get_team(ctx, &t) == 0 && t == rev, "the context's team is not its team");
    for (long r = 1; r <= 20; r++)
        ctx_round(rev, ctx, "reversed", r * 1000);
    shmem_ctx_destroy(ctx);
    for (int i = 0; i < npes; i++)
        data[i] = 0;
    counter = 0;
    shmem_barrier_all();

    /* A world context: world numbers, as before teams. */
    ctx_round(SHMEM_TEAM_WORLD, wctx, "world context", 1000);
    ctx_round(SHMEM_TEAM_WORLD, SHMEM_CTX_DEFAULT, "default context", 2000);
    counter = 0;
    shmem_barrier_all();

    /* Past num_contexts (1): three at once; the team destroyed with them. */
    if (npes >= 2) {
        CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd) == 0,
              "odds");
        if (odd != SHMEM_TEAM_INVALID) {
            for (int i = 0; i < 3; i++)
                CHECK(shmem_team_create_ctx(odd, 0, &c2[i]) == 0, "context %d of the odds", i);
            for (long r = 1; r <= 5; r++)
                ctx_round(odd, c2[r % 3], "odds", r * 1000);
            shmem_team_destroy(odd);
        }
    }
    shmem_team_destroy(rev);
    shmem_ctx_destroy(wctx);
    shmem_barrier_all();
    if (me == 0)
        printf("team_ctx with %d PEs: passed\n", npes);
    shmem_finalize();
    return 0;
}
