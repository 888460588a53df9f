/*
 * t-hugepages: PSHM_HUGEPAGES. A bad value fails pshm_init naming the
 * variable; "auto" and "no" always attach. "yes" attaches, and the segment
 * is backed by huge pages, exactly where the backend is offered them; else
 * it fails with EOPNOTSUPP saying why and what to set, leaving nothing.
 * For posix and file the offer is made or withheld on purpose: a tmpfs
 * mounted (in a private mount namespace) at /dev/shm or at GASNET_TMPDIR
 * with and without huge=within_size. SysV follows the system's
 * shmem_enabled, which the test reads; --disable-pshm never has them.
 */
#include "tests/helpers.h"
#include "pshm.h"
#include "config.h"

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

/* kB of the calling process's shared memory mapped with huge pages. */
static long pmd_kb(void)
{
    char line[256];
    long kb = 0, v;
    FILE *f = fopen("/proc/self/smaps_rollup", "re");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "ShmemPmdMapped: %ld kB", &v) == 1)
            kb += v;
    fclose(f);
    return kb;
}

/* One job of one process with PSHM_HUGEPAGES=value: 0 and the huge kB of
 * the touched segment after attach, or the attach's error. */
static int attach_with(const char *value, long *huge_kb, char *msg, size_t mn)
{
    pshm_ctx_t *ctx;
    pshm_seginfo_t si;
    int rc;

    setenv("PSHM_HUGEPAGES", value, 1);
    CHECK_OK(pshm_init(&ctx, NULL));
    rc = pshm_attach(ctx, SEG);
    snprintf(msg, mn, "%s", pshm_last_error());
    if (rc == 0) {
        CHECK_OK(pshm_segment_info(ctx, 0, &si));
        memset(si.local_base, 0x5a, si.size);
        *huge_kb = pmd_kb();
    }
    CHECK_OK(pshm_finalize(ctx));
    unsetenv("PSHM_HUGEPAGES");
    return rc;
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

/* Mounts a fresh tmpfs at dir in this process's own mount namespace. */
static int mount_tmpfs(const char *dir, bool huge)
{
    umount2(dir, MNT_DETACH); /* the previous one of this test, if any */
    return mount("pshmtest", dir, "tmpfs", 0, huge ? "huge=within_size,size=256m,mode=1777"
                                                   : "size=256m,mode=1777");
}

/* SysV follows the system's shmem_enabled; --disable-pshm never. */
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
    return checks(offered, PSHM_BACKEND_NONE ? "none backend" : mode) ? T_FAIL : T_PASS;
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
    CHECK(mount_tmpfs(dir, false) == 0);
    fails += checks(false, "tmpfs without huge=");
    if (mount_tmpfs(dir, true) != 0) {
        printf("skip: this kernel mounts no tmpfs with huge=within_size (%s)\n", strerror(errno));
        return fails ? T_FAIL : T_SKIP;
    }
    fails += checks(true, "tmpfs with huge=within_size");
    umount2(dir, MNT_DETACH);
    if (!PSHM_BACKEND_POSIX)
        rmdir(dir);
    return fails ? T_FAIL : T_PASS;
}
