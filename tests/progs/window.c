/*
 * window - how long named objects exist during pshm_attach, for an embedded
 * job (no pshmrun): N forked processes joined by the callbacks bootstrap each
 * attach a segment of S MiB. The window is bounded above by the time from the
 * first rank entering pshm_attach (objects are created at once) to the last
 * rank leaving it (every name is removed before the final barrier). Only a
 * SIGKILL inside it can leave objects behind.
 *
 * usage: window [NPROCS [SEG_MIB [REPS]]]   (defaults 2 64 5); prints the
 * median, the minimum and the maximum in milliseconds.
 */
#include "tests/forkjob.h"

#include <stdlib.h>

typedef struct times { double enter[FJ_MAX], leave[FJ_MAX]; } times_t;

static int rank_main(fj_rt_t *rt, void *arg)
{
    size_t seg = *(size_t *)arg;
    times_t *t = (times_t *)rt->hub->user;
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;

    if (pshm_init(&ctx, &attr) < 0) {
        fprintf(stderr, "window: init: %s\n", pshm_last_error());
        return 1;
    }
    t->enter[rt->rank] = fj_now();
    if (pshm_attach(ctx, seg) < 0) {
        fprintf(stderr, "window: attach: %s\n", pshm_last_error());
        return 1;
    }
    t->leave[rt->rank] = fj_now();
    return pshm_finalize(ctx) < 0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2, reps = argc > 3 ? atoi(argv[3]) : 5, st[FJ_MAX];
    size_t seg = (size_t)(argc > 2 ? atoi(argv[2]) : 64) << 20;
    double w[64];
    char tag[17];
    fj_hub_t *h;

    if (n < 1 || n > FJ_MAX || reps < 1 || reps > 64 || seg == 0) {
        fprintf(stderr, "usage: window [NPROCS 1..%d [SEG_MIB [REPS 1..64]]]\n", FJ_MAX);
        return 2;
    }
    h = fj_hub_new();
    for (int i = 0; i < reps; i++) {
        times_t *t = (times_t *)h->user;
        double lo = 1e30, hi = 0;
        snprintf(tag, sizeof tag, "win%d%d", (int)getpid() % 100000, i);
        if (fj_run(h, n, tag, rank_main, &seg, st, 60, NULL, NULL) < 0)
            return 1;
        for (int r = 0; r < n; r++) {
            if (!fj_exited(st[r], 0))
                return 1;
            lo = t->enter[r] < lo ? t->enter[r] : lo;
            hi = t->leave[r] > hi ? t->leave[r] : hi;
        }
        w[i] = (hi - lo) * 1e3;
    }
    qsort(w, (size_t)reps, sizeof w[0], cmp);
    printf("%s: %d processes, %zu MiB segments: attach window median %.2f ms (min %.2f, "
           "max %.2f, %d runs)\n", pshm_version(), n, seg >> 20, w[reps / 2], w[0],
           w[reps - 1], reps);
    return 0;
}
