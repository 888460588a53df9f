/*
 * forkjob.h - an embedding "host runtime" for the tests: forks N processes
 * and joins them through the callbacks bootstrap, whose exchange and barrier
 * run over a shared anonymous mapping. The parent reaps with a deadline, so a
 * test never hangs; a rank that ends makes the callbacks of the others fail.
 */
#ifndef PSHM_TEST_FORKJOB_H
#define PSHM_TEST_FORKJOB_H

#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FJ_MAX 8
#define FJ_XMAX 4096         /* bytes one rank may contribute to an exchange */
#define FJ_USER 65536        /* bytes of the mapping left to the test */

typedef struct fj_hub {
    atomic_uint arrived;     /* ranks in the current barrier */
    atomic_uint generation;  /* bumped by the last arrival: releases the others */
    atomic_int ended;        /* set by the parent once any rank has ended */
    atomic_int reaped[FJ_MAX];
    int n;
    char data[FJ_MAX * FJ_XMAX];
    _Alignas(64) unsigned char user[FJ_USER];
} fj_hub_t;

typedef struct fj_rt {
    fj_hub_t *hub;
    int rank;
    unsigned exchanges;      /* exchanges made so far by this rank */
    /* Called inside every exchange before the data moves (may pause or crash). */
    void (*on_exchange)(struct fj_rt *rt);
    const char *tag;
} fj_rt_t;

static inline double fj_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int fj_barrier(void *arg)
{
    fj_rt_t *rt = arg;
    fj_hub_t *h = rt->hub;
    unsigned gen = atomic_load(&h->generation);
    double give_up = fj_now() + 30;

    /* acq_rel: my data writes happen before the others pass the barrier. */
    if (atomic_fetch_add_explicit(&h->arrived, 1, memory_order_acq_rel) == (unsigned)h->n - 1) {
        atomic_store(&h->arrived, 0);
        atomic_fetch_add_explicit(&h->generation, 1, memory_order_release);
        return 0;
    }
    while (atomic_load_explicit(&h->generation, memory_order_acquire) == gen) {
        if (atomic_load(&h->ended))
            return -ESRCH;
        if (fj_now() > give_up)
            return -ETIMEDOUT;
        sched_yield();   /* more processes than cores */
    }
    return 0;
}

static inline int fj_exchange(void *arg, const void *mine, size_t len, void *all)
{
    fj_rt_t *rt = arg;
    int rc;

    if (len > FJ_XMAX)
        return -EMSGSIZE;
    rt->exchanges++;
    if (rt->on_exchange)
        rt->on_exchange(rt);
    memcpy(rt->hub->data + (size_t)rt->rank * len, mine, len);
    if ((rc = fj_barrier(arg)) < 0)
        return rc;
    memcpy(all, rt->hub->data, (size_t)rt->hub->n * len);
    return fj_barrier(arg);   /* nobody overwrites data before all read it */
}

/* The bootstrap of rank rt->rank. */
static inline pshm_bootstrap_t fj_boot(fj_rt_t *rt)
{
    pshm_bootstrap_t b = { .rank = rt->rank, .size = rt->hub->n, .exchange = fj_exchange,
                           .barrier = fj_barrier, .arg = rt, .job_tag = rt->tag };
    return b;
}

static inline fj_hub_t *fj_hub_new(void)
{
    fj_hub_t *h = mmap(NULL, sizeof *h, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                       -1, 0);
    CHECK(h != MAP_FAILED);
    return h;
}

/*
 * Forks n ranks, each running _exit(fn(rt, arg)); reaps them all, killing
 * what is left after `timeout_s`. status[r] gets each wait status (-1 if
 * killed by the deadline). Returns the seconds the job took, or -1 on timeout.
 * pids (may be NULL) receives the ranks' pids once all are forked.
 */
static inline double fj_run(fj_hub_t *h, int n, const char *tag, int (*fn)(fj_rt_t *, void *),
                            void *arg, int *status, double timeout_s, pid_t *pids,
                            void (*parent)(pid_t *pids, void *arg))
{
    pid_t pid[FJ_MAX];
    int left = n, timed_out = 0;
    double t0 = fj_now();

    CHECK(n >= 1 && n <= FJ_MAX);
    memset(h, 0, offsetof(fj_hub_t, user));
    h->n = n;
    fflush(NULL);
    for (int r = 0; r < n; r++) {
        pid[r] = fork();
        CHECK(pid[r] >= 0);
        if (pid[r] == 0) {
            fj_rt_t rt = { .hub = h, .rank = r, .tag = tag };
            _exit(fn(&rt, arg));
        }
        status[r] = -1;
    }
    if (pids)
        memcpy(pids, pid, sizeof(pid_t) * (size_t)n);
    if (parent)
        parent(pid, arg);
    while (left > 0) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p > 0) {
            for (int r = 0; r < n; r++)
                if (pid[r] == p) {
                    status[r] = st;
                    atomic_store(&h->reaped[r], 1);
                }
            atomic_store(&h->ended, 1);
            left--;
            continue;
        }
        CHECK(p == 0);
        if (fj_now() - t0 > timeout_s) {
            for (int r = 0; r < n; r++)
                if (!atomic_load(&h->reaped[r]))
                    kill(pid[r], SIGKILL);
            timed_out = 1;
            while (left > 0 && waitpid(-1, &st, 0) > 0)
                left--;
            break;
        }
        usleep(2000);
    }
    return timed_out ? -1 : fj_now() - t0;
}

static inline int fj_exited(int st, int code) { return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == code; }
static inline int fj_signaled(int st, int sig) { return st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == sig; }

#endif
