/*
 * t-sigguard-create: a SIGTERM (default action) delivered the moment the
 * exclusive create of a process's segment, or of its AM region, returns
 * leaves nothing behind. A signal that arrives during a system call is
 * delivered at its return, before the caller has recorded the new name as
 * its own: the guard's handler must still find it.
 *
 * The test interposes the three creates of the backends (shm_open, shmget,
 * openat with O_CREAT | O_EXCL) over libc's: in the victim rank, right
 * after the k-th exclusive create of a pshm object succeeds, it raises
 * SIGTERM at itself: rank 1's segment, rank 0's first and second objects
 * (its segment and the supernode's AM region, which rank 0 creates). The
 * victim must die of the signal, the survivor return, and no object of
 * the job stay in the system.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#define SEGSIZE ((size_t)4 << 20)

typedef struct plan {
    int victim, at;     /* the rank that dies, after its at-th create */
} plan_t;

static int victim_at;   /* in the victim: the create (1, 2) after which to die */
static int creates;

/* After a create that succeeded: the victim's k-th raises SIGTERM. */
static void created(int ok, int exclusive, const char *name)
{
    if (!ok || !exclusive || victim_at == 0 || name == NULL || strstr(name, "pshm") == NULL)
        return;
    if (++creates == victim_at)
        raise(SIGTERM);
}

/* The real function behind an interposed one. */
static void *real_fn(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (f == NULL) {
        fprintf(stderr, "dlsym(RTLD_NEXT, %s): %s\n", name, dlerror());
        _exit(3);
    }
    return f;
}

int shm_open(const char *name, int flags, mode_t mode)
{
    int (*real)(const char *, int, mode_t);
    *(void **)&real = real_fn("shm_open");
    int fd = real(name, flags, mode);
    created(fd >= 0, (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL), name);
    return fd;
}

int openat(int dfd, const char *name, int flags, ...)
{
    int (*real)(int, const char *, int, ...);
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    *(void **)&real = real_fn("openat");
    int fd = real(dfd, name, flags, mode);
    created(fd >= 0, (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL), name);
    return fd;
}

int shmget(key_t key, size_t size, int flags)
{
    int (*real)(key_t, size_t, int);
    *(void **)&real = real_fn("shmget");
    int id = real(key, size, flags);
    created(id >= 0, (flags & (IPC_CREAT | IPC_EXCL)) == (IPC_CREAT | IPC_EXCL), "pshm (SysV)");
    return id;
}

static int rank_fn(fj_rt_t *rt, void *arg)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;

    const plan_t *p = arg;

    if (rt->rank == p->victim)
        victim_at = p->at;
    if (pshm_init(&ctx, &attr) < 0)
        return 0;
    if (pshm_attach(ctx, SEGSIZE) == 0)
        (void)pshm_barrier(ctx);
    pshm_finalize(ctx);
    return 0;
}

int main(void)
{
    int status[2], fails = 0;
    char tag[PSHM_TAG_MAX + 1];
    const plan_t plans[] = { {1, 1}, {0, 1}, {0, 2} };

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm creates no named object\n");
        return T_SKIP;
    }
    fj_hub_t *h = fj_hub_new();
    for (unsigned i = 0; i < PSHM_ARRAY_LEN(plans); i++) {
        plan_t p = plans[i];
        snprintf(tag, sizeof tag, "sgc%ux%u", i, (unsigned)getpid() % 100000u);
        CHECK(fj_run(h, 2, tag, rank_fn, &p, status, 60, NULL, NULL) >= 0);
        int left = th_count_objects(tag);
        if (left != 0 || !fj_signaled(status[p.victim], SIGTERM) ||
            !fj_exited(status[1 - p.victim], 0)) {
            printf("FAIL: SIGTERM at the return of rank %d's create %d: %d objects of job %s "
                   "left; statuses %#x (victim) %#x (survivor)\n", p.victim, p.at, left, tag,
                   status[p.victim], status[1 - p.victim]);
            fails++;
        } else {
            printf("ok: SIGTERM at the return of rank %d's create %d: it died of it, nothing "
                   "left\n", p.victim, p.at);
        }
    }
    return fails ? T_FAIL : T_PASS;
}
