/*
 * team_ctx_ops.c - the context forms of the 1.6 routines on a team's
 * context take PE numbers of the team, as its puts do: ibput and ibget
 * (typed and sized), signal_add and signal_set, pe_quiet, and a session
 * around them (it takes no PE: it must change nothing). The team is
 * strided with a negative stride (world PEs npes-1, npes-3, ... from 4 PEs,
 * all of them reversed below), so a team number is never its world PE
 * number for every member. Every element of every block is checked
 * against what the sender's world PE put there.
 */
#include "check.h"

#include <stdint.h>

#define BS 3  /* elements per block */
#define NB 4  /* blocks */
#define SST 4 /* source stride */
#define DST 5 /* dest stride */
#define LEN (NB * DST)

static long src_l[LEN], dst_l[LEN];
static int32_t src_32[LEN], dst_32[LEN];
static uint64_t sig_add, sig_set, ready;

/* The value world PE pe keeps at index k of its sources in round r. */
static long val(int pe, int k, long r)
{
    return r * 100000 + pe * 1000 + k;
}

static void fill(int me, long r)
{
    for (int k = 0; k < LEN; k++) {
        src_l[k] = val(me, k, r);
        src_32[k] = (int32_t)val(me, k, r);
        dst_l[k] = -1;
        dst_32[k] = -1;
    }
}

/* dest's block layout: element j of block i at i * DST + j holds the
 * source's element i * SST + j of world PE from; the gaps keep -1. */
static void check_blocks(const char *what, int from, long r, const long *dl,
                         const int32_t *d32)
{
    for (int k = 0; k < LEN; k++) {
        int i = k / DST, j = k % DST;
        long want = j < BS ? val(from, i * SST + j, r) : -1;

        if (dl != NULL)
            CHECK(dl[k] == want, "%s round %ld: long dest[%d] = %ld, expected %ld (PE %d)",
                  what, r, k, dl[k], want, from);
        if (d32 != NULL)
            CHECK(d32[k] == (int32_t)want, "%s round %ld: int32 dest[%d] = %d, expected %d",
                  what, r, k, (int)d32[k], (int)(int32_t)want);
    }
}

static void round_on(shmem_team_t t, shmem_ctx_t ctx, long r)
{
    int me = shmem_my_pe(), n = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
    int right = (tme + 1) % n, left = (tme + n - 1) % n;
    int wleft = shmem_team_translate_pe(t, left, SHMEM_TEAM_WORLD);
    int wright = shmem_team_translate_pe(t, right, SHMEM_TEAM_WORLD);
    long lbuf[LEN];
    int32_t ibuf[LEN];

    fill(me, r);
    sig_add = 0;
    sig_set = 0;
    ready = 0;
    shmem_team_sync(t);

    /* Puts: my blocks land in member right's dests (world PE wright). */
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmem_ctx_long_ibput(ctx, dst_l, src_l, DST, SST, BS, NB, right);
    shmem_ctx_ibput32(ctx, dst_32, src_32, DST, SST, BS, NB, right);
    shmem_ctx_signal_add(ctx, &sig_add, (uint64_t)me + 1, right);
    shmem_ctx_signal_add(ctx, &sig_add, 100, right);
    shmem_ctx_signal_set(ctx, &sig_set, (uint64_t)val(me, 0, r), right);
    shmem_ctx_session_stop(ctx);
    /* Completed toward right alone, then right is told. */
    shmem_ctx_pe_quiet(ctx, &right, 1);
    shmem_ctx_signal_set(ctx, &ready, 1, right);
    shmem_signal_wait_until(&ready, SHMEM_CMP_EQ, 1);
    check_blocks("ibput", wleft, r, dst_l, dst_32);
    CHECK(sig_add == (uint64_t)wleft + 101, "round %ld: signal_add from PE %d: %lu, expected %lu",
          r, wleft, (unsigned long)sig_add, (unsigned long)wleft + 101);
    CHECK(sig_set == (uint64_t)val(wleft, 0, r), "round %ld: signal_set from PE %d: %lu", r,
          wleft, (unsigned long)sig_set);
    shmem_team_sync(t);

    /* Gets: member right's blocks (world PE wright) into mine. */
    for (int k = 0; k < LEN; k++) {
        lbuf[k] = -1;
        ibuf[k] = -1;
    }
    shmem_ctx_long_ibget(ctx, lbuf, src_l, DST, SST, BS, NB, right);
    shmem_ctx_ibget32(ctx, ibuf, src_32, DST, SST, BS, NB, right);
    check_blocks("ibget", wright, r, lbuf, ibuf);
    shmem_team_sync(t);
}

int main(void)
{
    shmem_team_t t;
    shmem_ctx_t ctx;
    int npes, stride, size;

    shmem_init();
    npes = shmem_n_pes();
    stride = npes >= 4 ? -2 : -1;
    size = npes >= 4 ? npes / 2 : npes;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, stride, size, NULL, 0, &t) == 0,
          "split start %d stride %d size %d", npes - 1, stride, size);
    if (t != SHMEM_TEAM_INVALID) {
        CHECK(shmem_team_create_ctx(t, 0, &ctx) == 0, "create_ctx");
        for (long r = 1; r <= 10; r++)
            round_on(t, ctx, r);
        shmem_ctx_destroy(ctx);
        shmem_team_destroy(t);
    }
    /* The world's contexts take world numbers (the default one). */
    for (long r = 11; r <= 12; r++)
        round_on(SHMEM_TEAM_WORLD, SHMEM_CTX_DEFAULT, r);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
        printf("team_ctx_ops with %d PEs: passed\n", npes);
    shmem_finalize();
    return 0;
}
