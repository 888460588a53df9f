/*
 * t-am-deadpeer: three forked processes joined through the callbacks
 * bootstrap (shared anonymous memory); rank 2 is killed with SIGKILL after
 * attach. Rank 0, flooding it through a queue of depth 1, and rank 1, waiting
 * for it in a barrier, must both get -ESRCH quickly instead of hanging.
 */
#include "amtest.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef NP
#define NP 3
#endif
struct shared {
    _Atomic int count, gen;
    _Atomic int done;    /* survivors that have checked */
    _Atomic int passed;  /* ranks out of the barrier after attach */
    char buf[NP * 4096];
};
struct arg { struct shared *s; int rank; };

static int bar(void *p)
{
    struct shared *s = ((struct arg *)p)->s;
    int g = atomic_load(&s->gen);
    if (atomic_fetch_add(&s->count, 1) == NP - 1) {
        atomic_store(&s->count, 0);
        atomic_fetch_add(&s->gen, 1);
        return 0;
    }
    for (long n = 0; atomic_load(&s->gen) == g; n++) {
        if (n > 2000000) return -ETIMEDOUT;
        sched_yield();
    }
    return 0;
}
static int xchg(void *p, const void *mine, size_t len, void *all)
{
    struct arg *a = p;
    if (len > 4096) return -EINVAL;
    memcpy(a->s->buf + (size_t)a->rank * len, mine, len);
    int rc = bar(p);
    if (rc == 0) memcpy(all, a->s->buf, NP * len);
    return rc < 0 ? rc : bar(p);
}

enum { H = 1 };
static void h(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)p; (void)n; (void)a; (void)na;
}

static int child(struct shared *s, int rank, const char *tag)
{
    struct arg a = {s, rank};
    pshm_bootstrap_t b = {rank, NP, xchg, bar, &a, tag};
    pshm_init_attr_t attr = {0, &b};
    pshm_ctx_t *ctx;
    pshm_handler_entry_t tab = {H, h, 0};
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    CHECK_OK(pshm_attach(ctx, 0));
    CHECK_OK(pshm_barrier(ctx));
    /* Rank 2 dies only once every rank has left that barrier: a survivor
     * still in its last round would rightly see the death there. */
    atomic_fetch_add(&s->passed, 1);
    if (rank == 2) {
        for (long n = 0; atomic_load(&s->passed) < NP && n < 20000; n++) usleep(1000);
        raise(SIGKILL);
    }
    usleep(100000);
    int rc = 0;
    static uint8_t buf[4096];
    if (rank == 0)
        for (long i = 0; rc == 0 && i < 100000000; i++)
            rc = pshm_am_request_medium(ctx, 2, H, buf, sizeof buf, 0, 0, NULL);
    else
        rc = pshm_node_barrier(ctx);
    if (rc != -ESRCH || !strstr(pshm_last_error(), "rank 2")) {
        fprintf(stderr, "FAIL rank %d: got %d (%s), expected -ESRCH naming rank 2\n", rank, rc,
                pshm_last_error());
        _exit(T_FAIL);
    }
    printf("rank %d: %s with rank 2 dead: %s\n", rank, rank == 0 ? "send" : "barrier",
           pshm_last_error());
    fflush(stdout);
    /* Stay alive until the other survivors have seen rank 2 (not us) die. */
    atomic_fetch_add(&s->done, 1);
    for (long n = 0; atomic_load(&s->done) < NP - 1 && n < 20000; n++) usleep(1000);
    _exit(T_PASS); /* the job cannot finalize collectively */
}

int main(void)
{
    if (am_no_peers())
        return T_SKIP;
    struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                            -1, 0);
    char tag[17];
    pid_t pid[NP];
    CHECK(s != MAP_FAILED);
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "1", 1);
    snprintf(tag, sizeof tag, "amdead%d", (int)getpid() % 1000000);
    int before = th_count_objects(NULL);
    time_t t0 = time(NULL);
    for (int r = 0; r < NP; r++) {
        pid[r] = fork();
        CHECK(pid[r] >= 0);
        if (pid[r] == 0) return child(s, r, tag);
    }
    int ok = 1;
    for (int r = 0; r < NP; r++) {
        int st;
        CHECK(waitpid(pid[r], &st, 0) == pid[r]);
        int want_killed = r == 2;
        if (want_killed ? !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
                        : !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
            fprintf(stderr, "FAIL: rank %d ended with status 0x%x\n", r, st);
            ok = 0;
        }
    }
    CHECK(time(NULL) - t0 < 30);
    CHECK(th_count_objects(NULL) == before);
    munmap(s, sizeof *s);
    return ok ? T_PASS : T_FAIL;
}
