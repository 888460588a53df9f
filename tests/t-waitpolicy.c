/*
 * t-waitpolicy: each GASNET_WAIT_MODE gives the wait steps their policy:
 * SPIN always spins, BLOCK always yields, SPINBLOCK spins its first 20000
 * steps, AUTO spins unless the host's processes outnumber the CPUs this one
 * may use (ctx->spin_max, which ctx_wait_step compares its step count
 * with); 1000 steps of a wait with every peer alive return 0 and are
 * counted.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static pshm_ctx_t *init_mode(const char *mode)
{
    pshm_ctx_t *ctx = NULL;
    if (mode) setenv("GASNET_WAIT_MODE", mode, 1);
    else unsetenv("GASNET_WAIT_MODE");
    CHECK_OK(pshm_init(&ctx, NULL));
    return ctx;
}

int main(void)
{
    static const struct { const char *mode; uint32_t spin_max; } want[] = {
        {"SPIN", UINT32_MAX}, {"BLOCK", 0}, {"SPINBLOCK", 20000},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        pshm_ctx_t *ctx = init_mode(want[i].mode);
        if (ctx->spin_max != want[i].spin_max) {
            printf("FAIL: GASNET_WAIT_MODE=%s: the waits spin while fewer than %u steps, "
                   "expected %u\n", want[i].mode, ctx->spin_max, want[i].spin_max);
            return T_FAIL;
        }
        CHECK_OK(pshm_finalize(ctx));
    }
    for (int k = 0; k < 2; k++) {
        pshm_ctx_t *ctx = init_mode(k ? "auto" : NULL);
        uint32_t spins = 0;
        if (ctx->spin_max != (ctx->oversubscribed ? 0 : UINT32_MAX)) {
            printf("FAIL: GASNET_WAIT_MODE=%s with %d process(es) on %d CPU(s): the waits "
                   "spin while fewer than %u steps\n", k ? "auto" : "(unset)", ctx->cpu_sharers,
                   ctx->ncores, ctx->spin_max);
            return T_FAIL;
        }
        /* Far in the future: a step that reads the clock checks nothing. */
        ctx->next_live_check_ns = UINT64_MAX;
        for (int s = 0; s < 1000; s++)
            CHECK(ctx_wait_step(ctx, &spins) == 0);
        CHECK(spins == 1000);
        CHECK_OK(pshm_finalize(ctx));
    }
    printf("ok: SPIN, BLOCK, SPINBLOCK and AUTO give the wait steps their policy\n");
    return T_PASS;
}
