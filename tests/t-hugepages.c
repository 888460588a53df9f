/*
 * t-hugepages: PSHM_HUGEPAGES. A bad value fails pshm_init naming the
 * variable; "auto" and "no" always attach. "yes" attaches, and the segment
 * is backed by huge pages, exactly where the backend is offered them; else
 * it fails with EOPNOTSUPP saying why and what to set, leaving nothing.
 * For posix and file the offer is made or withheld on purpose: a tmpfs
 * mounted (in a private mount namespace) at /dev/shm or at GASNET_TMPDIR
 * with and without huge=within_size. SysV follows the system's
 * shmem_enabled, which the test reads, else the hugetlb pool (SHM_HUGETLB)
 * when it has free pages; --disable-pshm never has them.
 * File on a hugetlbfs at GASNET_TMPDIR: "no" is refused naming both; a
 * mount whose size= holds less than the segment fails at attach with
 * ENOSPC naming vm.nr_hugepages, leaving nothing; without size= the pool
 * decides: the segment is hugetlb memory when it has room, ENOSPC if not.
 */
#include "internal.h" /* sys_hugetlb_free: what the pool has */
#include "tests/helpers.h"
#include "pshm.h"
#include "config.h"

#include <dirent.h>

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define SEG (32u << 20)

/* kB of the calling process's shared memory mapped with huge pages:
 * transparent ones, or the hugetlb pool's. */
static long pmd_kb(void)
{
    char line[256];
    long kb = 0, v;
    FILE *f = fopen("/proc/self/smaps_rollup", "re");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "ShmemPmdMapped: %ld kB", &v) == 1 ||
            sscanf(line, "Shared_Hugetlb: %ld kB", &v) == 1 ||
            sscanf(line, "Private_Hugetlb: %ld kB", &v) == 1) /* mapped once: private */
            kb += v;
    fclose(f);
    return kb;
}

/* Huge pages of the pool that one process's segment and region take. */
#define POOL_NEED(page) (((uint64_t)SEG + (4u << 20)) / (page) + 2)

/* One job of one process with PSHM_HUGEPAGES=value: 0 and the huge kB of
 * the touched segment after attach, or the attach's error. */
static int attach_size(const char *value, size_t size, long *huge_kb, char *msg, size_t mn)
{
    pshm_ctx_t *ctx;
    pshm_seginfo_t si;
    int rc;

    setenv("PSHM_HUGEPAGES", value, 1);
    CHECK_OK(pshm_init(&ctx, NULL));
    rc = pshm_attach(ctx, size);
    snprintf(msg, mn, "%s", pshm_last_error());
    if (rc == 0) {
        CHECK_OK(pshm_segment_info(ctx, 0, &si));
        memset(si.local_base, 0x5a, si.size);
        *huge_kb = pmd_kb();
        for (size_t i = 0; i < si.size; i += 4096)
            CHECK(((unsigned char *)si.local_base)[i] == 0x5a);
    }
    CHECK_OK(pshm_finalize(ctx));
    unsetenv("PSHM_HUGEPAGES");
    return rc;
}

static int attach_with(const char *value, long *huge_kb, char *msg, size_t mn)
{
    return attach_size(value, SEG, huge_kb, msg, mn);
}

static int checks(bool offered, const char *where)
{
    char msg[1024];
    long kb = 0;
    int rc;

    rc = attach_with("auto", &kb, msg, sizeof msg);
    CHECK_OK(rc);
    if (offered && kb < 2048) {
        printf("FAIL %s: PSHM_HUGEPAGES=auto with huge pages offered mapped %ld kB of them\n",
               where, kb);
        return 1;
    }
    CHECK_OK(attach_with("no", &kb, msg, sizeof msg));
    rc = attach_with("yes", &kb, msg, sizeof msg);
    if (offered) {
        if (rc != 0 || kb < 2048) {
            printf("FAIL %s: PSHM_HUGEPAGES=yes, offered: rc %d, %ld kB huge (%s)\n", where, rc,
                   kb, msg);
            return 1;
        }
    } else if (rc != -EOPNOTSUPP || !strstr(msg, "PSHM_HUGEPAGES=yes") ||
               !strstr(msg, "PSHM_HUGEPAGES=auto")) {
        printf("FAIL %s: PSHM_HUGEPAGES=yes, not offered: want EOPNOTSUPP and advice, got %d "
               "(%s)\n", where, rc, msg);
        return 1;
    }
    printf("ok %s: huge pages %s; auto and no attach, yes %s%s%s\n", where,
           offered ? "offered" : "not offered", offered ? "maps them" : "fails: ",
           offered ? "" : msg, "");
    return 0;
}

/* Mounts a fresh tmpfs at dir in this process's own mount namespace, with
 * `huge` (a huge= option) or without. */
static int mount_tmpfs(const char *dir, const char *huge)
{
    char opts[128];
    umount2(dir, MNT_DETACH); /* the previous one of this test, if any */
    snprintf(opts, sizeof opts, "%s%ssize=256m,mode=1777", huge ? huge : "", huge ? "," : "");
    return mount("pshmtest", dir, "tmpfs", 0, opts);
}

/* SysV with shmem_enabled never: the hugetlb pool has some free pages but
 * fewer than a segment: "yes" fails naming the pool, "auto" attaches. */
static int sysv_pool_short(void)
{
    char msg[1024];
    long kb = 0;

    CHECK_OK(attach_with("auto", &kb, msg, sizeof msg));
    int rc = attach_with("yes", &kb, msg, sizeof msg);
    if (rc != -ENOSPC || !strstr(msg, "vm.nr_hugepages") || !strstr(msg, "PSHM_HUGEPAGES=auto")) {
        printf("FAIL pool short: PSHM_HUGEPAGES=yes: want ENOSPC naming the pool, got %d (%s)\n",
               rc, msg);
        return T_FAIL;
    }
    printf("ok pool short: auto attaches with 4 KiB pages, yes fails: %s\n", msg);
    return T_PASS;
}

/* SysV follows the system's shmem_enabled, else the hugetlb pool;
 * --disable-pshm never. */
static int sysv_or_none(void)
{
    char mode[64] = "never";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "re");
    if (f != NULL) {
        char line[256], *a, *b;
        if (fgets(line, sizeof line, f) && (a = strchr(line, '[')) && (b = strchr(a, ']'))) {
            *b = '\0';
            snprintf(mode, sizeof mode, "%s", a + 1);
        }
        fclose(f);
    }
    bool offered = !PSHM_BACKEND_NONE && strcmp(mode, "never") != 0 && strcmp(mode, "deny") != 0;
    uint64_t page = sys_hugetlb_default(), pool = page ? sys_hugetlb_free(page) : 0;
    if (PSHM_BACKEND_SYSV && !offered && pool >= page && pool < POOL_NEED(page) * page)
        return sysv_pool_short();
    if (PSHM_BACKEND_SYSV && !offered && pool >= page) {
        printf("shmem_enabled [%s]: the hugetlb pool has %llu pages free\n", mode,
               (unsigned long long)(pool / page));
        offered = true;
    }
    return checks(offered, PSHM_BACKEND_NONE ? "none backend" : mode) ? T_FAIL : T_PASS;
}

static int dir_entries(const char *dir);

/* A huge=advise tmpfs of 16 MiB: a 32 MiB segment fails to reserve with
 * ENOSPC at creation (never a SIGBUS at first touch), leaving nothing. */
static int reserve_short(const char *dir)
{
    pshm_cfg_t cfg;
    seg_obj_t o;
    char tag[32];

    umount2(dir, MNT_DETACH);
    CHECK(mount("pshmtest", dir, "tmpfs", 0, "huge=advise,size=16m,mode=1777") == 0);
    setenv("PSHM_HUGEPAGES", "yes", 1);
    CHECK_OK(env_load(&cfg));
    CHECK_OK(huge_decide(&cfg));
    unsetenv("PSHM_HUGEPAGES");
    CHECK(cfg.huge_use && cfg.huge_advise);
    snprintf(tag, sizeof tag, "th%d", (int)getpid());
    int rc = seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 0, 0, 1, SEG);
    if (rc != -ENOSPC || !strstr(pshm_last_error(), "only") || dir_entries(dir) != 0) {
        printf("FAIL huge=advise size=16m: a 32 MiB segment: want ENOSPC saying what is free "
               "and nothing left, got %d (%s), %d files\n", rc, pshm_last_error(),
               dir_entries(dir));
        return 1;
    }
    printf("ok huge=advise size=16m: %s\n", pshm_last_error());
    return 0;
}

/* Entries of dir other than . and .. */
static int dir_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The file backend with GASNET_TMPDIR on a hugetlbfs. */
static int hugetlbfs_checks(const char *dir)
{
    char msg[1024];
    long kb = 0;
    int rc;

    umount2(dir, MNT_DETACH);
    if (mount("pshmtest", dir, "hugetlbfs", 0, "size=8M,mode=1777") != 0) {
        printf("skip hugetlbfs: this kernel mounts none (%s)\n", strerror(errno));
        return 0;
    }
    uint64_t page = sys_hugetlbfs_dir(dir);
    CHECK(page != 0);
    rc = attach_with("no", &kb, msg, sizeof msg);
    if (rc != -EINVAL || !strstr(msg, "hugetlbfs") || !strstr(msg, "PSHM_HUGEPAGES=no")) {
        printf("FAIL hugetlbfs: PSHM_HUGEPAGES=no: want EINVAL naming both, got %d (%s)\n", rc,
               msg);
        return 1;
    }
    printf("ok hugetlbfs: no is refused: %s\n", msg);
    /* size=8M: a 32 MiB segment cannot fit, whatever the pool holds. */
    rc = attach_with("yes", &kb, msg, sizeof msg);
    if (rc != -ENOSPC || !strstr(msg, "vm.nr_hugepages") || dir_entries(dir) != 0) {
        printf("FAIL hugetlbfs size=8M: want ENOSPC naming vm.nr_hugepages and nothing left, "
               "got %d (%s), %d files\n", rc, msg, dir_entries(dir));
        return 1;
    }
    printf("ok hugetlbfs size=8M: %s\n", msg);
    umount2(dir, MNT_DETACH);
    CHECK(mount("pshmtest", dir, "hugetlbfs", 0, "mode=1777") == 0);
    uint64_t pool = sys_hugetlb_free(page);
    rc = attach_with("auto", &kb, msg, sizeof msg);
    if (pool >= POOL_NEED(page) * page) {
        if (rc != 0 || kb < (long)(SEG >> 10)) {
            printf("FAIL hugetlbfs, %llu pages free: rc %d, %ld kB of huge pages (%s)\n",
                   (unsigned long long)(pool / page), rc, kb, msg);
            return 1;
        }
        printf("ok hugetlbfs, %llu pages free: the segment is %ld kB of them\n",
               (unsigned long long)(pool / page), kb);
        /* The largest size offered fits once each object is rounded up to
         * whole huge pages. */
        rc = attach_size("auto", PSHM_SEGSIZE_MAX, &kb, msg, sizeof msg);
        if (rc != 0 || dir_entries(dir) != 0) {
            printf("FAIL hugetlbfs: PSHM_SEGSIZE_MAX: rc %d (%s), %d files left\n", rc, msg,
                   dir_entries(dir));
            return 1;
        }
        printf("ok hugetlbfs: PSHM_SEGSIZE_MAX fits the pool (%ld kB mapped)\n", kb);
    } else if (rc != -ENOSPC || !strstr(msg, "vm.nr_hugepages")) {
        printf("FAIL hugetlbfs, %llu pages free: want ENOSPC naming vm.nr_hugepages, got %d "
               "(%s)\n", (unsigned long long)(pool / page), rc, msg);
        return 1;
    } else {
        printf("ok hugetlbfs, %llu pages free (too few for a segment): %s\n",
               (unsigned long long)(pool / page), msg);
    }
    CHECK(dir_entries(dir) == 0);
    return 0;
}

int main(void)
{
    char msg[512];
    pshm_ctx_t *ctx;

    unsetenv("PSHM_RANK");
    setenv("PSHM_HUGEPAGES", "sometimes", 1);
    CHECK_ERR(pshm_init(&ctx, NULL), -EINVAL);
    snprintf(msg, sizeof msg, "%s", pshm_last_error());
    CHECK(strstr(msg, "PSHM_HUGEPAGES") && strstr(msg, "no, auto or yes"));
    unsetenv("PSHM_HUGEPAGES");
    printf("ok: PSHM_HUGEPAGES=sometimes refused: %s\n", msg);

    if (PSHM_BACKEND_SYSV || PSHM_BACKEND_NONE)
        return sysv_or_none();
    const char *dir = PSHM_BACKEND_POSIX ? "/dev/shm" : "/tmp/t-hugepages-mnt";
    if (!th_can_unshare() || unshare(CLONE_NEWNS) < 0 ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
        printf("skip: cannot make a private mount namespace (needs root) to offer or withhold "
               "huge pages\n");
        return T_SKIP;
    }
    if (!PSHM_BACKEND_POSIX) {
        CHECK(mkdir(dir, 0700) == 0 || errno == EEXIST);
        setenv("GASNET_TMPDIR", dir, 1);
    }
    int fails = 0;
    CHECK(mount_tmpfs(dir, NULL) == 0);
    fails += checks(false, "tmpfs without huge=");
    if (mount_tmpfs(dir, "huge=within_size") != 0) {
        printf("skip: this kernel mounts no tmpfs with huge=within_size (%s)\n", strerror(errno));
        return fails ? T_FAIL : T_SKIP;
    }
    fails += checks(true, "tmpfs with huge=within_size");
    /* advise: only an advised mapping gets them, and pshm advises its own. */
    CHECK(mount_tmpfs(dir, "huge=advise") == 0);
    fails += checks(true, "tmpfs with huge=advise");
    fails += reserve_short(dir);
    if (PSHM_BACKEND_FILE)
        fails += hugetlbfs_checks(dir);
    umount2(dir, MNT_DETACH);
    if (!PSHM_BACKEND_POSIX)
        rmdir(dir);
    return fails ? T_FAIL : T_PASS;
}
