/*
 * hybrid: OpenSHMEM and MPI in one program (OpenSHMEM 1.6,
 * "Interoperability"; the specification's hybrid_mpi_*.c): either may be
 * initialized first and either finalized first.
 *
 *   hybrid INIT FINI
 *     INIT  mpi      MPI_Init, then shmem_init
 *           shmem    shmem_init, then MPI_Init
 *           check    shmem_init, then MPI_Init only if MPI_Initialized says
 *                    it is not (the portable spelling for an MPI the
 *                    OpenSHMEM library may have started), and MPI_Finalize
 *                    only then
 *     FINI  mpi      MPI_Finalize, then shmem_finalize
 *           shmem    shmem_finalize, then MPI_Finalize
 *
 * MPI is finalized at the end whatever the order, by the program's
 * MPI_Finalize, or at exit when the library started it and the program
 * never joined it. Both work in between, each checked element by element: the mapping of PE
 * numbers to MPI ranks gathered with shmem_collect32 (the specification's
 * hybrid_mpi_mapping_id.c) and with MPI_Allgather; a communicator of the
 * PEs in PE order (hybrid_mpi_mapping_id_shmem_comm.c); a ring of puts and
 * an MPI_Allreduce. Under oshrun (no MPI launcher) every PE is an MPI
 * singleton: MPI_COMM_WORLD has one rank, the OpenSHMEM job them all.
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#if !PSHMEM_HAVE_MPI
int main(void)
{
    printf("hybrid: the layer is built without MPI\n");
    return 77;
}
#else
#include <mpi.h>

static long ring[4], psync[SHMEM_COLLECT_SYNC_SIZE];
static int myrank;

int main(int argc, char **argv)
{
    const char *init = argc > 2 ? argv[1] : "", *fini = argc > 2 ? argv[2] : "";
    int flag = -1, provided = -1, single, mpi_mine = 1;

    if (strcmp(init, "mpi") && strcmp(init, "shmem") && strcmp(init, "check")) {
        fprintf(stderr, "usage: hybrid mpi|shmem|check mpi|shmem\n");
        return 2;
    }
    if (strcmp(init, "mpi") == 0) {
        MPI_Init(&argc, &argv);
        shmem_init();
    } else {
        shmem_init();
        MPI_Initialized(&flag);
        mpi_mine = strcmp(init, "shmem") == 0 || !flag;
        if (mpi_mine) {
            CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) == MPI_SUCCESS,
                  "MPI_Init_thread failed");
            CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
                  "MPI_Init_thread provided %d", provided);
        }
    }
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized says %d after both initializations", flag);

    int me = shmem_my_pe(), npes = shmem_n_pes(), size;
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    single = size == 1 && npes > 1; /* MPI singletons under oshrun */
    CHECK(single || size == npes, "MPI_COMM_WORLD has %d ranks, the job %d PEs", size, npes);

    /* PE -> MPI rank, gathered through OpenSHMEM and through MPI. */
    int *ranks = shmem_calloc((size_t)npes, sizeof(int)), *mranks = calloc((size_t)size, sizeof(int));
    CHECK(ranks != NULL && mranks != NULL, "no memory for %d ranks", npes);
    for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_collect32(ranks, &myrank, 1, 0, 0, npes, psync);
    MPI_Allgather(&me, 1, MPI_INT, mranks, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < npes; i++)
        CHECK(ranks[i] == (single ? 0 : i), "PE %d's MPI rank is %d", i, ranks[i]);
    for (int i = 0; i < size; i++)
        CHECK(mranks[i] == (single ? me : i), "MPI rank %d is PE %d", i, mranks[i]);

    /* A communicator in PE order: rank = PE. */
    MPI_Comm shmem_comm;
    int crank = -1;
    MPI_Comm_split(MPI_COMM_WORLD, 0, me, &shmem_comm);
    MPI_Comm_rank(shmem_comm, &crank);
    CHECK(crank == (single ? 0 : me), "rank %d in the communicator in PE order", crank);
    MPI_Comm_free(&shmem_comm);

    /* A ring of puts, then an MPI reduction of what arrived. */
    long mine[4];
    for (int i = 0; i < 4; i++)
        mine[i] = (long)me * 10 + i;
    shmem_long_put(ring, mine, 4, (me + 1) % npes);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    for (int i = 0; i < 4; i++)
        CHECK(ring[i] == (long)left * 10 + i, "ring[%d] = %ld, expected %ld", i, ring[i],
              (long)left * 10 + i);
    long sum = 0, want = 0;
    MPI_Allreduce(&ring[0], &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        want += single ? left * 10 : r * 10;
    CHECK(sum == want, "MPI_Allreduce of the ring gave %ld, expected %ld", sum, want);

    shmem_free(ranks);
    free(mranks);
    shmem_barrier_all();
    if (me == 0)
        printf("hybrid %s %s: %d PEs, %d MPI ranks: PE = rank, puts and MPI both work\n", init,
               fini, npes, size);
    fflush(stdout);
    /* MPI_Finalize only from who called MPI_Init (check: maybe not). */
    if (strcmp(fini, "mpi") == 0) {
        if (mpi_mine)
            MPI_Finalize();
        shmem_finalize();
    } else {
        shmem_finalize();
        if (mpi_mine)
            MPI_Finalize();
    }
    /* An MPI the program finalized is finalized; one the library started
     * and the program never joined stays up until exit (1.6: the library
     * may be initialized again, and MPI cannot be). */
    MPI_Finalized(&flag);
    if (flag != mpi_mine) {
        printf("FAIL: PE %d: MPI_Finalized says %d at the end, expected %d\n", me, flag,
               mpi_mine);
        return 1;
    }
    return 0;
}
#endif
