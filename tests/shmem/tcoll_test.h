/*
 * tcoll_test.h - what the team collective tests share (tests/shmem/tcoll_*.c):
 * the teams they run on and the sizes they use. Every PE builds the same
 * list, and runs each collective on the teams it is a member of, in list
 * order, with no barrier between calls: each team's state is reused call
 * after call.
 *
 * The teams: SHMEM_TEAM_WORLD; SHMEM_TEAM_SHARED (this PE's supernode: an
 * explicit member list); the odd PEs (start 1, stride 2); all PEs in
 * reverse order (stride -1); every other PE from the last one down (stride
 * -2); SHARED in reverse order (a split of a list team). Across supernodes
 * the strided ones interleave the supernodes in team order.
 */
#ifndef TCOLL_TEST_H
#define TCOLL_TEST_H

#include "coll_test.h"

#define TC_TEAMS 6

typedef struct tc_team {
    shmem_team_t team; /* SHMEM_TEAM_INVALID where this PE is not a member */
    const char *name;
    int size;          /* its size (on its members) */
    int me;            /* my index in it */
    int *pe;           /* [size] world PE of each member */
    int calls;         /* collectives on it so far: its members agree */
} tc_team_t;

static tc_team_t tc_teams[TC_TEAMS];

static void tc_split(tc_team_t *t, const char *name, shmem_team_t parent, int start, int stride,
                     int size)
{
    t->name = name;
    t->team = SHMEM_TEAM_INVALID;
    if (shmem_team_split_strided(parent, start, stride, size, NULL, 0, &t->team) != 0) {
        CT_CHECK(0, "shmem_team_split_strided(%s, %d, %d, %d) failed", name, start, stride, size);
        t->team = SHMEM_TEAM_INVALID;
    }
}

/* Builds the list (collective over the job). */
static void tc_make_teams(void)
{
    int npes = shmem_n_pes(), nshared = shmem_team_n_pes(SHMEM_TEAM_SHARED);

    tc_teams[0] = (tc_team_t){SHMEM_TEAM_WORLD, "WORLD", 0, 0, NULL, 0};
    tc_teams[1] = (tc_team_t){SHMEM_TEAM_SHARED, "SHARED", 0, 0, NULL, 0};
    tc_split(&tc_teams[2], "odd", SHMEM_TEAM_WORLD, 1 % npes, 2, npes / 2 > 0 ? npes / 2 : 1);
    tc_split(&tc_teams[3], "reverse", SHMEM_TEAM_WORLD, npes - 1, -1, npes);
    tc_split(&tc_teams[4], "reverse-2", SHMEM_TEAM_WORLD, npes - 1, -2, (npes + 1) / 2);
    tc_split(&tc_teams[5], "SHARED-reverse", SHMEM_TEAM_SHARED, nshared - 1, -1, nshared);
    for (int k = 0; k < TC_TEAMS; k++) {
        tc_team_t *t = &tc_teams[k];

        if (t->team == SHMEM_TEAM_INVALID)
            continue;
        t->size = shmem_team_n_pes(t->team);
        t->me = shmem_team_my_pe(t->team);
        t->pe = malloc((size_t)t->size * sizeof(int));
        for (int i = 0; i < t->size; i++)
            t->pe[i] = shmem_team_translate_pe(t->team, i, SHMEM_TEAM_WORLD);
        /* The C11 form of shmem_team_sync, beside the active-set shmem_sync. */
        CT_CHECK(shmem_sync(t->team) == 0, "shmem_sync(%s) did not return 0", t->name);
    }
}

static void tc_free_teams(void)
{
    for (int k = 2; k < TC_TEAMS; k++)
        if (tc_teams[k].team != SHMEM_TEAM_INVALID)
            shmem_team_destroy(tc_teams[k].team);
    for (int k = 0; k < TC_TEAMS; k++)
        free(tc_teams[k].pe);
}

/* Whether the x-th of the type-specific routines (x == all: the last one,
 * the mem form) runs on team k: every one on WORLD, each also on one other
 * team in turn, the last on all; a few seconds for the whole test. */
static inline int tc_team_for(int k, int x, int all)
{
    return k == 0 || x == all || k == 1 + x % (TC_TEAMS - 1);
}

/* The sizes each collective runs with for elements of esize bytes: none,
 * one, and more than a page (and more than the 16 elements of pWrk). */
#define TC_NSIZES 3
static inline size_t tc_nelems(int which, size_t esize)
{
    return which == 0 ? 0 : which == 1 ? 1 : 4096 / esize + 37;
}

/* Calls run(x, t, n, generic) for each of the nops routines of a test,
 * on the teams tc_team_for picks (all: the index of the mem form, or -1),
 * with each of the sizes for elements of esize(x) bytes; generic takes
 * turns between 0 and 1. */
static void tc_for_all(int nops, int all, size_t (*esize)(int x),
                       void (*run)(int x, tc_team_t *t, size_t n, int generic))
{
    int v = 0;

    for (int x = 0; x < nops; x++)
        for (int k = 0; k < TC_TEAMS; k++) {
            tc_team_t *t = &tc_teams[k];

            if (t->team == SHMEM_TEAM_INVALID || !tc_team_for(k, x, all))
                continue;
            for (int w = 0; w < TC_NSIZES; w++, v++)
                run(x, t, tc_nelems(w, esize(x)), v % 2);
        }
}

/* A test's main: src and dest of `buf` bytes each on the heap (dest
 * filled with byte fill), the teams, tc_for_all, what PE 0 says it ran,
 * then ct_finish. */
static int tc_main(const char *name, const char *what, void **src, void **dst, size_t buf,
                   int fill, int nops, int all, size_t (*esize)(int x),
                   void (*run)(int x, tc_team_t *t, size_t n, int generic))
{
    shmem_init();
    *src = shmem_malloc(buf);
    *dst = shmem_malloc(buf);
    memset(*dst, fill, buf);
    tc_make_teams();
    tc_for_all(nops, all, esize, run);
    tc_free_teams();
    if (shmem_my_pe() == 0)
        printf("%s, on %d teams\n", what, TC_TEAMS);
    return ct_finish(name);
}

/* For the messages: a value of any of the reduction types as a complex
 * double's two parts. */
static inline void tc_show(double _Complex z, double *re, double *im)
{
    double p[2];

    memcpy(p, &z, sizeof p);
    *re = p[0];
    *im = p[1];
}

#endif /* TCOLL_TEST_H */
