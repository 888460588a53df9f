/*
 * pe_quiet.c - shmem_pe_quiet and shmem_ctx_pe_quiet (OpenSHMEM 1.6):
 * quiet toward a list of PEs.
 *
 * To a PE of my supernode every put, get and atomic is complete when it
 * returns (order.c): what is left is the visibility of this PE's stores,
 * and a sequentially consistent fence gives it for every PE at once, as
 * shmem_quiet's does. To a PE of another supernode the operations issued
 * through MPI since the last quiet are completed for that PE alone: its
 * puts and gets flushed, its non-fetching atomics acknowledged
 * (net_amo.c). Nothing pending through MPI (one supernode, or right after
 * a quiet): the fence is all. A PE listed twice is completed twice.
 * shmem_ctx_pe_quiet's list holds PE numbers of the context's team. The
 * completion is the transport seam's (shm_xp_pe_quiet, xport.c).
 */
#include "team.h"
#include "xport.h"

/* The world PE of target_pes[i], a PE number of ctx's team, checked
 * (fatal naming call, i and the valid range). */
static int target(const char *call, shmem_ctx_t ctx, const int *target_pes, size_t i)
{
    const coll_set_t *s = &ctx->team->set;
    int pe = target_pes[i];

    if (SHM_UNLIKELY((unsigned)pe >= (unsigned)s->size))
        shm_fatal(call, "target_pes[%zu] is PE %d, out of range: %s has %d PEs (0 to %d)", i,
                  pe, ctx->team == SHMEM_TEAM_WORLD ? "this job" : "the context's team",
                  s->size, s->size - 1);
    return coll_pe(s, pe);
}

static void pe_quiet(const char *call, shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    if (npes == 0)
        return; /* target_pes is ignored (specification) */
    shm_check_init(call);
    if (target_pes == NULL)
        shm_fatal(call, "target_pes is NULL with npes %zu", npes);
    for (size_t i = 0; i < npes; i++)
        (void)target(call, ctx, target_pes, i);
    /* The list is checked whole before anything is completed; then each
     * PE, as a world PE, through the seam. */
    if (ctx->team == SHMEM_TEAM_WORLD) {
        shm_xp_pe_quiet(target_pes, npes);
        return;
    }
    for (size_t i = 0; i < npes; i++) {
        int pe = target(call, ctx, target_pes, i);

        shm_xp_pe_quiet(&pe, 1);
    }
}

void shmem_pe_quiet(const int *target_pes, size_t npes)
{
    pe_quiet("shmem_pe_quiet", SHMEM_CTX_DEFAULT, target_pes, npes);
}

/* Every context reaches every PE the same way (ctx.c), but a team's
 * context takes PE numbers of its team, as its puts do; on
 * SHMEM_CTX_INVALID nothing is done, as shmem_ctx_quiet does nothing. */
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes)
{
    if (ctx != SHMEM_CTX_INVALID)
        pe_quiet("shmem_ctx_pe_quiet", ctx, target_pes, npes);
}
