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

/* Scratch area layout (SHM_SCRATCH_SIZE bytes at the start of the heap):
 *   [0, TEAM_SLOTS_OFFSET)                 shmem_barrier_all's lines
 *   TEAM_SLOTS_OFFSET + k * TEAM_SLOT_SIZE  team slot k (k < TEAM_SLOTS_MAX)
 * Slot 0 is SHMEM_TEAM_WORLD's, slot 1 SHMEM_TEAM_SHARED's. */
#define TEAM_SLOTS_OFFSET 4096u
#define TEAM_SLOT_SIZE 2048u
#define TEAM_SLOTS_MAX 64
_Static_assert(TEAM_SLOTS_OFFSET + TEAM_SLOTS_MAX * TEAM_SLOT_SIZE <= SHM_SCRATCH_SIZE,
               "the team slots fit in the layer's scratch area");

/* One team slot: each part starts on its own cache line. */
struct team_slot {
    _Alignas(64) long psync[SHMEM_SYNC_SIZE];            /* the team's pSync */
    _Alignas(64) unsigned char pwrk[16 * SHMEM_REDUCE_MIN_WRKDATA_SIZE]; /* pWrk, any type */
    _Alignas(64) unsigned char bar[TEAM_SLOT_SIZE - SHMEM_SYNC_SIZE * sizeof(long) -
                                   16 * SHMEM_REDUCE_MIN_WRKDATA_SIZE]; /* team sync lines */
};
_Static_assert(sizeof(struct team_slot) == TEAM_SLOT_SIZE, "a slot is TEAM_SLOT_SIZE bytes");

struct shmem_team_s {
    coll_set_t set;             /* members as world PEs; set.me: my index */
    int slot;                   /* its slot in the scratch area */
    struct team_slot *sync;     /* my copy of the slot (symmetric address) */
    coll_span_t *span;          /* how it lies across supernodes; NULL: one supernode */
    shmem_team_config_t config; /* as shmem_team_get_config reports it */
    long config_mask;
    int nctx;                   /* contexts created from it and not destroyed */
    int predefined;             /* WORLD or SHARED: never destroyed */
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

/* Set up WORLD and SHARED (collective, inside shmem_init after the heap is
 * mapped); drop every team (shmem_finalize). */
void team_init(void) SHM_HIDDEN;
void team_fini(void) SHM_HIDDEN;

#endif /* PSHMEM_TEAM_H */
