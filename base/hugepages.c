/*
 * hugepages.c - PSHM_HUGEPAGES: whether the segments and the AM region are
 * backed by transparent huge pages, where the system offers them.
 *
 * Reserving a segment (posix_fallocate on tmpfs, MADV_POPULATE_WRITE for
 * SysV) costs per page: with 4 KiB pages most of the start-up time of large
 * segments goes to allocating and accounting 256 pages per MiB; with 2 MiB
 * pages it is one. Whether shared memory gets them is the system's choice:
 *   posix  the tmpfs mounted at /dev/shm, by its huge= option (always or
 *          within_size; advise: the segment is mapped, advised and its pages
 *          faulted in instead of fallocate'd), or shmem_enabled "force"
 *   sysv   /sys/kernel/mm/transparent_hugepage/shmem_enabled: always,
 *          within_size, force, or advise (the segment is then advised before
 *          its pages are committed); else, when the hugetlb pool has free
 *          pages (vm.nr_hugepages), SHM_HUGETLB: shmget reserves the pages
 *          in the pool, nothing is committed one page at a time
 *   file   the temporary directory on a tmpfs mounted as for posix, or on a
 *          hugetlbfs (its files are huge pages from the pool, reserved when
 *          mapped: GASNET_TMPDIR there is a request for them, refused with
 *          PSHM_HUGEPAGES=no)
 *   none   never
 * "deny" in shmem_enabled turns transparent ones off everywhere.
 */
#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SHMEM_ENABLED "/sys/kernel/mm/transparent_hugepage/shmem_enabled"

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
static bool tmpfs_huge(const char *dir, const char *shmem, bool *advise, char *why, size_t wn)
{
    char type[64] = "", opts[1024] = "";

    if (mount_of(dir, type, sizeof type, opts, sizeof opts) < 0 || strcmp(type, "tmpfs") != 0) {
        snprintf(why, wn, "%s is not on a tmpfs (%s)", dir, type[0] ? type : "unknown");
        return false;
    }
    if (strcmp(shmem, "force") == 0)
        return true;
    if (strstr(opts, "huge=always") != NULL || strstr(opts, "huge=within_size") != NULL)
        return true;
#ifdef MADV_POPULATE_WRITE
    if (strstr(opts, "huge=advise") != NULL)
        return *advise = true;
#endif
    snprintf(why, wn, "the tmpfs at %s is mounted without huge=always, huge=within_size or "
             "huge=advise (options %s)", dir, opts);
    return false;
}

/* SysV: transparent huge pages as shmem_enabled allows, else the hugetlb
 * pool if it has free pages; else why not. */
static bool sysv_huge(pshm_cfg_t *cfg, const char *shmem, char *why, size_t wn)
{
    char a[32];
    uint64_t tlb = sys_hugetlb_default();

    if (strcmp(shmem, "never") != 0 && strcmp(shmem, "deny") != 0) {
        cfg->huge_advise = strcmp(shmem, "advise") == 0;
        return true;
    }
    if (tlb != 0 && sys_hugetlb_free(tlb) >= tlb) {
        cfg->huge_tlb = tlb;
        return true;
    }
    snprintf(why, wn, "%s is [%s] and the hugetlb pool has no free pages of %s (vm.nr_hugepages)",
             SHMEM_ENABLED, shmem, tlb ? pshm_fmt_size(a, sizeof a, tlb) : "any size");
    return false;
}

int huge_decide(pshm_cfg_t *cfg)
{
    char shmem[32], why[PSHM_PATH_MAX + 256] = "";
    uint64_t tlb;
    bool ok = false;

    cfg->huge_use = false;
    cfg->huge_advise = false;
    cfg->huge_tlb = 0;
    if (PSHM_BACKEND_FILE && (tlb = sys_hugetlbfs_dir(cfg->tmpdir)) != 0) {
        /* Every file there is huge pages: nothing else to fall back to. */
        if (cfg->hugepages == HUGE_NO)
            return pshm_err(-EINVAL, "GASNET_TMPDIR (%s) is a hugetlbfs, whose files are huge "
                            "pages, and PSHM_HUGEPAGES=no: set PSHM_HUGEPAGES=auto or yes to "
                            "use them, or GASNET_TMPDIR to a tmpfs", cfg->tmpdir);
        cfg->huge_tlb = tlb;
        cfg->huge_use = true;
        return 0;
    }
    if (cfg->hugepages == HUGE_NO)
        return 0;
    shmem_mode(shmem, sizeof shmem);
    if (PSHM_BACKEND_SYSV) {
        ok = sysv_huge(cfg, shmem, why, sizeof why);
    } else if (strcmp(shmem, "deny") == 0) {
        snprintf(why, sizeof why, "%s is [deny]", SHMEM_ENABLED);
    } else if (PSHM_BACKEND_POSIX) {
        ok = tmpfs_huge("/dev/shm", shmem, &cfg->huge_advise, why, sizeof why);
    } else if (PSHM_BACKEND_FILE) {
        ok = tmpfs_huge(cfg->tmpdir, shmem, &cfg->huge_advise, why, sizeof why);
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
