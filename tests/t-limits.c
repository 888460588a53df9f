/*
 * t-limits: a whole job (4 forked processes, callbacks bootstrap) against
 * each limit of the machine, inside private mount and IPC namespaces (root
 * only, else skip): a small /dev/shm (posix), a small GASNET_TMPDIR (file),
 * low kernel.shmmax / shmall / shmmni (sysv), RLIMIT_NOFILE too low for the
 * pidfds of 8 processes, RLIMIT_AS too low for the segments, and a queue
 * depth/memory too large for the machine. Every rank fails with the same
 * code and a sentence that names the limit and how to raise it, in bounded
 * time, and nothing is left behind.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>


#define LIM_DIR "/tmp/pshm-limits-test"

typedef struct limit_case {
    const char *name;
    int nprocs;
    size_t segsize;
    int rlimit;                /* RLIMIT_* to lower in each rank, or -1 */
    rlim_t rlim_value;         /* the new soft limit (0: computed in the rank) */
    const char *words[3];      /* the sentence names these */
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
        int ok = fj_exited(st[r], 0) && res[r].rc < 0 && res[r].rc == res[0].rc;
        for (int w = 0; ok && w < 3 && lc->words[w]; w++)
            ok = strstr(res[r].msg, lc->words[w]) != NULL;
        if (!ok) {
            printf("FAIL %s: rank %d status %#x rc %d (rank 0: %d): \"%s\"; want", lc->name, r,
                   st[r], res[r].rc, res[0].rc, res[r].msg);
            for (int w = 0; w < 3 && lc->words[w]; w++)
                printf(" \"%s\"", lc->words[w]);
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
    if (!fails)
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

/* In the namespaces. */
static int limits(void)
{
    fj_hub_t *h = fj_hub_new();
    int fails = 0, n = 0;

    if (PSHM_BACKEND_POSIX) {
        CHECK(mount("pshmtest", "/dev/shm", "tmpfs", 0, "size=16m") == 0);
        limit_case_t c = { "small /dev/shm (16 MiB), 4 x 4 MiB", 4, 4 << 20, -1, 0,
                           { "/dev/shm", "free", "size=" } };
        fails += run_case(h, &c, n++);
        CHECK(umount("/dev/shm") == 0);
    }
    if (PSHM_BACKEND_FILE) {
        CHECK(mkdir(LIM_DIR, 0700) == 0 || errno == EEXIST);
        CHECK(mount("pshmtest", LIM_DIR, "tmpfs", 0, "size=16m") == 0);
        setenv("GASNET_TMPDIR", LIM_DIR, 1);
        limit_case_t c = { "small GASNET_TMPDIR (16 MiB), 4 x 4 MiB", 4, 4 << 20, -1, 0,
                           { LIM_DIR, "free", "GASNET_TMPDIR" } };
        fails += run_case(h, &c, n++);
        unsetenv("GASNET_TMPDIR");
        umount(LIM_DIR);
        rmdir(LIM_DIR);
    }
    if (PSHM_BACKEND_SYSV) {
        sysctl_set("shmmax", "16777216");
        limit_case_t c1 = { "kernel.shmmax 16 MiB, 4 x 32 MiB", 4, 32 << 20, -1, 0,
                            { "shmmax", "sysctl", NULL } };
        fails += run_case(h, &c1, n++);
        sysctl_set("shmmax", "1073741824");
        sysctl_set("shmall", "8192");   /* pages: 32 MiB */
        limit_case_t c2 = { "kernel.shmall 32 MiB, 4 x 16 MiB", 4, 16 << 20, -1, 0,
                            { "shmall", "sysctl", NULL } };
        fails += run_case(h, &c2, n++);
        sysctl_set("shmall", "1048576");
        sysctl_set("shmmni", "3");
        limit_case_t c3 = { "kernel.shmmni 3, 4 processes (5 segments)", 4, 1 << 16, -1, 0,
                            { "shmmni", "sysctl", NULL } };
        fails += run_case(h, &c3, n++);
        sysctl_set("shmmni", "4096");
    }
    limit_case_t nofile = { "RLIMIT_NOFILE 8, 8 processes", 8, 1 << 16, RLIMIT_NOFILE, 8,
                            { "ulimit -n", NULL, NULL } };
    fails += run_case(h, &nofile, n++);
    /* Lower still: the objects' own descriptors run out, and the names must
     * still be removed (removal needs no descriptor). */
    limit_case_t nofile6 = { "RLIMIT_NOFILE 6, 8 processes", 8, 1 << 16, RLIMIT_NOFILE, 6,
                             { "ulimit -n", NULL, NULL } };
    fails += run_case(h, &nofile6, n++);
    limit_case_t as = { "RLIMIT_AS 512 MiB, 4 x 256 MiB", 4, 256 << 20, RLIMIT_AS, 512 << 20,
                        { "address space", "ulimit -v", NULL } };
    fails += run_case(h, &as, n++);
    setenv("GASNET_PSHMNET_QUEUE_MEMORY", "1T", 1);
    limit_case_t qm = { "GASNET_PSHMNET_QUEUE_MEMORY 1T", 4, 1 << 16, -1, 0,
                        { "GASNET_PSHMNET_QUEUE_MEMORY", NULL, NULL } };
    fails += run_case(h, &qm, n++);
    unsetenv("GASNET_PSHMNET_QUEUE_MEMORY");
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "65536", 1);
    setenv("GASNET_PSHMNET_QUEUE_MEMORY", "20G", 1);
    limit_case_t qd = { "GASNET_PSHMNET_QUEUE_DEPTH 65536, _MEMORY 20G", 8, 1 << 16, -1, 0,
                        { "GASNET_PSHMNET_QUEUE", NULL, NULL } };
    fails += run_case(h, &qd, n++);
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    unsetenv("GASNET_PSHMNET_QUEUE_MEMORY");
    return fails ? T_FAIL : T_PASS;
}

int main(void)
{
    int st;

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
