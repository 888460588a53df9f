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

void team_sync(const char *call, shmem_team_t team)
{
    coll_span_t *sp = team_span_next(call, team); /* checks the handle */

    if (team->bar.rounds == 0 && sp == NULL) {
        /* A team of one: nobody to wait for; still a full fence, as
         * coll_sync's for an active set of one. */
        atomic_thread_fence(memory_order_seq_cst);
        return;
    }
    coll_dbar(&team->bar);
    if (sp == NULL)
        return;
    if (sp->local.me == 0)
        coll_net_sync(call, sp);
    coll_dbar(&team->bar);
}

int shmem_team_sync(shmem_team_t team)
{
    team_sync("shmem_team_sync", team);
    return 0;
}
