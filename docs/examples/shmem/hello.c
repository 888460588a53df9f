/* hello.c - the first OpenSHMEM program: every PE says who it is.
 *   oshcc -o hello hello.c && oshrun -n 4 ./hello */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    printf("Hello from PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
    shmem_finalize();
    return 0;
}
