/*
 * team_sync.c - shmem_team_sync orders memory on teams other than WORLD:
 * in each round every member stores the round into its column of every
 * member's row (shmem_long_p, then shmem_quiet: sync completes no remote
 * update), syncs, and must find every member's column at the round; a
 * sync that lets a PE out early, or before the stores are visible, shows
 * as a stale column. Teams: world reversed, evens, odds, SHARED, and a row
 * of a 2-D split, interleaved with each other and back to back (runs of
 * syncs with nothing between); shmem_team_ptr gives shmem_ptr's pointer of
 * the member's world PE, or NULL.
 */
#include "check.h"

#define ROUNDS 100

static long row[64];

static void rounds(shmem_team_t t, const char *name, long base)
{
    int n = shmem_team_n_pes(t), me = shmem_my_pe();

    if (t == SHMEM_TEAM_INVALID)
        return;
    for (long r = base + 1; r <= base + ROUNDS; r++) {
        for (int i = 0; i < n; i++)
            shmem_long_p(&row[me], r, shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD));
        shmem_quiet();
        CHECK(shmem_team_sync(t) == 0, "%s: shmem_team_sync returned nonzero", name);
        for (int i = 0; i < n; i++) {
            int pe = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);

            CHECK(row[pe] == r, "%s round %ld: column %d holds %ld", name, r, pe, row[pe]);
        }
        /* Nobody starts the next round's stores before all have checked. */
        shmem_team_sync(t);
        if (r % 10 == 0)
            for (int k = 0; k < 50; k++)
                shmem_team_sync(t); /* back to back */
    }
}

static void ptrs(shmem_team_t t, const char *name)
{
    int n = shmem_team_n_pes(t);

    if (t == SHMEM_TEAM_INVALID)
        return;
    for (int i = 0; i < n; i++) {
        int pe = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
        long *p = shmem_team_ptr(t, &row[0], i);

        CHECK(p == shmem_ptr(&row[0], pe), "%s: team_ptr of member %d (PE %d) is %p, "
              "shmem_ptr %p", name, i, pe, (void *)p, shmem_ptr(&row[0], pe));
        CHECK((p != NULL) == test_shares_memory(pe), "%s: team_ptr of PE %d: %p", name, pe,
              (void *)p);
    }
}

int main(void)
{
    shmem_team_t rev, even, odd, xt, yt;
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= 64, "at most 64 PEs");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &rev) == 0,
          "reversed");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &even) == 0,
          "evens");
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd) == 0 ||
              npes == 1, "odds");
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &xt, NULL, 0, &yt) == 0, "2-D");

    rounds(rev, "reversed", 0);
    rounds(me % 2 ? odd : even, me % 2 ? "odds" : "evens", 1000);
    rounds(SHMEM_TEAM_SHARED, "shared", 2000);
    rounds(yt, "column", 3000);
    rounds(xt, "row", 4000);
    /* Interleaved: a sync of one team between the rounds of another. */
    for (long k = 0; k < 20; k++) {
        shmem_team_sync(SHMEM_TEAM_SHARED);
        rounds(rev, "reversed, interleaved", 10000 + k * 1000);
        shmem_team_sync(me % 2 ? odd : even);
    }
    ptrs(SHMEM_TEAM_WORLD, "world");
    ptrs(rev, "reversed");
    ptrs(SHMEM_TEAM_SHARED, "shared");
    ptrs(yt, "column");
    CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &row[0], 0) == NULL,
          "team_ptr of SHMEM_TEAM_INVALID is not NULL");
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
    shmem_team_destroy(odd);
    shmem_team_destroy(even);
    shmem_team_destroy(rev);
    shmem_barrier_all();
    if (me == 0)
        printf("team_sync with %d PEs: passed\n", npes);
    shmem_finalize();
    return 0;
}
