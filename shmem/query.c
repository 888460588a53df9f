/*
 * query.c - shmem_query_initialized (1.6), which a program may call
 * whatever the library's state (shmem_pcontrol, the other: pcontrol.c).
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
