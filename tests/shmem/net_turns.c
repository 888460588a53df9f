/*
 * net_turns.c - how a PE waits for the answer of an atomic it shipped to
 * another supernode. The answer comes into the thread's persistent receive
 * (MPI_Recv_init once, MPI_Start per atomic, no MPI_Irecv), and the wait
 * tests it and the receive of requests sent to this PE with MPI_Test, in
 * turn: Open MPI's MPI_Test looks at its request again after driving the
 * engine, so the call whose engine run brings the answer returns it
 * (MPI_Testsome of both returns without looking again: one more call per
 * message). The program counts the layer's MPI calls by defining them over
 * their PMPI forms.
 *
 * PE 0 sends fetch_adds to PE 1 (another supernode), PE 1 waits in a
 * barrier: during the atomics PE 0 makes one MPI_Recv_init and one
 * MPI_Start per atomic, no MPI_Irecv, and tests with MPI_Test only, on two
 * requests by turns, the last test of each atomic the one that finds its
 * answer; the fetched values are exact, and so is the sum at PE 1. Run it
 * with SHMEM_PROGRESS_INTERVAL=0 (no progress thread, whose serving would
 * test the receive of requests between the turns).
 */
#include "check.h"

#if PSHMEM_HAVE_MPI
#include <mpi.h>

static long n_test, n_testall, n_testsome, n_start, n_irecv, n_recv_init;
static long n_found, n_same;    /* answers found; tests of the request tested just before */
static MPI_Request last, twice[2];
static int ntwice;

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st)
{
    MPI_Request h = *r;
    int rc = PMPI_Test(r, flag, st);

    n_test++;
    if (n_test > 1 && h == last)
        n_same++;
    last = h;
    if (ntwice < 2 && (ntwice == 0 || twice[0] != h))
        twice[ntwice++] = h;
    else if (h != twice[0] && h != twice[1])
        ntwice = 3;
    n_found += *flag != 0;
    return rc;
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

int MPI_Start(MPI_Request *r)
{
    n_start++;
    return PMPI_Start(r);
}

int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r)
{
    n_irecv++;
    return PMPI_Irecv(b, n, t, s, g, c, r);
}

int MPI_Recv_init(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r)
{
    n_recv_init++;
    return PMPI_Recv_init(b, n, t, s, g, c, r);
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
        n_test = n_testall = n_testsome = n_start = n_irecv = n_recv_init = 0;
        n_found = n_same = 0;
        ntwice = 0;
        for (long i = 0; i < iter; i++) {
            long old = shmem_long_atomic_fetch_add(word, 1, 1);
            CHECK(old == i, "fetch_add %ld fetched %ld, expected %ld", i, old, i);
            sum += old;
        }
        CHECK(sum == iter * (iter - 1) / 2, "fetched values sum to %ld, expected %ld", sum,
              iter * (iter - 1) / 2);
        CHECK(n_testsome == 0 && n_testall == 0,
              "%ld MPI_Testsome and %ld MPI_Testall calls during %ld atomics, expected none "
              "(MPI_Test of one request at a time)", n_testsome, n_testall, iter);
        CHECK(n_recv_init == 1 && n_start == iter && n_irecv == 0,
              "%ld MPI_Recv_init, %ld MPI_Start and %ld MPI_Irecv for %ld atomics, expected 1, "
              "%ld and 0 (one persistent receive of the answers, started per atomic)",
              n_recv_init, n_start, n_irecv, iter, iter);
        CHECK(ntwice == 2 && n_same == 0 && n_test >= 2 * iter,
              "%ld MPI_Test calls on %s requests, %ld of them on the request tested just "
              "before: expected two requests tested by turns, at least twice per atomic",
              n_test, ntwice > 2 ? "more than two" : "fewer than two", n_same);
        CHECK(n_found == iter && n_test % 2 == 0,
              "%ld of %ld MPI_Test calls found their request complete, expected %ld (each "
              "atomic's answer, in the last call of its wait)", n_found, n_test, iter);
        printf("net_turns: %ld fetch_adds, %ld MPI_Test by turns on the answer and the "
               "receive of requests, one MPI_Start each, no other test call\n", iter, n_test);
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
