/*
 * errors-shared - the MPI bootstrap's explanations reach pshm_last_error()
 * when the program links libpshm.so (t-mpi.sh builds it so): a call with a
 * null communicator fails with -EINVAL and a sentence naming it.
 */
#include "pshm_mpi.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    pshm_bootstrap_t boot;
    int rc, fail = 0;

    MPI_Init(&argc, &argv);
    rc = pshm_mpi_bootstrap(MPI_COMM_NULL, &boot);
    if (rc != -EINVAL || strstr(pshm_last_error(), "MPI_COMM_NULL") == NULL) {
        printf("FAIL: pshm_mpi_bootstrap(MPI_COMM_NULL) gave %d, \"%s\"\n", rc,
               pshm_last_error());
        fail = 1;
    } else {
        printf("ok: explained with libpshm.so: %s\n", pshm_last_error());
    }
    MPI_Finalize();
    return fail;
}
