/*
 * t-sigguard-window: a SIGTERM (default action) at a random moment of the
 * start-up of a 2-process job with 64 MiB segments leaves nothing behind,
 * whatever the moment: before init, while the objects are created and their
 * storage reserved, while peers map them, after attach. No launcher cleans
 * up here (callbacks bootstrap): the dying process's own guard must remove
 * its names, the survivor its own.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <stdlib.h>

#define ROUNDS 30
#define SEGSIZE ((size_t)64 << 20)
#define VICTIM 1

typedef struct shared {
    _Atomic int phase[2];     /* 0 starting, 1 in pshm_attach, 2 attached, 3 finalized */
    _Atomic double t_attach[2], t_attached[2];
} shared_t;
_Static_assert(sizeof(shared_t) <= FJ_USER, "user area");

static int rank_fn(fj_rt_t *rt, void *arg)
{
    shared_t *s = (shared_t *)rt->hub->user;
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;
    (void)arg;

    if (pshm_init(&ctx, &attr) < 0)
        return 0;   /* the peer died before: nothing was created */
    atomic_store(&s->t_attach[rt->rank], fj_now());
    atomic_store(&s->phase[rt->rank], 1);
    int rc = pshm_attach(ctx, SEGSIZE);
    atomic_store(&s->t_attached[rt->rank], fj_now());
    atomic_store(&s->phase[rt->rank], 2);
    if (rc == 0)
        rc = pshm_barrier(ctx);
    pshm_finalize(ctx);
    atomic_store(&s->phase[rt->rank], 3);
    return 0;
}

typedef struct plan {
    fj_hub_t *h;
    double delay;        /* seconds after the fork; < 0: no kill */
    int phase_at_kill;
} plan_t;

static void killer(pid_t *pids, void *arg)
{
    plan_t *p = arg;
    shared_t *s = (shared_t *)p->h->user;
    if (p->delay < 0)
        return;
    usleep((useconds_t)(p->delay * 1e6));
    p->phase_at_kill = atomic_load(&s->phase[VICTIM]);
    kill(pids[VICTIM], SIGTERM);
}

int main(void)
{
    fj_hub_t *h;
    shared_t *s;
    plan_t plan;
    char tag[PSHM_TAG_MAX + 1];
    int status[2], in_window = 0, fails = 0;
    double w0, w1;

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm creates no named object\n");
        return T_SKIP;
    }
    h = fj_hub_new();
    s = (shared_t *)h->user;
    srand((unsigned)getpid());

    /* Calibration: where the attach window lies after the fork. */
    plan = (plan_t){ h, -1, 0 };
    memset(s, 0, sizeof *s);
    double t0 = fj_now();
    CHECK(fj_run(h, 2, "sgwcal", rank_fn, &plan, status, 60, NULL, killer) >= 0);
    CHECK(fj_exited(status[0], 0) && fj_exited(status[1], 0));
    w0 = atomic_load(&s->t_attach[VICTIM]) - t0;
    w1 = atomic_load(&s->t_attached[VICTIM]) - t0;
    printf("attach window of rank %d: %.1f to %.1f ms after the fork\n", VICTIM, w0 * 1e3,
           w1 * 1e3);
    CHECK(th_count_objects("sgwcal") == 0);

    for (int r = 0; r < ROUNDS; r++) {
        /* Half the rounds anywhere in 0-60 ms, half inside the window seen. */
        double u = rand() / (double)RAND_MAX;
        plan = (plan_t){ h, r % 2 ? u * 0.060 : w0 + u * (w1 - w0), -1 };
        memset(s, 0, sizeof *s);
        snprintf(tag, sizeof tag, "sgw%dx%d", r, (int)getpid() % 100000);
        CHECK(fj_run(h, 2, tag, rank_fn, &plan, status, 60, NULL, killer) >= 0);
        int left = th_count_objects(tag);
        in_window += plan.phase_at_kill == 1;
        if (left != 0 || !(fj_signaled(status[VICTIM], SIGTERM) ||
                           fj_exited(status[VICTIM], 0)) || !fj_exited(status[0], 0)) {
            printf("FAIL round %d: SIGTERM %.1f ms after the fork (victim in phase %d): %d "
                   "objects of job %s left; statuses %#x %#x\n", r, plan.delay * 1e3,
                   plan.phase_at_kill, left, tag, status[0], status[1]);
            fails++;
        }
    }
    printf("%d rounds, %d with the SIGTERM inside pshm_attach: %d left objects behind\n",
           ROUNDS, in_window, fails);
    CHECK(in_window > 0);
    return fails ? T_FAIL : T_PASS;
}
