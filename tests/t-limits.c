/*
 * t-limits: a whole job (4 forked processes, callbacks bootstrap) against
 * each limit of the machine, inside private mount and IPC namespaces (root
 * only, else skip): a small /dev/shm (posix), a small GASNET_TMPDIR (file),
 * low kernel.shmmax / shmall / shmmni (sysv), RLIMIT_NOFILE too low for the
 * pidfds of 8 processes, RLIMIT_AS too low for the segments (ENOMEM), a
 * memory cgroup limit below the segments (ENOMEM, no OOM kill; where a child
 * cgroup can be made), and a queue depth/memory too large for the machine.
 * Every rank fails with the same code and a sentence that names the limit
 * and how to raise it, in bounded time, and nothing is left behind. Sizes
 * that do fit work: 4 x 4 MiB in a 30 MiB store (one reading of the free
 * space for the supernode), a 900 KiB SysV segment under shmmax = 1 MiB.
 * The other cases get a private store large enough that the limit tested
 * binds first, whatever the temporary directory of the machine holds.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>


/* A private store for the file backend: a directory of this test's own
 * (another run beside it must not share, or remove, its mount point). */
static char lim_dir[PSHM_PATH_MAX];
#define LIM_DIR lim_dir

typedef struct limit_case {
    const char *name;
    int nprocs;
    size_t segsize;
    int rlimit;                /* RLIMIT_* to lower in each rank, or -1 */
    rlim_t rlim_value;         /* the new soft limit (0: computed in the rank) */
    const char *words[3];      /* the sentence names these */
    int want_rc;               /* the code every rank gets (0: any failure); 1: it fits */
    const char *not_words;     /* the sentence must not say this */
} limit_case_t;

typedef struct result { int stage, rc; char msg[1000]; } result_t;

/* Rank: lowers its limit, then init + attach; reports what failed. */
static int limit_rank(fj_rt_t *rt, void *arg)
{
    const limit_case_t *lc = arg;
    result_t *res = (result_t *)rt->hub->user + rt->rank;
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;
    int rc;

    if (lc->rlimit == RLIMIT_NOFILE) {
        /* Enough for stdio, the objects and a few pidfds, not all of them. */
        struct rlimit r = { lc->rlim_value, lc->rlim_value };
        CHECK(setrlimit(RLIMIT_NOFILE, &r) == 0);
    } else if (lc->rlimit == RLIMIT_AS) {
        struct rlimit r = { lc->rlim_value, lc->rlim_value };
        CHECK(setrlimit(RLIMIT_AS, &r) == 0);
    }
    res->stage = 1;
    rc = pshm_init(&ctx, &attr);
    if (rc == 0) {
        res->stage = 2;
        rc = pshm_attach(ctx, lc->segsize);
    }
    res->rc = rc;
    snprintf(res->msg, sizeof res->msg, "%s", pshm_last_error());
    if (rc == 0)
        return pshm_finalize(ctx) == 0 ? 3 : 4;
    if (res->stage == 2)
        pshm_finalize(ctx);
    return 0;
}

static int run_case(fj_hub_t *h, const limit_case_t *lc, int n)
{
    int st[FJ_MAX], fails = 0;
    result_t *res = (result_t *)h->user;
    char tag[17];

    snprintf(tag, sizeof tag, "lim%d%d", (int)getpid() % 100000, n);
    memset(res, 0, sizeof(result_t) * FJ_MAX);
    double took = fj_run(h, lc->nprocs, tag, limit_rank, (void *)lc, st, 30, NULL, NULL);
    for (int r = 0; r < lc->nprocs; r++) {
        int ok = lc->want_rc == 1
                     ? fj_exited(st[r], 3) && res[r].rc == 0
                     : fj_exited(st[r], 0) && res[r].rc < 0 && res[r].rc == res[0].rc &&
                           (lc->want_rc == 0 || res[r].rc == lc->want_rc);
        for (int w = 0; ok && w < 3 && lc->words[w]; w++)
            ok = strstr(res[r].msg, lc->words[w]) != NULL;
        if (ok && lc->not_words != NULL)
            ok = strstr(res[r].msg, lc->not_words) == NULL;
        if (!ok) {
            printf("FAIL %s: rank %d status %#x rc %d (rank 0: %d): \"%s\"; want", lc->name, r,
                   st[r], res[r].rc, res[0].rc, res[r].msg);
            for (int w = 0; w < 3 && lc->words[w]; w++)
                printf(" \"%s\"", lc->words[w]);
            if (lc->want_rc == 1)
                printf(" success");
            else if (lc->want_rc < 0)
                printf(" code %d", lc->want_rc);
            if (lc->not_words != NULL)
                printf(", without \"%s\"", lc->not_words);
            printf("\n");
            fails++;
        }
    }
    if (took < 0 || took > 20) {
        printf("FAIL %s: the job took %.1f s\n", lc->name, took);
        fails++;
    }
    if (th_count_objects(tag) != 0) {
        printf("FAIL %s: objects of job %s left behind\n", lc->name, tag);
        fails++;
    }
    if (!fails && lc->want_rc == 1)
        printf("ok: %s: all %d ranks attached in %.2f s\n", lc->name, lc->nprocs, took);
    else if (!fails)
        printf("ok: %s: all %d ranks %s in %.2f s: %s\n", lc->name, lc->nprocs,
               pshm_strerror(res[0].rc), took, res[0].msg);
    return fails;
}

static void sysctl_set(const char *name, const char *v)
{
    char path[128];
    snprintf(path, sizeof path, "/proc/sys/kernel/%s", name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL && fputs(v, f) >= 0 && fclose(f) == 0);
}

/* The store of this backend: a private tmpfs of `size` over /dev/shm (posix)
 * or LIM_DIR as GASNET_TMPDIR (file); sysv has none (kernel limits). */
static void store_mount(const char *size)
{
    char opt[32];
    snprintf(opt, sizeof opt, "size=%s", size);
    if (PSHM_BACKEND_POSIX)
        CHECK(mount("pshmtest", "/dev/shm", "tmpfs", 0, opt) == 0);
    if (PSHM_BACKEND_FILE) {
        CHECK(mkdir(LIM_DIR, 0700) == 0 || errno == EEXIST);
        CHECK(mount("pshmtest", LIM_DIR, "tmpfs", 0, opt) == 0);
        setenv("GASNET_TMPDIR", LIM_DIR, 1);
    }
}

static void store_umount(void)
{
    if (PSHM_BACKEND_POSIX)
        CHECK(umount("/dev/shm") == 0);
    if (PSHM_BACKEND_FILE) {
        unsetenv("GASNET_TMPDIR");
        CHECK(umount(LIM_DIR) == 0);
        rmdir(LIM_DIR);
    }
}

static int write_file(const char *dir, const char *name, const char *v)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) return -1;
    int ok = fputs(v, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* A child memory cgroup of this process's (v2 memory.max, else v1
 * memory.limit_in_bytes) limited to `limit`, into dir; 0, or -1 if this
 * machine does not allow one (the reason printed). */
static int memcg_make(char *dir, size_t n, const char *limit, const char **file)
{
    static const struct { const char *mnt, *ctrl, *max; } h[] = {
        { "/sys/fs/cgroup", "", "memory.max" },
        { "/sys/fs/cgroup/unified", "", "memory.max" },
        { "/sys/fs/cgroup/memory", "memory", "memory.limit_in_bytes" },
    };
    char line[512], path[400];
    for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
        FILE *f = fopen("/proc/self/cgroup", "re");
        char *cg = NULL;
        while (f && !cg && fgets(line, sizeof line, f)) {
            char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
            if (!c2) continue;
            *c2 = 0;
            bool v2 = !strcmp(line, "0") && c1[1] == 0;
            if (h[i].ctrl[0] ? strstr(c1 + 1, h[i].ctrl) != NULL : v2) cg = c2 + 1;
        }
        if (f) fclose(f);
        if (!cg) continue;
        cg[strcspn(cg, "\n")] = 0;
        snprintf(path, sizeof path, "%s%s", h[i].mnt, cg);
        snprintf(dir, n, "%s/pshm-limits-%d", path, (int)getpid());
        if (mkdir(dir, 0755) < 0) continue;
        if (write_file(dir, h[i].max, limit) == 0) {
            *file = h[i].max;
            return 0;
        }
        rmdir(dir);
    }
    printf("skip part: no memory cgroup can be made here (cgroup v2 memory.max or v1 "
           "memory.limit_in_bytes under this process's cgroup)\n");
    return -1;
}

/* The memory cgroup case, in a child process moved into a cgroup of 48 MiB:
 * 4 x 16 MiB of segments must fail the pre-check (before this fix the
 * reservation ended in an OOM kill). */
static int memcg_case(fj_hub_t *h, int n)
{
    char dir[512], pid[32];
    const char *file;
    int st, fails = 0;

    if (memcg_make(dir, sizeof dir, "50331648", &file) < 0)
        return 0;
    store_mount("1g");
    fflush(NULL);
    pid_t c = fork();
    CHECK(c >= 0);
    if (c == 0) {
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        CHECK(write_file(dir, "cgroup.procs", pid) == 0);
        limit_case_t mc = { "memory cgroup of 48 MiB, 4 x 16 MiB", 4, 16 << 20, -1, 0,
                            { "control group", file, NULL }, -ENOMEM, NULL };
        int r = run_case(h, &mc, n);
        fflush(NULL);
        _exit(r);
    }
    CHECK(waitpid(c, &st, 0) == c);
    fails = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    if (fails && WIFSIGNALED(st))
        printf("FAIL: the memory cgroup case was killed by signal %d\n", WTERMSIG(st));
    store_umount();
    if (rmdir(dir) < 0) printf("note: rmdir %s: %s\n", dir, strerror(errno));
    return fails;
}

/* In the namespaces. */
static int limits(void)
{
    fj_hub_t *h = fj_hub_new();
    int fails = 0, n = 0;

    if (PSHM_BACKEND_POSIX) {
        store_mount("16m");
        limit_case_t c = { "small /dev/shm (16 MiB), 4 x 4 MiB", 4, 4 << 20, -1, 0,
                           { "/dev/shm", "free", "size=" }, -ENOSPC, NULL };
        fails += run_case(h, &c, n++);
        store_umount();
    }
    if (PSHM_BACKEND_FILE) {
        store_mount("16m");
        limit_case_t c = { "small GASNET_TMPDIR (16 MiB), 4 x 4 MiB", 4, 4 << 20, -1, 0,
                           { LIM_DIR, "free", "GASNET_TMPDIR" }, -ENOSPC, NULL };
        fails += run_case(h, &c, n++);
        store_umount();
    }
    if (!PSHM_BACKEND_SYSV) {
        /* Room for all with some to spare: every rank must divide one reading. */
        store_mount("30m");
        limit_case_t c = { "30 MiB store, 4 x 4 MiB (fits)", 4, 4 << 20, -1, 0,
                           { NULL, NULL, NULL }, 1, NULL };
        fails += run_case(h, &c, n++);
        store_umount();
        /* Too small for even one page each: the message names what binds and
         * lists only the limits that are set. */
        store_mount("8k");
        limit_case_t t = { "8 KiB store, 4 processes", 4, 4096, -1, 0,
                           { "free", NULL, NULL }, -ENOSPC, "no limit" };
        fails += run_case(h, &t, n++);
        store_umount();
    }
    if (PSHM_BACKEND_SYSV) {
        sysctl_set("shmmax", "16777216");
        limit_case_t c1 = { "kernel.shmmax 16 MiB, 4 x 32 MiB", 4, 32 << 20, -1, 0,
                            { "kernel.shmmax=16777216", "sysctl", NULL }, -ENOSPC,
                            "GASNET_PSHMNET_QUEUE" };
        fails += run_case(h, &c1, n++);
        /* shmmax bounds one segment, not the sum of them. */
        sysctl_set("shmmax", "1048576");
        setenv("GASNET_PSHMNET_QUEUE_MEMORY", "128K", 1);
        limit_case_t c0 = { "kernel.shmmax 1 MiB, 2 x 900 KiB (fits)", 2, 900 << 10, -1, 0,
                            { NULL, NULL, NULL }, 1, NULL };
        fails += run_case(h, &c0, n++);
        unsetenv("GASNET_PSHMNET_QUEUE_MEMORY");
        sysctl_set("shmmax", "1073741824");
        sysctl_set("shmall", "8192");   /* pages: 32 MiB */
        limit_case_t c2 = { "kernel.shmall 32 MiB, 4 x 16 MiB", 4, 16 << 20, -1, 0,
                            { "kernel.shmall=8192", "sysctl", NULL }, -ENOSPC,
                            "shmmax" };
        fails += run_case(h, &c2, n++);
        /* One reading of shmall for the supernode: 4 x 4 MiB in 30 MiB fits. */
        sysctl_set("shmall", "7680");   /* pages: 30 MiB */
        limit_case_t c4 = { "kernel.shmall 30 MiB, 4 x 4 MiB (fits)", 4, 4 << 20, -1, 0,
                            { NULL, NULL, NULL }, 1, NULL };
        fails += run_case(h, &c4, n++);
        sysctl_set("shmall", "1048576");
        sysctl_set("shmmni", "3");
        limit_case_t c3 = { "kernel.shmmni 3, 4 processes (5 segments)", 4, 1 << 16, -1, 0,
                            { "shmmni", "sysctl", NULL }, 0, NULL };
        fails += run_case(h, &c3, n++);
        sysctl_set("shmmni", "4096");
    }
    /* From here on the store is large (a private tmpfs), so that the limit
     * tested binds first whatever the machine's /dev/shm or TMPDIR holds. */
    store_mount("4g");
    limit_case_t nofile = { "RLIMIT_NOFILE 8, 8 processes", 8, 1 << 16, RLIMIT_NOFILE, 8,
                            { "ulimit -n", NULL, NULL }, 0, NULL };
    fails += run_case(h, &nofile, n++);
    /* Lower still: the objects' own descriptors run out, and the names must
     * still be removed (removal needs no descriptor). */
    limit_case_t nofile6 = { "RLIMIT_NOFILE 6, 8 processes", 8, 1 << 16, RLIMIT_NOFILE, 6,
                             { "ulimit -n", NULL, NULL }, 0, NULL };
    fails += run_case(h, &nofile6, n++);
    limit_case_t as = { "RLIMIT_AS 512 MiB, 4 x 256 MiB", 4, 256 << 20, RLIMIT_AS, 512 << 20,
                        { "address space", "ulimit -v", NULL }, -ENOMEM, NULL };
    fails += run_case(h, &as, n++);
    setenv("GASNET_PSHMNET_QUEUE_MEMORY", "1T", 1);
    limit_case_t qm = { "GASNET_PSHMNET_QUEUE_MEMORY 1T", 4, 1 << 16, -1, 0,
                        { "GASNET_PSHMNET_QUEUE_MEMORY", NULL, NULL }, 0, NULL };
    fails += run_case(h, &qm, n++);
    unsetenv("GASNET_PSHMNET_QUEUE_MEMORY");
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "65536", 1);
    setenv("GASNET_PSHMNET_QUEUE_MEMORY", "20G", 1);
    limit_case_t qd = { "GASNET_PSHMNET_QUEUE_DEPTH 65536, _MEMORY 20G", 8, 1 << 16, -1, 0,
                        { "GASNET_PSHMNET_QUEUE", NULL, NULL }, 0, NULL };
    fails += run_case(h, &qd, n++);
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    unsetenv("GASNET_PSHMNET_QUEUE_MEMORY");
    store_umount();
    fails += memcg_case(h, n++);
    return fails ? T_FAIL : T_PASS;
}

int main(void)
{
    int st;
    const char *tmp = getenv("TMPDIR");
    snprintf(lim_dir, sizeof lim_dir, "%s/pshm-limits-%d", tmp && tmp[0] == '/' ? tmp : "/tmp",
             (int)getpid());

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm creates no shared object\n");
        return T_SKIP;
    }
    if (!th_can_unshare()) {
        printf("skip: needs root and the right to unshare mount and IPC namespaces\n");
        return T_SKIP;
    }
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        if (unshare(CLONE_NEWNS | CLONE_NEWIPC) < 0 ||
            mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
            printf("skip: unshare/mount: %s\n", strerror(errno));
            _exit(T_SKIP);
        }
        int rc = limits();
        fflush(NULL);
        _exit(rc);
    }
    CHECK(waitpid(pid, &st, 0) == pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : T_FAIL;
}
