/* ring.c - puts to a static variable around a ring of PEs: each PE stores
 * its number into its right neighbour's `from_left` (a global, symmetric
 * without shmem_malloc), and the barrier makes every put visible.
 *   oshcc -o ring ring.c && oshrun -n 4 ./ring */
#include <shmem.h>
#include <stdio.h>

static int from_left = -1;

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();

    shmem_int_p(&from_left, me, (me + 1) % n);
    shmem_barrier_all();
    if (from_left != (me + n - 1) % n) {
        printf("PE %d: got %d from the left, expected %d\n", me, from_left, (me + n - 1) % n);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("ring: every PE of %d heard from its left neighbour\n", n);
    shmem_finalize();
    return 0;
}
