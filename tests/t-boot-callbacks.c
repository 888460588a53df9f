/*
 * t-boot-callbacks - embedding: the test is the "host runtime". It forks its
 * processes itself and gives each a pshm_bootstrap_t whose exchange and
 * barrier run over a shared anonymous mapping; then init, attach, reading
 * every peer's segment, finalize. Also: bad bootstrap arguments and a failing
 * callback are reported, not hidden.
 */
#include "internal.h"
#include "tests/helpers.h"

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

#define NPROCS 4
#define XMAX 4096            /* bytes one rank may contribute */
#define SEGSIZE (64 * 1024)
/* --disable-pshm: every process is a supernode of one. */
#if PSHM_BACKEND_NONE
#define NODE_SIZE 1
#else
#define NODE_SIZE NPROCS
#endif

/* The host runtime's collectives: one mapping shared by the forked ranks. */
typedef struct hub {
    atomic_uint arrived;     /* ranks in the current barrier */
    atomic_uint generation;  /* bumped by the last arrival: releases the others */
    atomic_int dead;         /* set by the parent when a rank died */
    char tags[NPROCS][PSHM_TAG_MAX + 1];
    char data[NPROCS * XMAX];
} hub_t;

typedef struct rt {
    hub_t *hub;
    int rank;
} rt_t;

static int hub_barrier(void *arg)
{
    rt_t *rt = arg;
    hub_t *h = rt->hub;
    unsigned gen = atomic_load(&h->generation);
    time_t give_up = time(NULL) + 30;

    /* acq_rel: my data writes happen before the others pass the barrier. */
    if (atomic_fetch_add_explicit(&h->arrived, 1, memory_order_acq_rel) == NPROCS - 1) {
        atomic_store(&h->arrived, 0);
        atomic_fetch_add_explicit(&h->generation, 1, memory_order_release);
        return 0;
    }
    while (atomic_load_explicit(&h->generation, memory_order_acquire) == gen) {
        if (atomic_load(&h->dead) || time(NULL) > give_up)
            return -ESRCH;
        sched_yield();   /* more processes than cores */
    }
    return 0;
}

static int hub_exchange(void *arg, const void *mine, size_t len, void *all)
{
    rt_t *rt = arg;
    int rc;

    if (len > XMAX)
        return -EMSGSIZE;
    memcpy(rt->hub->data + (size_t)rt->rank * len, mine, len);
    if ((rc = hub_barrier(arg)) < 0)
        return rc;
    memcpy(all, rt->hub->data, NPROCS * len);
    return hub_barrier(arg);   /* nobody overwrites data before all read it */
}

static int failing_exchange(void *arg, const void *mine, size_t len, void *all)
{
    (void)arg, (void)mine, (void)len, (void)all;
    return -EIO;
}

static int explaining_exchange(void *arg, const void *mine, size_t len, void *all)
{
    (void)arg, (void)mine, (void)len, (void)all;
    return pshm_set_error(-ENETDOWN, "the host runtime's fabric is down (port %d)", 7);
}

static int no_barrier(void *arg)
{
    (void)arg;
    return 0;
}

static void expect_einval(const pshm_bootstrap_t *b, const char *words)
{
    pshm_init_attr_t attr = { .bootstrap = b };
    pshm_ctx_t *ctx = NULL;

    CHECK_ERR(pshm_init(&ctx, &attr), -EINVAL);
    if (strstr(pshm_last_error(), words) == NULL) {
        printf("FAIL: message \"%s\" lacks \"%s\"\n", pshm_last_error(), words);
        exit(T_FAIL);
    }
    printf("ok: rejected (%s): %s\n", words, pshm_last_error());
}

static void bad_arguments(void)
{
    rt_t rt = { 0 };
    pshm_bootstrap_t good = { .rank = 0, .size = 2, .exchange = failing_exchange,
                              .barrier = no_barrier, .arg = &rt };
    pshm_bootstrap_t b;
    pshm_init_attr_t attr = { .bootstrap = &good };
    pshm_ctx_t *ctx = NULL;

    b = good, b.rank = -1;
    expect_einval(&b, "rank -1");
    b = good, b.rank = 2;
    expect_einval(&b, "rank 2");
    b = good, b.size = 0, b.rank = 0;
    expect_einval(&b, "size 0");
    b = good, b.exchange = NULL;
    expect_einval(&b, "exchange callback is NULL");
    b = good, b.barrier = NULL;
    expect_einval(&b, "barrier callback is NULL");
    b = good, b.job_tag = "Bad-Tag";
    expect_einval(&b, "job_tag");
    b = good, b.job_tag = "abcdefghijklmnopq";   /* 17 characters */
    expect_einval(&b, "job_tag");
    b = good, b.job_tag = "";
    expect_einval(&b, "job_tag");

    /* A callback's error comes back as is, with a sentence. */
    CHECK_ERR(pshm_init(&ctx, &attr), -EIO);
    CHECK(strstr(pshm_last_error(), "exchange") != NULL);
    printf("ok: a failing exchange callback gives -EIO: %s\n", pshm_last_error());

    /* ... with its own words when it gives them. */
    b = good, b.exchange = explaining_exchange;
    attr.bootstrap = &b;
    CHECK_ERR(pshm_init(&ctx, &attr), -ENETDOWN);
    /* The call may name what it was doing before the callback's words. */
    const char *words = "the host runtime's fabric is down (port 7)", *e = pshm_last_error();
    if (strlen(e) < strlen(words) || strcmp(e + strlen(e) - strlen(words), words) != 0) {
        printf("FAIL: the callback's words were not kept: \"%s\"\n", pshm_last_error());
        exit(T_FAIL);
    }
    printf("ok: a callback's own explanation is kept: %s\n", pshm_last_error());
}

/* One rank of the embedded job. */
static int run_rank(hub_t *hub, int rank, const char *tag)
{
    rt_t rt = { hub, rank };
    pshm_bootstrap_t b = { .rank = rank, .size = NPROCS, .exchange = hub_exchange,
                           .barrier = hub_barrier, .arg = &rt, .job_tag = tag };
    pshm_init_attr_t attr = { .bootstrap = &b };
    pshm_seginfo_t me, peer;
    pshm_ctx_t *ctx;

    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK(pshm_rank(ctx) == rank && pshm_size(ctx) == NPROCS);
    CHECK(pshm_node_size(ctx) == NODE_SIZE && pshm_host_count(ctx) == 1);
    memcpy(hub->tags[rank], ctx->boot->tag, sizeof hub->tags[rank]);
    CHECK_OK(pshm_attach(ctx, SEGSIZE));
    CHECK_OK(pshm_segment_info(ctx, rank, &me));
    CHECK(me.size >= SEGSIZE);
    for (size_t i = 0; i < SEGSIZE; i++)
        ((unsigned char *)me.local_base)[i] = (unsigned char)(rank * 31 + i * 7);
    CHECK_OK(pshm_barrier(ctx));
    for (int p = 0; p < NPROCS; p++) {
        void *local;
        if (pshm_is_local(ctx, p) != 1) {
            CHECK(NODE_SIZE == 1 && p != rank);
            continue;
        }
        CHECK_OK(pshm_segment_info(ctx, p, &peer));
        CHECK_OK(pshm_translate(ctx, p, (void *)peer.owner_base, &local));
        CHECK(local == peer.local_base);
        for (size_t i = 0; i < SEGSIZE; i++)
            if (((unsigned char *)local)[i] != (unsigned char)(p * 31 + i * 7)) {
                printf("FAIL: rank %d reads byte %zu of rank %d's segment as %u, "
                       "expected %u\n", rank, i, p, ((unsigned char *)local)[i],
                       (unsigned char)(p * 31 + i * 7));
                return T_FAIL;
            }
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}

/* Forks the job; returns 0 when every rank passed. */
static int run_job(hub_t *hub, const char *tag)
{
    pid_t pid[NPROCS];
    int failed = 0, left = NPROCS;

    memset(hub, 0, sizeof *hub);
    fflush(NULL);
    for (int r = 0; r < NPROCS; r++) {
        pid[r] = fork();
        CHECK(pid[r] >= 0);
        if (pid[r] == 0)
            _exit(run_rank(hub, r, tag));
    }
    while (left > 0) {
        int st;
        pid_t p = wait(&st);
        CHECK(p > 0);
        left--;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            printf("FAIL: rank pid %d ended with status 0x%x\n", (int)p, st);
            atomic_store(&hub->dead, 1);   /* the others' waits end */
            failed = 1;
        }
    }
    for (int r = 1; r < NPROCS && !failed; r++)
        if (strcmp(hub->tags[r], hub->tags[0]) != 0) {
            printf("FAIL: rank %d has job tag \"%s\", rank 0 \"%s\"\n", r, hub->tags[r],
                   hub->tags[0]);
            failed = 1;
        }
    if (!failed && tag != NULL && strcmp(hub->tags[0], tag) != 0) {
        printf("FAIL: job tag \"%s\", expected the given \"%s\"\n", hub->tags[0], tag);
        failed = 1;
    }
    if (!failed && !tag_valid(hub->tags[0])) {
        printf("FAIL: job tag \"%s\" is not valid\n", hub->tags[0]);
        failed = 1;
    }
    if (!failed && th_count_objects(hub->tags[0]) != 0) {
        printf("FAIL: %d objects of job %s remain\n", th_count_objects(hub->tags[0]),
               hub->tags[0]);
        failed = 1;
    }
    return failed;
}

int main(void)
{
    char tag[32];
    hub_t *hub;

    bad_arguments();
    hub = mmap(NULL, sizeof *hub, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(hub != MAP_FAILED);
    if (run_job(hub, NULL))
        return T_FAIL;
    printf("ok: %d forked ranks, tag \"%s\" drawn by rank 0, every segment read by every "
           "rank\n", NPROCS, hub->tags[0]);
    snprintf(tag, sizeof tag, "tcb%d", (int)getpid() % 100000);
    if (run_job(hub, tag))
        return T_FAIL;
    printf("ok: %d forked ranks with the given tag \"%s\"\n", NPROCS, tag);
    munmap(hub, sizeof *hub);
    return T_PASS;
}
