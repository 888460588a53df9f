/*
 * pshmrun_bind.c - pshmrun --bind-to: which CPUs each rank runs on.
 *
 * The CPUs are those of pshmrun's own affinity mask (a container or a
 * batch system's cpuset is respected). "core" gives rank r every hardware
 * thread of the (r mod C)-th core of the mask, "hwthread" the (r mod T)-th
 * CPU; ranks beyond C (or T) wrap around, as pshmrun always allows more
 * processes than CPUs. Cores are told apart by the kernel's topology files
 * (package and core id); where they cannot be read each CPU is a core.
 */
#include "tools/util/pshmrun_bind.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The package and core ids of CPU c; -1 when unknown. */
static long topo_id(int c, const char *what)
{
    char path[128];
    long v = -1;
    FILE *f;

    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", c, what);
    f = fopen(path, "r");
    if (f == NULL)
        return -1;
    if (fscanf(f, "%ld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

int bind_parse(const char *s, bind_mode_t *mode)
{
    if (strcmp(s, "none") == 0)
        *mode = BIND_NONE;
    else if (strcmp(s, "core") == 0)
        *mode = BIND_CORE;
    else if (strcmp(s, "hwthread") == 0 || strcmp(s, "cpu") == 0)
        *mode = BIND_HWTHREAD;
    else
        return -EINVAL;
    return 0;
}

int bind_plan(bind_mode_t mode, int n, cpu_set_t **out)
{
    cpu_set_t mask, *sets;
    int cpus[CPU_SETSIZE], ncpu = 0, core_of[CPU_SETSIZE], ncore = 0;
    long pkg[CPU_SETSIZE], core[CPU_SETSIZE];

    *out = NULL;
    if (mode == BIND_NONE)
        return 0;
    if (sched_getaffinity(0, sizeof mask, &mask) < 0)
        return -errno;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask))
            cpus[ncpu++] = c;
    if (ncpu == 0)
        return -ENODEV;
    /* core_of[i]: the core index of cpus[i], cores numbered in the order
     * of their first CPU in the mask. */
    for (int i = 0; i < ncpu; i++) {
        pkg[i] = topo_id(cpus[i], "physical_package_id");
        core[i] = topo_id(cpus[i], "core_id");
        core_of[i] = -1;
        if (mode == BIND_CORE && core[i] >= 0)
            for (int j = 0; j < i; j++)
                if (pkg[j] == pkg[i] && core[j] == core[i]) {
                    core_of[i] = core_of[j];
                    break;
                }
        if (core_of[i] < 0)
            core_of[i] = ncore++;
    }
    sets = calloc((size_t)n, sizeof *sets);
    if (sets == NULL)
        return -ENOMEM;
    for (int r = 0; r < n; r++) {
        int k = r % ncore;

        CPU_ZERO(&sets[r]);
        for (int i = 0; i < ncpu; i++)
            if (core_of[i] == k)
                CPU_SET(cpus[i], &sets[r]);
    }
    *out = sets;
    return ncore;
}

void bind_format(const cpu_set_t *set, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE && used + 1 < len; c++) {
        if (!CPU_ISSET(c, set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        int w = e > c ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, e)
                      : snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
        c = e;
    }
}
