/*
 * ctx.c - which context is live, and the check every public call makes.
 */
#include "base/ctx.h"

#include <errno.h>

/* The live context of this process (declared in base/ctx.h). */
pshm_ctx_t *_Atomic pshm_live_ctx;
static pshm_ctx_t no_ctx;
pshm_ctx_t *pshm_attached_ctx = &no_ctx;

void ctx_set_state(pshm_ctx_t *ctx, int state)
{
    ctx->state = state;
    pshm_attached_ctx = state == CTX_ATTACHED ? ctx : &no_ctx;
}

int ctx_check(const pshm_ctx_t *ctx, int need_state, const char *fn)
{
    if (PSHM_UNLIKELY(ctx == NULL))
        return pshm_err(-EINVAL, "%s: the context is NULL; call pshm_init first", fn);
    if (PSHM_UNLIKELY(ctx != atomic_load_explicit(&pshm_live_ctx, memory_order_relaxed)))
        return pshm_err(-EINVAL, "%s: not a live context (called before pshm_init or after "
                                 "pshm_finalize)", fn);
    if (PSHM_UNLIKELY(need_state == CTX_ATTACHED && ctx->state != CTX_ATTACHED))
        return pshm_err(-EINVAL, "%s: call pshm_attach first", fn);
    return 0;
}
