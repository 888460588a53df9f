/*
 * t-boot-timeout: a rank that never calls pshm_init does not make the others
 * wait forever. Under pshmrun with PSHM_BOOT_TIMEOUT=1, the ranks waiting in
 * pshm_init fail with ETIMEDOUT naming the missing rank, within seconds, and
 * pshmrun's message names it; a bad value is refused; with no limit
 * (--boot-timeout 0), --timeout ends the job and its message names the rank
 * that never arrived; when every rank joined but one never reaches an
 * exchange (pshm_attach), --timeout's message names it too.
 */
#include "pshm.h"
#include "tests/forkjob.h"
#include "tests/helpers.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MISSING 2

/* Every rank joins; rank 2 never reaches pshm_attach's exchanges. */
static int rank_attach(int rank)
{
    pshm_ctx_t *ctx = NULL;

    if (pshm_init(&ctx, NULL) < 0)
        return 1;
    if (rank == MISSING)
        sleep(60);
    return pshm_attach(ctx, 4096) < 0 ? 1 : 0;
}

static int rank_main(int rank, bool check)
{
    pshm_ctx_t *ctx = NULL;
    int rc;

    if (rank == MISSING) {
        sleep(60);   /* "never" joins: ended by pshmrun */
        return 5;
    }
    rc = pshm_init(&ctx, NULL);
    if (!check)
        return rc < 0 ? 1 : 0;
    if (rc == 0) {
        printf("rank %d: pshm_init succeeded without rank %d\n", rank, MISSING);
        return 3;
    }
    if (rc != -ETIMEDOUT || !strstr(pshm_last_error(), "rank 2 never called pshm_init") ||
        !strstr(pshm_last_error(), "PSHM_BOOT_TIMEOUT")) {
        printf("rank %d: expected ETIMEDOUT naming rank 2, got %d: %s\n", rank, rc,
               pshm_last_error());
        return 4;
    }
    printf("BOOT-OK rank %d: %s\n", rank, pshm_last_error());
    return 0;
}

int main(int argc, char **argv)
{
    char exe[PATH_MAX], cmd[PATH_MAX + 256], out[8192];
    ssize_t n;
    int st;

    if (getenv("PSHM_RANK") != NULL && argc == 2) {
        /* Let the waiting ranks report before pshmrun's SIGTERM. */
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        if (atoi(getenv("PSHM_RANK")) != MISSING)
            sigprocmask(SIG_BLOCK, &term, NULL);
        int rank = atoi(getenv("PSHM_RANK"));
        int rc = strcmp(argv[1], "attach") == 0 ? rank_attach(rank)
                                                : rank_main(rank, strcmp(argv[1], "check") == 0);
        fflush(stdout);
        _exit(rc);
    }
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(n > 0);
    exe[n] = '\0';

    double t0 = fj_now();
    snprintf(cmd, sizeof cmd, "PSHM_BOOT_TIMEOUT=1 %s --timeout 60 -n 3 -- %s check",
             th_tool("pshmrun"), exe);
    st = th_run(cmd, out, sizeof out);
    double took = fj_now() - t0;
    printf("PSHM_BOOT_TIMEOUT=1, rank 2 never joins: status %d in %.1f s\n%s", st, took, out);
    CHECK(st == 1);
    CHECK(strstr(out, "BOOT-OK rank 0") && strstr(out, "BOOT-OK rank 1"));
    CHECK(strstr(out, "pshmrun: rank 2 never called pshm_init") != NULL);
    CHECK(took < 20);

    snprintf(cmd, sizeof cmd, "PSHM_BOOT_TIMEOUT=1x %s -n 1 -- true", th_tool("pshmrun"));
    st = th_run(cmd, out, sizeof out);
    printf("PSHM_BOOT_TIMEOUT=1x: status %d\n%s", st, out);
    CHECK(st == 2 && strstr(out, "PSHM_BOOT_TIMEOUT") != NULL);

    snprintf(cmd, sizeof cmd, "%s --boot-timeout 0 --timeout 2 -n 3 -- %s wait",
             th_tool("pshmrun"), exe);
    st = th_run(cmd, out, sizeof out);
    printf("--boot-timeout 0 --timeout 2: status %d\n%s", st, out);
    CHECK(st == 124);
    CHECK(strstr(out, "pshmrun: rank 2 never called pshm_init") != NULL);

    snprintf(cmd, sizeof cmd, "%s --timeout 2 -n 3 -- %s attach", th_tool("pshmrun"), exe);
    st = th_run(cmd, out, sizeof out);
    printf("rank 2 never reaches pshm_attach, --timeout 2: status %d\n%s", st, out);
    CHECK(st == 124);
    CHECK(strstr(out, "pshmrun: 2 ranks wait in a bootstrap exchange for rank 2") != NULL);

    /* The library parses it as strictly (pshm-info reports it so). */
    pshm_ctx_t *ctx;
    setenv("PSHM_BOOT_TIMEOUT", "-1", 1);
    CHECK_ERR(pshm_init(&ctx, NULL), -EINVAL);
    CHECK(strstr(pshm_last_error(), "PSHM_BOOT_TIMEOUT") != NULL);
    unsetenv("PSHM_BOOT_TIMEOUT");
    printf("a rank that never joins is named, and the others do not wait forever\n");
    return T_PASS;
}
