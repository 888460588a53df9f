/*
 * t-mpi-boot - pshm bootstrapped from MPI_COMM_WORLD (run by tests/t-mpi.sh:
 * 4 ranks, PSHM_SIM_HOSTS=2, so ranks {0,2} and {1,3} share a host). Each
 * rank writes a pattern in its segment, and reads its supernode peer's
 * through the owner's address translated by pshm_translate.
 */
#include "pshm_mpi.h"
#include "internal.h"
#include "tests/helpers.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEGSIZE (256 * 1024)

static unsigned char pattern(int rank, size_t i) { return (unsigned char)(rank * 73 + i * 13 + 1); }

int main(int argc, char **argv)
{
    pshm_bootstrap_t boot;
    pshm_init_attr_t attr = { .bootstrap = &boot };
    pshm_seginfo_t me;
    pshm_ctx_t *ctx;
    uint64_t bases[4], mybase;
    unsigned char *local;
    int rank, size, peer, other, shm, nsize, nrank;
    const char *sim = getenv("PSHM_SIM_HOSTS");

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4 || sim == NULL || strcmp(sim, "2") != 0) {
        printf("FAIL: run with 4 ranks and PSHM_SIM_HOSTS=2 (tests/t-mpi.sh); got %d ranks, "
               "PSHM_SIM_HOSTS=%s\n", size, sim ? sim : "(unset)");
        MPI_Abort(MPI_COMM_WORLD, T_FAIL);
    }
    CHECK_ERR(pshm_mpi_bootstrap(MPI_COMM_WORLD, NULL), -EINVAL);
    CHECK_OK(pshm_mpi_bootstrap(MPI_COMM_WORLD, &boot));
    CHECK(boot.rank == rank && boot.size == 4);
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_attach(ctx, SEGSIZE));

    /* --disable-pshm: every process is a supernode of one; it reads its own. */
    shm = strstr(pshm_version(), "(none backend)") == NULL;
    peer = shm ? (rank + 2) % 4 : rank;   /* same simulated host */
    other = rank ^ 1;                     /* the other host */
    nsize = shm ? 2 : 1;
    nrank = shm ? rank / 2 : 0;
    CHECK(pshm_host_count(ctx) == 2);
    CHECK(pshm_node_size(ctx) == nsize);
    CHECK(pshm_node_rank(ctx) == nrank);
    CHECK(pshm_node_rank_of(ctx, peer) == (shm ? peer / 2 : 0));
    CHECK(pshm_is_local(ctx, peer) == 1);
    CHECK(pshm_is_local(ctx, other) == 0);
    CHECK_ERR(pshm_node_rank_of(ctx, other), -EHOSTUNREACH);

    CHECK_OK(pshm_segment_info(ctx, rank, &me));
    for (size_t i = 0; i < SEGSIZE; i++)
        ((unsigned char *)me.local_base)[i] = pattern(rank, i);
    /* Owners tell their own addresses over MPI, as a runtime would. */
    mybase = (uint64_t)(uintptr_t)me.local_base;
    MPI_Allgather(&mybase, 1, MPI_UINT64_T, bases, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    CHECK_OK(pshm_barrier(ctx));

    CHECK_OK(pshm_translate(ctx, peer, (void *)(uintptr_t)(bases[peer] + 100), (void **)&local));
    local -= 100;
    for (size_t i = 0; i < SEGSIZE; i++)
        if (local[i] != pattern(peer, i)) {
            printf("FAIL: rank %d reads byte %zu of rank %d's segment as %u, expected %u\n",
                   rank, i, peer, local[i], pattern(peer, i));
            MPI_Abort(MPI_COMM_WORLD, T_FAIL);
        }
    CHECK(pshm_translate(ctx, other, (void *)(uintptr_t)bases[other], (void **)&local) < 0);

    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    CHECK_OK(pshm_mpi_bootstrap_free(&boot));
    CHECK_ERR(pshm_mpi_bootstrap_free(&boot), -EINVAL);
    printf("rank %d: node rank %d of %d, read rank %d's %d bytes through shared memory\n",
           rank, nrank, nsize, peer, SEGSIZE);
    MPI_Finalize();
    return T_PASS;
}
