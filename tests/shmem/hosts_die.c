/*
 * hosts_die.c - a PE killed while the others wait on it: every PE prints
 * "pid P" (the driver checks that none outlives the job), then PE
 * argv[2] kills itself with SIGKILL while the others, argv[1]:
 *   wait     wait_until on a flag only the dead PE would set
 *   barrier  shmem_barrier_all
 *   get      shmem_long_g from the dead PE, in a loop
 *   amo      shmem_long_atomic_fetch_add on the dead PE, in a loop
 * The job must end with a non-zero status, soon.
 */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long flag, counter;

int main(int argc, char **argv)
{
    const char *how = argc > 2 ? argv[1] : "";
    int victim = argc > 2 ? atoi(argv[2]) : -1;

    shmem_init();
    if (victim < 0 || victim >= shmem_n_pes()) {
        fprintf(stderr, "usage: hosts_die wait|barrier|get|amo PE\n");
        shmem_global_exit(2);
    }
    printf("pid %d\n", (int)getpid());
    fflush(stdout);
    shmem_barrier_all();
    if (shmem_my_pe() == victim) {
        usleep(100000);   /* the others are waiting by then */
        kill(getpid(), SIGKILL);
    }
    if (strcmp(how, "wait") == 0) {
        shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0);
    } else if (strcmp(how, "barrier") == 0) {
        shmem_barrier_all();
    } else if (strcmp(how, "get") == 0) {
        for (;;)
            counter += shmem_long_g(&flag, victim);
    } else if (strcmp(how, "amo") == 0) {
        for (;;)
            shmem_long_atomic_fetch_add(&counter, 1, victim);
    } else {
        fprintf(stderr, "hosts_die: unknown wait '%s'\n", how);
        shmem_global_exit(2);
    }
    printf("PE %d: returned from the wait on a dead PE\n", shmem_my_pe());
    return 0;
}
