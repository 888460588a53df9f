/*
 * team.c - the teams' handles and queries (OpenSHMEM 1.5, 1.6 section 9.4):
 * SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED, my_pe, n_pes, get_config,
 * translate_pe, team_ptr.
 *
 * A team lives in a static array indexed by its scratch slot (team.h), so a
 * handle is the address of its slot's entry: checking a handle reads no
 * freed memory, and a slot agreed on at a split (team_split.c) names the
 * same team state on every member. Slot 0 is WORLD's, slot 1 SHARED's
 * (this PE's supernode: one SHARED per supernode, all in slot 1, on
 * disjoint PEs).
 */
#include "team.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct shmem_team_s team_pool[TEAM_SLOTS_MAX];
shmem_team_t SHMEM_TEAM_WORLD = &team_pool[0];
shmem_team_t SHMEM_TEAM_SHARED = &team_pool[1];
unsigned long team_free_slots;

/* Every slot's bit. */
#define TEAM_ALL_SLOTS \
    (TEAM_SLOTS_MAX == 8 * sizeof(long) ? ~0UL : (1UL << TEAM_SLOTS_MAX) - 1)

void team_check(const char *call, shmem_team_t team)
{
    uintptr_t off = (uintptr_t)team - (uintptr_t)team_pool;

    shm_check_init(call);
    if (team == SHMEM_TEAM_INVALID)
        shm_fatal(call, "team is SHMEM_TEAM_INVALID; a valid team is needed");
    if (off >= sizeof team_pool || off % sizeof team_pool[0] != 0 || !team->live)
        shm_fatal(call, "team %p is not a valid team (never created, or destroyed)",
                  (void *)team);
}

const coll_set_t *team_set(const char *call, shmem_team_t team)
{
    team_check(call, team);
    return &team->set;
}

coll_span_t *team_span_next(const char *call, shmem_team_t team)
{
    team_check(call, team);
    if (team->span == NULL)
        return NULL;
    team->span->seq++;
    return team->span;
}

int team_world_pe(const char *call, shmem_team_t team, int i)
{
    if ((unsigned)i >= (unsigned)team->set.size)
        shm_fatal(call, "pe is %d; the team has PEs 0 to %d", i, team->set.size - 1);
    return coll_pe(&team->set, i);
}

int team_index_of(shmem_team_t team, int pe)
{
    const coll_set_t *s = &team->set;

    if (s->pes == NULL) {
        int d = pe - s->start;

        if (s->size == 1 || s->stride == 0)
            return d == 0 ? 0 : -1;
        if (d % s->stride != 0 || d / s->stride < 0 || d / s->stride >= s->size)
            return -1;
        return d / s->stride;
    }
    /* An explicit list is monotonic (a split keeps or reverses its
     * parent's order): binary search. */
    int lo = 0, hi = s->size - 1, up = s->pes[0] <= s->pes[hi];

    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, v = s->pes[mid];

        if (v == pe)
            return mid;
        if ((v < pe) == up)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

void team_setup(shmem_team_t t, int k, const coll_set_t *s, int *own_pes)
{
    static const char call[] = "shmem_team_split_strided";
    struct team_bar *tb;

    memset(t, 0, sizeof *t);
    t->set = *s;
    t->slot = k;
    t->sync = (struct team_slot *)((char *)shm_scratch + TEAM_SLOTS_OFFSET +
                                   (size_t)k * TEAM_SLOT_SIZE);
    t->own_pes = own_pes;
    t->predefined = k < 2;
    tb = (struct team_bar *)t->sync->bar;
    if (shm.multi) {
        /* The slot in the tag's sequence keeps two teams' messages between
         * one pair of leaders apart when threads run their collectives at
         * once (as far as the tag has bits for it: coll_net.c). */
        t->span = coll_span_new(call, s, (unsigned)k << 18);
        if (t->span->nnodes == 1) {
            coll_span_free(t->span);
            t->span = NULL;
        }
    }
    coll_dbar_init(&t->bar, call, t->span != NULL ? &t->span->local : s, &tb->lines);
    team_free_slots &= ~(1UL << k);
    t->live = 1;
}

void team_drop(shmem_team_t t)
{
    struct team_bar *tb = (struct team_bar *)t->sync->bar;

    ctx_drop_team(t);
    coll_span_free(t->span);
    free(t->own_pes);
    /* Every signal to this slot here has arrived (the caller synced the
     * team last): the next team in the slot starts from zero lines (epoch
     * 0) and a pSync at SHMEM_SYNC_VALUE. Relaxed: the slot is handed on by
     * a later split's reduction, whose release/acquire orders these. */
    for (int r = 0; r < COLL_ROUNDS_MAX; r++)
        atomic_store_explicit(&tb->lines.round[r].epoch, 0, memory_order_relaxed);
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        atomic_store_explicit((atomic_long *)&t->sync->psync[i], SHMEM_SYNC_VALUE,
                              memory_order_relaxed);
    t->live = 0;
    team_free_slots |= 1UL << t->slot;
}

void team_init(void)
{
    coll_set_t world = {0, 1, shm.npes, shm.me, NULL};
    coll_set_t shared = {shm.node_pes[0], 1, shm.node_npes, 0, shm.node_pes};

    team_free_slots = TEAM_ALL_SLOTS;
    while (shm.node_pes[shared.me] != shm.me)
        shared.me++;
    team_setup(&team_pool[0], 0, &world, NULL);
    team_setup(&team_pool[1], 1, &shared, NULL);
}

void team_fini(void)
{
    /* shmem_finalize's barrier is behind: nothing signals a slot now. */
    for (int k = 0; k < TEAM_SLOTS_MAX; k++)
        if (team_pool[k].live)
            team_drop(&team_pool[k]);
}

int shmem_team_my_pe(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    team_check("shmem_team_my_pe", team);
    return team->set.me;
}

int shmem_team_n_pes(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return -1;
    team_check("shmem_team_n_pes", team);
    return team->set.size;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    static const char call[] = "shmem_team_get_config";

    if (team == SHMEM_TEAM_INVALID)
        return 1;
    team_check(call, team);
    if (config_mask & ~SHMEM_TEAM_NUM_CONTEXTS)
        shm_fatal(call, "config_mask 0x%lx: unknown bits (known: SHMEM_TEAM_NUM_CONTEXTS)",
                  config_mask);
    if (config_mask == 0)
        return 0; /* 1.6: no action, config may be NULL */
    if (config == NULL)
        shm_fatal(call, "config is NULL with config_mask 0x%lx", config_mask);
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    static const char call[] = "shmem_team_translate_pe";

    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID)
        return -1;
    team_check(call, src_team);
    team_check(call, dest_team);
    if ((unsigned)src_pe >= (unsigned)src_team->set.size)
        return -1;
    return team_index_of(dest_team, coll_pe(&src_team->set, src_pe));
}

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
    static const char call[] = "shmem_team_ptr";

    if (team == SHMEM_TEAM_INVALID)
        return NULL;
    team_check(call, team);
    return shmem_ptr(dest, team_world_pe(call, team, pe));
}
