/*
 * t-waitsleep: in the default GASNET_WAIT_MODE (AUTO), a wait that finds
 * nothing for longer than a hand-off sleeps (the process leaves the run
 * queue: a voluntary context switch, which spinning and sched_yield never
 * are), and a wait that starts again does not sleep before its window is
 * over; SPIN never sleeps, whatever the wait's length. Steps of
 * ctx_wait_step with no peer, timed by the clock; the figures are counts of
 * the process's voluntary switches (getrusage), not times, so a busy
 * machine cannot make the test fail.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

static long voluntary_switches(void)
{
    struct rusage ru;

    CHECK(getrusage(RUSAGE_SELF, &ru) == 0);
    return ru.ru_nvcsw;
}

/* Steps of one wait for `ns` of the clock; the voluntary switches meanwhile. */
static long wait_for(pshm_ctx_t *ctx, uint64_t ns)
{
    uint32_t spins = 0;
    long before = voluntary_switches();
    uint64_t end = pshm_now_ns() + ns;

    while (pshm_now_ns() < end)
        CHECK(ctx_wait_step(ctx, &spins) == 0);
    return voluntary_switches() - before;
}

static pshm_ctx_t *init_mode(const char *mode)
{
    pshm_ctx_t *ctx = NULL;

    if (mode)
        setenv("GASNET_WAIT_MODE", mode, 1);
    else
        unsetenv("GASNET_WAIT_MODE");
    CHECK_OK(pshm_init(&ctx, NULL));
    /* Far in the future: a step that reads the clock checks nothing. */
    ctx->next_live_check_ns = UINT64_MAX;
    return ctx;
}

int main(void)
{
    pshm_ctx_t *ctx = init_mode(NULL);
    long n;

    /* 50 ms of waiting: after the first 100 us, sleeps of up to 100 us
     * (each longer by the timer's slack and, on a busy machine, by the
     * wait for a CPU after it: at least 2 is all a loaded host promises). */
    n = wait_for(ctx, 50000000);
    if (n < 2) {
        printf("FAIL: AUTO: a wait of 50 ms slept %ld time(s), expected at least 2 "
               "(a sleep every 256 steps once it lasted 100 us)\n", n);
        return T_FAIL;
    }
    printf("ok: AUTO: a wait of 50 ms slept %ld times\n", n);
    /* 20 waits of 30 us each: none outlasts the window. A switch may still
     * come from elsewhere (a page fault's I/O...): allow one. */
    n = 0;
    for (int i = 0; i < 20; i++)
        n += wait_for(ctx, 30000);
    if (n > 1) {
        printf("FAIL: AUTO: 20 waits of 30 us slept %ld time(s), expected none (the "
               "window is 100 us)\n", n);
        return T_FAIL;
    }
    printf("ok: AUTO: 20 waits of 30 us did not sleep\n");
    CHECK_OK(pshm_finalize(ctx));

    ctx = init_mode("SPIN");
    n = wait_for(ctx, 20000000);
    if (n > 1) {
        printf("FAIL: SPIN: a wait of 20 ms slept %ld time(s), expected none\n", n);
        return T_FAIL;
    }
    printf("ok: SPIN: a wait of 20 ms did not sleep\n");
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
