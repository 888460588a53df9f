/*
 * sigguard.c - removes this process's names if it dies by a signal between
 * creating its objects and the unlink at the end of pshm_attach.
 *
 * That window is the only time a crash can leave an object of a job behind
 * (after it nothing has a name). The handlers are installed only for the
 * window; they remove the names, then give the signal to whatever the
 * application had installed: its handler runs, or the default action
 * (re-raised, so the process still dies by its signal and its parent sees
 * it), or nothing if it was ignored.
 *
 * Process-wide state, as signal dispositions are process-wide; one context
 * per process (pshm_init enforces it) means one guard at a time.
 */
#include "internal.h"

#include <signal.h>
#include <string.h>

static const int guarded[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT,
                               SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGXFSZ };

static struct sigaction saved[PSHM_ARRAY_LEN(guarded)];
static bool installed[PSHM_ARRAY_LEN(guarded)]; /* not where the signal was ignored */
static seg_obj_t *guard_obj[2];               /* my segment, my region (or NULL) */
static const pshm_cfg_t *guard_cfg;
static volatile sig_atomic_t armed;

static void remove_names(void)
{
    for (size_t i = 0; i < PSHM_ARRAY_LEN(guard_obj); i++) {
        seg_obj_t *o = guard_obj[i];
        /* seg_be_unlink is one unlink/shm_unlink/shmctl system call. */
        if (o != NULL && o->owner && o->named)
            seg_be_unlink(o, guard_cfg);
    }
}

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
    size_t i;

    if (armed)
        remove_names();
    armed = 0;
    for (i = 0; i < PSHM_ARRAY_LEN(guarded) && guarded[i] != sig; i++)
        ;
    if (i == PSHM_ARRAY_LEN(guarded))
        return;
    /* Put the application's disposition back, then hand the signal on. */
    sigaction(sig, &saved[i], NULL);
    if (saved[i].sa_handler == SIG_DFL) {
        /* Blocked while this handler runs: delivered, and fatal, on return.
         * A fault re-executes the faulting instruction and dies the same way. */
        raise(sig);
        return;
    }
    if (saved[i].sa_flags & SA_SIGINFO)
        saved[i].sa_sigaction(sig, info, uctx);
    else
        saved[i].sa_handler(sig);
}

void sigguard_arm(pshm_ctx_t *ctx, seg_obj_t *seg, seg_obj_t *region)
{
    struct sigaction sa;

    if (armed)
        return;
    guard_obj[0] = seg;
    guard_obj[1] = region;
    guard_cfg = &ctx->cfg;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);  /* no other guarded signal interrupts the cleanup */
    for (size_t i = 0; i < PSHM_ARRAY_LEN(guarded); i++) {
        /* An ignored signal cannot end the process: leave it ignored. */
        installed[i] = sigaction(guarded[i], NULL, &saved[i]) == 0 &&
                       saved[i].sa_handler != SIG_IGN;
        if (installed[i])
            sigaction(guarded[i], &sa, NULL);
    }
    armed = 1;
}

void sigguard_disarm(void)
{
    sigset_t all, old;

    if (!armed)
        return;
    /* No guarded signal may arrive half-way through the restore. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    armed = 0;
    for (size_t i = 0; i < PSHM_ARRAY_LEN(guarded); i++)
        if (installed[i])
            sigaction(guarded[i], &saved[i], NULL);
    guard_obj[0] = guard_obj[1] = NULL;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}
