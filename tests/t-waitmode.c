/*
 * t-waitmode: GASNET_WAIT_MODE=auto counts the CPUs a process may run on,
 * not the CPUs online. Two processes pinned to one CPU (as taskset -c does)
 * must yield rather than spin (ncores 1, oversubscribed), and their round
 * trips must not take a scheduler time slice each: in the same run, the
 * median round trip of the default is at least 4 times shorter than with
 * GASNET_WAIT_MODE=SPIN (a ratio, not a time: the machine may be busy).
 * Unpinned, the count is
 * that of the affinity mask. With a cgroup v1 CPU quota of one CPU (root,
 * where the cpu controller is mounted; else that part is skipped), the
 * count is 1 as well.
 * Whether a wait yields is judged over the host, not the supernode, and
 * over the processes whose masks meet: each bound to a CPU of its own (as
 * mpirun and batch systems bind ranks) spins; two supernodes of one
 * process each, pinned to one CPU, yield, and so do two simulated hosts
 * (PSHM_SIM_HOSTS) of one machine. pshm_cpu_sharers gives the counts the
 * rule compares, in every case.
 */
#include "internal.h"
#include "tests/amtest.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 200   /* at most; spinning takes a time slice (ms) per round */
#define H_PING 1
#define H_PONG 2

static volatile int pongs;

static void on_ping(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)buf, (void)n, (void)a, (void)na;
    CHECK_OK(pshm_am_reply_short(t, H_PONG, 0, 0, NULL));
}

static void on_pong(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)a, (void)na;
    pongs++;
}

static int reached(void *arg) { return pongs >= *(int *)arg; }

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int worker(void)
{
    static const pshm_handler_entry_t h[] = { { H_PING, on_ping, 0 }, { H_PONG, on_pong, 0 } };
    static uint64_t rt[ROUNDS];
    int want = atoi(getenv("T_WANT_CPUS")), over = atoi(getenv("T_WANT_OVER")), rank;
    pshm_ctx_t *ctx;

    if (getenv("T_PIN_OWN") != NULL) {
        /* The rank-th CPU of the mask, before init, as a launcher binds. */
        cpu_set_t all, one;
        int k = atoi(getenv("PSHM_RANK"));
        CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
        CPU_ZERO(&one);
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &all) && k-- == 0)
                CPU_SET(c, &one);
        CHECK(CPU_COUNT(&one) == 1 && sched_setaffinity(0, sizeof one, &one) == 0);
    }
    CHECK_OK(pshm_init(&ctx, NULL));
    rank = pshm_rank(ctx);
    /* The public query gives the two counts the rule compares. */
    int cpus = -1, sharers = pshm_cpu_sharers(ctx, &cpus);
    if (sharers != ctx->cpu_sharers || cpus != ctx->ncores || (sharers > cpus) != over ||
        pshm_cpu_sharers(ctx, NULL) != sharers) {
        printf("FAIL rank %d: pshm_cpu_sharers gave %d process(es) on %d CPU(s); pshm counted "
               "%d on %d, expected oversubscribed %d\n", rank, sharers, cpus, ctx->cpu_sharers,
               ctx->ncores, over);
        return T_FAIL;
    }
    if (ctx->ncores != want || ctx->oversubscribed != over) {
        printf("FAIL rank %d: counted %d usable CPUs, %d process(es) sharing them "
               "(oversubscribed %d), expected %d CPU(s), oversubscribed %d\n", rank, ctx->ncores,
               ctx->cpu_sharers, ctx->oversubscribed, want, over);
        return T_FAIL;
    }
    CHECK_OK(pshm_am_register(ctx, h, 2));
    CHECK_OK(pshm_attach(ctx, 1 << 16));
    int rounds = getenv("GASNET_WAIT_MODE") != NULL ? ROUNDS / 8 : ROUNDS;
    if (rank == 0 && getenv("T_ROUNDTRIP") != NULL && pshm_node_size(ctx) == 2) {
        for (int i = 0; i < rounds; i++) {
            int target = i + 1;
            uint64_t t0 = pshm_now_ns();
            CHECK_OK(pshm_am_request_short(ctx, 1, H_PING, 0, 0, NULL));
            CHECK_OK(pshm_wait_until(ctx, reached, &target));
            rt[i] = pshm_now_ns() - t0;
        }
        qsort(rt, (size_t)rounds, sizeof rt[0], cmp_u64);
        const char *mode = getenv("GASNET_WAIT_MODE");
        printf("rank 0: %d CPU(s) usable, GASNET_WAIT_MODE %s: median round trip %.1f us "
               "over %d\n", ctx->ncores, mode ? mode : "unset", rt[rounds / 2] / 1e3, rounds);
        FILE *f = fopen(getenv("T_ROUNDTRIP"), "w");
        CHECK(f != NULL && fprintf(f, "%llu\n", (unsigned long long)rt[rounds / 2]) > 0 &&
              fclose(f) == 0);
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}

/* Two processes; each must count `want` usable CPUs and judge itself
 * oversubscribed or not (`over`). */
static int launch(int argc, char **argv, int want, int over, const char *what)
{
    char w[16];
    snprintf(w, sizeof w, "%d", want);
    setenv("T_WANT_CPUS", w, 1);
    setenv("T_WANT_OVER", over ? "1" : "0", 1);
    int rc = th_launch(argc, argv, 2);
    printf("%s: %s (expected %d usable CPU%s, %s)\n", what, rc == 0 ? "ok" : "FAIL", want,
           want == 1 ? "" : "s", over ? "yielding" : "spinning");
    return rc == 0 ? 0 : 1;
}

static int write_str(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC), ok;
    if (fd < 0)
        return -1;
    ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
    close(fd);
    return ok ? 0 : -1;
}

/* A child cgroup (v1 cpu controller) with a quota of one CPU, in a child
 * process so that the test's own cgroup is left as it was. */
static int quota_case(int argc, char **argv)
{
    char dir[128], path[192], pid[32];
    int st, fails;
    struct stat sb;

    if (geteuid() != 0 || stat("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", &sb) < 0) {
        printf("cgroup CPU quota: skipped (needs root and a cgroup v1 cpu controller at "
               "/sys/fs/cgroup/cpu)\n");
        return 0;
    }
    snprintf(dir, sizeof dir, "/sys/fs/cgroup/cpu/pshm-test-%d", (int)getpid());
    if (mkdir(dir, 0755) < 0) {
        printf("cgroup CPU quota: skipped (mkdir %s: %s)\n", dir, strerror(errno));
        return 0;
    }
    fflush(NULL);
    pid_t c = fork();
    CHECK(c >= 0);
    if (c == 0) {
        snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
        CHECK(write_str(path, "100000") == 0);
        snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
        CHECK(write_str(path, "100000") == 0);
        snprintf(path, sizeof path, "%s/cgroup.procs", dir);
        snprintf(pid, sizeof pid, "%d", (int)getpid());
        CHECK(write_str(path, pid) == 0);
        unsetenv("T_ROUNDTRIP");
        int r = launch(argc, argv, 1, 1, "cgroup CPU quota of 1 CPU");
        fflush(NULL);
        _exit(r);
    }
    CHECK(waitpid(c, &st, 0) == c);
    fails = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    /* Every process has left it: the job ended with the child. */
    if (rmdir(dir) < 0)
        printf("note: rmdir %s: %s\n", dir, strerror(errno));
    return fails;
}

/* The summary of a set of CPUs given by number, -1 ended. */
static cpu_summary_t summary(const int *cpus)
{
    enum { NCPU = 4096 };
    cpu_set_t *set = CPU_ALLOC(NCPU);
    size_t sz = CPU_ALLOC_SIZE(NCPU);
    cpu_summary_t s;

    CHECK(set != NULL);
    CPU_ZERO_S(sz, set);
    for (; *cpus >= 0; cpus++)
        CPU_SET_S((size_t)*cpus, sz, set);
    cpu_summary_of(set, sz, NCPU, &s);
    CPU_FREE(set);
    return s;
}

/* Which masks are taken as sharing a CPU: equal ones, meeting ones, and
 * (conservatively) ones whose CPUs differ by a multiple of the fold. */
static int overlap_cases(void)
{
    static const struct {
        int a[8], b[8];
        bool share;
    } c[] = {
        { { 0, -1 }, { 1, -1 }, false },             /* bound to a core each */
        { { 0, 64, -1 }, { 1, 65, -1 }, false },     /* a core's two threads each */
        { { 0, 1, -1 }, { 0, 1, -1 }, true },        /* the same mask */
        { { 0, 1, -1 }, { 1, 2, -1 }, true },        /* masks that meet */
        { { 1000, -1 }, { 1000, -1 }, true },        /* past the fold, equal */
        { { 1000, -1 }, { 1001, -1 }, false },
        { { 0, -1 }, { 384, -1 }, true },            /* one fold apart: counted */
    };
    cpu_summary_t none = { 0 }, one = summary((const int[]){ 0, -1 });
    int fails = 0;

    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        cpu_summary_t a = summary(c[i].a), b = summary(c[i].b);
        if (cpu_summary_overlap(&a, &b) != c[i].share || cpu_summary_overlap(&b, &a) != c[i].share) {
            printf("FAIL: masks of case %zu taken as %s\n", i, c[i].share ? "disjoint" : "sharing");
            fails++;
        }
    }
    /* A mask that could not be read shares every CPU. */
    if (!cpu_summary_overlap(&none, &one) || !cpu_summary_overlap(&one, &none)) {
        printf("FAIL: an unread mask is taken as disjoint\n");
        fails++;
    }
    printf("mask overlap cases: %s\n", fails ? "FAIL" : "ok");
    return fails;
}

int main(int argc, char **argv)
{
    cpu_set_t all, one;
    int fails = 0, first = -1;

    if (getenv("PSHM_RANK") != NULL)
        return worker();
    fails += overlap_cases();
    if (am_no_peers())
        return fails ? T_FAIL : T_SKIP;
    if (getenv("GASNET_WAIT_MODE") != NULL)
        unsetenv("GASNET_WAIT_MODE");
    CHECK(sched_getaffinity(0, sizeof all, &all) == 0);
    int quota = cgroup_cpu_limit(), n = CPU_COUNT(&all);
    int usable = quota > 0 && quota < n ? quota : n;
    fails += launch(argc, argv, usable, 2 > usable, "unpinned");
    if (n >= 2) {
        setenv("T_PIN_OWN", "1", 1);
        fails += launch(argc, argv, 1, 0, "each bound to a CPU of its own");
        unsetenv("T_PIN_OWN");
    } else {
        printf("each bound to a CPU of its own: skipped (one CPU in the mask)\n");
    }

    for (int i = 0; i < CPU_SETSIZE && first < 0; i++)
        if (CPU_ISSET(i, &all)) first = i;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
    char file[PSHM_PATH_MAX + 32];
    unsigned long long yielding = 0, spinning = 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(file, sizeof file, "%s/t-waitmode.%d", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    setenv("T_ROUNDTRIP", file, 1);
    fails += launch(argc, argv, 1, 1, "both pinned to one CPU (taskset -c)");
    FILE *f = fopen(file, "r");
    CHECK(f != NULL && fscanf(f, "%llu", &yielding) == 1 && fclose(f) == 0);
    /* The same, spinning: each hand-off waits for the spinner's time slice. */
    setenv("GASNET_WAIT_MODE", "SPIN", 1);
    fails += launch(argc, argv, 1, 1, "both pinned to one CPU, GASNET_WAIT_MODE=SPIN");
    unsetenv("GASNET_WAIT_MODE");
    /* The host's two supernodes share the CPU: a supernode of one still yields. */
    setenv("GASNET_SUPERNODE_MAXSIZE", "1", 1);
    fails += launch(argc, argv, 1, 1, "two supernodes of one, pinned to one CPU");
    unsetenv("GASNET_SUPERNODE_MAXSIZE");
    /* Simulated hosts are one machine: their processes share its CPUs. */
    setenv("PSHM_SIM_HOSTS", "2", 1);
    fails += launch(argc, argv, 1, 1, "two simulated hosts, pinned to one CPU");
    unsetenv("PSHM_SIM_HOSTS");
    f = fopen(file, "r");
    CHECK(f != NULL && fscanf(f, "%llu", &spinning) == 1 && fclose(f) == 0);
    unlink(file);
    unsetenv("T_ROUNDTRIP");
    if (yielding * 4 > spinning) {
        printf("FAIL: pinned to one CPU, the default's median round trip (%.1f us) is not 4 "
               "times shorter than spinning's (%.1f us): the waits spin\n", yielding / 1e3,
               spinning / 1e3);
        fails++;
    } else {
        printf("ok: pinned to one CPU, median round trip %.1f us yielding, %.1f us spinning\n",
               yielding / 1e3, spinning / 1e3);
    }
    CHECK(sched_setaffinity(0, sizeof all, &all) == 0);

    fails += quota_case(argc, argv);
    return fails ? T_FAIL : T_PASS;
}
