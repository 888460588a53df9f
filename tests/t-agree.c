/*
 * t-agree: a setting that shapes shared memory, given to one rank only,
 * makes pshm_init fail on every rank with the same sentence naming the
 * variable, the ranks and their values; no rank crashes or hangs. Under
 * pshmrun and through the callbacks bootstrap, for GASNET_PSHMNET_QUEUE_MEMORY,
 * GASNET_PSHMNET_QUEUE_DEPTH and GASNET_SUPERNODE_MAXSIZE.
 */
#include "pshm.h"
#include "tests/forkjob.h"
#include "tests/helpers.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *var, *val, *want;
} cases[] = {
    { "GASNET_PSHMNET_QUEUE_MEMORY", "4M",
      "GASNET_PSHMNET_QUEUE_MEMORY differs across the job: rank 0 has \"1048576\", rank 1 has "
      "\"4194304\"; set it the same for every rank" },
    { "GASNET_PSHMNET_QUEUE_DEPTH", "256",
      "GASNET_PSHMNET_QUEUE_DEPTH differs across the job: rank 0 has \"not set\", rank 1 has "
      "\"256\"; set it the same for every rank" },
    { "GASNET_SUPERNODE_MAXSIZE", "1",
      "GASNET_SUPERNODE_MAXSIZE differs across the job: rank 0 has \"0\", rank 1 has \"1\"; "
      "set it the same for every rank" },
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* One rank: the setting on rank 1 only; init must fail with the sentence. */
static int rank_main(int rank, int c, const pshm_init_attr_t *attr)
{
    pshm_ctx_t *ctx = NULL;
    int rc;

    if (rank == 1)
        setenv(cases[c].var, cases[c].val, 1);
    rc = pshm_init(&ctx, attr);
    if (rc == 0) {
        printf("rank %d: pshm_init accepted %s on rank 1 only\n", rank, cases[c].var);
        pshm_finalize(ctx);
        return 3;
    }
    if (rc != -EINVAL || strstr(pshm_last_error(), cases[c].want) == NULL) {
        printf("rank %d: expected EINVAL and \"%s\"\n  got %d: %s\n", rank, cases[c].want, rc,
               pshm_last_error());
        return 4;
    }
    printf("AGREE-OK rank %d: %s\n", rank, pshm_last_error());
    return 0;
}

static int fj_rank(fj_rt_t *rt, void *arg)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    return rank_main(rt->rank, *(int *)arg, &attr);
}

int main(int argc, char **argv)
{
    char exe[PATH_MAX], cmd[PATH_MAX + 256], out[8192];
    ssize_t n;

    if (getenv("PSHM_RANK") != NULL && argc == 2) {
        /* pshmrun ends the job with SIGTERM once a rank reports its failure:
         * let every rank finish its own check first. */
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigprocmask(SIG_BLOCK, &term, NULL);
        int rc = rank_main(atoi(getenv("PSHM_RANK")), atoi(argv[1]), NULL);
        fflush(stdout);
        _exit(rc);
    }
    for (int c = 0; c < NCASES; c++)
        unsetenv(cases[c].var);
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(n > 0);
    exe[n] = '\0';

    for (int c = 0; c < NCASES; c++) {
        /* Under pshmrun: the job fails (the first rank to fail ends it), and
         * each rank saw the sentence. */
        double t0 = fj_now();
        snprintf(cmd, sizeof cmd, "%s --timeout 60 -n 2 -- %s %d", th_tool("pshmrun"), exe, c);
        int st = th_run(cmd, out, sizeof out);
        double took = fj_now() - t0;
        printf("pshmrun, %s=%s on rank 1: status %d in %.1f s\n%s", cases[c].var, cases[c].val,
               st, took, out);
        CHECK(st == 1);
        CHECK(strstr(out, "AGREE-OK rank 0") && strstr(out, "AGREE-OK rank 1"));
        CHECK(strstr(out, "signal") == NULL);
        CHECK(took < 30);

        /* Through the callbacks bootstrap: both ranks return the error. */
        fj_hub_t *h = fj_hub_new();
        int status[2];
        double t = fj_run(h, 2, "agree", fj_rank, &c, status, 30, NULL, NULL);
        printf("callbacks, %s=%s on rank 1: %.1f s\n", cases[c].var, cases[c].val, t);
        CHECK(t >= 0);
        CHECK(fj_exited(status[0], 0) && fj_exited(status[1], 0));
        munmap(h, sizeof *h);
    }
    printf("every mismatch refused on every rank, with the variable, ranks and values\n");
    return T_PASS;
}
