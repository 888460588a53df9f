/*
 * team_errors.c - misuse of the team routines, one case per run (argv[1]):
 * each must end the job with a message naming the routine and the bad value
 * (tests/t-shmem-team-errors.sh checks the words).
 */
#include "check.h"

#include <stdint.h>
#include <string.h>

static long x;

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    int npes;
    shmem_team_t t;

    shmem_init();
    npes = shmem_n_pes();
    if (!strcmp(c, "sync-invalid")) {
        shmem_team_sync(SHMEM_TEAM_INVALID);
    } else if (!strcmp(c, "destroyed")) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &t);
        shmem_team_destroy(t);
        (void)shmem_team_my_pe(t);
    } else if (!strcmp(c, "bogus")) {
        (void)shmem_team_n_pes((shmem_team_t)(void *)&x);
    } else if (!strcmp(c, "ptr-pe")) {
        (void)shmem_team_ptr(SHMEM_TEAM_WORLD, &x, npes);
    } else if (!strcmp(c, "ctx-pe")) {
        shmem_ctx_t ctx;

        const char *op = argc > 2 ? argv[2] : "p";
        static uint64_t sig;
        int one = 1;

        /* PE 1 is in the job, not in the team: each routine must refuse it. */
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &t);
        if (t != SHMEM_TEAM_INVALID) {
            shmem_team_create_ctx(t, 0, &ctx);
            if (!strcmp(op, "p"))
                shmem_ctx_long_p(ctx, &x, 1, 1); /* the team has one PE */
            else if (!strcmp(op, "ibput"))
                shmem_ctx_long_ibput(ctx, &x, &x, 1, 1, 1, 1, 1);
            else if (!strcmp(op, "ibget64"))
                shmem_ctx_ibget64(ctx, &x, &x, 1, 1, 1, 1, 1);
            else if (!strcmp(op, "signal_add"))
                shmem_ctx_signal_add(ctx, &sig, 1, 1);
            else if (!strcmp(op, "signal_set"))
                shmem_ctx_signal_set(ctx, &sig, 1, 1);
            else if (!strcmp(op, "pe_quiet"))
                shmem_ctx_pe_quiet(ctx, &one, 1);
        }
        shmem_barrier_all();
    } else if (!strcmp(c, "ctx-invalid")) {
        shmem_ctx_long_p(SHMEM_CTX_INVALID, &x, 1, 0);
    } else if (!strcmp(c, "destroy-world")) {
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    } else if (!strcmp(c, "destroy-shared")) {
        shmem_team_destroy(SHMEM_TEAM_SHARED);
    } else if (!strcmp(c, "config-mask")) {
        shmem_team_config_t cfg;

        (void)shmem_team_get_config(SHMEM_TEAM_WORLD, 6, &cfg);
    } else if (!strcmp(c, "config-null")) {
        (void)shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL,
                                       SHMEM_TEAM_NUM_CONTEXTS, &t);
    } else if (!strcmp(c, "xrange")) {
        shmem_team_t y;

        (void)shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &t, NULL, 0, &y);
    } else {
        printf("unknown case '%s'\n", c);
        shmem_global_exit(2);
    }
    shmem_finalize();
    return 0;
}
