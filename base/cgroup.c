/*
 * cgroup.c - the limits a control group puts on this process: how many CPUs
 * its quota is worth, and how much memory it may still charge.
 *
 * Both cgroup v2 (one hierarchy: cpu.max, memory.max) and v1 (a hierarchy per
 * controller: cpu.cfs_quota_us, memory.limit_in_bytes) are read. A limit set
 * on any ancestor binds too, so the walk goes up to the mount's root and
 * keeps the tightest. Nothing found (no /proc, no cgroup file system, no
 * limit) means no limit: the caller goes on with what it knew.
 */
#include "base/base.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The directory of this process's cgroup for `ctrl` ("" for v2) into out.
 * Returns the length of the mount point's part (the walk stops there), or -1. */
static int cg_dir(const char *ctrl, char *out, size_t n)
{
    char line[1024], cgpath[PSHM_PATH_MAX] = "", mnt[PSHM_PATH_MAX] = "",
                     root[PSHM_PATH_MAX] = "";
    bool v2 = ctrl[0] == 0, found = false;
    FILE *f = fopen("/proc/self/cgroup", "re");

    if (f == NULL)
        return -1;
    /* "hierarchy-id:controller,list:/path"; v2 is "0::/path". */
    while (!found && fgets(line, sizeof line, f)) {
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 == NULL)
            continue;
        *c2 = 0;
        c2[strcspn(c2 + 1, "\n") + 1] = 0;
        if (v2 ? (strcmp(line, "0") == 0 && c1[1] == 0) : strstr(c1 + 1, ctrl) != NULL) {
            const char *ctl = c1 + 1;
            size_t k = strlen(ctrl);
            /* A whole name of the list: "cpu" is not "cpuacct" nor "cpuset". */
            for (const char *p = ctl; !v2 && (p = strstr(p, ctrl)) != NULL; p += k)
                if ((p == ctl || p[-1] == ',') && (p[k] == 0 || p[k] == ','))
                    found = true;
            found = found || v2;
            if (found)
                snprintf(cgpath, sizeof cgpath, "%s", c2 + 1);
        }
    }
    fclose(f);
    if (!found || (f = fopen("/proc/self/mountinfo", "re")) == NULL)
        return -1;
    found = false;
    /* "id parent maj:min root mountpoint options... - fstype source superopts" */
    while (!found && fgets(line, sizeof line, f)) {
        char r[PSHM_PATH_MAX], m[PSHM_PATH_MAX], *dash = strstr(line, " - ");
        char fstype[32], opts[512];
        if (dash == NULL || sscanf(line, "%*s %*s %*s %4095s %4095s", r, m) != 2 ||
            sscanf(dash + 3, "%31s %*s %511s", fstype, opts) != 2)
            continue;
        if (v2 ? strcmp(fstype, "cgroup2") != 0 : strcmp(fstype, "cgroup") != 0)
            continue;
        if (!v2) {
            bool has = false;
            char *save = NULL;
            for (char *t = strtok_r(opts, ",", &save); t && !has; t = strtok_r(NULL, ",", &save))
                has = strcmp(t, ctrl) == 0;
            if (!has)
                continue;
        }
        snprintf(root, sizeof root, "%s", r);
        snprintf(mnt, sizeof mnt, "%s", m);
        found = true;
    }
    fclose(f);
    if (!found)
        return -1;
    /* The cgroup path is relative to the root of the hierarchy; the mount may
     * show a subtree of it (a container): strip that part. */
    size_t rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
    const char *rest = cgpath;
    if (rl && strncmp(cgpath, root, rl) == 0)
        rest = cgpath + rl;
    if ((size_t)snprintf(out, n, "%s%s", mnt, rest) >= n)
        return -1;
    return (int)strlen(mnt);
}

static int read_line(const char *dir, const char *file, char *buf, size_t n)
{
    char path[PSHM_PATH_MAX + 64];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    if ((f = fopen(path, "re")) == NULL)
        return -1;
    bool ok = fgets(buf, (int)n, f) != NULL;
    fclose(f);
    return ok ? 0 : -1;
}

/* Cuts dir back to its parent; false once at the mount point. */
static bool cg_parent(char *dir, int mnt_len)
{
    char *slash = strrchr(dir, '/');
    if ((int)strlen(dir) <= mnt_len || slash == NULL || slash - dir < mnt_len)
        return false;
    *slash = 0;
    return true;
}

/* CPUs a quota of `quota` per `period` microseconds is worth, rounded up. */
static int quota_cpus(long long quota, long long period)
{
    if (quota <= 0 || period <= 0)
        return 0;
    return (int)((quota + period - 1) / period);
}

int cgroup_cpu_limit(void)
{
    char dir[PSHM_PATH_MAX], buf[128];
    int best = 0, mnt, n;

    if ((mnt = cg_dir("", dir, sizeof dir)) >= 0) {
        do { /* cpu.max: "max 100000" or "<quota> <period>" */
            long long q, p;
            if (read_line(dir, "cpu.max", buf, sizeof buf) == 0 &&
                sscanf(buf, "%lld %lld", &q, &p) == 2 && (n = quota_cpus(q, p)) > 0 &&
                (best == 0 || n < best))
                best = n;
        } while (cg_parent(dir, mnt));
    }
    if ((mnt = cg_dir("cpu", dir, sizeof dir)) >= 0) {
        do { /* v1: cpu.cfs_quota_us is -1 without a quota */
            char pb[64];
            long long q, p;
            if (read_line(dir, "cpu.cfs_quota_us", buf, sizeof buf) == 0 &&
                read_line(dir, "cpu.cfs_period_us", pb, sizeof pb) == 0 &&
                sscanf(buf, "%lld", &q) == 1 && sscanf(pb, "%lld", &p) == 1 &&
                (n = quota_cpus(q, p)) > 0 && (best == 0 || n < best))
                best = n;
        } while (cg_parent(dir, mnt));
    }
    return best;
}

/* The affinity mask, in a set large enough for any machine; NULL if it
 * cannot be read. *sz is the set's size for the CPU_*_S macros. */
static cpu_set_t *affinity_mask(size_t *sz, size_t *ncpu)
{
    for (size_t n = 1024; n <= (1u << 20); n *= 4) {
        cpu_set_t *set = CPU_ALLOC(n);
        if (set == NULL)
            return NULL;
        *sz = CPU_ALLOC_SIZE(n);
        *ncpu = n;
        CPU_ZERO_S(*sz, set);
        if (sched_getaffinity(0, *sz, set) == 0 && CPU_COUNT_S(*sz, set) > 0)
            return set;
        CPU_FREE(set);
        if (errno != EINVAL)
            return NULL;
    }
    return NULL;
}

int cgroup_usable_cpus(void)
{
    size_t sz, ncpu;
    cpu_set_t *set = affinity_mask(&sz, &ncpu);
    int n = 0, q;

    if (set != NULL) {
        n = CPU_COUNT_S(sz, set);
        CPU_FREE(set);
    }
    if (n <= 0) {
        long on = sysconf(_SC_NPROCESSORS_ONLN);
        n = on > 0 ? (int)on : 1;
    }
    q = cgroup_cpu_limit();
    return q > 0 && q < n ? q : n;
}

void cpu_summary_of(const cpu_set_t *set, size_t sz, size_t ncpu, cpu_summary_t *s)
{
    uint64_t h = 0xcbf29ce484222325ull;

    memset(s, 0, sizeof *s);
    for (size_t c = 0; c < ncpu; c++) {
        if (!CPU_ISSET_S(c, sz, set))
            continue;
        s->count++;
        s->fold[(c % CPU_FOLD_BITS) / 64] |= 1ull << (c % 64);
        /* FNV-1a over the CPU numbers: equal masks, equal hashes. */
        for (int b = 0; b < 32; b += 8) {
            h ^= (uint64_t)((c >> b) & 0xff);
            h *= 0x100000001b3ull;
        }
    }
    s->hash = h;
}

void cpu_summary_self(cpu_summary_t *s)
{
    size_t sz, ncpu;
    cpu_set_t *set = affinity_mask(&sz, &ncpu);

    memset(s, 0, sizeof *s);
    if (set == NULL)
        return; /* count 0: taken as sharing every CPU */
    cpu_summary_of(set, sz, ncpu, s);
    CPU_FREE(set);
}

bool cpu_summary_overlap(const cpu_summary_t *a, const cpu_summary_t *b)
{
    if (a->count == 0 || b->count == 0 || (a->hash == b->hash && a->count == b->count))
        return true;
    /* Disjoint folds: no CPU in common. Folds that meet may still be
     * disjoint masks (CPUs c and c + 384): counted as sharing, which only
     * makes a wait yield where it could spin. */
    for (size_t i = 0; i < PSHM_ARRAY_LEN(a->fold); i++)
        if (a->fold[i] & b->fold[i])
            return true;
    return false;
}

int cgroup_mem_room(uint64_t *room, uint64_t *limit, char *where, size_t n)
{
    static const struct { const char *ctrl, *max, *cur; } files[] = {
        { "", "memory.max", "memory.current" },
        { "memory", "memory.limit_in_bytes", "memory.usage_in_bytes" },
    };
    char dir[PSHM_PATH_MAX], buf[64];
    bool found = false;
    int mnt;

    for (size_t i = 0; i < PSHM_ARRAY_LEN(files); i++) {
        if ((mnt = cg_dir(files[i].ctrl, dir, sizeof dir)) < 0)
            continue;
        do {
            unsigned long long lim, cur;
            char *end;
            /* "max" (v2) or a huge number (v1) when there is no limit. */
            if (read_line(dir, files[i].max, buf, sizeof buf) < 0)
                continue;
            errno = 0;
            lim = strtoull(buf, &end, 10);
            if (end == buf || errno != 0 || lim >= (1ull << 62))
                continue;
            if (read_line(dir, files[i].cur, buf, sizeof buf) < 0 ||
                sscanf(buf, "%llu", &cur) != 1)
                cur = 0;
            uint64_t r = cur < lim ? lim - cur : 0;
            if (!found || r < *room) {
                *room = r;
                *limit = lim;
                snprintf(where, n, "%s/%s", dir, files[i].max);
                found = true;
            }
        } while (cg_parent(dir, mnt));
    }
    return found ? 1 : 0;
}
