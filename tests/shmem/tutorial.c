/*
 * tutorial.c - the program every OpenSHMEM tutorial starts with: PE 0 puts
 * a static int into PE 1 between two barriers; PE 1 checks it. No
 * shmem_finalize: the implicit finalize at exit must end the job cleanly.
 */
#include <shmem.h>
#include <stdio.h>

static int dest;

int main(void)
{
    int src = 42, me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    shmem_barrier_all();
    if (me == 0 && npes > 1)
        shmem_put(&dest, &src, 1, 1);
    shmem_barrier_all();
    if (me == 1 && dest != 42) {
        printf("FAIL: PE 1: dest is %d, expected 42\n", dest);
        return 1;
    }
    if (me == 1)
        printf("PE 1 of %d: dest is 42\n", npes);
    return 0;
}
