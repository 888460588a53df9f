/*
 * ctx_invalid.c - SHMEM_CTX_INVALID (1.5): shmem_ctx_destroy, shmem_ctx_fence,
 * shmem_ctx_quiet, shmem_ctx_pe_quiet and the session routines do nothing
 * on it; a handle set to it compares equal to it, a created one does not.
 * Destroying SHMEM_CTX_DEFAULT still ends the job (argv[1] "default").
 */
#include "check.h"

#include <string.h>

int main(int argc, char **argv)
{
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    int pe;

    shmem_init();
    pe = shmem_my_pe();
    if (argc > 1 && strcmp(argv[1], "default") == 0)
        shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
    CHECK(ctx == SHMEM_CTX_INVALID, "a handle set to SHMEM_CTX_INVALID");
    shmem_ctx_fence(ctx);
    shmem_ctx_quiet(ctx);
    shmem_ctx_pe_quiet(ctx, &pe, 1);
    shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, NULL, 0);
    shmem_ctx_session_stop(ctx);
    shmem_ctx_destroy(ctx);
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0 && ctx != SHMEM_CTX_INVALID,
          "shmem_ctx_create");
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
    if (pe == 0)
        printf("ctx_invalid: every routine given SHMEM_CTX_INVALID did nothing\n");
    shmem_finalize();
    return 0;
}
