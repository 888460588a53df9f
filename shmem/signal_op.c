/*
 * signal_op.c - shmem_signal_add and shmem_signal_set (OpenSHMEM 1.6): the
 * signal update of put-with-signal without its data, with and without a
 * context.
 *
 * The same instructions as put-with-signal's update (signal.c), so that
 * either is atomic with respect to the other and to the AMOs on the word:
 * set is a release store, add a locked add; a waiter's acquire load pairs
 * with them. For a PE of another supernode the target applies the same
 * instruction itself (net_amo.c): a non-fetching atomic, complete at the
 * next quiet. There is no data to flush before it.
 */
#include "team.h"
#include "xport.h"

/* The C11 generic macros of these names hide the functions. */
#undef shmem_signal_add
#undef shmem_signal_set

/* add is a constant in each caller: one instruction on the fast path
 * (the transport seam's signal update, xport.h). */
static inline void update(const char *call, uint64_t *sig_addr, uint64_t signal, int add,
                          int pe)
{
    shm_xp_signal(call, sig_addr, signal, add, pe, 0);
}

void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe)
{
    update("shmem_signal_add", sig_addr, signal, 1, pe);
}

void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe)
{
    update("shmem_signal_set", sig_addr, signal, 0, pe);
}

/* The context names an ordering scope (ctx.c) and the team whose PE
 * numbers pe is (ctx_pe, team.h). */
void shmem_ctx_signal_add(shmem_ctx_t c, uint64_t *sig_addr, uint64_t signal, int pe)
{
    update("shmem_ctx_signal_add", sig_addr, signal, 1, CTX_PE("signal_add"));
}

void shmem_ctx_signal_set(shmem_ctx_t c, uint64_t *sig_addr, uint64_t signal, int pe)
{
    update("shmem_ctx_signal_set", sig_addr, signal, 0, CTX_PE("signal_set"));
}
