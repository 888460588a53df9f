/*
 * tcoll_errors.c MODE - one misuse of a team collective per run;
 * t-shmem-tcoll-errors.sh checks that the job ends with a non-zero status
 * and the message it expects. A PE that gets past the call says so.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long buf[64];
static int ibuf[64];

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";
    int npes, rc = 0;
    int local[4] = {0};
    shmem_team_t gone = SHMEM_TEAM_INVALID;

    shmem_init();
    npes = shmem_n_pes();
    shmem_barrier_all();
    if (!strcmp(m, "invalid"))
        rc = shmem_int_broadcast(SHMEM_TEAM_INVALID, ibuf, ibuf + 32, 4, 0);
    else if (!strcmp(m, "generic"))
        rc = shmem_sum_reduce(SHMEM_TEAM_INVALID, ibuf, ibuf + 32, 4);
    else if (!strcmp(m, "destroyed")) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &gone);
        shmem_team_destroy(gone);
        rc = shmem_long_sum_exscan(gone, buf, buf + 32, 4);
    } else if (!strcmp(m, "root"))
        rc = shmem_broadcastmem(SHMEM_TEAM_WORLD, buf, buf + 32, 8, npes);
    else if (!strcmp(m, "strides"))
        rc = shmem_alltoallsmem(SHMEM_TEAM_WORLD, buf, buf + 32, 0, 1, 4);
    else if (!strcmp(m, "overlap"))
        rc = shmem_int_sum_reduce(SHMEM_TEAM_WORLD, ibuf + 1, ibuf, 4);
    else if (!strcmp(m, "scan-overlap"))
        rc = shmem_long_sum_inscan(SHMEM_TEAM_WORLD, buf + 1, buf, 4);
    else if (!strcmp(m, "collect-overlap"))
        rc = shmem_fcollectmem(SHMEM_TEAM_WORLD, (char *)buf + 4, buf, 8);
    else if (!strcmp(m, "local"))
        rc = shmem_int_collect(SHMEM_TEAM_WORLD, ibuf, local, 4);
    printf("PE %d: %s returned %d\n", shmem_my_pe(), m, rc);
    shmem_finalize();
    return 0;
}
