/*
 * bench_instr.c - pshm-pingpong --instructions (see bench_instr.h).
 *
 * Each scenario keeps the collected calls free of waiting, so that their
 * count does not depend on how the two processes interleave: a rank that
 * must wait for the other spins on a line of the benchmark's own (outside
 * the collected calls) until the peer says its messages are in the queue,
 * and only then calls the library.
 */
#include "tools/util/bench_instr.h"
#include "tools/util/bench_stats.h"
#include "tools/util/bench_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define H_IBURST 40 /* request: reply with a Short of the same 2 arguments */
#define H_IREPLY 41 /* reply: counted */
#define H_IPREP 42  /* request: reply with a prepared Medium of the same size */
#define H_IPREP_REPLY 43 /* that reply: counted */
#define H_IMED 44   /* request: reply with a copied Medium of the same size */

#define MED_BYTES 64 /* the copied Mediums' payload: past a slot's 48 bytes, in a chunk */

#define PREP_BYTES 4096 /* the prepared Mediums' payload, in a chunk */

#define BURST_N 1000 /* requests queued, then served: 250 lines of 4 cells (a depth of 256) */
#define PINGPONG_N 1000
#define IDLE_N 10000
#define WAIT_N 10000
#define INCAST_N 500   /* requests each sender queues to rank 0 (a queue of 512) */
#define BARRIER_N 50   /* barriers rank 0 enters last */
#define H_ISINK 45     /* incast: counted, no reply */

static struct {
    pshm_ctx_t *ctx;
    uint64_t served, replies, turns, sunk;
    int hrc;
} ic;

static void h_isink(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk, (void)buf, (void)n, (void)args, (void)nargs;
    ic.sunk++;
}

static void h_iburst(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)buf, (void)n;
    int rc = pshm_am_reply_short(tk, H_IREPLY, 0, nargs, args);
    if (rc < 0 && !ic.hrc) ic.hrc = rc;
    ic.served++;
}

static void h_ireply(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk, (void)buf, (void)n, (void)args, (void)nargs;
    ic.replies++;
}

/* The prepared Medium's handlers write one byte of the payload and read
 * one: the library's instructions are counted, not a copy's. */
static void h_iprep(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    void *b;
    size_t room;
    int rc = pshm_am_prepare_reply_medium(tk, n, n, 0, nargs, &b, &room);
    if (rc == 0) {
        *(volatile unsigned char *)b = *(volatile unsigned char *)buf;
        rc = pshm_am_commit_reply_medium(tk, H_IPREP_REPLY, n, nargs, args);
    }
    if (rc < 0 && !ic.hrc) ic.hrc = rc;
    ic.served++;
}

static void h_iprep_reply(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args,
                          unsigned nargs)
{
    (void)tk, (void)n, (void)args, (void)nargs;
    (void)*(volatile unsigned char *)buf;
    ic.replies++;
}

/* The copied Medium's request handler reads one byte of the payload and
 * replies with the same size from a buffer of its own (counted by
 * h_iprep_reply). */
static void h_imed(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    static unsigned char out[MED_BYTES];
    out[0] = *(volatile unsigned char *)buf;
    int rc = pshm_am_reply_medium(tk, H_IPREP_REPLY, out, n, 0, nargs, args);
    if (rc < 0 && !ic.hrc) ic.hrc = rc;
    ic.served++;
}

/* ------------------------------------------------------------ the scenarios */

/* Ranks under valgrind and ranks counted: the first 1 or 2, or all (0);
 * the others run natively and sit idle (--idle). */
typedef struct scenario {
    const char *name, *test;  /* --instr-child NAME; the result's test name */
    const char *collect;      /* the public calls collected */
    const char *depth;        /* GASNET_PSHMNET_QUEUE_DEPTH of the job, or NULL */
    uint64_t size;            /* bytes of arguments, or BENCH_NO_SIZE */
    long ops;                 /* the count is divided by this (incast: x senders) */
    int counted;              /* ranks under valgrind, summed: 1, 2, or 0 (all) */
    int any_p;                /* runs at P > 2 */
    int dflt;                 /* run by --instructions without --scenarios */
    int per_call;             /* a dump after each call: the count is the median call's */
} scenario_t;

static const scenario_t scenarios[] = {
    {"burst", "instr-short-burst", "pshm_am_request_short,pshm_poll", "256", 8, BURST_N, 2, 1, 1, 0},
    {"burst-any", "instr-short-burst-any", "pshm_am_request_short,pshm_poll", "256", 8, BURST_N, 2,
     1, 1, 0},
    {"idle", "instr-poll-idle", "pshm_poll", NULL, BENCH_NO_SIZE, IDLE_N, 1, 1, 1, 0},
    {"pingpong", "instr-pingpong", "pshm_am_request_short,pshm_poll", NULL, 8, PINGPONG_N, 2, 1, 1, 0},
    {"wait", "instr-wait-turn", "pshm_wait_until", NULL, BENCH_NO_SIZE, WAIT_N, 1, 0, 1, 0},
    {"pingpong-medium-prepare", "instr-pingpong-prepare",
     "pshm_am_prepare_request_medium,pshm_am_commit_request_medium,pshm_poll", NULL, PREP_BYTES,
     PINGPONG_N, 2, 1, 1, 0},
    {"pingpong-medium", "instr-pingpong-medium", "pshm_am_request_medium,pshm_poll", NULL, MED_BYTES,
     PINGPONG_N, 2, 1, 1, 0},
    {"pingpong-medium-any", "instr-pingpong-medium-any", "pshm_am_request_medium,pshm_poll", NULL,
     MED_BYTES, PINGPONG_N, 2, 1, 1, 0},
    {"incast", "instr-incast", "pshm_am_request_short,pshm_poll", "512", 8, INCAST_N, 0, 1, 0, 0},
    {"barrier", "instr-barrier", "pshm_barrier", NULL, BENCH_NO_SIZE, BARRIER_N, 1, 1, 0, 1},
};

static const scenario_t *find(const char *name)
{
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        if (strcmp(scenarios[i].name, name) == 0) return &scenarios[i];
    return NULL;
}

int bench_instr_known(const char *name) { return find(name) != NULL; }

/* Waits (not collected) until the peer has written at least v into my line. */
static int await(_Atomic uint64_t *line, uint64_t v)
{
    uint64_t t0 = bench_now_ns();
    /* acquire: the peer's messages, sent before its store, are visible */
    while (atomic_load_explicit(line, memory_order_acquire) < v) {
        sched_yield();
        if (bench_now_ns() - t0 > 300000000000ull) {
            fprintf(stderr, "pshm-pingpong: --instr-child: no word from the other rank in 300 s\n");
            return -1;
        }
    }
    return 0;
}

static void tell(_Atomic uint64_t *line, uint64_t v)
{
    /* release: what I sent before is in the queues when the peer sees v */
    atomic_store_explicit(line, v, memory_order_release);
}

static int call_failed(const char *call, int rc)
{
    const char *why = pshm_last_error();
    fprintf(stderr, "pshm-pingpong: --instr-child: %s failed: %s\n", call,
            *why ? why : pshm_strerror(rc));
    return 1;
}

/* Polls until *ctr reaches want; every call must find something. */
static int poll_until(uint64_t *ctr, uint64_t want)
{
    while (*ctr < want) {
        int rc = pshm_poll(ic.ctx);
        if (rc < 0) return call_failed("pshm_poll", rc);
        if (ic.hrc) return call_failed("a handler's reply", ic.hrc);
        if (rc == 0) {
            fprintf(stderr, "pshm-pingpong: --instr-child: a poll found nothing with %llu of %llu "
                            "messages handled\n", (unsigned long long)*ctr, (unsigned long long)want);
            return 1;
        }
    }
    return 0;
}

static int cond_turns(void *arg)
{
    (void)arg;
    return ++ic.turns > WAIT_N;
}

static int cond_done(void *arg)
{
    /* acquire: pairs with rank 0's release at the end of its part */
    return atomic_load_explicit((_Atomic uint64_t *)arg, memory_order_acquire) != 0;
}

/* A rank with no part in the scenario: idle in pshm_wait_until, or in
 * pshm_poll (yielding between calls, so that the measured ranks get the
 * CPUs of an oversubscribed host), until rank 0 says its part is done. */
static int sit_idle(pshm_ctx_t *ctx, int idle, _Atomic uint64_t *done)
{
    int rc;
    if (idle == BENCH_IDLE_WAIT) {
        if ((rc = pshm_wait_until(ctx, cond_done, done)) < 0) return call_failed("pshm_wait_until", rc);
        return 0;
    }
    uint64_t t0 = bench_now_ns();
    while (!cond_done(done)) {
        if ((rc = pshm_poll(ctx)) < 0) return call_failed("pshm_poll", rc);
        sched_yield();
        if (bench_now_ns() - t0 > 300000000000ull) {
            fprintf(stderr, "pshm-pingpong: --instr-child: rank 0 did not finish in 300 s\n");
            return 1;
        }
    }
    return 0;
}

/* Rank 0 lets the others run their part of barrier i as far as it goes
 * without rank 0 (the counted rank then never waits): a settling pause. */
static void settle(void)
{
    struct timespec ts = {0, 20000000};
    nanosleep(&ts, NULL);
}

int bench_instr_child(pshm_ctx_t *ctx, const char *name, int idle, const bench_instr_lines_t *ln)
{
    static const pshm_handler_entry_t h[] = {{H_IBURST, h_iburst, 2}, {H_IREPLY, h_ireply, 2},
                                             {H_IPREP, h_iprep, 0},
                                             {H_IPREP_REPLY, h_iprep_reply, 0},
                                             {H_IMED, h_imed, 0}, {H_ISINK, h_isink, 2}};
    /* burst-any, pingpong-medium-any: the same handlers, registered for
     * any count (as the flood's and most benchmarks' are) */
    static const pshm_handler_entry_t hany[] = {{H_IBURST, h_iburst, PSHM_AM_ANY_NARGS},
                                                {H_IREPLY, h_ireply, PSHM_AM_ANY_NARGS},
                                                {H_IPREP_REPLY, h_iprep_reply, PSHM_AM_ANY_NARGS},
                                                {H_IMED, h_imed, PSHM_AM_ANY_NARGS}};
    const scenario_t *s = find(name);
    int me = pshm_rank(ctx), P = pshm_size(ctx), rc;
    uint32_t a[2] = {1, 2};
    _Atomic uint64_t *mine = ln->mine, *peers = ln->peer;

    ic.ctx = ctx;
    rc = strstr(s->name, "-any") ? pshm_am_register(ctx, hany, 4) : pshm_am_register(ctx, h, 6);
    if (rc < 0) return call_failed("pshm_am_register", rc);
    if ((rc = pshm_barrier(ctx)) < 0) return call_failed("pshm_barrier", rc);
    if (strcmp(s->name, "incast") == 0) {
        /* Every other rank queues its requests to 0, then says so; 0
         * serves them all once every sender is done. */
        if (me != 0) {
            for (long i = 0; i < INCAST_N; i++)
                if ((rc = pshm_am_request_short(ctx, 0, H_ISINK, 0, 2, a)) < 0)
                    return call_failed("pshm_am_request_short", rc);
            /* release: my requests are in the queue before the count says so */
            atomic_fetch_add_explicit(ln->count, 1, memory_order_release);
        } else if (await(ln->count, (uint64_t)P - 1) < 0 ||
                   poll_until(&ic.sunk, (uint64_t)(P - 1) * INCAST_N)) {
            return 1;
        }
    } else if (strcmp(s->name, "barrier") == 0) {
        /* Rank 0 enters each barrier last, once the others have gone as
         * far as they can without it: its count is the barrier's own
         * work, with no turn of a wait. */
        for (uint64_t i = 1; i <= BARRIER_N; i++) {
            if (me != 0) {
                atomic_fetch_add_explicit(ln->count, 1, memory_order_release);
            } else {
                if (await(ln->count, i * (uint64_t)(P - 1)) < 0) return 1;
                settle();
            }
            if ((rc = pshm_barrier(ctx)) < 0) return call_failed("pshm_barrier", rc);
        }
    } else if (me >= (s->counted == 1 ? 1 : 2)) {
        if (sit_idle(ctx, idle, ln->done)) return 1;
    } else if (strncmp(s->name, "burst", 5) == 0) {
        /* 0 queues every request, 1 serves them all (replying), 0 takes the replies. */
        if (me == 0) {
            for (long i = 0; i < BURST_N; i++)
                if ((rc = pshm_am_request_short(ctx, 1, H_IBURST, 0, 2, a)) < 0)
                    return call_failed("pshm_am_request_short", rc);
            tell(peers, 1);
            if (await(mine, 1) < 0 || poll_until(&ic.replies, BURST_N)) return 1;
        } else {
            if (await(mine, 1) < 0 || poll_until(&ic.served, BURST_N)) return 1;
            tell(peers, 1);
        }
    } else if (strcmp(s->name, "pingpong") == 0) {
        /* Every poll finds the one message of the round trip. */
        for (uint64_t i = 1; i <= PINGPONG_N; i++) {
            if (me == 0) {
                if ((rc = pshm_am_request_short(ctx, 1, H_IBURST, 0, 2, a)) < 0)
                    return call_failed("pshm_am_request_short", rc);
                tell(peers, i);
                if (await(mine, i) < 0 || poll_until(&ic.replies, i)) return 1;
            } else {
                if (await(mine, i) < 0 || poll_until(&ic.served, i)) return 1;
                tell(peers, i);
            }
        }
    } else if (strcmp(s->name, "pingpong-medium-prepare") == 0) {
        /* As pingpong, a prepared Medium each way (the requester writes
         * one byte of its payload). */
        for (uint64_t i = 1; i <= PINGPONG_N; i++) {
            if (me == 0) {
                void *b;
                size_t room;
                if ((rc = pshm_am_prepare_request_medium(ctx, 1, PREP_BYTES, PREP_BYTES, 0, 0, &b,
                                                         &room)) < 0)
                    return call_failed("pshm_am_prepare_request_medium", rc);
                *(unsigned char *)b = (unsigned char)i;
                if ((rc = pshm_am_commit_request_medium(ctx, H_IPREP, PREP_BYTES, 0, NULL)) < 0)
                    return call_failed("pshm_am_commit_request_medium", rc);
                tell(peers, i);
                if (await(mine, i) < 0 || poll_until(&ic.replies, i)) return 1;
            } else {
                if (await(mine, i) < 0 || poll_until(&ic.served, i)) return 1;
                tell(peers, i);
            }
        }
    } else if (strcmp(s->name, "pingpong-medium") == 0 || strcmp(s->name, "pingpong-medium-any") == 0) {
        /* As pingpong, a copied Medium of MED_BYTES each way. */
        static unsigned char out[MED_BYTES];
        for (uint64_t i = 1; i <= PINGPONG_N; i++) {
            if (me == 0) {
                out[0] = (unsigned char)i;
                if ((rc = pshm_am_request_medium(ctx, 1, H_IMED, out, MED_BYTES, 0, 0, NULL)) < 0)
                    return call_failed("pshm_am_request_medium", rc);
                tell(peers, i);
                if (await(mine, i) < 0 || poll_until(&ic.replies, i)) return 1;
            } else {
                if (await(mine, i) < 0 || poll_until(&ic.served, i)) return 1;
                tell(peers, i);
            }
        }
    } else if (strcmp(s->name, "idle") == 0) {
        for (long i = 0; i < IDLE_N; i++)
            if ((rc = pshm_poll(ctx)) != 0)
                return rc < 0 ? call_failed("pshm_poll", rc) : call_failed("pshm_poll (idle)", -EPROTO);
    } else {
        /* The condition is false WAIT_N times: WAIT_N turns of the loop. */
        if ((rc = pshm_wait_until(ctx, cond_turns, NULL)) < 0) return call_failed("pshm_wait_until", rc);
    }
    /* release: the idle ranks leave their wait (rank 0 is done last) */
    if (me == 0) atomic_store_explicit(ln->done, 1, memory_order_release);
    if ((rc = pshm_barrier(ctx)) < 0) return call_failed("pshm_barrier", rc);
    return 0;
}

/* ------------------------------------------------------------ the driver */

/* Waits and idle polls check liveness at most every millisecond: how often
 * depends on the clock, so the instructions of those checks (well under 0.2
 * per call) are taken out of the count, which then stays the same from run
 * to run. */
#define PACED "live_check_paced"

/*
 * From a callgrind output: the collected instructions ("totals:", or
 * "summary:" in older versions) less the inclusive cost of the calls to
 * PACED. A call's inclusive cost is the last number of the line after its
 * "calls=" line; function names are compressed as "(id) name" the first
 * time, "(id)" after.
 */
static int read_total(const char *file, uint64_t *ir, uint64_t *paced_calls)
{
    FILE *f = fopen(file, "r");
    char line[1024];
    int found = 0, paced_id = -1, in_paced = 0, after_call = 0;
    uint64_t total = 0, paced = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long long v;
        int id;
        char name[256];
        if (after_call) {
            char *last = strrchr(line, ' ');
            if (in_paced && last) paced += strtoull(last + 1, NULL, 10);
            after_call = 0;
            continue;
        }
        if (sscanf(line, "totals: %llu", &v) == 1 || sscanf(line, "summary: %llu", &v) == 1) {
            total = v;
            found = 1;
        } else if (strncmp(line, "fn=", 3) == 0 || strncmp(line, "cfn=", 4) == 0) {
            const char *p = line + (line[0] == 'c' ? 4 : 3);
            int n = sscanf(p, "(%d) %255s", &id, name);
            if (n == 2 && strcmp(name, PACED) == 0) paced_id = id;
            if (line[0] == 'c')
                in_paced = (n >= 1 && id == paced_id) || (n <= 0 && sscanf(p, "%255s", name) == 1 &&
                                                          strcmp(name, PACED) == 0);
        } else if (strncmp(line, "calls=", 6) == 0) {
            if (in_paced) *paced_calls += strtoull(line + 6, NULL, 10);
            after_call = 1;
        }
    }
    fclose(f);
    if (!found || paced > total) return -1;
    *ir = total - paced;
    return 0;
}

/* pshmrun beside this program (the build tree, or the installed bindir), else on PATH. */
static void find_pshmrun(const char *self, char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) n = (ssize_t)snprintf(exe, sizeof exe, "%s", self);
    exe[n < (ssize_t)sizeof exe ? n : (ssize_t)sizeof exe - 1] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
        snprintf(out, len, "%.*s/pshmrun", (int)(slash - exe), exe);
        if (access(out, X_OK) == 0) return;
    }
    snprintf(out, len, "pshmrun");
}

static void show_file(const char *file)
{
    FILE *f = fopen(file, "r");
    char line[512];
    if (!f) return;
    while (fgets(line, sizeof line, f)) fprintf(stderr, "    %s", line);
    fclose(f);
}

/* "DIR/NAME<suffix>" (the suffix a printf format of one int); the directory
 * is short (checked at mkdtemp), so the name always fits. */
static void file_of(char *buf, size_t len, const char *dir, const char *name, const char *suffix,
                    int k)
{
    char sfx[64];
    if (snprintf(sfx, sizeof sfx, suffix, k) >= (int)sizeof sfx ||
        snprintf(buf, len, "%s/%s%s", dir, name, sfx) >= (int)len)
        buf[0] = '\0';
}

/* A termination signal while a job runs: the job is ended, the files are
 * removed, then the signal takes its default effect. */
static volatile sig_atomic_t got_signal;
static volatile pid_t job_pid;

static void on_signal(int sig)
{
    got_signal = sig;
    if (job_pid > 0) kill(job_pid, SIGTERM); /* pshmrun ends its ranks */
}

/* Ranks under valgrind in a job of P: the others run natively. */
static int vg_ranks(const scenario_t *s, int P) { return s->counted == 0 || s->counted > P ? P : s->counted; }

/* One job under callgrind; *total = the counted ranks' collected instructions. */
static int run_one(const scenario_t *s, int P, int idle, const char *self, const char *pshmrun,
                   const char *dir, uint64_t *total)
{
    char out[PATH_MAX + 32], log[PATH_MAX + 32], errf[PATH_MAX], exe[PATH_MAX], tog[3][128];
    char np[16], nvg[16], dump[160];
    const char *argv[32];
    int k = 0, ntog = 0, nv = vg_ranks(s, P);
    char f[PATH_MAX];
    file_of(f, sizeof f, dir, s->name, ".%%q{PSHM_RANK}", 0);
    snprintf(out, sizeof out, "--callgrind-out-file=%.*s", PATH_MAX, f);
    file_of(f, sizeof f, dir, s->name, ".log.%%q{PSHM_RANK}", 0);
    snprintf(log, sizeof log, "--log-file=%.*s", PATH_MAX, f);
    file_of(errf, sizeof errf, dir, s->name, ".err", 0);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) n = (ssize_t)snprintf(exe, sizeof exe, "%s", self);
    exe[n < (ssize_t)sizeof exe ? n : (ssize_t)sizeof exe - 1] = '\0';
    for (const char *p = s->collect; *p && ntog < 3; ntog++) {
        size_t l = strcspn(p, ",");
        snprintf(tog[ntog], sizeof tog[0], "--toggle-collect=%.*s", (int)l, p);
        p += l + (p[l] == ',');
    }
    /* A file left by a job of another P must not pass for this job's. */
    for (int r = 0; r < nv; r++) file_of(f, sizeof f, dir, s->name, ".%d", r), unlink(f);
    for (long c = 1; s->per_call && c <= s->ops + 8; c++)
        file_of(f, sizeof f, dir, s->name, ".0.%d", (int)c), unlink(f);
    snprintf(np, sizeof np, "%d", P);
    snprintf(nvg, sizeof nvg, "%d", nv);
    /* pshmrun -n P EXE --instr-shim NV valgrind ... -- EXE --instr-child NAME:
     * ranks below NV run the child under valgrind, the others natively. */
    argv[k++] = pshmrun, argv[k++] = "-n", argv[k++] = np;
    argv[k++] = exe, argv[k++] = "--instr-shim", argv[k++] = nvg, argv[k++] = "valgrind";
    argv[k++] = "--tool=callgrind", argv[k++] = "--collect-atstart=no";
    for (int i = 0; i < ntog; i++) argv[k++] = tog[i];
    if (s->per_call) { /* rank 0's file .0.N holds its N-th call */
        snprintf(dump, sizeof dump, "--dump-after=%s", s->collect);
        argv[k++] = dump;
    }
    argv[k++] = out, argv[k++] = log, argv[k++] = "--";
    argv[k++] = exe, argv[k++] = "--instr-child", argv[k++] = s->name;
    argv[k++] = "--idle", argv[k++] = idle == BENCH_IDLE_WAIT ? "wait" : "poll", argv[k] = NULL;

    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "pshm-pingpong: fork: %s\n", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) dup2(fd, 1), dup2(fd, 2), close(fd);
        if (s->depth) setenv("GASNET_PSHMNET_QUEUE_DEPTH", s->depth, 1);
        if (strcmp(s->name, "wait") == 0) /* the spinning turn, however many CPUs */
            setenv("GASNET_WAIT_MODE", "spin", 1);
        execvp(pshmrun, (char *const *)argv);
        fprintf(stderr, "cannot run %s: %s\n", pshmrun, strerror(errno));
        _exit(127);
    }
    int st;
    job_pid = pid;
    if (got_signal) kill(pid, SIGTERM); /* it came before job_pid was set */
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    job_pid = 0;
    if (got_signal) return -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "pshm-pingpong: --instructions: the '%s' job of %d processes under valgrind "
                        "failed; its output:\n", s->name, P);
        show_file(errf);
        return -1;
    }
    *total = 0;
    uint64_t paced_calls = 0;
    if (s->per_call) {
        /* Calls 2 .. ops + 1 (the first and the last are the scenario's
         * own barriers); the median, times ops, is the total: a call that
         * found a peer late and waited does not weigh. */
        static uint64_t v[BARRIER_N];
        for (long c = 0; c < s->ops; c++) {
            file_of(out, sizeof out, dir, s->name, ".0.%d", (int)c + 2);
            if (read_total(out, &v[c], &paced_calls) < 0) {
                fprintf(stderr, "pshm-pingpong: --instructions: no totals in %s\n", out);
                return -1;
            }
        }
        *total = (uint64_t)(bench_median_u64(v, (size_t)s->ops) * (double)s->ops + 0.5);
        return 0;
    }
    for (int r = 0; r < nv; r++) {
        uint64_t ir;
        file_of(out, sizeof out, dir, s->name, ".%d", r);
        if (read_total(out, &ir, &paced_calls) < 0) {
            fprintf(stderr, "pshm-pingpong: --instructions: no totals in %s\n", out);
            return -1;
        }
        *total += ir;
    }
    /* Thousands of idle turns call the paced check: if it is not seen, the
     * library has renamed it and the counts can vary by a few tenths. */
    if (s->ops >= 10000 && paced_calls == 0)
        bench_note("--instructions: no call of %s in the '%s' count: the clock-paced liveness "
                   "check is counted, and the count may vary from run to run", PACED, s->name);
    return 0;
}

static void remove_dir(const char *dir, int maxp)
{
    char f[PATH_MAX];
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        for (int r = 0; r < maxp; r++) {
            file_of(f, sizeof f, dir, scenarios[i].name, ".%d", r), unlink(f);
            file_of(f, sizeof f, dir, scenarios[i].name, ".log.%d", r), unlink(f);
        }
        file_of(f, sizeof f, dir, scenarios[i].name, ".err", 0), unlink(f);
        for (long c = 1; scenarios[i].per_call && c <= scenarios[i].ops + 8; c++)
            file_of(f, sizeof f, dir, scenarios[i].name, ".0.%d", (int)c), unlink(f);
    }
    rmdir(dir);
}

int bench_instr_scenario_ok(const char *name, int P)
{
    const scenario_t *s = find(name);
    return s && (P == 2 || s->any_p) && !(P < 2);
}

const char *bench_instr_list(void)
{
    static char buf[512];
    size_t off = 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
        off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s", i ? ", " : "", scenarios[i].name);
    return buf;
}

/* The shim every rank of a job starts as (run_one): execs the rest of its
 * command under valgrind when its rank is below NV, else natively. */
void bench_instr_shim(int argc, char **argv)
{
    const char *r = getenv("PSHM_RANK");
    int nv = argc > 2 ? atoi(argv[2]) : 0, dash = 0;
    for (int i = 3; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            dash = i;
            break;
        }
    if (!r || dash == 0 || dash + 1 >= argc) {
        fprintf(stderr, "pshm-pingpong: --instr-shim is internal to --instructions\n");
        exit(2);
    }
    char **cmd = atoi(r) < nv ? argv + 3 : argv + dash + 1;
    if (cmd == argv + 3) {
        /* valgrind's arguments, then the child's: drop the "--" between */
        for (int i = dash; i < argc; i++) argv[i] = argv[i + 1];
    }
    execvp(cmd[0], cmd);
    fprintf(stderr, "pshm-pingpong: cannot run %s: %s\n", cmd[0], strerror(errno));
    exit(127);
}

int bench_instr_run(const char *self, const bench_instr_req_t *req)
{
    char pshmrun[PATH_MAX], dir[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    int rc = 0, maxp = 2;
    enum { NS = sizeof scenarios / sizeof scenarios[0] };
    static const int two[1] = {2};
    const int *procs = req->nprocs ? req->procs : two;
    int nprocs = req->nprocs ? req->nprocs : 1;
    if (!bench_have_program("valgrind")) {
        fprintf(stderr, "pshm-pingpong: --instructions needs valgrind, which is not installed "
                        "(apt-get install valgrind)\n");
        return 1;
    }
    for (int j = 0; j < nprocs; j++) maxp = procs[j] > maxp ? procs[j] : maxp;
    find_pshmrun(self, pshmrun, sizeof pshmrun);
    if (snprintf(dir, sizeof dir, "%s/pshm-pingpong-cg.XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
        PATH_MAX - 64) {
        fprintf(stderr, "pshm-pingpong: TMPDIR is too long for the callgrind files: %s\n", tmp);
        return 1;
    }
    if (!mkdtemp(dir)) {
        fprintf(stderr, "pshm-pingpong: cannot create a directory like %s: %s\n", dir, strerror(errno));
        return 1;
    }
    /* No SA_RESTART: a signal interrupts the wait for the job. */
    struct sigaction sa = {.sa_handler = on_signal}, old[3];
    static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 3; k++) sigaction(sigs[k], &sa, &old[k]);
    /* Scenario-major: the rows of one count together, by P. */
    static uint64_t totals[16][NS];
    int want[NS];
    for (size_t i = 0; i < NS; i++) {
        want[i] = req->nnames == 0 && scenarios[i].dflt && (req->nprocs == 0 || scenarios[i].any_p);
        if (req->nnames == 0 && req->nprocs) /* at P > 2 by default: the idle poll and the burst */
            want[i] = !strcmp(scenarios[i].name, "idle") || !strcmp(scenarios[i].name, "burst");
        for (int j = 0; j < req->nnames; j++) want[i] |= strcmp(req->names[j], scenarios[i].name) == 0;
    }
    for (size_t i = 0; i < NS && rc == 0; i++)
        for (int j = 0; j < nprocs && rc == 0; j++)
            if (want[i] && bench_instr_scenario_ok(scenarios[i].name, procs[j]) &&
                run_one(&scenarios[i], procs[j], req->idle, self, pshmrun, dir, &totals[j][i]) < 0)
                rc = 1;
    remove_dir(dir, maxp);
    for (int k = 0; k < 3; k++) sigaction(sigs[k], &old[k], NULL);
    if (got_signal) raise(got_signal);
    /* Printed once the files are gone: a reader that stops early (a closed
     * pipe) leaves nothing behind. */
    for (size_t i = 0; i < NS && rc == 0; i++)
        for (int j = 0; j < nprocs; j++) {
            const scenario_t *s = &scenarios[i];
            if (!want[i] || !bench_instr_scenario_ok(s->name, procs[j])) continue;
            /* incast: per message of the P - 1 senders; barrier: per barrier of rank 0 */
            long ops = s->counted == 0 ? s->ops * (procs[j] - 1) : s->ops;
            bench_add_result(&(bench_row_t){.test = s->test, .unit = BENCH_INSTR, .size = s->size,
                                            .procs = procs[j],
                                            .median = (double)totals[j][i] / (double)ops,
                                            .reps = 1, .iters = ops});
        }
    return rc;
}
