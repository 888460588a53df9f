/*
 * team.h - OpenSHMEM teams inside the layer: what a team handle points at,
 * and what the team collectives need from it.
 *
 * A team is a list of PEs of the job (world PEs), in team order. Every team
 * made from SHMEM_TEAM_WORLD by strided or 2-D splits is an arithmetic
 * sequence of world PEs (start + i * stride, stride possibly negative), so
 * its coll_set_t has pes == NULL; SHMEM_TEAM_SHARED (this PE's supernode)
 * and the teams split from it carry an explicit list (set.pes).
 *
 * The library owns each team's synchronization state: a slot of the
 * layer's scratch area at the start of the symmetric heap, at the same
 * offset on every member (the slot index is agreed on at the split), so the
 * team's pSync and pWrk are symmetric addresses the collectives use as they
 * use a user's.
 */
#ifndef PSHMEM_TEAM_H
#define PSHMEM_TEAM_H

#include "coll.h"

#include <stdint.h>

/* Scratch area layout (at the start of the heap):
 *   [0, TEAM_SLOTS_OFFSET)                 shmem_barrier_all's lines
 *   TEAM_SLOTS_OFFSET + k * TEAM_SLOT_SIZE  team slot k (k < TEAM_SLOTS_MAX)
 *   SHM_SCRATCH_FIXED + 64 * i               the active sets' line of PE i
 *                                            of the supernode (coll_set.c)
 * Slot 0 is SHMEM_TEAM_WORLD's, slot 1 SHMEM_TEAM_SHARED's. */
#define TEAM_SLOTS_OFFSET 4096u
#define TEAM_SLOT_SIZE 2048u
#define TEAM_SLOTS_MAX 64
_Static_assert(TEAM_SLOTS_OFFSET + TEAM_SLOTS_MAX * TEAM_SLOT_SIZE <= SHM_SCRATCH_FIXED,
               "the team slots fit in the layer's scratch area");

/* One team slot: each part starts on its own cache line. */
struct team_slot {
    _Alignas(64) long psync[SHMEM_SYNC_SIZE];            /* the team's pSync */
    _Alignas(64) unsigned char pwrk[16 * SHMEM_REDUCE_MIN_WRKDATA_SIZE]; /* pWrk, any type */
    _Alignas(64) unsigned char bar[TEAM_SLOT_SIZE - SHMEM_SYNC_SIZE * sizeof(long) -
                                   16 * SHMEM_REDUCE_MIN_WRKDATA_SIZE]; /* team sync lines */
};
_Static_assert(sizeof(struct team_slot) == TEAM_SLOT_SIZE, "a slot is TEAM_SLOT_SIZE bytes");

/* What the team core keeps in a slot's bar bytes: shmem_team_sync's lines
 * (the epoch barrier of shmem_barrier_all, over the team's members of this
 * supernode), then a split's slot agreement: this PE's free-slot mask (the
 * reduction's source) and the parent's AND of them (its dest), on their own
 * line, for the splits that take this team as their parent. */
struct team_bar {
    coll_lines_t lines;
    _Alignas(64) long split_free;
    long split_agreed;
};
_Static_assert(sizeof(struct team_bar) <= sizeof(((struct team_slot *)0)->bar),
               "the team core's state fits in a slot's bar bytes");
_Static_assert(TEAM_SLOTS_MAX <= 8 * sizeof(long), "a long holds a bit per slot");

struct shmem_ctx_s;

struct shmem_team_s {
    coll_set_t set;             /* members as world PEs; set.me: my index */
    int slot;                   /* its slot in the scratch area */
    struct team_slot *sync;     /* my copy of the slot (symmetric address) */
    coll_span_t *span;          /* how it lies across supernodes; NULL: one supernode */
    shmem_team_config_t config; /* as shmem_team_get_config reports it */
    long config_mask;
    int nctx;                   /* contexts created from it and not destroyed */
    int predefined;             /* WORLD or SHARED: never destroyed */
    /* The team core's own (team.c, team_split.c, team_sync.c, ctx.c): */
    int live;                   /* a valid team on this PE (not destroyed) */
    int *own_pes;               /* set.pes when this team allocated it, else NULL */
    coll_dbar_t bar;            /* shmem_team_sync's barrier over my supernode's members */
    struct shmem_ctx_s *ctxs;   /* its contexts, linked through their `next` */
};

/* The team's set, fatal (naming call) for SHMEM_TEAM_INVALID or a handle
 * that is not a live team. */
const coll_set_t *team_set(const char *call, shmem_team_t team) SHM_HIDDEN;

/* For a collective on team: its span across supernodes with the message
 * sequence advanced by one (every member calls it once per collective, so
 * all agree), or NULL when the team lies in one supernode (the
 * one-supernode algorithms then apply as they are). */
coll_span_t *team_span_next(const char *call, shmem_team_t team) SHM_HIDDEN;

/* The team's own pSync (SHMEM_SYNC_SIZE longs at SHMEM_SYNC_VALUE between
 * collectives) and pWrk (SHMEM_REDUCE_MIN_WRKDATA_SIZE elements of any
 * type): symmetric addresses, the same on every member. */
static inline long *team_psync(shmem_team_t team)
{
    return team->sync->psync;
}
static inline void *team_pwrk(shmem_team_t team)
{
    return team->sync->pwrk;
}

/* The handle of slot k (a team's handle never changes while it lives:
 * the teams are a static array indexed by slot). */
extern struct shmem_team_s team_pool[TEAM_SLOTS_MAX] SHM_HIDDEN;

/* team_check's message: names call and says what is wrong with team. */
_Noreturn void team_check_fail(const char *call, shmem_team_t team) SHM_HIDDEN;
/* shm_fatal unless the layer is initialized and team is a live team
 * (SHMEM_TEAM_INVALID included). Inline, no division: an address inside
 * the pool at the start of the entry its slot names (an unsigned slot
 * times the entry's size cannot wrap, so the equality bounds the slot
 * too), and live. A live team implies an initialized layer: teams are set
 * up by shmem_init and splits, and team_fini drops every one. */
static inline void team_check(const char *call, shmem_team_t team)
{
    uintptr_t off = (uintptr_t)team - (uintptr_t)team_pool;

    if (SHM_UNLIKELY(off > sizeof team_pool - sizeof team_pool[0] ||
                     (uintptr_t)(unsigned)team->slot * sizeof team_pool[0] != off ||
                     !team->live))
        team_check_fail(call, team);
}

/* The world PE of team member i (0 <= i < size, checked: fatal naming call
 * and the valid range). */
int team_world_pe(const char *call, shmem_team_t team, int i) SHM_HIDDEN;

/* Member index of world PE pe in team, -1 if it is not a member. */
int team_index_of(shmem_team_t team, int pe) SHM_HIDDEN;

/* Makes slot k a live team over set s (a copy; pes, if not NULL, becomes
 * the team's to free): its sync state, its span. Not collective. */
void team_setup(shmem_team_t t, int k, const coll_set_t *s, int *own_pes) SHM_HIDDEN;
/* Drops team t on this PE (its contexts, span, list); its slot is free again. */
void team_drop(shmem_team_t t) SHM_HIDDEN;
/* The slots free on this PE, a bit each (slot k: bit k). */
extern unsigned long team_free_slots SHM_HIDDEN;

/* A context (ctx.c): an ordering scope (every context orders as the
 * default one does here) and the team whose PE numbers its point-to-point
 * routines take. */
struct shmem_ctx_s {
    long options;
    shmem_team_t team;        /* SHMEM_TEAM_WORLD for shmem_ctx_create's */
    struct shmem_ctx_s *next; /* the team's other contexts */
};
/* Destroys every context of team t (quiet first), as shmem_team_destroy
 * does (SOS: private ones too). */
void ctx_drop_team(shmem_team_t t) SHM_HIDDEN;
/* ctx_pe's slow path: checks ctx and pe (fatal naming call), translates. */
int ctx_team_pe(const char *call, shmem_ctx_t ctx, int pe) SHM_HIDDEN;
/* The world PE of PE pe of ctx's team, for a shmem_ctx_* routine: one
 * compare for a context of SHMEM_TEAM_WORLD (its handle is &team_pool[0], a
 * link-time constant), the team's table otherwise. */
static inline int ctx_pe(const char *call, shmem_ctx_t ctx, int pe)
{
    if (SHM_LIKELY(ctx != NULL && ctx->team == &team_pool[0]))
        return pe;
    return ctx_team_pe(call, ctx, pe);
}

/* In a shmem_ctx_<what> routine whose context is c and PE pe: the world PE. */
#define CTX_PE(what) ctx_pe("shmem_ctx_" what, c, pe)

/* shmem_team_sync's barrier (team_sync.c), for the layer's own use too. */
void team_sync(const char *call, shmem_team_t team) SHM_HIDDEN;

/* Set up WORLD and SHARED (collective, inside shmem_init after the heap is
 * mapped); drop every team (shmem_finalize). */
void team_init(void) SHM_HIDDEN;
void team_fini(void) SHM_HIDDEN;

#endif /* PSHMEM_TEAM_H */
