/*
 * t-segment-small - a backing store smaller than the segment: creation fails
 * at once with -ENOSPC (or -EINVAL for kernel.shmmax) and a message naming the
 * amount asked, the room there is and what to change; nothing is left behind;
 * seg_max_size() reports a size that does fit.
 *
 * Needs root: it makes private mount and IPC namespaces, then a 1 MiB tmpfs
 * over /dev/shm (posix) or over a fresh directory used as GASNET_TMPDIR
 * (file), or low kernel.shm* limits (sysv). Skips (77) otherwise.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>


#define SMALL (1u << 20)
#define BIG (4u << 20)

static pshm_cfg_t cfg;
static char tag[PSHM_TAG_MAX + 1], dir[64];
static int checks;

static void expect_in_msg(const char *what)
{
    if (!strstr(pshm_last_error(), what)) {
        fprintf(stderr, "FAIL: message should contain \"%s\": \"%s\"\n", what, pshm_last_error());
        exit(T_FAIL);
    }
    checks++;
}

static void write_proc(const char *path, unsigned long long v)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    CHECK(fprintf(f, "%llu\n", v) > 0);
    CHECK(fclose(f) == 0);
}

static int count_one(const sysv_ent_t *e, void *arg)
{
    (void)e;
    ++*(int *)arg;
    return 0;
}

/* pshm objects in the (private) store: files, or SysV segments. */
static int objects(void)
{
    int n = 0;
    if (PSHM_BACKEND_SYSV) {
        CHECK(sysv_each(count_one, &n) == 0);
        return n;
    }
    DIR *d = opendir(PSHM_BACKEND_FILE ? dir : "/dev/shm");
    CHECK(d != NULL);
    for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* Creating BIG fails with `err` and leaves nothing more than `before`. */
static void create_fails(int err, const char *hint, int before)
{
    seg_obj_t o;
    char asked[32];
    pshm_err_clear();
    CHECK_ERR(seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 0, 0, 1, BIG), err);
    expect_in_msg(pshm_fmt_size(asked, sizeof asked, BIG + SEG_HDR_SIZE));
    expect_in_msg("pshm.");
    expect_in_msg(hint);
    CHECK(objects() == before);
    printf("  as expected: %s\n", pshm_last_error());
}

/* The largest size seg_max_size() offers fits, and is below the store. */
static void max_fits(void)
{
    seg_obj_t o;
    uint64_t max;
    CHECK_OK(seg_max_size(&cfg, 1, 1, 0, &max));
    CHECK(max > 0 && max <= SMALL);
    CHECK_OK(seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 0, 0, 1, max));
    memset(seg_user_base(&o), 0x5a, max); /* every page is backed: no SIGBUS */
    CHECK(objects() == 1);
    seg_be_release(&o, &cfg);
    CHECK(objects() == 0);
    checks += 4;
}

int main(void)
{
    if (PSHM_BACKEND_NONE) {
        printf("t-segment-small: SKIP: no backing store in the none backend\n");
        return T_SKIP;
    }
    if (geteuid() != 0 || unshare(CLONE_NEWNS | CLONE_NEWIPC) < 0 ||
        mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
        printf("t-segment-small: SKIP: needs root and private mount/IPC namespaces\n");
        return T_SKIP;
    }
    snprintf(tag, sizeof tag, "ts%d", (int)getpid());
    unsetenv("GASNET_MAX_SEGSIZE");

    if (PSHM_BACKEND_SYSV) {
        CHECK_OK(env_load(&cfg));
        write_proc("/proc/sys/kernel/shmmax", SMALL);
        create_fails(-EINVAL, "kernel.shmmax=1048576", 0);
        max_fits();
        write_proc("/proc/sys/kernel/shmmax", 64u << 20);
        write_proc("/proc/sys/kernel/shmall", SMALL / (unsigned)sysconf(_SC_PAGESIZE));
        create_fails(-ENOSPC, "kernel.shmall", 0);
        max_fits();
        write_proc("/proc/sys/kernel/shmall", 1u << 20);
        write_proc("/proc/sys/kernel/shmmni", 1);
        seg_obj_t one;
        CHECK_OK(seg_create(&one, &cfg, tag, SEG_KIND_REGION, 0, 0, 1, 4096));
        create_fails(-ENOSPC, "kernel.shmmni=1", 1);
        seg_be_release(&one, &cfg);
        CHECK(objects() == 0);
    } else if (PSHM_BACKEND_FILE) {
        snprintf(dir, sizeof dir, "/tmp/t-segment-small.XXXXXX");
        CHECK(mkdtemp(dir) != NULL);
        if (mount("tmpfs", dir, "tmpfs", 0, "size=1m,mode=0700") < 0) {
            rmdir(dir);
            printf("t-segment-small: SKIP: cannot mount a tmpfs\n");
            return T_SKIP;
        }
        setenv("GASNET_TMPDIR", dir, 1);
        CHECK_OK(env_load(&cfg));
        create_fails(-ENOSPC, "free", 0);
        expect_in_msg("GASNET_TMPDIR");
        max_fits();
        CHECK(umount(dir) == 0 && rmdir(dir) == 0);
    } else {
        CHECK(mount("tmpfs", "/dev/shm", "tmpfs", 0, "size=1m,mode=1777") == 0);
        CHECK_OK(env_load(&cfg));
        create_fails(-ENOSPC, "free", 0);
        expect_in_msg("/dev/shm");
        expect_in_msg("--shm-size");
        max_fits();
    }
    printf("t-segment-small (%s backend): %d checks passed\n", seg_be_name, checks);
    return T_PASS;
}
