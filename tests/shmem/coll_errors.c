/*
 * coll_errors.c MODE - one misuse of a collective or a lock per run, or a PE
 * that dies while the others wait in one; t-shmem-coll-errors.sh checks that
 * the job ends with a non-zero status and the message it expects.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long pSync[SHMEM_SYNC_SIZE];
static long lock;
static long wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static long buf[64];

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";
    int me, npes;
    long local_psync[SHMEM_SYNC_SIZE];

    for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
        pSync[i] = local_psync[i] = SHMEM_SYNC_VALUE;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    shmem_barrier_all();
    if (!strcmp(m, "stride"))
        shmem_barrier(0, -1, npes, pSync);
    else if (!strcmp(m, "size"))
        shmem_sync(0, 0, 0, pSync);
    else if (!strcmp(m, "range"))
        shmem_barrier(0, 0, npes + 1, pSync);
    else if (!strcmp(m, "member"))
        shmem_long_sum_to_all(buf, buf, 4, 1, 0, npes - 1, wrk, pSync);
    else if (!strcmp(m, "root"))
        shmem_broadcast64(buf, buf + 32, 4, npes, 0, 0, npes, pSync);
    else if (!strcmp(m, "psync"))
        shmem_barrier(0, 0, npes, local_psync);
    else if (!strcmp(m, "nreduce"))
        shmem_long_max_to_all(buf, buf + 32, -1, 0, 0, npes, wrk, pSync);
    else if (!strcmp(m, "overlap"))
        shmem_fcollect64(buf + 1, buf, 2, 0, 0, npes, pSync);
    else if (!strcmp(m, "strides"))
        shmem_alltoalls64(buf, buf + 32, 0, 1, 1, 0, 0, npes, pSync);
    else if (!strcmp(m, "clear"))
        shmem_clear_lock(&lock);
    else if (!strcmp(m, "relock")) {
        if (me == 0) {
            shmem_set_lock(&lock);
            shmem_set_lock(&lock);
        }
    } else if (!strcmp(m, "retest")) {
        if (me == 0) {
            shmem_set_lock(&lock);
            shmem_test_lock(&lock);
        }
    } else if (!strcmp(m, "die-barrier")) {
        if (me == npes - 1)
            _exit(5);
        shmem_barrier_all();
    } else if (!strcmp(m, "die-reduce")) {
        if (me == npes - 1)
            _exit(5);
        shmem_long_sum_to_all(buf, buf + 32, 4, 0, 0, npes, wrk, pSync);
    } else if (!strcmp(m, "die-lock")) {
        if (me == 0)
            shmem_set_lock(&lock);
        shmem_barrier_all();
        if (me == 0)
            _exit(5);
        shmem_set_lock(&lock);
    } else {
        fprintf(stderr, "coll_errors: unknown mode '%s'\n", m);
        return 2;
    }
    printf("PE %d: %s returned\n", me, m);
    shmem_finalize();
    return 0;
}
