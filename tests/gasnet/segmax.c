/*
 * segmax - gasnet_getMaxLocalSegmentSize() is what attach can reserve for
 * every node: the nodes' segments together fit in 85% of the memory the
 * host has available (MemAvailable, read before gasnet_init and after;
 * 64 MiB of slack for what other processes do meanwhile), and the figure
 * is fixed at gasnet_init as GASNet's is: every call gives it, page
 * aligned, and gasnet_getMaxGlobalSegmentSize() is no more. A segment of
 * a page is attached and used.
 */
#include "gtest.h"

#include <stdint.h>

static uint64_t mem_available(void)
{
    char line[128];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024u;
}

int main(int argc, char **argv)
{
    uint64_t a0 = mem_available();
    GT_SAFE(gasnet_init(&argc, &argv));
    uint64_t v = gasnet_getMaxLocalSegmentSize();
    uint64_t a1 = mem_available(), n = gasnet_nodes(), avail = a0 > a1 ? a0 : a1;
    GT_CHECK(v > 0 && v % GASNET_PAGESIZE == 0, "gasnet_getMaxLocalSegmentSize() = %llu",
             (unsigned long long)v);
    for (int i = 0; i < 3; i++)
        GT_CHECK(gasnet_getMaxLocalSegmentSize() == v, "a second call gave %llu, the first %llu",
                 (unsigned long long)gasnet_getMaxLocalSegmentSize(), (unsigned long long)v);
    GT_CHECK(gasnet_getMaxGlobalSegmentSize() <= v, "global %llu > local %llu",
             (unsigned long long)gasnet_getMaxGlobalSegmentSize(), (unsigned long long)v);
    if (avail != 0)
        GT_CHECK(n * v <= avail / 100 * 85 + (64u << 20),
                 "%llu nodes x %llu MiB = %llu MiB, more than 85%% of the %llu MiB available",
                 (unsigned long long)n, (unsigned long long)(v >> 20),
                 (unsigned long long)((n * v) >> 20), (unsigned long long)(avail >> 20));
    GT_SAFE(gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0));
    gasnet_seginfo_t *si = calloc(n, sizeof *si);
    GT_SAFE(gasnet_getSegmentInfo(si, (int)n));
    memset(si[gasnet_mynode()].addr, 0x5a, GASNET_PAGESIZE);
    GT_CHECK(((unsigned char *)si[gasnet_mynode()].addr)[GASNET_PAGESIZE - 1] == 0x5a,
             "the segment's last byte");
    free(si);
    gt_end("segmax");
    return 0;
}
