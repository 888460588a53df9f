/*
 * sysmem.c - what the machine has: its physical memory, the base of every
 * fraction-of-memory setting (GASNET_MAX_SEGSIZE, the queue memory).
 */
#include "base/base.h"

#include <unistd.h>

uint64_t sys_phys_mem(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

    return pages > 0 ? (uint64_t)pages * (uint64_t)(page > 0 ? page : 4096) : 0;
}
