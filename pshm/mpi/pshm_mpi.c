/*
 * pshm_mpi.c - the bootstrap's exchange and barrier as MPI collectives.
 *
 * Messages go through pshm_set_error(), public, so that they reach
 * pshm_last_error() whether the application links libpshm.a or libpshm.so.
 */
#include "pshm_mpi.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define say(err, ...) pshm_set_error((err), __VA_ARGS__)

typedef struct mpi_boot {
    MPI_Comm comm;   /* private duplicate: pshm's traffic never meets the application's */
} mpi_boot_t;

/* -EIO, with MPI's own words for what went wrong. */
static int mpi_fail(int mrc, const char *call)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0, cls = 0;

    MPI_Error_class(mrc, &cls);
    if (MPI_Error_string(mrc, text, &len) != MPI_SUCCESS)
        len = 0;
    text[len] = '\0';
    return say(cls == MPI_ERR_NO_MEM ? -ENOMEM : -EIO, "%s failed in the MPI bootstrap: %s",
               call, text);
}

static int mpi_exchange(void *arg, const void *mine, size_t len, void *all)
{
    mpi_boot_t *m = arg;
    int mrc;

    if (len > INT_MAX)
        return say(-EMSGSIZE, "MPI bootstrap: an exchange of %zu bytes per rank exceeds "
                   "MPI's count limit of %d", len, INT_MAX);
    /* MPI wants distinct buffers; len 0 still synchronizes. */
    mrc = MPI_Allgather(len ? mine : MPI_IN_PLACE, (int)len, MPI_BYTE, all, (int)len,
                        MPI_BYTE, m->comm);
    return mrc == MPI_SUCCESS ? 0 : mpi_fail(mrc, "MPI_Allgather");
}

static int mpi_barrier(void *arg)
{
    mpi_boot_t *m = arg;
    int mrc = MPI_Barrier(m->comm);
    return mrc == MPI_SUCCESS ? 0 : mpi_fail(mrc, "MPI_Barrier");
}

int pshm_mpi_bootstrap(MPI_Comm comm, pshm_bootstrap_t *boot)
{
    mpi_boot_t *m;
    int init = 0, fin = 0, mrc, rank, size;

    if (boot == NULL)
        return say(-EINVAL, "pshm_mpi_bootstrap: boot is NULL");
    memset(boot, 0, sizeof *boot);
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin)
        return say(-EINVAL, "pshm_mpi_bootstrap: MPI is %s; call it between MPI_Init and "
                   "MPI_Finalize", fin ? "already finalized" : "not initialized");
    if (comm == MPI_COMM_NULL)
        return say(-EINVAL, "pshm_mpi_bootstrap: the communicator is MPI_COMM_NULL");
    m = malloc(sizeof *m);
    if (m == NULL)
        return say(-ENOMEM, "pshm_mpi_bootstrap: cannot allocate %zu bytes", sizeof *m);
    mrc = MPI_Comm_dup(comm, &m->comm);
    if (mrc != MPI_SUCCESS) {
        free(m);
        return mpi_fail(mrc, "MPI_Comm_dup");
    }
    /* Errors come back as codes to pshm, which reports them; MPI's default
     * handler would abort the job from inside the library. */
    MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(m->comm, &rank);
    MPI_Comm_size(m->comm, &size);
    *boot = (pshm_bootstrap_t){ .rank = rank, .size = size, .exchange = mpi_exchange,
                                .barrier = mpi_barrier, .arg = m, .job_tag = NULL };
    return 0;
}

int pshm_mpi_bootstrap_free(pshm_bootstrap_t *boot)
{
    mpi_boot_t *m;
    int fin = 0, mrc = MPI_SUCCESS;

    if (boot == NULL || boot->exchange != mpi_exchange)
        return say(-EINVAL, "pshm_mpi_bootstrap_free: not a bootstrap made by "
                   "pshm_mpi_bootstrap (or already freed)");
    m = boot->arg;
    MPI_Finalized(&fin);
    if (!fin)
        mrc = MPI_Comm_free(&m->comm);
    free(m);
    memset(boot, 0, sizeof *boot);
    return mrc == MPI_SUCCESS ? 0 : mpi_fail(mrc, "MPI_Comm_free");
}
