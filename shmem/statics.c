/*
 * statics.c - the executable's global and static variables as symmetric
 * memory.
 */
#include "shmem_internal.h"

void shm_statics_attach(void) {}

void shm_statics_tables(void) {}
