/*
 * net_hybrid.c - a program that uses MPI beside OpenSHMEM (OpenSHMEM 1.6,
 * "Interoperability"): the two may be initialized in either order, and
 * finalized in either order, while the layer itself runs over the same MPI
 * under mpirun.
 *
 * The layer defines MPI_Init, MPI_Init_thread and MPI_Finalize over MPI's
 * profiling names (PMPI_*), with a count of who uses MPI, as the
 * specification's note suggests:
 *   - shmem_init first: it starts MPI (shm_mpi_init); the program's MPI_Init
 *     then joins it (MPI_SUCCESS, and MPI_Init_thread's *provided is the
 *     level MPI runs at) instead of initializing MPI twice;
 *   - MPI_Finalize while the layer still uses MPI (before shmem_finalize)
 *     is held, and done by shmem_finalize (shm_mpi_done); after it, or
 *     when the program started MPI, it is MPI's own;
 *   - shmem_finalize finalizes an MPI it started only if the program did
 *     not join it (else the program's MPI_Finalize does).
 * MPI_Initialized says true once either started MPI. The definitions win
 * over MPI's in a program linked with libpshmem.a (an object before a
 * shared library) and with libpshmem.so listed before libmpi (oshcc's and
 * pshmem.pc's order).
 *
 * The program's own MPI calls do not take the layer's MPI lock (net.h):
 * once it joins an MPI the layer started below MPI_THREAD_MULTIPLE, the
 * progress thread stops (as when the program started MPI itself at a
 * lower level), and a PE answers other supernodes when it calls the
 * library.
 */
#include "shmem_internal.h"

#include <stdlib.h>

#if PSHMEM_HAVE_MPI
#include "net.h"

/* Weak: a program or an MPI tool that defines these itself (over PMPI_*)
 * keeps its own, and MPI's behaviour. */
#define SHM_MPI_API __attribute__((visibility("default"), weak))

static int layer_owns;   /* shmem_init started MPI */
static int layer_in;     /* inside shm_mpi_init: the call is the layer's */
static int program_in;   /* the program called MPI_Init or MPI_Init_thread */
static int program_out;  /* its MPI_Finalize, held for shmem_finalize */

/* The layer calls MPI's names, not PMPI's: a tool that wraps them sees
 * the layer's calls too. */
int shm_mpi_init(int level, int *provided)
{
    layer_in = 1;
    int mrc = MPI_Init_thread(NULL, NULL, level, provided);
    layer_in = 0;
    layer_owns = mrc == MPI_SUCCESS;
    return mrc;
}

int shm_mpi_owned(void)
{
    return layer_owns && !program_in;
}

/* An MPI the layer started and the program never joined ends at exit. */
static void finalize_owned_at_exit(void)
{
    int fin = 0;

    if (shm.initialized)
        shmem_finalize(); /* initialized again and never finalized */
    PMPI_Finalized(&fin);
    if (shm_mpi_owned() && !fin)
        PMPI_Finalize();
}

void shm_mpi_done(void)
{
    static int armed;

    if (program_out) {
        /* The program's MPI_Finalize, held until the layer was done. */
        layer_owns = program_out = 0;
        MPI_Finalize(); /* shm.mpi is 0: MPI's own */
        return;
    }
    /* 1.6 lets the program initialize the library again after its last
     * finalize, and MPI cannot be initialized twice: an MPI the layer
     * started stays up until exit. */
    if (shm_mpi_owned() && !armed && atexit(finalize_owned_at_exit) == 0)
        armed = 1;
}

/* The program's MPI_Init into an MPI the layer started: joined. */
static int join(int *provided)
{
    int level = MPI_THREAD_SINGLE;

    program_in = 1;
    PMPI_Query_thread(&level);
    if (level < MPI_THREAD_MULTIPLE)
        shm_thread_stop();
    if (provided != NULL)
        *provided = level;
    return MPI_SUCCESS;
}

SHM_MPI_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int init = 0, mrc;

    PMPI_Initialized(&init);
    if (init && layer_owns && !program_in)
        return join(provided);
    mrc = PMPI_Init_thread(argc, argv, required, provided);
    program_in |= !layer_in && mrc == MPI_SUCCESS;
    return mrc;
}

SHM_MPI_API int MPI_Init(int *argc, char ***argv)
{
    int init = 0, mrc;

    PMPI_Initialized(&init);
    if (init && layer_owns && !program_in)
        return join(NULL);
    mrc = PMPI_Init(argc, argv);
    program_in |= mrc == MPI_SUCCESS;
    return mrc;
}

SHM_MPI_API int MPI_Finalize(void)
{
    if (shm.mpi) {
        program_out = 1;
        return MPI_SUCCESS;
    }
    return PMPI_Finalize();
}
#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
