/*
 * t-sigguard-chain: the signal guard of pshm_attach's window hands signals
 * to the application as the kernel would have, and leaves nothing installed:
 *  - a SIGINT whose handler only sets a flag does not fail the attach, the
 *    handler runs once, after the window; then the application's handler is
 *    in place again, the default of SIGTERM too (a later SIGTERM kills);
 *  - a handler chained at once runs under its own sa_mask, with SA_NODEFER
 *    and SA_SIGINFO honoured; SA_RESETHAND leaves the default behind; a
 *    crash (SIGABRT, SIGFPE, SIGSEGV) has the names removed first, any other
 *    signal (SIGUSR1) leaves them;
 *  - errno is the same after the signal as before;
 *  - a crash handler (SIGSEGV) runs after the names were removed;
 *  - in a 2-process job, SIGINTs with a flag-setting handler sent at random
 *    moments of start-up never fail the job.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <pthread.h>
#include <stdlib.h>

static const char *tag;
static int fire_sig;            /* raised once inside the window */
static int errno_kept = 1;
static volatile sig_atomic_t ran, ran_in_window, mask_ok, objects_in_handler = -1;
static volatile sig_atomic_t in_window;

static int exchange(void *arg, const void *mine, size_t len, void *all)
{
    (void)arg;
    memcpy(all, mine, len);
    if (fire_sig != 0 && th_count_objects(tag) > 0) {
        int sig = fire_sig;
        fire_sig = 0;
        in_window = 1;
        errno = 4321;
        raise(sig);
        errno_kept = errno == 4321;
        in_window = 0;
    }
    return 0;
}

static int barrier(void *arg) { (void)arg; return 0; }

static void on_flag(int sig)
{
    (void)sig;
    ran++;
    ran_in_window = in_window;
}

/* Checks the mask it runs under: `blocked` must be, `open` must not be. */
static int want_blocked, want_open;
static void on_info(int sig, siginfo_t *si, void *uc)
{
    sigset_t m;
    (void)uc;
    pthread_sigmask(SIG_BLOCK, NULL, &m);
    mask_ok = si != NULL && si->si_signo == sig && sigismember(&m, want_blocked) == 1 &&
              sigismember(&m, want_open) == 0;
    ran++;
    ran_in_window = in_window;
    objects_in_handler = th_count_objects(tag);
}

static int attach_one(void)
{
    pshm_bootstrap_t b = { .rank = 0, .size = 1, .exchange = exchange, .barrier = barrier,
                           .job_tag = tag };
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;
    int rc;

    if (pshm_init(&ctx, &attr) < 0)
        return 90;
    rc = pshm_attach(ctx, 1 << 20);
    if (rc < 0) {
        printf("  attach failed: %s\n", pshm_last_error());
        return 91;
    }
    return pshm_finalize(ctx) < 0 ? 92 : 0;
}

#define EXPECT(c)                                                   \
    do {                                                            \
        if (!(c)) {                                                 \
            printf("  failed: %s (line %d)\n", #c, __LINE__);       \
            fflush(stdout);                                         \
            _exit(1);                                               \
        }                                                           \
    } while (0)

static struct sigaction handler_of(int sig)
{
    struct sigaction cur;
    sigaction(sig, NULL, &cur);
    return cur;
}

static void case_flag(void)
{
    struct sigaction sa = { 0 };
    sa.sa_handler = on_flag;
    sigaction(SIGINT, &sa, NULL);
    fire_sig = SIGINT;
    EXPECT(attach_one() == 0);
    EXPECT(ran == 1 && !ran_in_window);
    EXPECT(errno_kept);
    EXPECT(handler_of(SIGINT).sa_handler == on_flag);
    EXPECT(handler_of(SIGTERM).sa_handler == SIG_DFL);
    raise(SIGTERM);   /* the default again: dies here */
    _exit(2);
}

/* `sig` chained at once with sa_mask {SIGUSR2}, SA_SIGINFO and SA_NODEFER. */
static void mask_nodefer(int sig)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_info;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(sig, &sa, NULL);
    want_blocked = SIGUSR2;   /* its sa_mask */
    want_open = sig;          /* SA_NODEFER: the signal itself stays open */
    fire_sig = sig;
    EXPECT(attach_one() == 0);
    EXPECT(ran == 1 && ran_in_window && mask_ok && errno_kept);
    EXPECT(handler_of(sig).sa_sigaction == on_info);
}

static void case_other(void)
{
    mask_nodefer(SIGUSR1);
    EXPECT(objects_in_handler > 0);   /* not taken for a crash: names untouched */
    _exit(0);
}

static void case_abort(void)
{
    mask_nodefer(SIGABRT);
    EXPECT(objects_in_handler == 0);  /* taken for a crash: names removed first */
    _exit(0);
}

static void case_resethand(void)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_info;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGFPE, &sa, NULL);
    want_blocked = SIGFPE;    /* no SA_NODEFER: blocked while it runs */
    want_open = SIGHUP;       /* not in its sa_mask */
    fire_sig = SIGFPE;
    EXPECT(attach_one() == 0);
    EXPECT(ran == 1 && mask_ok && errno_kept);
    EXPECT(handler_of(SIGFPE).sa_handler == SIG_DFL);
    _exit(0);
}

static void case_crash(void)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_info;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    want_blocked = SIGSEGV;
    want_open = SIGHUP;
    fire_sig = SIGSEGV;
    EXPECT(attach_one() == 0);   /* one process: the names were its own */
    EXPECT(ran == 1 && mask_ok && errno_kept && objects_in_handler == 0);
    _exit(0);
}

static int run(const char *name, void (*fn)(void), int want_sig)
{
    int st;
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        fn();
        _exit(3);
    }
    CHECK(waitpid(pid, &st, 0) == pid);
    bool ok = want_sig ? WIFSIGNALED(st) && WTERMSIG(st) == want_sig
                       : WIFEXITED(st) && WEXITSTATUS(st) == 0;
    ok = ok && th_count_objects(tag) == 0;
    printf("%s: %s (status %#x)\n", ok ? "ok" : "FAIL", name, st);
    return ok ? 0 : 1;
}

/* ---- 2 processes, SIGINT at random moments ---- */

static volatile sig_atomic_t got_int;
static void on_int(int sig) { (void)sig; got_int++; }

typedef struct shared { _Atomic int done[2]; _Atomic int got[2]; } shared_t;

static int job_rank(fj_rt_t *rt, void *arg)
{
    shared_t *s = (shared_t *)rt->hub->user;
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;
    (void)arg;

    if (pshm_init(&ctx, &attr) < 0 || pshm_attach(ctx, (size_t)16 << 20) < 0 ||
        pshm_barrier(ctx) < 0 || pshm_finalize(ctx) < 0) {
        printf("  rank %d: %s\n", rt->rank, pshm_last_error());
        return 1;
    }
    /* A job quicker than the delay: the signal comes after it. */
    for (int i = 0; i < 2000 && rt->rank == 1 && !got_int; i++)
        usleep(1000);
    atomic_store(&s->got[rt->rank], got_int);
    return 0;
}

static void sender(pid_t *pids, void *arg)
{
    usleep((useconds_t)(*(double *)arg * 1e6));
    kill(pids[1], SIGINT);
}

int main(void)
{
    static char tagbuf[PSHM_TAG_MAX + 1];
    int fails = 0;

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm creates no named object\n");
        return T_SKIP;
    }
    snprintf(tagbuf, sizeof tagbuf, "sgc%d", (int)getpid() % 100000000);
    tag = tagbuf;
    fails += run("a flag-setting SIGINT handler: attach completes, handler runs after the "
                 "window, nothing stays installed", case_flag, SIGTERM);
    fails += run("SIGUSR1: sa_mask, SA_SIGINFO and SA_NODEFER of a handler chained at once",
                 case_other, 0);
    fails += run("SIGABRT: the same, after the names were removed", case_abort, 0);
    fails += run("SIGFPE: SA_RESETHAND of a handler chained at once", case_resethand, 0);
    fails += run("a SIGSEGV handler runs after the names were removed", case_crash, 0);

    /* Installed before the fork: a signal at 0 ms finds it in place. */
    struct sigaction sa = { 0 }, old;
    sa.sa_handler = on_int;
    sigaction(SIGINT, &sa, &old);
    fj_hub_t *h = fj_hub_new();
    srand((unsigned)getpid());
    for (int r = 0; r < 12; r++) {
        double delay = (rand() / (double)RAND_MAX) * 0.060;
        int status[2];
        char jt[PSHM_TAG_MAX + 1];
        snprintf(jt, sizeof jt, "sgj%dx%d", r, (int)getpid() % 100000);
        memset(h->user, 0, sizeof(shared_t));
        CHECK(fj_run(h, 2, jt, job_rank, &delay, status, 60, NULL, sender) >= 0);
        bool ok = fj_exited(status[0], 0) && fj_exited(status[1], 0) &&
                  atomic_load(&((shared_t *)h->user)->got[1]) == 1 && th_count_objects(jt) == 0;
        if (!ok) {
            printf("FAIL: SIGINT %.1f ms into a 2-process job: statuses %#x %#x\n",
                   delay * 1e3, status[0], status[1]);
            fails++;
        }
    }
    sigaction(SIGINT, &old, NULL);
    printf("%s: 12 jobs with a SIGINT at 0-60 ms to a rank whose handler sets a flag\n",
           fails ? "done" : "ok");
    return fails ? T_FAIL : T_PASS;
}
