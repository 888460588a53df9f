/*
 * t-abort-first: a process that calls pshm_abort after another rank of its
 * supernode did ends with the first abort's code, not its own. Four forked
 * processes (callbacks bootstrap, so each one's exit status is seen
 * directly): rank 3 calls pshm_abort(7); ranks 0-2, waiting in
 * pshm_wait_until, see -ECANCELED and call pshm_abort(1), as a runtime
 * reacting to the failure does. Every rank must exit 7. Then again with
 * pshm_abort(0) (an early successful end, as shmem_global_exit(0)): every
 * rank must exit 0.
 */
#include "internal.h"
#include "tests/forkjob.h"

#define NP 4
#define FIRST 3

static int never(void *arg) { (void)arg; return 0; }

static int rank_main(fj_rt_t *rt, void *arg)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;
    int code = *(const int *)arg;

    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_attach(ctx, 4096));
    CHECK_OK(pshm_barrier(ctx));
    if (rt->rank == FIRST) {
        usleep(100000); /* the others are waiting by now */
        pshm_abort(ctx, code);
    }
    if (pshm_wait_until(ctx, never, NULL) != -ECANCELED)
        return 90;
    pshm_abort(ctx, 1);
}

int main(void)
{
    fj_hub_t *h;
    static const int codes[] = { 7, 0 };
    int st[NP], fails = 0;
    char tag[17];

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm: no two processes share memory\n");
        return T_SKIP;
    }
    h = fj_hub_new();
    for (int c = 0; c < 2; c++) {
        int code = codes[c];
        snprintf(tag, sizeof tag, "ab%dx%d", (int)getpid() % 1000000, c);
        if (fj_run(h, NP, tag, rank_main, (void *)&code, st, 30, NULL, NULL) < 0) {
            printf("FAIL: the job did not end within 30 s\n");
            return T_FAIL;
        }
        for (int r = 0; r < NP; r++) {
            if (fj_exited(st[r], code)) {
                printf("ok: rank %d exited %d\n", r, code);
                continue;
            }
            printf("FAIL: rank %d: wait status 0x%x, expected exit %d (the first abort's "
                   "code)\n", r, st[r], code);
            fails++;
        }
        if (th_count_objects(tag) != 0) {
            printf("FAIL: objects of job %s left behind\n", tag);
            fails++;
        }
    }
    return fails ? T_FAIL : T_PASS;
}
