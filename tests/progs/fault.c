/*
 * fault - a process of a pshmrun job in which one rank fails on request, for
 * tests/t-fault-launch.sh. Usage: fault HOW PHASE VICTIM [SEGSIZE]
 *   HOW    kill | segv | bus | abrt | exit0 (exit 0, no finalize) | code
 *          (exit 3) | abort (pshm_abort(5)) | stop (SIGSTOP for 0.7 s, then
 *          go on: the job must succeed) | none
 *   PHASE  where the victim fails, and so where the others are waiting:
 *          preinit   before pshm_init (others: bootstrap exchange in attach)
 *          init      after pshm_init (others: bootstrap exchange in attach)
 *          create    in attach, all objects created, none unlinked yet
 *                    (others: supernode barrier at the end of attach)
 *          barrier   after attach (others: pshm_barrier)
 *          queue     after attach, never polling (others: a full queue)
 *          wait      after attach (others: pshm_wait_until)
 *          poll      after attach (others: a pshm_poll loop)
 *          traffic   at a random moment (pid-seeded, 0-150 ms) of AM traffic
 *          startup   at a random moment (0-30 ms) from the start of the program
 *   VICTIM the rank that fails
 *   SEGSIZE segment bytes (default 1 MiB)
 * Also: fault count TAG   prints the number of objects of job TAG left in
 * /dev/shm, SysV IPC and the temporary directory; fault purge TAG N
 * removes them as pshmrun does after a job (seg_be_remove_tag).
 * Survivors ignore SIGTERM so that they must notice the failure themselves;
 * each prints "rank R: WHERE: CODE (NAME): MESSAGE" and exits 1 after
 * FAULT_LINGER_MS (default 300). Rank 0
 * prints "tag TAG" first. A job that did not fail exits 0.
 *
 * The "create" phase replaces the backends' unlink calls (shm_unlink,
 * unlinkat, shmctl IPC_RMID) in the victim: the first one ends the process.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const char *how = "none", *phase = "none";
static int me = -1, victim = -1;
static volatile sig_atomic_t at_unlink;
static int *volatile nowhere; /* NULL, unknown to the compiler */ /* "create": fail at the first unlink */

/* The victim's failure. Async-signal-safe but for pshm_abort (one send). */
static void fail_now(pshm_ctx_t *ctx)
{
    at_unlink = 0; /* the signal guard's own unlink must go through */
    if (strcmp(how, "kill") == 0) raise(SIGKILL);
    if (strcmp(how, "segv") == 0) *nowhere = 1; /* a real fault, not raise() */
    if (strcmp(how, "bus") == 0) raise(SIGBUS);
    if (strcmp(how, "abrt") == 0) abort();
    if (strcmp(how, "exit0") == 0) _exit(0);
    if (strcmp(how, "code") == 0) _exit(3);
    if (strcmp(how, "abort") == 0) pshm_abort(ctx, 5);
    if (strcmp(how, "stop") == 0) {
        /* Stopped, then resumed by a child: alive all along. */
        pid_t self = getpid();
        if (fork() == 0) {
            struct timespec ts = { 0, 700000000 };
            nanosleep(&ts, NULL);
            kill(self, SIGCONT);
            _exit(0);
        }
        raise(SIGSTOP);
        return;
    }
    if (strcmp(how, "none") == 0) return;
    _exit(99);
}

static pshm_ctx_t *g_ctx;
static void on_alarm(int sig) { (void)sig; fail_now(g_ctx); }

/* Forwarded removals for everyone else (raw system calls: no recursion). */
int shm_unlink(const char *name)
{
    char p[PSHM_PATH_MAX];
    if (at_unlink) fail_now(g_ctx);
    snprintf(p, sizeof p, "/dev/shm/%s", name[0] == '/' ? name + 1 : name);
    return (int)syscall(SYS_unlinkat, AT_FDCWD, p, 0);
}
int unlinkat(int dfd, const char *path, int flags)
{
    if (at_unlink) fail_now(g_ctx);
    return (int)syscall(SYS_unlinkat, dfd, path, flags);
}
int shmctl(int id, int cmd, struct shmid_ds *buf)
{
    if (cmd == IPC_RMID && at_unlink) fail_now(g_ctx);
    return (int)syscall(SYS_shmctl, id, cmd, buf);
}

static void arm_timer(int max_ms)
{
    struct itimerval it = { { 0, 0 }, { 0, 0 } };
    srand((unsigned)getpid() ^ (unsigned)time(NULL));
    it.it_value.tv_usec = 1000 * (rand() % max_ms) + 1;
    signal(SIGALRM, on_alarm);
    setitimer(ITIMER_REAL, &it, NULL);
}

static void report(const char *where, int rc)
{
    const char *linger = getenv("FAULT_LINGER_MS");
    struct timespec ts = { 0, 1000000L * (linger ? atoi(linger) % 1000 : 300) };

    printf("rank %d: %s: %d (%s): %s\n", me, where, rc, pshm_strerror(rc), pshm_last_error());
    fflush(stdout);
    /* pshmrun names the first process it reaps; a survivor that exits as
     * fast as it noticed may be reaped first (FAULT_LINGER_MS=0 shows it). */
    nanosleep(&ts, NULL);
    _exit(1);
}

static _Atomic int got;
static void h_ping(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)b; (void)n; (void)na;
    pshm_am_reply_short(t, 2, 0, 1, a);
}
static void h_pong(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)b; (void)n; (void)a; (void)na;
    got++;
}
static void h_sink(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)b; (void)n; (void)a; (void)na;
}
static int never(void *arg) { (void)arg; return 0; }
static int have_pong(void *arg) { return got >= *(int *)arg; }

static bool is(const char *p) { return strcmp(phase, p) == 0; }

int main(int argc, char **argv)
{
    static const pshm_handler_entry_t tab[] = { { 1, h_ping, 1 }, { 2, h_pong, 1 },
                                                { 3, h_sink, PSHM_AM_ANY_NARGS } };
    static char buf[4096];
    size_t segsize = 1u << 20;
    pshm_ctx_t *ctx;
    int rc, n;

    if (argc == 4 && strcmp(argv[1], "purge") == 0) {
        pshm_cfg_t cfg;
        if (env_load(&cfg) < 0) return 2;
        rc = seg_be_remove_tag(&cfg, argv[2], (uint32_t)atoi(argv[3]));
        printf("%d\n", rc);
        return rc < 0;
    }
    if (argc == 3 && strcmp(argv[1], "count") == 0) {
        printf("%d\n", th_count_objects(argv[2]));
        return 0;
    }
    if (argc < 4) {
        fprintf(stderr, "usage: fault HOW PHASE VICTIM [SEGSIZE]\n");
        return 2;
    }
    how = argv[1];
    phase = argv[2];
    victim = atoi(argv[3]);
    if (argc > 4) segsize = strtoull(argv[4], NULL, 0);
    me = atoi(getenv("PSHM_RANK") ? getenv("PSHM_RANK") : "0");
    setvbuf(stdout, NULL, _IONBF, 0);
    if (me != victim) signal(SIGTERM, SIG_IGN);
    if (me == 0) printf("tag %s\n", getenv("PSHM_JOB_TAG") ? getenv("PSHM_JOB_TAG") : "");
    if (me == victim && is("startup")) arm_timer(30);
    if (me == victim && is("preinit")) fail_now(NULL);

    if ((rc = pshm_init(&ctx, NULL)) < 0) report("pshm_init", rc);
    g_ctx = ctx;
    if ((rc = pshm_am_register(ctx, tab, 3)) < 0) report("pshm_am_register", rc);
    if (me == victim && is("init")) fail_now(ctx);
    if (me == victim && is("create")) at_unlink = 1;
    if ((rc = pshm_attach(ctx, segsize)) < 0) report("pshm_attach", rc);
    at_unlink = 0;
    n = pshm_size(ctx);

    if (is("traffic")) {
        /* Everyone pings everyone; the victim fails somewhere in it. */
        if (me == victim) arm_timer(150);
        for (int i = 1; i < 2000000; i++) {
            uint32_t a = (uint32_t)i;
            int dest = (me + 1 + i % (n - 1 > 0 ? n - 1 : 1)) % n;
            if ((rc = pshm_am_request_short(ctx, dest, 1, 0, 1, &a)) < 0)
                report("request", rc);
            if ((rc = pshm_wait_until(ctx, have_pong, &i)) < 0) report("pshm_wait_until", rc);
            if (i > 20000 && (strcmp(how, "none") == 0 || strcmp(how, "stop") == 0)) break;
        }
    } else if (me == victim && !is("barrier")) {
        if (is("queue") || is("wait") || is("poll")) {
            struct timespec ts = { 0, 100000000 }; /* let the others start waiting */
            nanosleep(&ts, NULL);
        }
        fail_now(ctx);
    } else if (is("barrier")) {
        if (me == victim) {
            struct timespec ts = { 0, 100000000 };
            nanosleep(&ts, NULL);
            fail_now(ctx); /* returns for "stop": then joins the barrier */
        }
        if ((rc = pshm_barrier(ctx)) < 0) report("pshm_barrier", rc);
    } else if (is("queue")) {
        for (;;)
            if ((rc = pshm_am_request_medium(ctx, victim, 3, buf, sizeof buf, 0, 0, NULL)) < 0)
                report("request_medium", rc);
    } else if (is("wait")) {
        if ((rc = pshm_wait_until(ctx, never, NULL)) < 0) report("pshm_wait_until", rc);
    } else if (is("poll")) {
        for (;;)
            if ((rc = pshm_poll(ctx)) < 0) report("pshm_poll", rc);
    }
    if ((rc = pshm_finalize(ctx)) < 0) report("pshm_finalize", rc);
    return 0;
}
