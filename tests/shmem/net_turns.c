/*
 * net_turns.c - a wait for MPI drives MPI's progress engine once per turn:
 * the requester of shipped atomics tests its own requests and the receive
 * of requests sent to it in one MPI_Testsome, never in two calls (each of
 * which would run the engine, and double the time a turn takes to see a
 * message). The program counts the MPI test calls the layer makes, by
 * defining MPI_Test, MPI_Testall and MPI_Testsome over their PMPI forms.
 *
 * PE 0 sends fetch_adds to PE 1 (another supernode), PE 1 waits in a
 * barrier: PE 0's test calls during the atomics are all MPI_Testsome, at
 * least one per atomic; the sum at PE 1 is exact. Run it with
 * SHMEM_PROGRESS_INTERVAL=0 (no progress thread, whose serving would make
 * a turn fall back to testing apart now and then).
 */
#include "check.h"

#if PSHMEM_HAVE_MPI
#include <mpi.h>

static long n_test, n_testall, n_testsome;

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
    n_test++;
    return PMPI_Test(r, flag, st);
}

int MPI_Testall(int n, MPI_Request r[], int *flag, MPI_Status st[])
{
    n_testall++;
    return PMPI_Testall(n, r, flag, st);
}

int MPI_Testsome(int n, MPI_Request r[], int *out, int idx[], MPI_Status st[])
{
    n_testsome++;
    return PMPI_Testsome(n, r, out, idx, st);
}

int main(int argc, char **argv)
{
    long iter = argc > 1 ? atol(argv[1]) : 1000, *word, sum = 0;

    shmem_init();
    CHECK(shmem_n_pes() == 2 && !test_shares_memory(1 - shmem_my_pe()), "needs 2 PEs on two supernodes");
    word = shmem_calloc(1, sizeof *word);
    CHECK(word != NULL, "out of memory");
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        n_test = n_testall = n_testsome = 0;
        for (long i = 0; i < iter; i++)
            sum += shmem_long_atomic_fetch_add(word, 1, 1);
        CHECK(sum == iter * (iter - 1) / 2, "fetched values sum to %ld, expected %ld", sum,
              iter * (iter - 1) / 2);
        CHECK(n_test == 0 && n_testall == 0,
              "%ld MPI_Test and %ld MPI_Testall calls during %ld atomics, expected none "
              "(one MPI_Testsome per turn)", n_test, n_testall, iter);
        CHECK(n_testsome >= iter, "%ld MPI_Testsome calls for %ld atomics", n_testsome, iter);
        printf("net_turns: %ld fetch_adds, %ld MPI_Testsome, no other test call\n", iter,
               n_testsome);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        CHECK(*word == iter, "the word is %ld, expected %ld", *word, iter);
    shmem_finalize();
    return 0;
}
#else
int main(void)
{
    printf("net_turns: no MPI in this build\n");
    return 77;
}
#endif
