/*
 * team_split.c - shmem_team_split_strided and shmem_team_split_2d in every
 * shape, checked against a serial model of each team (its world PEs in
 * team order): strides positive, negative and 0 (size 1), invalid triplets
 * (stride 0 with size 2, wrap-around, out of range, size 0), splits of
 * SHMEM_TEAM_SHARED and nested splits, 2-D splits with partial rows and
 * xrange past the team's size; my_pe, n_pes and translate_pe between every
 * pair of teams this PE holds; get_config; slots recycled by destroy (more
 * splits than slots) and a run out of slots that fails on every PE and
 * leaves the library usable; a sync of each new team right after its split.
 */
#include "check.h"

#include <string.h>

#define MAXT 16
#define MAXPES 64

typedef struct {
    shmem_team_t t;
    int n;
    int pes[MAXPES]; /* world PEs, in team order */
} model_t;

static model_t held[MAXT];
static int nheld;
static int me, npes;

static int model_index(const model_t *m, int pe)
{
    for (int i = 0; i < m->n; i++)
        if (m->pes[i] == pe)
            return i;
    return -1;
}

/* Every query of team m checked against the model; translate_pe with every
 * team held, both ways, every PE number (and a few out of range). */
static void check_team(const model_t *m, const char *what)
{
    int idx = model_index(m, me);

    CHECK(m->t != SHMEM_TEAM_INVALID, "%s: a member got SHMEM_TEAM_INVALID", what);
    CHECK(shmem_team_my_pe(m->t) == idx, "%s: my_pe %d, expected %d", what,
          shmem_team_my_pe(m->t), idx);
    CHECK(shmem_team_n_pes(m->t) == m->n, "%s: n_pes %d, expected %d", what,
          shmem_team_n_pes(m->t), m->n);
    for (int h = 0; h < nheld; h++) {
        const model_t *o = &held[h];

        for (int i = -1; i <= m->n; i++) {
            int want = i < 0 || i >= m->n ? -1 : model_index(o, m->pes[i]);
            int got = shmem_team_translate_pe(m->t, i, o->t);

            CHECK(got == want, "%s: translate_pe(team, %d, held %d) = %d, expected %d", what, i,
                  h, got, want);
        }
        for (int i = -1; i <= o->n; i++) {
            int want = i < 0 || i >= o->n ? -1 : model_index(m, o->pes[i]);
            int got = shmem_team_translate_pe(o->t, i, m->t);

            CHECK(got == want, "%s: translate_pe(held %d, %d, team) = %d, expected %d", what, h,
                  i, got, want);
        }
    }
    CHECK(shmem_team_translate_pe(m->t, 0, SHMEM_TEAM_INVALID) == -1 &&
              shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, m->t) == -1,
          "%s: translate_pe with SHMEM_TEAM_INVALID is not -1", what);
    /* Every member checks each new team at the same point: a sync of
     * every shape (of one PE too) right after its split. */
    CHECK(shmem_team_sync(m->t) == 0, "%s: shmem_team_sync returned nonzero", what);
}

static void hold(shmem_team_t t, const int *pes, int n)
{
    CHECK(nheld < MAXT, "too many teams held");
    held[nheld].t = t;
    held[nheld].n = n;
    memcpy(held[nheld].pes, pes, (size_t)n * sizeof(int));
    nheld++;
}

/* Splits parent (model p, on its members only) by the triplet; checks the
 * outcome against the model; on success a member keeps the new team held
 * (returned), a non-member checks SHMEM_TEAM_INVALID. want_ok: the triplet
 * is valid. */
static shmem_team_t split_check(const model_t *p, int start, int stride, int size, int want_ok,
                                const char *what)
{
    shmem_team_t t = (shmem_team_t)&t; /* not INVALID: the call must set it */
    int rc = shmem_team_split_strided(p->t, start, stride, size, NULL, 0, &t);
    model_t m = {0};

    if (!want_ok) {
        CHECK(rc != 0, "%s (%d, %d, %d): invalid triplet returned 0", what, start, stride, size);
        CHECK(t == SHMEM_TEAM_INVALID, "%s: invalid triplet gave a team", what);
        return SHMEM_TEAM_INVALID;
    }
    CHECK(rc == 0, "%s (%d, %d, %d): returned %d", what, start, stride, size, rc);
    m.t = t;
    m.n = size;
    for (int i = 0; i < size; i++)
        m.pes[i] = p->pes[start + i * stride];
    if (model_index(&m, me) < 0) {
        CHECK(t == SHMEM_TEAM_INVALID, "%s: a non-member got a team", what);
        CHECK(shmem_team_my_pe(t) == -1 && shmem_team_n_pes(t) == -1,
              "%s: my_pe/n_pes of SHMEM_TEAM_INVALID are not -1", what);
        return SHMEM_TEAM_INVALID;
    }
    hold(t, m.pes, m.n);
    check_team(&held[nheld - 1], what);
    return t;
}

static void drop_held_from(int k)
{
    while (nheld > k) {
        nheld--;
        shmem_team_destroy(held[nheld].t);
    }
}

/* The strided shapes on parent p (a member calls). */
static void shapes(const model_t *p, const char *name)
{
    int n = p->n, base = nheld;
    char what[64];

    snprintf(what, sizeof what, "%s all", name);
    split_check(p, 0, 1, n, 1, what);
    snprintf(what, sizeof what, "%s even", name);
    split_check(p, 0, 2, (n + 1) / 2, 1, what);
    if (n > 1) {
        snprintf(what, sizeof what, "%s odd", name);
        split_check(p, 1, 2, n / 2, 1, what);
    }
    snprintf(what, sizeof what, "%s reversed", name);
    split_check(p, n - 1, -1, n, 1, what);
    snprintf(what, sizeof what, "%s reversed, stride -2", name);
    split_check(p, n - 1, -2, (n + 1) / 2, 1, what);
    for (int k = 0; k < n; k++) {
        snprintf(what, sizeof what, "%s stride 0 at %d", name, k);
        split_check(p, k, 0, 1, 1, what);
    }
    drop_held_from(base);
    /* Invalid: every member returns nonzero and gets SHMEM_TEAM_INVALID. */
    split_check(p, 0, 0, 2, 0, "stride 0, size 2");
    split_check(p, 0, 1, n + 1, 0, "size past the parent");
    split_check(p, 0, 1, 0, 0, "size 0");
    split_check(p, -1, 1, 1, 0, "start -1");
    split_check(p, n, 1, 1, 0, "start past the parent");
    split_check(p, 0, -1, 2, 0, "negative stride below 0");
    if (n >= 3)
        split_check(p, n - 2, 2, 2, 0, "wrap-around");
    if (n == 8)
        split_check(p, 3, 3, 3, 0, "the specification's wrap-around (3, 3, 3) of 8");
    CHECK(nheld == base, "%s: a failed split left a team", name);
}

/* 2-D split of p for every xrange 1 .. n + 2: rows and columns against the
 * model, translate_pe included. */
static void grid(const model_t *p, const char *name)
{
    int n = p->n, pme = model_index(p, me);

    for (int xr = 1; xr <= n + 2; xr++) {
        int x = xr > n ? n : xr, base = nheld;
        shmem_team_t xt, yt;
        shmem_team_config_t cfg = {.num_contexts = 2};
        int rc = shmem_team_split_2d(p->t, xr, &cfg, SHMEM_TEAM_NUM_CONTEXTS, &xt, NULL, 0, &yt);
        int row[MAXPES], col[MAXPES], nr = 0, nc = 0;
        char what[64];

        CHECK(rc == 0, "%s: split_2d xrange %d returned %d", name, xr, rc);
        for (int i = 0; i < n; i++) {
            if (i / x == pme / x)
                row[nr++] = p->pes[i];
            if (i % x == pme % x)
                col[nc++] = p->pes[i];
        }
        CHECK(shmem_team_my_pe(xt) == pme % x && shmem_team_my_pe(yt) == pme / x,
              "%s: xrange %d: (x, y) = (%d, %d), expected (%d, %d)", name, xr,
              shmem_team_my_pe(xt), shmem_team_my_pe(yt), pme % x, pme / x);
        hold(xt, row, nr);
        hold(yt, col, nc);
        snprintf(what, sizeof what, "%s xrange %d row", name, xr);
        check_team(&held[nheld - 2], what);
        snprintf(what, sizeof what, "%s xrange %d column", name, xr);
        check_team(&held[nheld - 1], what);
        {
            shmem_team_config_t got = {.num_contexts = -1};

            CHECK(shmem_team_get_config(xt, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
                      got.num_contexts == 2,
                  "%s: the row's num_contexts is %d, expected 2", what, got.num_contexts);
            got.num_contexts = -1;
            CHECK(shmem_team_get_config(yt, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
                      got.num_contexts == 0,
                  "%s: the column's num_contexts is %d, expected 0 (mask 0)", what,
                  got.num_contexts);
        }
        drop_held_from(base);
    }
}

int main(void)
{
    model_t world = {0}, shared = {0};
    shmem_team_config_t cfg;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= MAXPES, "at most %d PEs", MAXPES);
    world.t = SHMEM_TEAM_WORLD;
    world.n = npes;
    for (int i = 0; i < npes; i++)
        world.pes[i] = i;
    shared.t = SHMEM_TEAM_SHARED;
    for (int i = 0; i < npes; i++)
        if (test_shares_memory(i))
            shared.pes[shared.n++] = i;
    hold(world.t, world.pes, world.n);
    hold(shared.t, shared.pes, shared.n);
    check_team(&held[0], "SHMEM_TEAM_WORLD");
    check_team(&held[1], "SHMEM_TEAM_SHARED");
    CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes,
          "WORLD's numbers are not shmem_my_pe's and shmem_n_pes'");

    /* get_config: mask 0 does nothing (NULL config allowed, 1.6);
     * SHMEM_TEAM_INVALID returns nonzero. */
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, NULL) == 0, "get_config mask 0, NULL");
    cfg.num_contexts = -7;
    CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, &cfg) == 0 && cfg.num_contexts == -7,
          "get_config with mask 0 changed config");
    CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0,
          "get_config of SHMEM_TEAM_INVALID returned 0");
    {
        shmem_team_t t, x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;

        CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0 &&
                  t == SHMEM_TEAM_INVALID,
              "split of SHMEM_TEAM_INVALID");
        CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y) != 0 &&
                  x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID,
              "split_2d of SHMEM_TEAM_INVALID");
        shmem_team_destroy(SHMEM_TEAM_INVALID); /* no operation */
    }

    shapes(&world, "world");
    shapes(&shared, "shared");
    grid(&world, "world");
    grid(&shared, "shared");

    /* Nested: world reversed, its evens, their 2-D grid and reversals. */
    {
        int base = nheld;
        shmem_team_t r = split_check(&world, npes - 1, -1, npes, 1, "nested: reversed");
        model_t rm = held[nheld - 1];
        shmem_team_t e = split_check(&rm, 0, 2, (npes + 1) / 2, 1, "nested: reversed evens");

        if (e != SHMEM_TEAM_INVALID) {
            model_t em = held[nheld - 1];

            shapes(&em, "nested");
            grid(&em, "nested");
        }
        (void)r;
        drop_held_from(base);
    }
    shmem_barrier_all();

    /* Recycling: many more splits than slots, each destroyed; a child of
     * each, whose split reduces on the recycled slot's pSync (left at
     * SHMEM_SYNC_VALUE by the team before, or the reduction miscounts). */
    for (int r = 0; r < 200; r++) {
        int stride = r % 2 ? -1 : 1, base = nheld;

        split_check(&world, stride > 0 ? 0 : npes - 1, stride, npes - r % npes, 1, "recycled");
        if (nheld > base) {
            model_t pm = held[nheld - 1];

            shmem_team_sync(pm.t);
            split_check(&pm, pm.n - 1, -1, pm.n, 1, "child of a recycled team");
        }
        drop_held_from(base);
    }

    /* Out of slots: every PE fails at the same split, with
     * SHMEM_TEAM_INVALID; after destroying them a split works again. */
    {
        static shmem_team_t many[100];
        int got = 0, rc = 0;

        while (got < 100) {
            many[got] = (shmem_team_t)&rc;
            rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &many[got]);
            if (rc != 0)
                break;
            got++;
        }
        CHECK(rc != 0 && got < 100, "100 teams at once: no split ran out of slots");
        CHECK(many[got] == SHMEM_TEAM_INVALID, "the failed split left a handle");
        {
            static int counts[MAXPES];

            shmem_int_p(&counts[me], got, 0);
            shmem_barrier_all();
            if (me == 0)
                for (int i = 0; i < npes; i++)
                    CHECK(counts[i] == got, "PE %d made %d teams before running out, PE 0 %d",
                          i, counts[i], got);
        }
        if (me == 0)
            printf("team_split: out of slots after %d teams\n", got);
        /* One slot free: a 2-D split's rows take it (they are disjoint),
         * its columns find none; every PE gets nonzero and no team, and
         * the rows are gone again. Two free: it works. */
        shmem_team_destroy(many[--got]);
        for (int k = 0; k < 2; k++) {
            shmem_team_t x = (shmem_team_t)&rc, y = (shmem_team_t)&rc;

            rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &x, NULL, 0, &y);
            CHECK(k == 0 ? rc != 0 && x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID
                         : rc == 0 && x != SHMEM_TEAM_INVALID && y != SHMEM_TEAM_INVALID,
                  "split_2d with %d slot(s) free: rc %d, teams %p %p", k + 1, rc, (void *)x,
                  (void *)y);
            if (k == 0)
                shmem_team_destroy(many[--got]);
            else {
                shmem_team_destroy(x);
                shmem_team_destroy(y);
            }
        }
        while (got > 0)
            shmem_team_destroy(many[--got]);
        split_check(&world, 0, 1, npes, 1, "after running out");
        drop_held_from(2);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("team_split with %d PEs: passed\n", npes);
    shmem_finalize();
    return 0;
}
