/*
 * core.c - gasnet_init, gasnet_attach, gasnet_exit, the queries.
 *
 * gasnet_init joins the pshm job (pshmrun's, or gasnetrun_smp's, which is
 * pshmrun). Started without a launcher, with GASNET_PSHM_NODES=N as GASNet's
 * smp conduit takes it, it runs the program again as an N-rank job under
 * pshmrun and returns that job's status as its own (it never returns then).
 *
 * gasnet_exit(code) ends the whole job and may be called by any rank at
 * any time. Every rank that calls it tells the others (an EXIT message);
 * a rank that hears one at its next poll (in any GASNet call that polls:
 * a barrier wait, GASNET_BLOCKUNTIL, an AM send) exits in turn. When every
 * rank has come to exit within the grace time, the job ends as a whole
 * (pshm_finalize), with the code; a rank that never comes (it computes
 * without polling) is ended by pshm_abort, whose SIGTERM the layer meets
 * by flushing stdio. A non-zero code is the job's status, the first one
 * told winning; returning from main is gasnet_exit(status).
 */
#include "gasnetc.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

gasnetc_segmap_t *gasnetc_segmap;
gasnet_node_t gasnetc_segmap_n;
gsn_state_t gsn;
_Thread_local int gsn_in_handler;

/* How long gasnet_exit waits for the other ranks to come to exit. */
#define GSN_EXIT_GRACE_MS 2000

void gsn_say(const char *call, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (gsn.inited)
        fprintf(stderr, "%s (node %d of %d): %s\n", call, gsn.me, gsn.n, msg);
    else
        fprintf(stderr, "%s: %s\n", call, msg);
    fflush(stderr);
}

_Noreturn void gsn_fatal(const char *call, const char *fmt, ...)
{
    char msg[1024], why[PSHM_ABORT_REASON_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gsn_say(call, "%s", msg);
    fflush(NULL);
    snprintf(why, sizeof why, "stopped in %s at the error told above", call);
    pshm_abort_reason(gsn.ctx, 1, why);
}

int gsn_pshm_fail(const char *call, int rc)
{
    if (rc == -ECANCELED) {
        /* Another rank ended the job (its gasnet_exit or a failure, told
         * by it or by pshmrun): its code is the job's. */
        fflush(NULL);
        pshm_abort(gsn.ctx, 1);
    }
    if (rc == -ESRCH)
        gsn_fatal(call, "%s", pshm_last_error());
    gsn_say(call, "%s", pshm_last_error());
    return GASNET_ERR_RESOURCE;
}

void gsn_need_attach(const char *call)
{
    if (__builtin_expect(!gsn.attached, 0)) {
        if (!gsn.inited) {
            fprintf(stderr, "%s: called before gasnet_init and gasnet_attach\n", call);
            exit(1);
        }
        gsn_fatal(call, "called before gasnet_attach: attach first");
    }
}

static uint64_t now_ms(void);

/* A wait that runs no handler for this long after an AM call returned an
 * error ends the job: GASNet clients do not check what a send returns, and
 * one that waits for the reply of a message never sent would wait for
 * ever. Without such an error no wait is ever cut. */
#define GSN_ERR_WAIT_MS 10000u

void gsn_note_error(const char *call, int err)
{
    snprintf(gsn.err_call, sizeof gsn.err_call, "%s", call);
    gsn.err_code = err;
    atomic_store_explicit(&gsn.err_ms, now_ms(), memory_order_release);
}

int gsn_poll(const char *call)
{
    int rc;

    if (gsn_in_handler)
        return 0;   /* handlers run only outside handlers */
    rc = pshm_poll(gsn.ctx);
    if (__builtin_expect(rc > 0 && atomic_load_explicit(&gsn.err_ms, memory_order_relaxed), 0))
        atomic_store_explicit(&gsn.progress_ms, now_ms(), memory_order_relaxed);
    if (__builtin_expect(rc < 0, 0))
        gsn_pshm_fail(call, rc);
    gsn_bar_progress();
    gsn_after_poll();
    return rc;
}

/* Consecutive idle polls of a wait before it yields the CPU once, even
 * when the host has a CPU for every process: two processes the scheduler
 * put on one CPU (a job's start) would otherwise each spin a whole time
 * slice per message. A ping-pong's wait is far shorter than this. */
#define GSN_SPIN_POLLS 512u

void gsn_wait_poll(const char *call)
{
    static _Thread_local unsigned idle;

    if (gsn_poll(call) > 0) {
        idle = 0;
        return;
    }
    if (gsn.crowded || ++idle >= GSN_SPIN_POLLS) {
        idle = 0;
        uint64_t err = atomic_load_explicit(&gsn.err_ms, memory_order_acquire);
        if (__builtin_expect(err != 0, 0)) {
            uint64_t last = atomic_load_explicit(&gsn.progress_ms, memory_order_relaxed);
            if (last < err)
                last = err;
            if (now_ms() - last >= GSN_ERR_WAIT_MS)
                gsn_fatal(call, "no message came for %u s after %s returned %s (told above), "
                          "whose message was not sent: a wait for its answer would never end",
                          GSN_ERR_WAIT_MS / 1000u, gsn.err_call, gasnet_ErrorName(gsn.err_code));
        }
        sched_yield();
    }
}

void gsn_after_poll(void)
{
    if (__builtin_expect(atomic_load_explicit(&gsn.exit_asked, memory_order_relaxed), 0) &&
        !gsn_in_handler && !atomic_load(&gsn.exiting))
        gasnet_exit(atomic_load(&gsn.exit_code));
}

/* ------------------------------------------------------------ errors */

const char *gasnet_ErrorName(int errval)
{
    switch (errval) {
    case GASNET_OK: return "GASNET_OK";
    case GASNET_ERR_NOT_INIT: return "GASNET_ERR_NOT_INIT";
    case GASNET_ERR_RESOURCE: return "GASNET_ERR_RESOURCE";
    case GASNET_ERR_BAD_ARG: return "GASNET_ERR_BAD_ARG";
    case GASNET_ERR_NOT_READY: return "GASNET_ERR_NOT_READY";
    case GASNET_ERR_BARRIER_MISMATCH: return "GASNET_ERR_BARRIER_MISMATCH";
    default: return "*unknown*";
    }
}

const char *gasnet_ErrorDesc(int errval)
{
    switch (errval) {
    case GASNET_OK: return "No error";
    case GASNET_ERR_NOT_INIT: return "GASNet message layer not initialized";
    case GASNET_ERR_RESOURCE: return "Problem with requested resource";
    case GASNET_ERR_BAD_ARG: return "Invalid function parameter passed";
    case GASNET_ERR_NOT_READY: return "Non-blocking operation not complete";
    case GASNET_ERR_BARRIER_MISMATCH: return "Barrier id's mismatched";
    default: return "no description available";
    }
}

/* ------------------------------------------------------------ exit */

/* stdio flushed with the terminating signals held: pshmrun ends the other
 * ranks of a job that one ends with SIGTERM, and on_terminate's own flush,
 * run inside this one, would write the same buffer twice. A signal held
 * here comes once the flush is done. */
static void flush_stdio(void)
{
    sigset_t s, old;

    sigemptyset(&s);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &s, &old);
    fflush(NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Ends the process with the job: every rank is here (a clean end, when
 * the code is 0), or some never came (pshm_abort ends them). As GASNet's
 * gasnet_exit, the process ends with _exit once stdio is flushed: the
 * client's atexit handlers that have not run yet never see the layer
 * gone (an OpenSHMEM's makes a barrier). */
static _Noreturn void exit_now(int code, int all_came)
{
    char why[PSHM_ABORT_REASON_MAX];

    flush_stdio();
    if (all_came && code == 0) {
        int rc = pshm_finalize(gsn.ctx);
        gsn.ctx = NULL;
        gsn.attached = gsn.inited = 0;
        flush_stdio();
        _exit(rc < 0 ? 1 : 0);
    }
    snprintf(why, sizeof why, "called gasnet_exit(%d)", code);
    pshm_abort_reason(gsn.ctx, code, why);
}

void gsn_exit_handler(gasnet_token_t t, gasnet_handlerarg_t code)
{
    int zero = 0;
    (void)t;
    if (code != 0)
        atomic_compare_exchange_strong(&gsn.exit_code, &zero, (int)code);
    atomic_fetch_add(&gsn.exit_heard, 1);
    atomic_store(&gsn.exit_asked, 1);
}

static int exit_all_came(void *arg)
{
    (void)arg;
    return atomic_load(&gsn.exit_heard) >= gsn.n - 1;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void do_exit(int code, int from_exit_handler)
{
    int zero = 0, came;

    flush_stdio();
    if (!gsn.inited) {
        if (from_exit_handler)
            return;
        exit(code);
    }
    if (atomic_exchange(&gsn.exiting, 1)) {
        /* A second call (another thread, or a handler of this one): the
         * first one ends the job; this thread waits for it. */
        for (;;)
            pause();
    }
    if (code != 0)
        atomic_compare_exchange_strong(&gsn.exit_code, &zero, code);
    code = atomic_load(&gsn.exit_code);
    if (!gsn.attached || gsn.n == 1 || gsn_in_handler || code != 0) {
        /* One rank: a clean end. Before attach there is no network to
         * tell the others with, no poll inside a handler, and a failure
         * ends the job at once. */
        exit_now(code, gsn.n == 1);
    }
    /* Tell every peer, then wait for theirs. A full queue is not waited
     * on: the peer may be computing, and the grace time bounds the wait. */
    uint64_t end = now_ms() + GSN_EXIT_GRACE_MS;
    for (int r = 0; r < gsn.n; r++) {
        if (r == gsn.me)
            continue;
        uint32_t a = (uint32_t)code;
        int rc;
        while ((rc = pshm_am_request_short(gsn.ctx, r, GSN_H_EXIT, PSHM_IMMEDIATE, 1, &a)) ==
                   -EAGAIN && now_ms() < end)
            if (pshm_poll(gsn.ctx) < 0)
                break;
        if (rc < 0 && rc != -EAGAIN) {
            flush_stdio();
            pshm_abort(gsn.ctx, code ? code : 1);
        }
    }
    came = 0;
    while (now_ms() < end) {
        int rc = pshm_poll(gsn.ctx);
        if (rc < 0) {
            flush_stdio();
            pshm_abort(gsn.ctx, 1);
        }
        if (exit_all_came(NULL)) {
            came = 1;
            break;
        }
        if (rc == 0 && gsn.crowded)
            sched_yield();
    }
    exit_now(atomic_load(&gsn.exit_code), came);
}

void gasnet_exit(int exitcode)
{
    do_exit(exitcode, 0);
    _exit(exitcode & 0xff);   /* not reached */
}

/* Returning from main (or exit()) with ranks still attached ends the job
 * as gasnet_exit(status) does. */
static void exit_hook(int status, void *arg)
{
    (void)arg;
    if (gsn.inited && !atomic_load(&gsn.exiting))
        do_exit(status, 1);
}

/* A signal that ends the program (SIGTERM: pshmrun ends the ranks of an
 * aborted job with it; SIGINT): what was printed is flushed first, and, as
 * GASNet says, a client's SIGQUIT handler is run instead (it may call
 * gasnet_exit); without one the signal ends the process. */
static void on_terminate(int sig)
{
    struct sigaction q;

    fflush(stdout);
    fflush(stderr);
    if (sigaction(SIGQUIT, NULL, &q) == 0 && !(q.sa_flags & SA_SIGINFO) &&
        q.sa_handler != SIG_DFL && q.sa_handler != SIG_IGN) {
        raise(SIGQUIT);
        return;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_terminate(int sig)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
        old.sa_handler == SIG_DFL)
        signal(sig, on_terminate);
}

/* ------------------------------------------------------------ init */

/* Not started by a launcher, with GASNET_PSHM_NODES=N > 1: the program
 * again as a job of N under pshmrun (PSHMRUN names it; else the one
 * of the installation, or of the build tree, or the PATH's). */
static void self_spawn(int *argc, char ***argv)
{
    const char *s = getenv("GASNET_PSHM_NODES");
    uint64_t n;
    char exe[PATH_MAX];
    ssize_t len;

    if (s == NULL || getenv("PSHM_RANK") != NULL)
        return;
    if (pshm_parse(PSHM_PARSE_U64, "GASNET_PSHM_NODES", s, 1, 4096, &n) < 0) {
        fprintf(stderr, "gasnet_init: %s\n", pshm_last_error());
        exit(1);
    }
    if (n == 1)
        return;
    if (argc == NULL || argv == NULL || *argv == NULL) {
        fprintf(stderr, "gasnet_init: GASNET_PSHM_NODES=%s asks for %u nodes, but gasnet_init "
                "was given no argv to start them with: pass &argc, &argv, or start the job "
                "with gasnetrun_smp -n %u\n", s, (unsigned)n, (unsigned)n);
        exit(1);
    }
    len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0) {
        fprintf(stderr, "gasnet_init: cannot find this program to start %u nodes of it "
                "(/proc/self/exe): start the job with gasnetrun_smp -n %u\n",
                (unsigned)n, (unsigned)n);
        exit(1);
    }
    exe[len] = '\0';
    int na = *argc;
    char **av = malloc(sizeof(char *) * ((size_t)na + 6));
    char nbuf[16];
    if (av == NULL) {
        fprintf(stderr, "gasnet_init: out of memory\n");
        exit(1);
    }
    snprintf(nbuf, sizeof nbuf, "%u", (unsigned)n);
    const char *cands[3] = {getenv("PSHMRUN"), GASNETC_BINDIR "/pshmrun",
                            GASNETC_BUILD_BINDIR "/pshmrun"};
    const char *run = "pshmrun";
    for (int i = 0; i < 3; i++)
        if (cands[i] != NULL && cands[i][0] != '\0' && (i == 0 || access(cands[i], X_OK) == 0)) {
            run = cands[i];
            break;
        }
    int k = 0;
    av[k++] = (char *)run;
    av[k++] = (char *)"-n";
    av[k++] = nbuf;
    av[k++] = (char *)"--";
    av[k++] = exe;
    for (int i = 1; i < na; i++)
        av[k++] = (*argv)[i];
    av[k] = NULL;
    /* The ranks are started by pshmrun: they must not start again. */
    unsetenv("GASNET_PSHM_NODES");
    fflush(NULL);
    execvp(run, av);
    fprintf(stderr, "gasnet_init: GASNET_PSHM_NODES=%s: cannot run %s to start the job: %s "
            "(set PSHMRUN to pshm's launcher, or start with gasnetrun_smp -n %s)\n",
            s, run, strerror(errno), s);
    exit(1);
}

static void seg_max_init(void);

int gsn_init(int *argc, char ***argv, int threads)
{
    pshm_init_attr_t attr = {.flags = threads ? PSHM_INIT_THREADS : 0u, .bootstrap = NULL};
    int rc, cpus = 0;

    if (gsn.inited) {
        gsn_say("gasnet_init", "called a second time: GASNet is initialized once per process");
        return GASNET_ERR_RESOURCE;
    }
    self_spawn(argc, argv);
    rc = pshm_init(&gsn.ctx, &attr);
    if (rc < 0) {
        fprintf(stderr, "gasnet_init: %s\n", pshm_last_error());
        return GASNET_ERR_RESOURCE;
    }
    gsn.me = pshm_rank(gsn.ctx);
    gsn.n = pshm_size(gsn.ctx);
    gsn.threads = threads;
    gsn.crowded = pshm_cpu_sharers(gsn.ctx, &cpus) > cpus;
    for (int r = 0; r < gsn.n; r++)
        if (pshm_is_local(gsn.ctx, r) != 1) {
            if (strstr(pshm_version(), "(none backend)") != NULL)
                gsn_say("gasnet_init", "node %d shares no memory with node %d: pshm was built "
                        "without shared memory (configure --disable-pshm), so a job has one "
                        "node; run with gasnetrun_smp -n 1, or rebuild pshm with a "
                        "shared-memory backend", r, gsn.me);
            else
                gsn_say("gasnet_init", "node %d does not share memory with node %d: this "
                        "GASNet runs the nodes of one host, in one supernode (unset "
                        "GASNET_SUPERNODE_MAXSIZE or PSHM_SIM_HOSTS)", r, gsn.me);
            pshm_abort(gsn.ctx, 1);
        }
    gsn.inited = 1;
    seg_max_init();
    gsn_register_internal();
    on_exit(exit_hook, NULL);
    catch_terminate(SIGTERM);
    catch_terminate(SIGINT);
    return GASNET_OK;
}

/* MemAvailable of /proc/meminfo in bytes (0: not known). */
static uint64_t mem_available(void)
{
    char line[128];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");

    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb * 1024u;
}

/* The largest segment, fixed at gasnet_init as GASNet fixes it: pshm's
 * limit for a job of this size (pshm-info --procs N), and no more than
 * each node's share of the memory the host has available then, less the
 * message queues, at the fraction GASNET_MAX_SEGSIZE takes of physical
 * memory by default (0.85). pshm's limit counts physical memory and the
 * store's room, not what the host's other processes hold: attach reserves
 * every node's segment, and more than the memory available cannot be. */
#define GSN_MEM_PERCENT 85u

static void seg_max_init(void)
{
    pshm_host_plan_t plan;
    uint64_t m = 0, avail = mem_available();

    gsn.seg_max_by_mem = 0;
    if (pshm_host_plan((unsigned)gsn.n, &plan) == 0)
        m = plan.seg_max;
    if (avail != 0) {
        uint64_t budget = avail / 100u * GSN_MEM_PERCENT, each = 0;
        if (budget > plan.am_bytes)
            each = (budget - plan.am_bytes) / (uint64_t)gsn.n;
        each = each > PSHM_OBJECT_HEADER_SIZE ? each - PSHM_OBJECT_HEADER_SIZE : 0;
        if (each < m) {
            m = each;
            gsn.seg_max_by_mem = 1;
        }
    }
    gsn.seg_max = m & ~(uint64_t)(GASNET_PAGESIZE - 1);
}

uintptr_t gasnet_getMaxLocalSegmentSize(void)
{
    return gsn.inited ? (uintptr_t)gsn.seg_max : 0;
}

/* Every rank is on this host, with the same plan. */
uintptr_t gasnet_getMaxGlobalSegmentSize(void) { return gasnet_getMaxLocalSegmentSize(); }

int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize,
                  uintptr_t minheapoffset)
{
    int rc;
    (void)minheapoffset;   /* segments are mapped apart from the heap */

    if (!gsn.inited) {
        fprintf(stderr, "gasnet_attach: called before gasnet_init\n");
        return GASNET_ERR_NOT_INIT;
    }
    if (gsn.attached) {
        gsn_say("gasnet_attach", "called a second time: attach once");
        return GASNET_ERR_RESOURCE;
    }
    if (segsize % GASNET_PAGESIZE != 0) {
        gsn_say("gasnet_attach", "segsize %" PRIuPTR " is not a multiple of GASNET_PAGESIZE "
                "(%d): round it", segsize, GASNET_PAGESIZE);
        return GASNET_ERR_BAD_ARG;
    }
    uintptr_t max = gasnet_getMaxLocalSegmentSize();
    if (segsize > max) {
        gsn_say("gasnet_attach", "segsize %" PRIuPTR " bytes is more than "
                "gasnet_getMaxLocalSegmentSize() (%" PRIuPTR " bytes for %d nodes on this "
                "host, %s): ask for less", segsize, max, gsn.n,
                gsn.seg_max_by_mem ? "this node's share of 85% of the memory available at "
                "gasnet_init (MemAvailable): free memory, or run fewer nodes"
                : "pshm's limit: pshm-info --procs N shows every limit");
        return GASNET_ERR_BAD_ARG;
    }
    rc = gsn_register_table(table, numentries);
    if (rc != GASNET_OK)
        return rc;
    rc = pshm_attach(gsn.ctx, segsize);
    if (rc < 0)
        return gsn_pshm_fail("gasnet_attach", rc);
    gsn.seg = calloc((size_t)gsn.n, sizeof *gsn.seg);
    if (gsn.seg == NULL)
        gsn_fatal("gasnet_attach", "out of memory for the segment table of %d nodes", gsn.n);
    for (int r = 0; r < gsn.n; r++) {
        pshm_seginfo_t si;
        if (pshm_segment_info(gsn.ctx, r, &si) < 0)
            gsn_fatal("gasnet_attach", "%s", pshm_last_error());
        gsn.seg[r].owner = si.owner_base;
        gsn.seg[r].local = si.local_base;
        gsn.seg[r].size = si.size < segsize ? si.size : segsize;
    }
    gsn.attached = 1;
    /* From now on the header's inline calls translate by themselves. */
    gasnetc_segmap = gsn.seg;
    gasnetc_segmap_n = (gasnet_node_t)gsn.n;
    return GASNET_OK;
}

/* ------------------------------------------------------------ queries */

gasnet_node_t gasnet_mynode(void) { return (gasnet_node_t)gsn.me; }
gasnet_node_t gasnet_nodes(void) { return (gasnet_node_t)gsn.n; }

/* A query's table: 0, or the error to return. */
static int table_check(int ready, const void *table, int numentries)
{
    if (!ready)
        return GASNET_ERR_NOT_INIT;
    if (numentries < 0 || (numentries > 0 && table == NULL))
        return GASNET_ERR_BAD_ARG;
    return GASNET_OK;
}

int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries)
{
    int rc = table_check(gsn.attached, seginfo_table, numentries);
    if (rc != GASNET_OK)
        return rc;
    for (int r = 0; r < numentries && r < gsn.n; r++) {
        seginfo_table[r].addr = gsn.seg[r].size ? (void *)gsn.seg[r].owner : NULL;
        seginfo_table[r].size = gsn.seg[r].size;
    }
    for (int r = gsn.n; r < numentries; r++) {
        seginfo_table[r].addr = NULL;
        seginfo_table[r].size = 0;
    }
    return GASNET_OK;
}

/* One host, one supernode: the offset is 0 as GASNet gives it where
 * segments are not aligned (a peer's address is translated per call). */
int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries)
{
    int rc = table_check(gsn.inited, nodeinfo_table, numentries);
    if (rc != GASNET_OK)
        return rc;
    for (int r = 0; r < numentries && r < gsn.n; r++) {
        nodeinfo_table[r].host = 0;
        nodeinfo_table[r].supernode = 0;
        nodeinfo_table[r].offset = 0;
    }
    return GASNET_OK;
}

char *gasnet_getenv(const char *name) { return name ? getenv(name) : NULL; }

int gasnet_set_waitmode(int wait_mode)
{
    if (wait_mode != GASNET_WAIT_SPIN && wait_mode != GASNET_WAIT_BLOCK &&
        wait_mode != GASNET_WAIT_SPINBLOCK)
        return GASNET_ERR_BAD_ARG;
    if (gsn.inited)
        gsn.crowded = wait_mode != GASNET_WAIT_SPIN;
    return GASNET_OK;
}

/* ------------------------------------------------------------ locks */

void gasnet_hsl_init(gasnet_hsl_t *hsl) { pthread_mutex_init(&hsl->lock, NULL); }
void gasnet_hsl_destroy(gasnet_hsl_t *hsl) { pthread_mutex_destroy(&hsl->lock); }
void gasnet_hsl_lock(gasnet_hsl_t *hsl) { pthread_mutex_lock(&hsl->lock); }
void gasnet_hsl_unlock(gasnet_hsl_t *hsl) { pthread_mutex_unlock(&hsl->lock); }
int gasnet_hsl_trylock(gasnet_hsl_t *hsl)
{
    return pthread_mutex_trylock(&hsl->lock) == 0 ? GASNET_OK : GASNET_ERR_NOT_READY;
}
