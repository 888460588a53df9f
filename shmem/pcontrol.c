/*
 * pcontrol.c - shmem_pcontrol (OpenSHMEM 1.6, "Control of Profiling"): the
 * level is for a profiling tool, which defines shmem_pcontrol itself (the
 * library's is a weak alias of pshmem_pcontrol, Makefile.in); the library
 * makes no use of it and returns at once, as the specification says.
 */
#include "shmem_internal.h"

void shmem_pcontrol(int level, ...)
{
    (void)level;
}
