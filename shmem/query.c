/*
 * query.c - the two routines a program may call whatever the library's
 * state: shmem_query_initialized (1.6) and shmem_pcontrol (1.5).
 */
#include "shmem_internal.h"

/* shm.initialized is set by the first initialization and cleared by the
 * last finalize (init.c): nonzero exactly between them. */
void shmem_query_initialized(int *initialized)
{
    if (initialized == NULL)
        shm_fatal("shmem_query_initialized", "initialized is NULL");
    *initialized = shm.initialized != 0;
}

/* For a profiling library, which intercepts it through the pshmem_ names:
 * the library itself "makes no use of this routine and simply returns"
 * (specification), whatever the level and arguments. */
void shmem_pcontrol(int level, ...)
{
    (void)level;
}
