/*
 * errors.c - one misuse per run, chosen by argv[1]; the driver
 * (t-shmem-errors.sh) checks the message and the exit status of the job.
 *   before-init    a put before shmem_init
 *   barrier-before-init  shmem_barrier(0, 0, 0, NULL) before shmem_init (the
 *                  arguments of no cached set: the check must still come)
 *   pe-range       a put to PE n_pes
 *   not-symmetric  a put to a stack variable
 *   null           putmem from NULL (SHMEM_DEBUG)
 *   bad-cmp        wait_until with comparison 42
 *   bad-free       shmem_free of a malloc'd pointer
 *   overflow       a put of SIZE_MAX / 4 longs (the byte count would wrap)
 *   iput-span      an iput whose span leaves the static data
 *   range          a putmem that starts in the statics and ends past them
 *   zero-length    putmem/getmem of 0 bytes from NULL: allowed, exits 0
 *   global-exit N  every PE prints "pid P"; PE n_pes-1 calls
 *                  shmem_global_exit(N), the others wait
 *   die            PE n_pes-1 is killed, the others wait in a barrier
 *   no-finalize    returns from main without shmem_finalize: exits 0
 */
#include <shmem.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int target;
static long flag, lflag;

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    int local = 0, last;

    if (strcmp(what, "before-init") == 0)
        shmem_int_p(&target, 1, 0);
    if (strcmp(what, "barrier-before-init") == 0)
        shmem_barrier(0, 0, 0, NULL);
    shmem_init();
    last = shmem_n_pes() - 1;
    if (strcmp(what, "pe-range") == 0) {
        shmem_int_p(&target, 1, shmem_n_pes());
    } else if (strcmp(what, "not-symmetric") == 0) {
        shmem_int_p(&local, 1, 0);
    } else if (strcmp(what, "null") == 0) {
        shmem_putmem(&target, NULL, 4, 0);
    } else if (strcmp(what, "bad-cmp") == 0) {
        shmem_long_wait_until(&flag, 42, 0);
    } else if (strcmp(what, "overflow") == 0) {
        long src = 0;
        shmem_long_put(&lflag, &src, SIZE_MAX / 4, 0);
    } else if (strcmp(what, "iput-span") == 0) {
        shmem_int_iput(&target, &local, 1 << 30, 1, 3, 0);
    } else if (strcmp(what, "range") == 0) {
        static char buf[64];
        shmem_putmem(&target, buf, (size_t)1 << 30, 0);
    } else if (strcmp(what, "bad-free") == 0) {
        shmem_free(malloc(16));
    } else if (strcmp(what, "zero-length") == 0) {
        shmem_putmem(NULL, NULL, 0, 0);
        shmem_getmem(NULL, NULL, 0, last);
        shmem_int_put(NULL, NULL, 0, 0);
        shmem_int_iput(NULL, NULL, 1, 1, 0, 0);
    } else if (strcmp(what, "global-exit") == 0) {
        /* The driver checks that no PE outlives the job. */
        printf("pid %d\n", (int)getpid());
        fflush(stdout);
        shmem_barrier_all();
        if (shmem_my_pe() == last)
            shmem_global_exit(argc > 2 ? atoi(argv[2]) : 1);
        shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0); /* never set */
    } else if (strcmp(what, "die") == 0) {
        if (shmem_my_pe() == last)
            kill(getpid(), SIGKILL);
        shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0); /* never set */
    } else if (strcmp(what, "no-finalize") == 0) {
        shmem_barrier_all();
        return 0;
    } else {
        fprintf(stderr, "errors: unknown case '%s'\n", what);
        return 2;
    }
    shmem_finalize();
    return 0;
}
