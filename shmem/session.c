/*
 * session.c - communication sessions (OpenSHMEM 1.6):
 * shmem_ctx_session_start and shmem_ctx_session_stop.
 *
 * A session is a hint: it must not change the completion or ordering of
 * any operation, and the library may ignore it. Here it has nothing to
 * act on, so it is checked and has no effect:
 *   - to a PE of my supernode every put, get and atomic is a load, store
 *     or atomic instruction, complete on return: there is nothing to
 *     buffer, combine or coalesce that would cost less than doing it;
 *   - to a PE of another supernode (MPI), the routines that batching
 *     helps are deferred already: a small blocking put leaves from the
 *     bounce ring without a flush, nonblocking puts, gets and non-fetching
 *     atomics are completed only by the next quiet (net_rma.c, net_amo.c).
 *     What still waits (a large blocking put's local flush, a get, a
 *     fetching atomic) must wait in a session too.
 * So neither SHMEM_CTX_SESSION_BATCH nor total_ops selects anything, and a
 * session keeps no state (no routine reads it). The arguments are checked
 * as every routine's: unknown bits, or a NULL config with a mask that asks
 * for its fields, end the job.
 */
#include "shmem_internal.h"

void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                             const shmem_ctx_session_config_t *config, long config_mask)
{
    static const char call[] = "shmem_ctx_session_start";

    if (ctx == SHMEM_CTX_INVALID)
        return; /* no action, at once (specification) */
    shm_check_init(call);
    if (options & ~SHMEM_CTX_SESSION_BATCH)
        shm_fatal(call, "options 0x%lx: unknown bits (known: SHMEM_CTX_SESSION_BATCH)",
                  options);
    if (config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS)
        shm_fatal(call, "config_mask 0x%lx: unknown bits (known: SHMEM_CTX_SESSION_TOTAL_OPS)",
                  config_mask);
    if (config_mask != 0 && config == NULL)
        shm_fatal(call, "config is NULL with config_mask 0x%lx", config_mask);
}

void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
    /* A stopped session, or none: no effect either (specification). */
    if (ctx != SHMEM_CTX_INVALID)
        shm_check_init("shmem_ctx_session_stop");
}
