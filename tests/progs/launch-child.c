/*
 * launch-child - a process of a pshmrun job that misbehaves on request, for
 * tests/t-launcher.sh. Usage: launch-child MODE [RANK [ARG]]
 *   ok                 init, bootstrap barrier, finalize, exit 0
 *   exit R CODE        rank R exits CODE after init; the others (deaf to
 *                      SIGTERM) wait in a barrier and report the error they get
 *   signal R SIG       rank R raises SIG after init; the others sleep
 *   nofinal R          rank R exits 0 without pshm_finalize; others finalize
 *   mismatch R         rank R contributes 4 bytes to an exchange, the others 8
 *   abort R CODE       rank R calls pshm_abort(CODE); the others sleep
 *   initfail R         rank R asks for another queue depth: every pshm_init
 *                      fails (the settings differ), and each rank exits 1
 *   leak R             rank R creates an object of the job and is killed
 *                      before removing it; the others sleep
 *   sigint             waits for SIGINT, says so, exits 0 (no pshm at all)
 *   sleep TAG          sleeps (TAG: a unique word to find the process by)
 * Before acting every rank prints "rank R ready" so the tests can sync.
 */
#include "internal.h"
#include "launch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank_arg(int argc, char **argv, int i)
{
    return i < argc ? atoi(argv[i]) : 0;
}

static void die(const char *what, int rc)
{
    printf("rank %s: %s failed: %d %s\n", getenv("PSHM_RANK"), what, rc, pshm_last_error());
    fflush(stdout);
    exit(1);
}

static void sleep_forever(void)
{
    for (;;)
        pause();
}

static volatile sig_atomic_t got_int;
static void on_int(int sig) { (void)sig; got_int = 1; }

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int target = rank_arg(argc, argv, 2), arg = rank_arg(argc, argv, 3);
    pshm_ctx_t *ctx;
    int rc, me;

    setvbuf(stdout, NULL, _IONBF, 0);
    if (strcmp(mode, "sleep") == 0)
        sleep_forever();
    if (strcmp(mode, "sigint") == 0) {
        sigset_t none;
        signal(SIGINT, on_int);
        printf("rank %s ready\n", getenv("PSHM_RANK"));
        sigemptyset(&none);
        while (!got_int)
            sigsuspend(&none);
        printf("rank %s got SIGINT\n", getenv("PSHM_RANK"));
        return 0;
    }

    /* Survivors stay to report what the bootstrap says: pshmrun's SIGTERM
     * may come as soon as init is over, so it is ignored from the start. */
    if (strcmp(mode, "exit") == 0 || strcmp(mode, "mismatch") == 0)
        signal(SIGTERM, SIG_IGN);
    if (strcmp(mode, "initfail") == 0 && getenv("PSHM_RANK") != NULL &&
        atoi(getenv("PSHM_RANK")) == target)
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "32", 1);
    rc = pshm_init(&ctx, NULL);
    if (rc < 0)
        die("pshm_init", rc);
    me = pshm_rank(ctx);
    printf("rank %d ready\n", me);
    if (strcmp(mode, "ok") == 0) {
        if ((rc = boot_barrier(ctx->boot)) < 0)
            die("barrier", rc);
    } else if (strcmp(mode, "exit") == 0) {
        if (me == target)
            exit(arg);
        signal(SIGTERM, SIG_IGN);   /* stay to report what the barrier says */
        rc = boot_barrier(ctx->boot);
        die("barrier", rc);   /* must fail: the job is over */
    } else if (strcmp(mode, "signal") == 0 || strcmp(mode, "abort") == 0 ||
               strcmp(mode, "reason") == 0 || strcmp(mode, "leak") == 0) {
        if (me != target)
            sleep_forever();
        if (mode[0] == 's')
            raise(arg);
        if (mode[0] == 'a')
            pshm_abort(ctx, arg);
        if (mode[0] == 'r')
            pshm_abort_reason(ctx, arg, "called my_layer_exit(6)");
        seg_obj_t o;
        printf("tag %s\n", ctx->boot->tag);
        rc = seg_create(&o, &ctx->cfg, ctx->boot->tag, SEG_KIND_SEGMENT, me, me,
                        (uint32_t)pshm_size(ctx), 65536);
        if (rc < 0)
            die("seg_create", rc);
        raise(SIGKILL);
    } else if (strcmp(mode, "mismatch") == 0) {
        char mine[8] = { 0 }, all[8 * LAUNCH_MAX_PROCS];
        signal(SIGTERM, SIG_IGN);   /* stay to report what the exchange says */
        rc = boot_exchange(ctx->boot, mine, me == target ? 4 : 8, all);
        die("exchange", rc);   /* must fail: unequal lengths end the job */
    } else if (strcmp(mode, "nofinal") == 0) {
        if (me == target)
            exit(0);
    } else {
        fprintf(stderr, "launch-child: unknown mode '%s'\n", mode);
        return 2;
    }
    rc = pshm_finalize(ctx);
    if (rc < 0)
        die("pshm_finalize", rc);
    return 0;
}
