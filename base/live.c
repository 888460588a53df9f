/*
 * live.c - no wait without an exit: noticing dead peers and aborted jobs,
 * and the wait policy (spin or yield).
 *
 * A job's abort is the abort word of the supernode's control line
 * (base/control.h), which every process of the supernode reads.
 *
 * A peer's death is seen through a pidfd (readable once the process has
 * exited, even before it is reaped, and never fooled by a recycled pid);
 * where pidfd_open is missing, kill(pid, 0) is the fallback. A stopped
 * process (SIGSTOP) is alive: only exit counts.
 */
#include "base/ctx.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LIVE_CHECK_PERIOD_NS 1000000ull /* waits and polls look at most every 1 ms */
#define SPINBLOCK_SPINS 20000u          /* SPINBLOCK: spin this long, then yield */
/* AUTO: a wait that has spun (or yielded) this long without its condition
 * sleeps, WAIT_SLEEP_MIN_NS at first, doubling up to WAIT_SLEEP_MAX_NS
 * (README.PSHM 8.5: why, and the figures that chose them). */
#define WAIT_WINDOW_NS 100000ull
#define WAIT_SLEEP_MIN_NS 1000u
#define WAIT_SLEEP_MAX_NS 100000u

/* The wait this thread is in: when its first slow step ran, and its next
 * sleep. A wait inside a wait (a send waiting for room from a handler)
 * restarts them, which only delays the outer one's sleeping. */
static _Thread_local struct {
    uint64_t since;
    uint32_t sleep_ns;
} wait_now;

uint64_t pshm_now_ns(void)
{
    return now_ns();
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
    /* pidfds are always close-on-exec. */
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int live_init(pshm_ctx_t *ctx)
{
    for (int nr = 0; nr < ctx->nm.node_size; nr++) {
        ctx->peer_pidfd[nr] = -1;
        if (nr == ctx->nm.node_rank)
            continue;
        ctx->peer_pidfd[nr] = pidfd_open_(ctx->peer_pid[nr]);
        if (ctx->peer_pidfd[nr] >= 0)
            continue;
        if (errno == ESRCH)
            return pshm_err(-ESRCH, "rank %d (pid %d) died during attach",
                            ctx->nm.members[nr], (int)ctx->peer_pid[nr]);
        if (errno == EMFILE || errno == ENFILE)
            return pshm_err(-EMFILE, "no file descriptor left to watch rank %d: a supernode "
                            "of %d processes needs %d more; raise the limit (ulimit -n)",
                            ctx->nm.members[nr], ctx->nm.node_size, ctx->nm.node_size - 1);
        /* ENOSYS and the like: live_check falls back to kill(pid, 0). */
    }
    return 0;
}

void live_fini(pshm_ctx_t *ctx)
{
    if (ctx->peer_pidfd == NULL)
        return;
    for (int nr = 0; nr < ctx->nm.node_size; nr++) {
        if (ctx->peer_pidfd[nr] >= 0)
            close(ctx->peer_pidfd[nr]);
        ctx->peer_pidfd[nr] = -1;
    }
}

static int peer_dead(pshm_ctx_t *ctx, int nr)
{
    struct pollfd p;

    if (nr == ctx->nm.node_rank || ctx->peer_pid == NULL || ctx->peer_pid[nr] <= 0)
        return 0;
    if (ctx->peer_pidfd[nr] < 0)
        return kill(ctx->peer_pid[nr], 0) < 0 && errno == ESRCH;
    p.fd = ctx->peer_pidfd[nr];
    p.events = POLLIN;
    p.revents = 0;
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP)) != 0;
}

void live_set_abort(pshm_ctx_t *ctx, int rank, int code)
{
    uint64_t expect = 0, v;

    if (ctx == NULL || ctx->control == NULL)
        return;
    v = CONTROL_ABORT_FLAG | ((uint64_t)(uint32_t)rank & 0x7fffffffu) << 32 | (uint32_t)code;
    /* Release/acquire: for the word itself (see base/control.h). */
    atomic_compare_exchange_strong_explicit(&ctx->control->abort, &expect, v,
                                            memory_order_release, memory_order_relaxed);
}

int live_aborted(const pshm_ctx_t *ctx, int *rank, int *code)
{
    uint64_t v;

    if (ctx == NULL || ctx->control == NULL)
        return 0;
    v = atomic_load_explicit(&ctx->control->abort, memory_order_acquire);
    if (v == 0)
        return 0;
    if (rank)
        *rank = (int)((v >> 32) & 0x7fffffffu);
    if (code)
        *code = (int)(uint32_t)v;
    return 1;
}

/* The supernode's first failure, as recorded in the abort word. */
static int report_first(pshm_ctx_t *ctx, int rank, int code)
{
    int nr;

    if (code != LIVE_DIED_CODE)
        return pshm_err(-ECANCELED, "the job was aborted by rank %d with code %d", rank, code);
    nr = rank >= 0 && rank < ctx->size ? ctx_local(ctx, rank) : -1;
    if (nr >= 0 && ctx->peer_pid != NULL)
        return pshm_err(-ESRCH, "rank %d (pid %d) died without finalizing; the job cannot go "
                        "on", rank, (int)ctx->peer_pid[nr]);
    return pshm_err(-ESRCH, "rank %d died without finalizing; the job cannot go on", rank);
}

/*
 * A death is recorded once in the supernode's abort word (first writer wins)
 * and what the word holds is reported: every survivor then names the same
 * first failure, not a fellow survivor that exited after noticing it.
 */
int live_check(pshm_ctx_t *ctx, int peer)
{
    int rank, code;

    if (live_aborted(ctx, &rank, &code))
        return report_first(ctx, rank, code);
    for (int nr = 0; nr < ctx->nm.node_size; nr++) {
        if (peer >= 0 && nr != peer)
            continue;
        if (!peer_dead(ctx, nr))
            continue;
        if (ctx->control == NULL)
            return report_first(ctx, ctx->nm.members[nr], LIVE_DIED_CODE);
        live_set_abort(ctx, ctx->nm.members[nr], LIVE_DIED_CODE);
        /* Another survivor may have recorded an earlier failure first. */
        if (live_aborted(ctx, &rank, &code))
            return report_first(ctx, rank, code);
    }
    return 0;
}

void ctx_wait_policy(pshm_ctx_t *ctx)
{
    int mode = ctx->cfg.wait_mode;

    ctx->wait_sleeps = mode == WAIT_AUTO;
    if (mode == WAIT_AUTO)
        ctx->spin_max = ctx->oversubscribed ? 0 : UINT32_MAX;
    else
        ctx->spin_max = mode == WAIT_SPIN        ? UINT32_MAX
                        : mode == WAIT_SPINBLOCK ? SPINBLOCK_SPINS
                                                 : 0;
}

/*
 * AUTO's slow step. A wait that lasts longer than WAIT_WINDOW_NS is not a
 * hand-off any more: the process it waits for is not running, most often
 * because other programs hold the CPUs (the count of this host's processes
 * cannot see them). Spinning then holds a CPU that process may be queued
 * for, and sched_yield gives it to whatever the scheduler picks next, for
 * a whole time slice (EEVDF puts the yielder last). A sleep leaves the run
 * queue, and a sleeper comes back ahead of the programs that ran meanwhile.
 * The sleeps start short and double, so a wait for a slow peer on a quiet
 * machine is late by at most WAIT_SLEEP_MAX_NS plus the timer's slack.
 */
static void wait_slow_auto(pshm_ctx_t *ctx, uint32_t n)
{
    uint64_t now = pshm_now_ns();
    struct timespec ts;

    /* The first slow step of this wait: the spinning one's 256th, the
     * yielding one's first. */
    if (n == (ctx->spin_max != 0 ? CTX_SPIN_CHECK + 1 : 1u)) {
        wait_now.since = now;
        wait_now.sleep_ns = WAIT_SLEEP_MIN_NS;
    }
    if (now - wait_now.since < WAIT_WINDOW_NS) {
        if (ctx->spin_max != 0)
            pshm_cpu_relax();
        else
            sched_yield();
        return;
    }
    ts.tv_sec = 0;
    ts.tv_nsec = wait_now.sleep_ns;
    nanosleep(&ts, NULL);
    if (wait_now.sleep_ns < WAIT_SLEEP_MAX_NS)
        wait_now.sleep_ns *= 2;
}

/* The liveness check stays a call of live_check_paced (reading the clock
 * again): pshm-pingpong --instructions takes its clock-paced cost out of
 * the count by that name. */
int ctx_wait_step_slow(pshm_ctx_t *ctx, uint32_t n)
{
    if (ctx->wait_sleeps)
        wait_slow_auto(ctx, n);
    else if (n < ctx->spin_max)
        pshm_cpu_relax(); /* the spin that reads the clock */
    else
        /* More processes than usable CPUs: the one we wait for may need this one. */
        sched_yield();
    return live_check_paced(ctx);
}

int live_check_paced(pshm_ctx_t *ctx)
{
    /* Several threads may wait at once: the deadline is a hint, relaxed. */
    uint64_t now = pshm_now_ns();

    if (now < __atomic_load_n(&ctx->next_live_check_ns, __ATOMIC_RELAXED))
        return 0;
    __atomic_store_n(&ctx->next_live_check_ns, now + LIVE_CHECK_PERIOD_NS, __ATOMIC_RELAXED);
    return live_check(ctx, -1);
}
