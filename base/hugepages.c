/*
 * hugepages.c - PSHM_HUGEPAGES: whether the segments and the AM region are
 * backed by transparent huge pages, where the system offers them.
 *
 * Reserving a segment (posix_fallocate on tmpfs, MADV_POPULATE_WRITE for
 * SysV) costs per page: with 4 KiB pages most of the start-up time of large
 * segments goes to allocating and accounting 256 pages per MiB; with 2 MiB
 * pages it is one. Whether shared memory gets them is the system's choice:
 *   posix  the tmpfs mounted at /dev/shm, by its huge= option (always or
 *          within_size; "advise" would need a mapping, and the storage is
 *          reserved before one exists), or shmem_enabled "force"
 *   sysv   /sys/kernel/mm/transparent_hugepage/shmem_enabled: always,
 *          within_size, force, or advise (the segment is then advised before
 *          its pages are committed)
 *   file   the temporary directory on a tmpfs mounted as for posix; hugetlbfs
 *          is refused (it takes no write(), and the header page is written)
 *   none   never
 * "deny" in shmem_enabled turns them off everywhere.
 */
#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>

#define SHMEM_ENABLED "/sys/kernel/mm/transparent_hugepage/shmem_enabled"
#define HUGETLBFS_MAGIC_ 0x958458f6

/* The bracketed word of shmem_enabled ("never" if unreadable). */
static void shmem_mode(char *out, size_t n)
{
    char line[256], *a, *b;
    FILE *f = fopen(SHMEM_ENABLED, "re");

    snprintf(out, n, "never");
    if (f == NULL)
        return;
    if (fgets(line, sizeof line, f) != NULL && (a = strchr(line, '[')) != NULL &&
        (b = strchr(a, ']')) != NULL) {
        *b = '\0';
        snprintf(out, n, "%s", a + 1);
    }
    fclose(f);
}

/* The mount options of the file system holding `path` (longest mount point
 * that is a prefix of it, from /proc/self/mounts), and its type. */
static int mount_of(const char *path, char *type, size_t tn, char *opts, size_t on)
{
    char line[4096], dev[1024], mnt[1024], fs[64], op[1024];
    size_t best = 0;
    FILE *f = fopen("/proc/self/mounts", "re");

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        size_t l;
        if (sscanf(line, "%1023s %1023s %63s %1023s", dev, mnt, fs, op) != 4)
            continue;
        l = strlen(mnt);
        /* A prefix that ends at a path component ("/" matches everything). */
        if (strncmp(path, mnt, l) != 0 || (l > 1 && path[l] != '\0' && path[l] != '/') ||
            l < best)
            continue;
        best = l;
        snprintf(type, tn, "%s", fs);
        snprintf(opts, on, "%s", op);
    }
    fclose(f);
    return best > 0 ? 0 : -1;
}

/* Whether the tmpfs holding `dir` allocates huge pages; else why not. */
static bool tmpfs_huge(const char *dir, const char *shmem, char *why, size_t wn)
{
    char type[64] = "", opts[1024] = "";
    struct statfs sf;

    if (statfs(dir, &sf) == 0 && (unsigned long)sf.f_type == HUGETLBFS_MAGIC_) {
        snprintf(why, wn, "%s is a hugetlbfs, which takes no write() and the segment header is "
                 "written; use a tmpfs mounted with huge=within_size", dir);
        return false;
    }
    if (mount_of(dir, type, sizeof type, opts, sizeof opts) < 0 || strcmp(type, "tmpfs") != 0) {
        snprintf(why, wn, "%s is not on a tmpfs (%s)", dir, type[0] ? type : "unknown");
        return false;
    }
    if (strcmp(shmem, "force") == 0)
        return true;
    if (strstr(opts, "huge=always") != NULL || strstr(opts, "huge=within_size") != NULL)
        return true;
    snprintf(why, wn, "the tmpfs at %s is mounted without huge=always or huge=within_size "
             "(options %s)", dir, opts);
    return false;
}

int huge_decide(pshm_cfg_t *cfg)
{
    char shmem[32], why[PSHM_PATH_MAX + 256] = "";
    bool ok = false;

    cfg->huge_use = false;
    cfg->huge_advise = false;
    if (cfg->hugepages == HUGE_NO)
        return 0;
    shmem_mode(shmem, sizeof shmem);
    if (strcmp(shmem, "deny") == 0) {
        snprintf(why, sizeof why, "%s is [deny]", SHMEM_ENABLED);
    } else if (PSHM_BACKEND_POSIX) {
        ok = tmpfs_huge("/dev/shm", shmem, why, sizeof why);
    } else if (PSHM_BACKEND_FILE) {
        ok = tmpfs_huge(cfg->tmpdir, shmem, why, sizeof why);
    } else if (PSHM_BACKEND_SYSV) {
        ok = strcmp(shmem, "never") != 0;
        cfg->huge_advise = strcmp(shmem, "advise") == 0;
        if (!ok)
            snprintf(why, sizeof why, "%s is [never]", SHMEM_ENABLED);
    } else {
        snprintf(why, sizeof why, "this library was built with --disable-pshm");
    }
    if (ok) {
        cfg->huge_use = true;
        return 0;
    }
    cfg->huge_advise = false;
    if (cfg->hugepages == HUGE_AUTO)
        return 0;
    return pshm_err(-EOPNOTSUPP, "PSHM_HUGEPAGES=yes, but the %s backend gets no huge pages "
                    "here: %s; ask the administrator for them, or set PSHM_HUGEPAGES=auto (use "
                    "them when offered) or no", PSHM_BACKEND_NAME, why);
}
