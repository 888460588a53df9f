/*
 * team_split.c - shmem_team_split_strided, shmem_team_split_2d and
 * shmem_team_destroy.
 *
 * A split is collective over the parent. Every parent member checks the
 * triplet alike (all pass the same), so an invalid one returns nonzero on
 * all of them without a word exchanged. Then the members agree on a slot
 * free on every member of the new team: an AND-reduction over the parent of
 * each PE's free-slot mask, non-members of the new team contributing all
 * ones (the slot may be busy there with a team of theirs: the new team never
 * touches their copy). The reduction runs on the parent's own pSync and
 * pWrk, its source and dest in the parent slot's bar bytes (team.h), over
 * the parent's span when it crosses supernodes. Every parent PE gets the
 * same mask, so all pick the same slot (the lowest), or all find none and
 * return nonzero: running out of slots never hangs. The new team is usable
 * at once: its slot is zero lines and a pSync at SHMEM_SYNC_VALUE on every
 * member (set so at init, or by the destroy that freed it, before that PE's
 * mask said so).
 */
#include "team.h"

#include <stdlib.h>

/* Checks a split's configuration (fatal naming call); the team's config. */
static void split_config(const char *call, const shmem_team_config_t *config, long mask,
                         shmem_team_config_t *out)
{
    out->num_contexts = 0; /* the default: no contexts requested */
    if (mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        shm_fatal(call, "config_mask 0x%lx: unknown bits (known: SHMEM_TEAM_NUM_CONTEXTS)",
                  mask);
    if (mask == 0)
        return;
    if (config == NULL)
        shm_fatal(call, "config is NULL with config_mask 0x%lx", mask);
    if (config->num_contexts < 0)
        shm_fatal(call, "config->num_contexts is %d; it must be 0 or more",
                  config->num_contexts);
    out->num_contexts = config->num_contexts;
}

/* The split itself: parent is valid; *new_team is SHMEM_TEAM_INVALID. */
static int split(const char *call, shmem_team_t parent, int start, int stride, int size,
                 const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team)
{
    const coll_set_t *p = &parent->set;
    struct team_bar *tb = (struct team_bar *)parent->sync->bar;
    shmem_team_config_t cfg;
    long long last = (long long)start + (long long)stride * (size - 1);
    int me = -1, k;
    unsigned long agreed;

    split_config(call, config, config_mask, &cfg);
    /* 1.6: every index start + i * stride in [0, N); a wrap-around is out
     * of range here. A stride of 0 takes a size of 1. */
    if (size < 1 || size > p->size || start < 0 || start >= p->size || last < 0 ||
        last >= p->size || (stride == 0 && size != 1))
        return 1;
    if (stride == 0) {
        me = p->me == start ? 0 : -1;
    } else {
        int d = p->me - start;

        if (d % stride == 0 && d / stride >= 0 && d / stride < size)
            me = d / stride;
    }
    tb->split_free = me >= 0 ? (long)team_free_slots : ~0L;
    coll_reduce_and_long(call, &tb->split_agreed, &tb->split_free, 1, p,
                         team_span_next(call, parent), team_pwrk(parent), team_psync(parent));
    agreed = (unsigned long)tb->split_agreed & ~3UL; /* never WORLD's or SHARED's */
    if (agreed == 0)
        return 2; /* out of slots, on every parent PE */
    k = __builtin_ctzl(agreed);
    if (k >= TEAM_SLOTS_MAX)
        return 2;
    if (me >= 0) {
        coll_set_t s = {0, 1, size, me, NULL};
        int *pes = NULL;

        if (p->pes == NULL) {
            /* An arithmetic parent gives an arithmetic team (the world
             * stride of two neighbours, below npes in size: no overflow). */
            s.start = coll_pe(p, start);
            s.stride = size > 1 ? coll_pe(p, start + stride) - s.start : 1;
        } else {
            pes = malloc((size_t)size * sizeof(int));
            if (pes == NULL)
                shm_fatal(call, "out of memory for a team of %d PEs", size);
            for (int i = 0; i < size; i++)
                pes[i] = coll_pe(p, start + i * stride);
            s.start = pes[0];
            s.pes = pes;
        }
        team_setup(&team_pool[k], k, &s, pes);
        team_pool[k].config = cfg;
        team_pool[k].config_mask = config_mask;
        *new_team = &team_pool[k];
    }
    return 0;
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team)
{
    static const char call[] = "shmem_team_split_strided";

    shm_check_init(call);
    if (new_team == NULL)
        shm_fatal(call, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return 1;
    team_check(call, parent_team);
    return split(call, parent_team, start, stride, size, config, config_mask, new_team);
}

static void destroy(const char *call, shmem_team_t team)
{
    /* Every member's last signal into the slot has arrived after this. */
    team_sync(call, team);
    team_drop(team);
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config, long xaxis_mask,
                        shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team)
{
    static const char call[] = "shmem_team_split_2d";
    int n, ny, rc = 0;

    shm_check_init(call);
    if (xaxis_team == NULL || yaxis_team == NULL)
        shm_fatal(call, "%s is NULL", xaxis_team == NULL ? "xaxis_team" : "yaxis_team");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent_team == SHMEM_TEAM_INVALID)
        return 1;
    team_check(call, parent_team);
    if (xrange < 1)
        shm_fatal(call, "xrange is %d; it must be 1 or more", xrange);
    n = parent_team->set.size;
    if (xrange > n)
        xrange = n; /* 1.6: as though xrange were the parent's size */
    ny = (n + xrange - 1) / xrange;
    /* Rows: (x, y) = (pe mod xrange, pe / xrange); the last row may be short. */
    for (int y = 0; y < ny && rc == 0; y++) {
        int len = n - y * xrange < xrange ? n - y * xrange : xrange;
        shmem_team_t t = SHMEM_TEAM_INVALID;

        rc = split(call, parent_team, y * xrange, 1, len, xaxis_config, xaxis_mask, &t);
        if (t != SHMEM_TEAM_INVALID)
            *xaxis_team = t;
    }
    /* Columns: column x has the rows that reach it. */
    for (int x = 0; x < xrange && rc == 0; x++) {
        shmem_team_t t = SHMEM_TEAM_INVALID;

        rc = split(call, parent_team, x, xrange, (n - x + xrange - 1) / xrange, yaxis_config,
                   yaxis_mask, &t);
        if (t != SHMEM_TEAM_INVALID)
            *yaxis_team = t;
    }
    if (rc != 0) {
        /* Every parent PE failed at the same split (they all got the same
         * mask): each destroys what it got, rows first, then columns, so
         * that the members of each team destroy it together. */
        if (*xaxis_team != SHMEM_TEAM_INVALID)
            destroy(call, *xaxis_team);
        if (*yaxis_team != SHMEM_TEAM_INVALID)
            destroy(call, *yaxis_team);
        *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    }
    return rc;
}

void shmem_team_destroy(shmem_team_t team)
{
    static const char call[] = "shmem_team_destroy";

    shm_check_init(call);
    if (team == SHMEM_TEAM_INVALID)
        return; /* no operation */
    team_check(call, team);
    if (team->predefined)
        shm_fatal(call, "%s cannot be destroyed",
                  team == SHMEM_TEAM_WORLD ? "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
    destroy(call, team);
}
