/*
 * hello_args.c - the tutorial program with C11 generics, built by
 * t-shmem-build.sh with oshcc in several ways (PIE, non-PIE, the shared
 * library, the installed wrappers): a static int put from PE 0 to PE 1
 * between two barriers, then every PE prints its arguments, to show that
 * oshrun passes them through.
 */
#include <shmem.h>
#include <stdio.h>

static int dest;

int main(int argc, char **argv)
{
    int src = 42;

    shmem_init();
    shmem_barrier_all();
    if (shmem_my_pe() == 0 && shmem_n_pes() > 1)
        shmem_put(&dest, &src, 1, 1);
    shmem_barrier_all();
    if (shmem_my_pe() == 1 && dest != 42) {
        printf("FAIL: PE 1 has %d\n", dest);
        return 1;
    }
    if (shmem_my_pe() == 0) {
        printf("args:");
        for (int i = 1; i < argc; i++)
            printf(" [%s]", argv[i]);
        printf("\n");
    }
    shmem_finalize();
    return 0;
}
