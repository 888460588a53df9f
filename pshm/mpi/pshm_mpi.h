/*
 * pshm_mpi.h - a pshm bootstrap from an MPI communicator (libpshm_mpi.a).
 *
 *     pshm_bootstrap_t boot;
 *     pshm_mpi_bootstrap(MPI_COMM_WORLD, &boot);      (collective)
 *     pshm_init_attr_t attr = { .bootstrap = &boot };
 *     pshm_init(&ctx, &attr);
 *     ...
 *     pshm_finalize(ctx);
 *     pshm_mpi_bootstrap_free(&boot);                  (collective)
 *
 * The bootstrap works on a private duplicate of the communicator, so pshm's
 * collectives never match the application's messages.
 */
#ifndef PSHM_MPI_H
#define PSHM_MPI_H

#include <mpi.h>

#include "pshm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over comm (MPI must be initialized): fills boot with rank and
 * size in comm, exchange = MPI_Allgather and barrier = MPI_Barrier on a
 * duplicate of comm, and no job tag (rank 0 draws one). Returns 0 or a
 * negative errno (-EINVAL for a bad argument, -EIO when MPI fails). */
PSHM_API int pshm_mpi_bootstrap(MPI_Comm comm, pshm_bootstrap_t *boot);

/* Collective: frees the duplicate communicator (after pshm_finalize). */
PSHM_API int pshm_mpi_bootstrap_free(pshm_bootstrap_t *boot);

#ifdef __cplusplus
}
#endif
#endif /* PSHM_MPI_H */
