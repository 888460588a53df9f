/*
 * team_sync.c - shmem_team_sync: the cost of shmem_barrier_all on any team.
 *
 * Each team has its own lines in its scratch slot and runs the epoch
 * dissemination barrier of shmem_barrier_all on them (coll_dbar,
 * coll_barrier_all.c) over its members of this supernode: no pSync
 * counters to consume, one line per round. A team across supernodes syncs
 * hierarchically, as shmem_barrier_all does: its members of each
 * supernode, then their leaders over MPI (coll_net_sync, on the team's
 * span), then each supernode's members again, which leave once their
 * leader is back.
 */
#include "team.h"

/* A team across supernodes: out of line. */
static __attribute__((noinline)) void sync_team_span(const char *call, shmem_team_t team)
{
    coll_span_t *sp = team->span;

    sp->seq++; /* team_span_next's step: the leaders' message tags */
    coll_dbar(&team->bar);
    if (sp->local.me == 0)
        coll_net_sync(call, sp);
    coll_dbar(&team->bar);
}

/* Inline in both callers: shmem_team_sync pays no second call, and a
 * team in one supernode only coll_dbar. */
static inline void sync_team(const char *call, shmem_team_t team)
{
    team_check(call, team);
    if (SHM_UNLIKELY(team->span != NULL))
        sync_team_span(call, team);
    else if (SHM_LIKELY(team->bar.rounds > 0))
        coll_dbar(&team->bar);
    else /* a team of one: still a full fence, as coll_sync's for one */
        atomic_thread_fence(memory_order_seq_cst);
}

void team_sync(const char *call, shmem_team_t team)
{
    sync_team(call, team);
}

int shmem_team_sync(shmem_team_t team)
{
    sync_team("shmem_team_sync", team);
    return 0;
}
