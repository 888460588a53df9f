/*
 * t-am-synergy-dead: a shared copy (amqueue/synergy.c) whose other side dies
 * in the middle of it. Two forked processes (callbacks bootstrap, so each
 * exit status is seen), a 4 KiB chunk, the owner slowed down per chunk so
 * that the other side surely claims some:
 *   helper: rank 1, polling, is killed (SIGKILL) holding its first claimed
 *           chunk. Rank 0's pshm_put must return -ESRCH naming rank 1, not
 *           hang, with every byte of the destination copied all the same.
 *   owner:  rank 0 is killed in the middle of a Long to rank 1, which is
 *           helping. Rank 1's wait must end with -ESRCH naming rank 0, and
 *           the handler (whose payload is incomplete) must not run.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"
#include "tests/forkjob.h"

#define SIZE (1u << 20)
#define SEG (4u << 20)

enum { H_LONG = 1 };
static int kill_helper, ran;
static atomic_uint claimed;

static struct amq *Q;

/* The owner, about to copy chunk k: waits (10 s at most) until the helper
 * has claimed a chunk too, then goes on slowly. */
static void owner_waits_helper(uint32_t k)
{
    double give_up = fj_now() + 10;
    while ((atomic_load(&Q->job->claim) & 0xffffffffu) <= k + 1 && fj_now() < give_up)
        usleep(100);
}

static void hook(bool helper, uint32_t k)
{
    if (helper) {
        atomic_fetch_add(&claimed, 1);
        if (kill_helper)
            raise(SIGKILL); /* holding chunk k, not yet copied */
        return;
    }
    if (k == 0)
        owner_waits_helper(k);
    if (!kill_helper)
        raise(SIGKILL); /* holding chunk 0, not yet copied */
    usleep(200);
}

static void h_long(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)a, (void)na;
    ran = 1;
}

static int never(void *arg) { (void)arg; return 0; }

static int rank_main(fj_rt_t *rt, void *arg)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = {0, &b};
    pshm_handler_entry_t tab = {H_LONG, h_long, 0};
    pshm_ctx_t *ctx;
    pshm_seginfo_t me, peer;

    kill_helper = *(const int *)arg;
    setenv("PSHM_SYNERGY_MIN", "16K", 1);
    setenv("PSHM_SYNERGY_CHUNK", "4K", 1);
    amq_job_hook = hook;
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    CHECK_OK(pshm_attach(ctx, SEG));
    Q = ctx->amq;
    CHECK_OK(pshm_segment_info(ctx, rt->rank, &me));
    CHECK_OK(pshm_segment_info(ctx, 1 - rt->rank, &peer));
    am_fill(me.local_base, SIZE, 5);
    CHECK_OK(pshm_barrier(ctx));
    if (rt->rank == 1) {
        int rc = pshm_wait_until(ctx, never, NULL);
        if (kill_helper)
            return 90; /* killed in the hook before this */
        if (rc != -ESRCH || !strstr(pshm_last_error(), "rank 0") || ran) {
            printf("FAIL: the helper's wait for a dead owner: rc %d (%s), handler %s\n", rc,
                   pshm_last_error(), ran ? "ran" : "did not run");
            fflush(stdout);
            return 1;
        }
        printf("ok: owner died mid-copy: the helper's wait ended: %s\n", pshm_last_error());
        fflush(stdout);
        return 0;
    }
    usleep(20000); /* rank 1 is polling by now */
    if (!kill_helper) {
        CHECK_OK(pshm_am_request_long(ctx, 1, H_LONG, me.local_base, SIZE,
                                      (char *)peer.owner_base + SIZE, 0, 0, NULL));
        printf("FAIL: the Long was not interrupted (nobody helped?)\n");
        fflush(stdout);
        return 1;
    }
    double t0 = fj_now();
    int rc = pshm_put(ctx, 1, (char *)peer.owner_base + SIZE, me.local_base, SIZE);
    long d = am_diff((char *)peer.local_base + SIZE, SIZE, 5);
    if (rc != -ESRCH || !strstr(pshm_last_error(), "rank 1") || d >= 0) {
        printf("FAIL: put with the helper dead: rc %d (%s), first wrong byte %ld\n", rc,
               pshm_last_error(), d);
        fflush(stdout);
        return 1;
    }
    printf("ok: helper died mid-copy: put returned in %.2f s: %s; every byte there\n",
           fj_now() - t0, pshm_last_error());
    fflush(stdout);
    return 0;
}

int main(void)
{
    fj_hub_t *h;
    int st[2], fails = 0;
    char tag[24];

    if (am_no_peers())
        return T_SKIP;
    h = fj_hub_new();
    for (int k = 1; k >= 0; k--) {
        int dies = k ? 1 : 0, lives = 1 - dies;
        snprintf(tag, sizeof tag, "syn%dx%d", (int)getpid() % 1000000, k & 1);
        if (fj_run(h, 2, tag, rank_main, &k, st, 30, NULL, NULL) < 0) {
            printf("FAIL: the job did not end within 30 s\n");
            return T_FAIL;
        }
        if (!fj_signaled(st[dies], SIGKILL) || !fj_exited(st[lives], 0)) {
            printf("FAIL: %s case: rank %d status 0x%x (want SIGKILL), rank %d 0x%x (want exit "
                   "0)\n", k ? "helper" : "owner", dies, st[dies], lives, st[lives]);
            fails++;
        }
    }
    return fails ? T_FAIL : T_PASS;
}
