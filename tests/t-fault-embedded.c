/*
 * t-fault-embedded: failures with no launcher. Four forked processes joined
 * by the callbacks bootstrap; rank 2 calls pshm_abort(42), crashes (SIGSEGV),
 * is SIGKILLed, or exits without finalizing, while the others wait for it in
 * pshm_barrier, pshm_node_barrier, a full queue (it does not poll), pshm_wait_until
 * or a pshm_poll loop. Every survivor's call returns -ECANCELED naming rank 2
 * and code 42 (abort) or -ESRCH naming rank 2 (death) within GASNET_EXITTIMEOUT;
 * ranks 1 and 3 start waiting only after rank 0, which noticed first, has
 * exited too: they must still name rank 2, the first failure, not rank 0.
 * Then: a process stopped (SIGSTOP) for 1 s while traffic is in flight is not
 * declared dead, and the job completes with every message counted once.
 * Nothing is left behind.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <stdlib.h>

#define NP 4
#define VICTIM 2
#define ABORT_CODE 42
#define DETECT_MAX_S 2.0   /* GASNET_EXITTIMEOUT's default */

enum { F_ABORT, F_SEGV, F_KILL, F_EXIT, NFAULTS };
enum { W_BARRIER, W_NODE_BARRIER, W_FULLQ, W_WAIT_UNTIL, W_POLL, NWAITS };
static const char *fault_name[] = { "pshm_abort(42)", "SIGSEGV", "SIGKILL", "exit without finalize" };
static const char *wait_name[] = { "pshm_barrier", "pshm_node_barrier", "full queue",
                                   "pshm_wait_until", "pshm_poll loop" };

/* What each rank reports to the parent (in hub->user). */
typedef struct report {
    int rc;
    double latency;          /* from max(entering the wait, the fault) to the return */
    char msg[400];
} report_t;
typedef struct shared {
    _Atomic double fault_at; /* when the victim failed (0 before) */
    report_t rep[NP];
} shared_t;
_Static_assert(sizeof(shared_t) <= FJ_USER, "user area");

typedef struct scenario { int fault, wait; } scenario_t;

enum { H_NOP = 1, H_COUNT = 2 };
static void h_nop(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)b, (void)n, (void)a, (void)na;
}

/* Opaque to the compiler, so the store below is a real fault. */
volatile int *volatile bad_ptr;

static int never(void *arg) { (void)arg; return 0; }

static pshm_ctx_t *join(fj_rt_t *rt, size_t segsize)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_handler_entry_t tab = { H_NOP, h_nop, PSHM_AM_ANY_NARGS };
    pshm_ctx_t *ctx;

    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    CHECK_OK(pshm_attach(ctx, segsize));
    CHECK_OK(pshm_barrier(ctx));
    return ctx;
}

static void victim(pshm_ctx_t *ctx, shared_t *s, int fault)
{
    usleep(150000);   /* the others are waiting by now */
    atomic_store(&s->fault_at, fj_now());
    switch (fault) {
    case F_ABORT: pshm_abort(ctx, ABORT_CODE);
    case F_SEGV: *bad_ptr = 1; break;
    case F_KILL: raise(SIGKILL); break;
    case F_EXIT: exit(0);
    }
    _exit(99);
}

static int wait_at(pshm_ctx_t *ctx, int place)
{
    static uint8_t buf[4096];
    double give_up = fj_now() + 20;
    int rc = 0;

    switch (place) {
    case W_BARRIER: return pshm_barrier(ctx);
    case W_NODE_BARRIER: return pshm_node_barrier(ctx);
    case W_FULLQ:
        while (rc == 0 && fj_now() < give_up)
            rc = pshm_am_request_medium(ctx, VICTIM, H_NOP, buf, sizeof buf, 0, 0, NULL);
        return rc;
    case W_WAIT_UNTIL: return pshm_wait_until(ctx, never, NULL);
    default:
        while (rc >= 0 && fj_now() < give_up)
            rc = pshm_poll(ctx);
        return rc;
    }
}

static int fault_rank(fj_rt_t *rt, void *arg)
{
    const scenario_t *sc = arg;
    shared_t *s = (shared_t *)rt->hub->user;
    report_t *me = &s->rep[rt->rank];
    pshm_ctx_t *ctx = join(rt, 1 << 16);
    double t0, t1, fault;
    int rc;

    if (rt->rank == VICTIM)
        victim(ctx, s, sc->fault);
    if (rt->rank != 0) {
        /* Wait (outside pshm) until rank 0 and the victim are both gone. */
        double give_up = fj_now() + 20;
        while (!(atomic_load(&rt->hub->reaped[0]) && atomic_load(&rt->hub->reaped[VICTIM])) &&
               fj_now() < give_up)
            usleep(1000);
    }
    t0 = fj_now();
    rc = wait_at(ctx, sc->wait);
    t1 = fj_now();
    fault = atomic_load(&s->fault_at);
    me->rc = rc;
    me->latency = t1 - (fault > t0 ? fault : t0);
    snprintf(me->msg, sizeof me->msg, "%s", pshm_last_error());
    if (rt->rank == 0)
        _exit(0);   /* at once, so that the others see two dead processes */
    /* Finalize after the failure returns an error, without hanging. */
    rc = pshm_finalize(ctx);
    return rc < 0 ? 0 : 3;
}

static int check_fault(fj_hub_t *h, int fault, int place)
{
    scenario_t sc = { fault, place };
    shared_t *s = (shared_t *)h->user;
    int st[NP], fails = 0, want = fault == F_ABORT ? -ECANCELED : -ESRCH;
    char tag[17], words[64];
    double took;

    snprintf(tag, sizeof tag, "fe%d%d%d", (int)getpid() % 1000000, fault, place);
    memset(s, 0, sizeof *s);
    took = fj_run(h, NP, tag, fault_rank, &sc, st, 30, NULL, NULL);
    if (took < 0) {
        printf("FAIL %s in %s: the job did not end in 30 s\n", fault_name[fault], wait_name[place]);
        return 1;
    }
    if (fault == F_ABORT ? !fj_exited(st[VICTIM], ABORT_CODE)
        : fault == F_SEGV ? !fj_signaled(st[VICTIM], SIGSEGV)
        : fault == F_KILL ? !fj_signaled(st[VICTIM], SIGKILL) : !fj_exited(st[VICTIM], 0)) {
        printf("FAIL %s: the failing rank ended with status %#x\n", fault_name[fault], st[VICTIM]);
        fails++;
    }
    if (fault == F_ABORT)
        snprintf(words, sizeof words, "by rank %d with code %d", VICTIM, ABORT_CODE);
    else
        snprintf(words, sizeof words, "rank %d (pid", VICTIM);
    for (int r = 0; r < NP; r++) {
        report_t *rep = &s->rep[r];
        if (r == VICTIM)
            continue;
        if (!fj_exited(st[r], 0) || rep->rc != want || strstr(rep->msg, words) == NULL ||
            rep->latency > DETECT_MAX_S) {
            printf("FAIL %s in %s: rank %d: status %#x, rc %d (want %d), %.3f s, \"%s\" "
                   "(want \"%s\")\n", fault_name[fault], wait_name[place], r, st[r], rep->rc,
                   want, rep->latency, rep->msg, words);
            fails++;
        }
    }
    if (th_count_objects(tag) != 0) {
        printf("FAIL %s in %s: objects of job %s left behind\n", fault_name[fault],
               wait_name[place], tag);
        fails++;
    }
    if (!fails)
        printf("ok: %-21s in %-17s: survivors got %s in %.1f/%.1f/%.1f ms: %s\n",
               fault_name[fault], wait_name[place], pshm_strerror(want),
               s->rep[0].latency * 1e3, s->rep[1].latency * 1e3, s->rep[3].latency * 1e3,
               s->rep[1].msg);
    return fails;
}

/* ------------------------------------------------ SIGSTOP is not death */

#define STOP_S 1.0
typedef struct traffic {
    atomic_int attached;
    atomic_int resumed;                  /* set by the parent after SIGCONT */
    atomic_long sent[NP][NP];            /* final counts, [from][to] */
    atomic_int sent_done;
    atomic_long handled[NP][NP];         /* [to][from], by the receiver's handler */
    int rc[NP];
    char msg[NP][300];
} traffic_t;
_Static_assert(sizeof(traffic_t) <= FJ_USER, "user area");

static traffic_t *tr;
static int my_rank;

static void h_count(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)b, (void)n, (void)na;
    int from = pshm_token_source(t);
    /* Arguments carry the sequence number: each is handled once, in order. */
    if ((long)a[0] != atomic_load_explicit(&tr->handled[my_rank][from], memory_order_relaxed))
        atomic_store(&tr->handled[my_rank][from], -1000000000L);
    atomic_fetch_add_explicit(&tr->handled[my_rank][from], 1, memory_order_relaxed);
}

static int all_arrived(void *arg)
{
    (void)arg;
    for (int f = 0; f < NP; f++)
        if (f != my_rank && atomic_load(&tr->handled[my_rank][f]) != atomic_load(&tr->sent[f][my_rank]))
            return 0;
    return 1;
}

static int stop_rank(fj_rt_t *rt, void *arg)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_handler_entry_t tab = { H_COUNT, h_count, 1 };
    pshm_ctx_t *ctx;
    double give_up = fj_now() + 20;
    long n[NP] = { 0 };
    int rc = 0;

    (void)arg;
    tr = (traffic_t *)rt->hub->user;
    my_rank = rt->rank;
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    CHECK_OK(pshm_attach(ctx, 1 << 16));
    CHECK_OK(pshm_barrier(ctx));
    atomic_fetch_add(&tr->attached, 1);
    /* All-to-all until the stopped rank has been resumed for a while. */
    while (rc == 0 && (!atomic_load(&tr->resumed) || n[(my_rank + 1) % NP] < 2000) &&
           fj_now() < give_up)
        for (int d = 0; d < NP && rc == 0; d++)
            if (d != my_rank) {
                uint32_t seq = (uint32_t)n[d];
                if ((rc = pshm_am_request_short(ctx, d, H_COUNT, 0, 1, &seq)) == 0)
                    n[d]++;
            }
    for (int d = 0; d < NP; d++)
        atomic_store(&tr->sent[my_rank][d], n[d]);
    atomic_fetch_add(&tr->sent_done, 1);
    if (rc == 0)
        rc = pshm_barrier(ctx);   /* every count is published */
    if (rc == 0 && atomic_load(&tr->sent_done) != NP)
        rc = -EPROTO;
    if (rc == 0)
        rc = pshm_wait_until(ctx, all_arrived, NULL);
    if (rc == 0)
        rc = pshm_barrier(ctx);
    tr->rc[my_rank] = rc;
    snprintf(tr->msg[my_rank], sizeof tr->msg[0], "%s", pshm_last_error());
    if (rc == 0)
        rc = pshm_finalize(ctx);
    return rc == 0 ? 0 : 1;
}

static void stop_parent(pid_t *pids, void *arg)
{
    double give_up = fj_now() + 20;

    (void)arg;
    while (atomic_load(&tr->attached) < NP && fj_now() < give_up)
        usleep(1000);
    usleep(50000);   /* traffic flows */
    kill(pids[1], SIGSTOP);
    usleep((useconds_t)(STOP_S * 1e6));
    kill(pids[1], SIGCONT);
    atomic_store(&tr->resumed, 1);
}

static int check_stop(fj_hub_t *h)
{
    int st[NP], fails = 0;
    char tag[17];
    long total = 0;

    snprintf(tag, sizeof tag, "fs%d", (int)getpid() % 1000000);
    tr = (traffic_t *)h->user;
    memset(tr, 0, sizeof *tr);
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "4", 1);   /* senders block on the stopped rank */
    double took = fj_run(h, NP, tag, stop_rank, NULL, st, 40, NULL, stop_parent);
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    for (int r = 0; r < NP; r++)
        if (!fj_exited(st[r], 0)) {
            printf("FAIL SIGSTOP: rank %d status %#x rc %d: %s\n", r, st[r], tr->rc[r], tr->msg[r]);
            fails++;
        }
    for (int f = 0; f < NP; f++)
        for (int t = 0; t < NP; t++) {
            if (f == t)
                continue;
            total += tr->sent[f][t];
            if (tr->handled[t][f] != tr->sent[f][t]) {
                printf("FAIL SIGSTOP: %d -> %d: sent %ld, handled %ld\n", f, t,
                       (long)tr->sent[f][t], (long)tr->handled[t][f]);
                fails++;
            }
        }
    if (th_count_objects(tag) != 0) {
        printf("FAIL SIGSTOP: objects of job %s left behind\n", tag);
        fails++;
    }
    if (took < STOP_S) {
        printf("FAIL SIGSTOP: the job took %.2f s, less than the stop\n", took);
        fails++;
    }
    if (!fails)
        printf("ok: rank 1 stopped %.1f s under all-to-all traffic (queue depth 4): not "
               "declared dead; %ld messages each handled once, in order; job took %.2f s\n",
               STOP_S, total, took);
    return fails;
}

int main(void)
{
    fj_hub_t *h;
    int fails = 0, before;

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm: no two processes share memory\n");
        return T_SKIP;
    }
    h = fj_hub_new();
    before = th_count_objects(NULL);
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "1", 1);   /* the full-queue case fills at once */
    for (int f = 0; f < NFAULTS; f++)
        for (int w = 0; w < NWAITS; w++)
            fails += check_fault(h, f, w);
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    fails += check_stop(h);
    if (th_count_objects(NULL) != before) {
        printf("FAIL: %d pshm objects before, %d after\n", before, th_count_objects(NULL));
        fails++;
    }
    return fails ? T_FAIL : T_PASS;
}
