/*
 * sysmem.c - what the machine has: its physical memory, the base of every
 * fraction-of-memory setting (GASNET_MAX_SEGSIZE, the queue memory), and its
 * huge pages (hugetlbfs mounts, the hugetlb pool), which the huge-page
 * decision and the backends both read.
 */
#include "base/base.h"

#include <stdio.h>
#include <sys/statfs.h>
#include <unistd.h>

uint64_t sys_phys_mem(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

    return pages > 0 ? (uint64_t)pages * (uint64_t)(page > 0 ? page : 4096) : 0;
}

#define HUGETLBFS_MAGIC_ 0x958458f6

uint64_t sys_hugetlbfs_fd(int fd)
{
    struct statfs sf;
    return fstatfs(fd, &sf) == 0 && (unsigned long)sf.f_type == HUGETLBFS_MAGIC_
               ? (uint64_t)sf.f_bsize : 0;
}

uint64_t sys_hugetlbfs_dir(const char *dir)
{
    struct statfs sf;
    return statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == HUGETLBFS_MAGIC_
               ? (uint64_t)sf.f_bsize : 0;
}

uint64_t sys_read_u64(const char *path)
{
    unsigned long long v = 0;
    FILE *f = fopen(path, "re");
    if (f != NULL) {
        if (fscanf(f, "%llu", &v) != 1) v = 0;
        fclose(f);
    }
    return v;
}

uint64_t sys_hugetlb_free(uint64_t page)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/kernel/mm/hugepages/hugepages-%llukB/free_hugepages",
             (unsigned long long)(page >> 10));
    uint64_t free_pages = sys_read_u64(path);
    snprintf(path, sizeof path, "/sys/kernel/mm/hugepages/hugepages-%llukB/resv_hugepages",
             (unsigned long long)(page >> 10));
    uint64_t resv = sys_read_u64(path);
    /* Reserved pages are free but promised to mappings already made. */
    return free_pages > resv ? (free_pages - resv) * page : 0;
}

uint64_t sys_hugetlb_default(void)
{
    char line[128];
    unsigned long long kb = 0, v;
    FILE *f = fopen("/proc/meminfo", "re");
    if (f == NULL) return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "Hugepagesize: %llu kB", &v) == 1) kb = v;
    fclose(f);
    return (uint64_t)kb << 10;
}
