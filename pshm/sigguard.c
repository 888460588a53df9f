/*
 * sigguard.c - the signal guard of pshm_attach's window: from the exclusive
 * create of this process's objects to the removal of their names, a signal
 * must not end the process with the names left in the system.
 *
 * Two designs were weighed. Blocking the termination signals across the
 * window with pthread_sigmask, and acting on a pending one afterwards, is
 * simpler, but it holds only for the calling thread (a process-directed
 * SIGTERM goes to any other thread, such as an MPI progress thread, and
 * kills the process by default action, names and all), cannot cover
 * faults (SIGSEGV, SIGBUS), and makes a SIGINT wait unseen until a blocked
 * bootstrap exchange ends. So the guard installs process-wide handlers for
 * the window instead. What a handler does depends on what the application
 * had installed for the signal:
 *   - the default action (the process dies): remove the names, put the
 *     default back and let the signal kill the process as it would have;
 *   - a handler for SIGINT, SIGTERM, SIGHUP or SIGQUIT (requests to stop,
 *     whose handlers often end the process): deferred; the guard notes the
 *     signal and raises it again when the window closes, where the
 *     application's handler runs with nothing named left to leak. A handler
 *     that only sets a flag does not disturb the attach;
 *   - a handler for a fault or SIGABRT (a crash in all likelihood, whose
 *     handler typically reports and exits): remove the names, then run the
 *     handler now;
 *   - a handler for any other signal (timers, profilers, a runtime's own
 *     signals, which may be needed for a bootstrap to progress): run now,
 *     names untouched.
 * A handler run by the guard runs as the kernel would have run it: under
 * its own sa_mask (plus the signal unless SA_NODEFER), SA_SIGINFO or not,
 * SA_RESETHAND honoured; errno is kept. An ignored signal stays ignored.
 * The removal is async-signal-safe (system calls only, no message).
 *
 * Process-wide state, as signal dispositions are process-wide; one context
 * per process (pshm_init enforces it) means one guard at a time.
 */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

enum { G_STOP, G_CRASH, G_OTHER };  /* what an application handler is taken for */

static const struct {
    int sig, kind;
} fixed[] = {
    { SIGINT, G_STOP },    { SIGTERM, G_STOP },    { SIGHUP, G_STOP },    { SIGQUIT, G_STOP },
    { SIGSEGV, G_CRASH },  { SIGBUS, G_CRASH },    { SIGFPE, G_CRASH },   { SIGILL, G_CRASH },
    { SIGABRT, G_CRASH },  { SIGSYS, G_CRASH },    { SIGTRAP, G_CRASH },  { SIGPIPE, G_OTHER },
    { SIGXCPU, G_OTHER },  { SIGXFSZ, G_OTHER },   { SIGUSR1, G_OTHER },  { SIGUSR2, G_OTHER },
    { SIGALRM, G_OTHER },  { SIGVTALRM, G_OTHER }, { SIGPROF, G_OTHER },  { SIGIO, G_OTHER },
#ifdef SIGPWR /* not on every architecture */
    { SIGPWR, G_OTHER },
#endif
#ifdef SIGSTKFLT
    { SIGSTKFLT, G_OTHER },
#endif
};
#define NFIXED PSHM_ARRAY_LEN(fixed)
#define NRT 33                 /* SIGRTMIN..SIGRTMAX: at most 33 on Linux */
#define NGUARD (NFIXED + NRT)

static int gsig[NGUARD], gkind[NGUARD], nguard;
static struct sigaction saved[NGUARD];  /* the application's dispositions */
static bool installed[NGUARD];          /* not where the signal was ignored */
static volatile sig_atomic_t deferred[NGUARD];
static seg_obj_t *guard_obj[2];         /* my segment, my region (or NULL) */
static const pshm_cfg_t *guard_cfg;
static volatile sig_atomic_t armed;

static void remove_names(void)
{
    for (size_t i = 0; i < PSHM_ARRAY_LEN(guard_obj); i++)
        if (guard_obj[i] != NULL) {
            /* Another thread may be between the create and its record. */
            seg_wait_created(guard_obj[i]);
            seg_be_unlink_signal(guard_obj[i], guard_cfg);
        }
}

/* Runs the application's handler `a` for sig as the kernel would have. */
static void chain(int i, int sig, siginfo_t *info, void *uctx)
{
    struct sigaction a = saved[i];
    sigset_t m = ((ucontext_t *)uctx)->uc_sigmask;  /* restored on return */

    sigorset(&m, &m, &a.sa_mask);
    if (!(a.sa_flags & SA_NODEFER))
        sigaddset(&m, sig);
    if (a.sa_flags & SA_RESETHAND) {
        /* The application's disposition is the default from now on (and
         * is what the guard puts back when the window closes). */
        memset(&saved[i], 0, sizeof saved[i]);
        saved[i].sa_handler = SIG_DFL;
    }
    pthread_sigmask(SIG_SETMASK, &m, NULL);
    if (a.sa_flags & SA_SIGINFO)
        a.sa_sigaction(sig, info, uctx);
    else
        a.sa_handler(sig);
}

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
    int saved_errno = errno, i;

    for (i = 0; i < nguard && gsig[i] != sig; i++)
        ;
    if (i == nguard) {
        errno = saved_errno;
        return;
    }
    if (saved[i].sa_handler == SIG_DFL) {
        struct sigaction dfl;
        if (armed)
            remove_names();
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        /* Blocked while this handler runs: delivered, and fatal, on return.
         * A fault re-executes the faulting instruction and dies the same way. */
        raise(sig);
    } else if (saved[i].sa_handler == SIG_IGN) {
        /* Ignored since (SA_RESETHAND cannot give this): nothing to do. */
    } else if (gkind[i] == G_STOP && armed) {
        deferred[i] = 1;
    } else {
        if (gkind[i] == G_CRASH && armed)
            remove_names();
        chain(i, sig, info, uctx);
    }
    errno = saved_errno;
}

void sigguard_arm(pshm_ctx_t *ctx, seg_obj_t *seg, seg_obj_t *region)
{
    struct sigaction sa;

    if (armed)
        return;
    nguard = 0;
    for (size_t k = 0; k < NFIXED; k++) {
        gsig[nguard] = fixed[k].sig;
        gkind[nguard++] = fixed[k].kind;
    }
    for (int s = SIGRTMIN; s <= SIGRTMAX && nguard < (int)NGUARD; s++) {
        gsig[nguard] = s;
        gkind[nguard++] = G_OTHER;
    }
    guard_obj[0] = seg;
    guard_obj[1] = region;
    guard_cfg = &ctx->cfg;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sigfillset(&sa.sa_mask);  /* no other signal interrupts the guard */
    armed = 1;
    for (int i = 0; i < nguard; i++) {
        deferred[i] = 0;
        /* An ignored signal cannot end the process: leave it ignored. */
        installed[i] = sigaction(gsig[i], NULL, &saved[i]) == 0 &&
                       saved[i].sa_handler != SIG_IGN;
        if (!installed[i])
            continue;
        /* The application's system-call restart and stack choice hold for
         * the whole window, whoever handles the signal. */
        sa.sa_flags = SA_SIGINFO | (saved[i].sa_flags & (SA_RESTART | SA_ONSTACK));
        sigaction(gsig[i], &sa, NULL);
    }
}

void sigguard_disarm(void)
{
    sigset_t all, old;
    struct sigaction cur;

    if (!armed)
        return;
    /* No signal may arrive on this thread half-way through the restore; one
     * arriving on another thread meanwhile finds the guard still armed. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int i = 0; i < nguard; i++) {
        if (!installed[i])
            continue;
        sigaction(gsig[i], &saved[i], &cur);
        /* The application installed a handler of its own meanwhile: keep it. */
        if (!(cur.sa_flags & SA_SIGINFO) || cur.sa_sigaction != on_signal)
            sigaction(gsig[i], &cur, NULL);
    }
    armed = 0;
    guard_obj[0] = guard_obj[1] = NULL;
    /* The deferred requests, now to the application's handlers: pending on
     * this thread until its mask is restored just below. */
    for (int i = 0; i < nguard; i++)
        if (deferred[i]) {
            deferred[i] = 0;
            raise(gsig[i]);
        }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
