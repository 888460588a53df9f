/*
 * shmem-bench: OSU-style latency and bandwidth of an OpenSHMEM implementation,
 * with the limits of the machine (a cache-line round trip between PE 0 and
 * the peer, PE 1 or --peer, a local memcpy of each size) measured in the same
 * run.
 *
 * Written against shmem.h (OpenSHMEM 1.4) and POSIX only, so that the same
 * file builds with any oshcc: this library's and Open MPI's; the team rows
 * of --sets are built only where shmem.h says 1.5 or later.
 *
 * Method: each row runs its operation in batches of n calls, n grown until a
 * batch lasts --batch-us; then --reps batches are timed, each batch between
 * two shmem_barrier_all. The table gives the median and the 99th percentile
 * of the per-call time over the batches. Point-to-point rows are driven by
 * PE 0 with PE 1 (--peer) as the target while the others wait in the barrier (so
 * that an implementation that needs the target to make progress gets it, as
 * in the OSU benchmarks). Collective rows run on every PE.
 */
/* For the affinity calls (sched_setaffinity, CPU_SET, sched_getcpu), so
 * that a bare "oshcc shmem-bench.c" builds it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <shmem.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"

#define MAX_BYTES_LIMIT (1L << 26)
#define STATIC_BYTES (1L << 20)
#define MAX_REPS 10001
#define SPIN_LIMIT_NS 20000000000LL /* a peer silent this long is gone */

/* Targets of the "static" rows: symmetric because they are globals. */
static long s_word;
static _Alignas(64) char s_buf[STATIC_BYTES];

struct opts {
    long max_bytes;
    long reps;
    long batch_us;
    long calls;              /* fixed calls per batch (0: grown to batch_us) */
    int mean;                /* report the mean over the batches, not the median */
    int csv;
    int pin;
    int peer;                /* the target PE of the point-to-point rows */
    const char *label;
    const char *only;
    int sets;                /* the collective rows over sets and teams */
    int bare_sets;           /* and the active-set forms without their sync */
};

struct shared {              /* heap objects every PE allocates alike */
    long *ctl;               /* PE 0 tells the batch size to all PEs */
    long *word;              /* heap target of p/g/atomics */
    long *pp;                /* the ping-pong's word, PE 0's and the peer's */
    char *buf;               /* heap target of putmem/getmem, bcast dest */
    char *src;               /* bcast/reduce source */
    long *psync;             /* SHMEM_REDUCE_SYNC_SIZE >= bcast/barrier sizes */
    long *pwrk;
    int *cpus;               /* where each PE runs, gathered on PE 0 */
    char *name;              /* the round-trip page's name, from PE 0 */
};

struct row {
    const char *test;
    const char *target;      /* heap, static, local, pair, all */
    long bytes;
    int who;                 /* 0: PE 0 alone, 1: PEs 0 and 1, 2: all PEs,
                                3: the members of the strided set (even PEs) */
    void (*op)(struct row *r, long n);
    void *dst;
    const void *src;
    long expect;             /* running state checked after the row */
};

static struct opts o = { 1L << 20, 51, 200, 0, 0, 0, 1, 1, NULL, NULL, 0, 0 };
static struct shared sh;
static int me, npes, oversub;
static char *lsrc, *ldst;          /* local, non-symmetric buffers */
static _Atomic long *rt_ping, *rt_pong; /* round-trip page, PE 0 / peer lines */
static long rt_seq;
static volatile long sink;

static void die(const char *what)
{
    fprintf(stderr, "shmem-bench: PE %d: %s\n", me, what);
    shmem_global_exit(1);
    exit(1);
}

/* ---------------------------------------------------------------- ops */

static void op_p(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        shmem_long_p(r->dst, ++r->expect, o.peer);
        shmem_quiet();
    }
}

static void op_g(struct row *r, long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++)
        acc += shmem_long_g(r->dst, o.peer);
    sink = acc;
}

static void op_putmem(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        shmem_putmem(r->dst, r->src, (size_t)r->bytes, o.peer);
        shmem_quiet();
    }
}

static void op_getmem(struct row *r, long n)
{
    for (long i = 0; i < n; i++)
        shmem_getmem(ldst, r->dst, (size_t)r->bytes, o.peer);
    sink = ldst[r->bytes - 1];
}

static void op_fadd(struct row *r, long n)
{
    long acc = 0;
    for (long i = 0; i < n; i++)
        acc += shmem_long_atomic_fetch_add(r->dst, 1, o.peer);
    r->expect += n;
    sink = acc;
}

static void op_cswap(struct row *r, long n)
{
    /* Each swap succeeds: the value seen is always the one we left. */
    for (long i = 0; i < n; i++) {
        long old = shmem_long_atomic_compare_swap(r->dst, r->expect,
                                                  r->expect + 1, o.peer);
        if (old != r->expect)
            die("compare_swap returned a value no PE wrote");
        r->expect++;
    }
}

static void op_memcpy(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        memcpy(ldst, lsrc, (size_t)r->bytes);
        /* Keep each copy: the compiler may not merge or drop them. */
        atomic_signal_fence(memory_order_seq_cst);
    }
    sink = ldst[r->bytes - 1];
}

static void spin_until(_Atomic long *w, long v)
{
    long long t0 = 0;
    for (unsigned spins = 1;; spins++) {
        if (atomic_load_explicit(w, memory_order_acquire) == v)
            return;
        if (oversub)
            sched_yield();
        if ((spins & 0xfffff) == 0) {
            long long t = now_ns();
            if (!t0)
                t0 = t;
            else if (t - t0 > SPIN_LIMIT_NS)
                die("the other PE of the cache-line round trip stopped");
        }
    }
}

/* Cache-line ping-pong: PE 0 writes its line, the peer answers on its own. */
static void op_rt(struct row *r, long n)
{
    (void)r;
    for (long i = 0; i < n; i++) {
        rt_seq++;
        if (me == 0) {
            atomic_store_explicit(rt_ping, rt_seq, memory_order_release);
            spin_until(rt_pong, rt_seq);
        } else {
            spin_until(rt_ping, rt_seq);
            atomic_store_explicit(rt_pong, rt_seq, memory_order_release);
        }
    }
}

static void op_barrier(struct row *r, long n)
{
    (void)r;
    for (long i = 0; i < n; i++)
        shmem_barrier_all();
}

/* shmem_barrier over every PE on a pSync, as osu_oshm_barrier measures it:
 * consecutive calls on one pSync are allowed. */
static void op_sbarrier(struct row *r, long n)
{
    (void)r;
    for (long i = 0; i < n; i++)
        shmem_barrier(0, 0, npes, sh.psync);
}

/* Put + wait ping-pong: PE 0 puts the count into the peer's word and waits
 * for it back in its own; the peer answers each. The library's own wait
 * (shmem_long_wait_until) on both sides: what a descheduled peer costs. */
static void op_pingpong(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        long v = ++r->expect;
        if (me == 0) {
            shmem_long_p(sh.pp, v, o.peer);
            shmem_long_wait_until(sh.pp, SHMEM_CMP_EQ, v);
        } else {
            shmem_long_wait_until(sh.pp, SHMEM_CMP_EQ, v);
            shmem_long_p(sh.pp, v, 0);
        }
    }
}

/* A pSync may be reused once every PE left the collective: the barrier. */
static void op_bcast(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        shmem_broadcast64(r->dst, r->src, (size_t)r->bytes / 8, 0, 0, 0, npes,
                          sh.psync);
        shmem_barrier_all();
    }
}

static void op_reduce(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        shmem_long_sum_to_all(r->dst, r->src, (int)(r->bytes / 8), 0, 0, npes,
                              sh.pwrk, sh.psync);
        shmem_barrier_all();
    }
}

/* ------------------------------------------------------------ driver */

/* PE 0 decides, every PE learns it: batch sizes must agree for collectives. */
static long share_from_pe0(long v)
{
    if (me == 0) {
        for (int pe = 0; pe < npes; pe++)
            shmem_long_p(sh.ctl, v, pe);
        shmem_quiet();
    }
    shmem_barrier_all();
    return *sh.ctl;
}

static int takes_part(const struct row *r)
{
    if (r->who == 3)
        return me % 2 == 0;
    return r->who == 2 || me == 0 || (r->who == 1 && me == o.peer);
}

static long long timed_batch(struct row *r, long n)
{
    shmem_barrier_all();
    long long t0 = now_ns();
    if (takes_part(r))
        r->op(r, n);
    long long t = now_ns() - t0;
    shmem_barrier_all();
    return t;
}

struct result {
    long n;
    double med_ns, p99_ns;
};

static struct result measure(struct row *r)
{
    static long long per[MAX_REPS];
    struct result res = { 0, 0, 0 };
    long n = o.calls ? o.calls : 1;

    while (!o.calls) {
        /* The fastest of three: one preempted batch must not stop the growth. */
        long long t = timed_batch(r, n);
        for (int k = 0; k < 2; k++) {
            long long u = timed_batch(r, n);
            t = u < t ? u : t;
        }
        long next = 0;
        if (t < o.batch_us * 1000LL && n < (1L << 24))
            next = t < o.batch_us * 100LL ? n * 8 : n * 2;
        next = share_from_pe0(next);
        if (!next)
            break;
        n = next;
    }
    double sum = 0;
    for (long k = 0; k < o.reps; k++) {
        per[k] = timed_batch(r, n) * 1000 / n; /* picoseconds per call */
        sum += (double)per[k];
    }
    res.n = n;
    bench_summary(per, o.reps, &res.med_ns, &res.p99_ns);
    if (o.mean)
        res.med_ns = sum / (double)o.reps / 1000.0;
    return res;
}

static int wanted(const char *test)
{
    regex_t re;
    if (!o.only)
        return 1;
    if (regcomp(&re, o.only, REG_EXTENDED | REG_NOSUB))
        return 1; /* checked at startup */
    int ok = regexec(&re, test, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

static void print_header(void)
{
    if (o.csv)
        printf("impl,npes,test,target,bytes,calls_per_batch,batches,"
               "%s,p99_ns,median_GBps\n", o.mean ? "mean_ns" : "median_ns");
    else
        printf("%-10s %-7s %9s %7s %12s %12s %10s\n", "test", "target",
               "bytes", "calls", o.mean ? "mean_ns" : "median_ns", "p99_ns", "GB/s");
}

static void emit(const struct row *r, struct result res)
{
    double gbps = r->bytes && res.med_ns > 0 ? r->bytes / res.med_ns : 0;
    if (me != 0)
        return;
    if (o.csv)
        printf("%s,%d,%s,%s,%ld,%ld,%ld,%.2f,%.2f,%.3f\n", o.label, npes,
               r->test, r->target, r->bytes, res.n, o.reps, res.med_ns,
               res.p99_ns, gbps);
    else
        printf("%-10s %-7s %9ld %7ld %12.1f %12.1f %10.2f\n", r->test,
               r->target, r->bytes, res.n, res.med_ns, res.p99_ns, gbps);
    fflush(stdout);
}

static void run(struct row *r)
{
    if (!wanted(r->test))
        return;
    emit(r, measure(r));
}

/* ------------------------------------------- collectives over sets and teams */

/*
 * --sets: each collective over the whole job ("world") and over every other
 * PE ("stride2": PEs 0, 2, 4, ...; PE 0 alone with 2 PEs), in three forms:
 *   t*  the OpenSHMEM 1.5 team routine on SHMEM_TEAM_WORLD or a team made
 *       with shmem_team_split_strided, back to back, as the specification
 *       lets a program call them (built only where shmem.h says 1.5 or
 *       later: Open MPI 4.1's OSHMEM is 1.4 and has no teams);
 *   s*  the 1.4 active-set routine, then the sync a 1.4 program needs
 *       before a pSync (and pWrk) may be used again (shmem_sync_all over
 *       the world, shmem_sync over the strided set), the pSyncs alternating;
 *   u*  (--bare-sets) the active-set routine back to back on one pSync,
 *       as the team form runs: only where the implementation lets a pSync
 *       be reused at once (this library: its pSync slots count signals),
 *       so that a t row against its u row is the team form's own cost.
 * bytes: broadcast and reduce (sum of long): the data; alltoall: each
 * pair's block; fcollect: each PE's part. The last call's dest is checked.
 */
#define SET_SIZES 2
static const long set_bytes[SET_SIZES] = { 8, 4096 };

struct cset {
    const char *name;
    int start, log, size;    /* the active set */
    int member, idx;         /* am I in it, my index */
#if SHMEM_MAJOR_VERSION > 1 || (SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION >= 5)
#define BENCH_TEAMS 1
    shmem_team_t team;
#endif
};
static struct cset csets[2];
static long *c_src, *c_dst, *c_psync[4], *c_pwrk[2];
static long c_iter;

static const struct cset *cset_of(const struct row *r)
{
    return &csets[r->who == 3];
}

static int is_world(const struct cset *c)
{
    return c->log == 0 && c->size == npes;
}

/* The sync of a set: shmem_sync_all over the world, else shmem_sync. */
static void set_sync(const struct cset *c, long *ps)
{
    if (is_world(c))
        shmem_sync_all();
    else
        shmem_sync(c->start, c->log, c->size, ps);
}

/* One active-set call of the row's kind (its name without the form
 * letter) with pSync ps and pWrk pw. */
static void set_call(const struct row *r, const struct cset *c, long *ps, long *pw)
{
    long n = r->bytes / 8;
    const char *k = r->test + 1;
    if (!strcmp(k, "barrier"))
        shmem_barrier(c->start, c->log, c->size, ps);
    else if (!strcmp(k, "sync"))
        set_sync(c, ps);
    else if (!strcmp(k, "bcast"))
        shmem_broadcast64(c_dst, c_src, (size_t)n, 0, c->start, c->log, c->size, ps);
    else if (!strcmp(k, "reduce"))
        shmem_long_sum_to_all(c_dst, c_src, (int)n, c->start, c->log, c->size, pw, ps);
    else if (!strcmp(k, "alltoall"))
        shmem_alltoall64(c_dst, c_src, (size_t)n, c->start, c->log, c->size, ps);
    else
        shmem_fcollect64(c_dst, c_src, (size_t)n, c->start, c->log, c->size, ps);
}

static void op_set(struct row *r, long n)
{
    const struct cset *c = cset_of(r);
    int is_sync = r->bytes == 0; /* sync, barrier: nothing to sync after */
    for (long i = 0; i < n; i++, c_iter++) {
        if (r->test[0] == 'u') {
            set_call(r, c, c_psync[0], c_pwrk[0]);
            continue;
        }
        set_call(r, c, c_psync[c_iter & 1], c_pwrk[c_iter & 1]);
        if (!is_sync)
            set_sync(c, c_psync[2 + (c_iter & 1)]);
    }
}

#ifdef BENCH_TEAMS
static void op_team(struct row *r, long n)
{
    const struct cset *c = cset_of(r);
    size_t m = (size_t)r->bytes / 8;
    const char *k = r->test + 1;
    if (!strcmp(k, "sync"))
        for (long i = 0; i < n; i++)
            shmem_team_sync(c->team);
    else if (!strcmp(k, "bcast"))
        for (long i = 0; i < n; i++)
            shmem_long_broadcast(c->team, c_dst, c_src, m, 0);
    else if (!strcmp(k, "reduce"))
        for (long i = 0; i < n; i++)
            shmem_long_sum_reduce(c->team, c_dst, c_src, m);
    else if (!strcmp(k, "alltoall"))
        for (long i = 0; i < n; i++)
            shmem_long_alltoall(c->team, c_dst, c_src, m);
    else
        for (long i = 0; i < n; i++)
            shmem_long_fcollect(c->team, c_dst, c_src, m);
}
#endif

/* Member j's source element i: its world PE and i, so every result tells
 * where each element came from. */
static long c_val(int pe, long i)
{
    return (long)(pe + 1) * 1000003L + i;
}

/* After a row: this member's dest holds what the last call must leave. */
static void check_set(const struct row *r)
{
    const struct cset *c = cset_of(r);
    long n = r->bytes / 8;
    const char *k = r->test + 1;
    if (!takes_part(r) || !strcmp(k, "sync") || !strcmp(k, "barrier"))
        return;
    for (long i = 0; i < n * c->size; i++) {
        long want, got = c_dst[i];
        long j = i / n, e = i % n;
        int pej = c->start + (int)j * (1 << c->log);
        if (!strcmp(k, "bcast")) {
            if (i >= n || (c->idx == 0 && r->test[0] != 't'))
                break; /* 1.4: the root's dest is not written */
            want = c_val(c->start, i);
        } else if (!strcmp(k, "reduce")) {
            if (i >= n)
                break;
            want = 0;
            for (int q = 0; q < c->size; q++)
                want += c_val(c->start + q * (1 << c->log), i);
        } else if (!strcmp(k, "alltoall")) {
            want = c_val(pej, c->idx * n + e);
        } else {
            want = c_val(pej, e);
        }
        if (got != want) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s %s %ld B: dest[%ld] is %ld, expected %ld",
                     r->test, r->target, r->bytes, i, got, want);
            die(msg);
        }
    }
}

/* One row of form f (t, s, u) over set ci, or nothing where that form is
 * not built or not asked for. */
static void run_set_row(char f, const char *kind, int ci, long bytes)
{
    char name[16];
    struct row r = { name, csets[ci].name, bytes, ci ? 3 : 2, op_set, NULL, NULL, 0 };
    long words = set_bytes[SET_SIZES - 1] / 8 * npes;
    if (f == 'u' && !o.bare_sets)
        return;
    if (f == 't') {
#ifdef BENCH_TEAMS
        r.op = op_team;
#else
        return;
#endif
    }
    snprintf(name, sizeof name, "%c%s", f, kind);
    if (!wanted(name))
        return;
    for (long i = 0; i < words; i++)
        c_dst[i] = -1;
    shmem_barrier_all();
    run(&r);
    check_set(&r);
    shmem_barrier_all();
}

static void run_set_rows(void)
{
    static const char *const kinds[] = { "bcast", "reduce", "alltoall", "fcollect" };
    for (int ci = 0; ci < 2; ci++) {
        run_set_row('t', "sync", ci, 0);
        run_set_row('s', "sync", ci, 0);
        run_set_row('s', "barrier", ci, 0);
        for (int s = 0; s < SET_SIZES; s++) {
            long b = set_bytes[s] < o.max_bytes ? set_bytes[s] : o.max_bytes;
            if (s > 0 && b <= set_bytes[s - 1])
                continue; /* --max-bytes cut the larger size */
            for (int k = 0; k < 4; k++)
                for (const char *f = "tsu"; *f; f++)
                    run_set_row(*f, kinds[k], ci, b);
        }
    }
}

static void sets_setup(void)
{
    long words = set_bytes[SET_SIZES - 1] / 8, wrk = words / 2 + 1;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    c_src = shmem_malloc((size_t)(words * npes) * sizeof(long));
    c_dst = shmem_malloc((size_t)(words * npes) * sizeof(long));
    for (int i = 0; i < 4; i++)
        c_psync[i] = shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < 2; i++)
        c_pwrk[i] = shmem_malloc((size_t)wrk * sizeof(long));
    if (!c_src || !c_dst || !c_psync[3] || !c_pwrk[1])
        die("out of symmetric memory for the set rows");
    for (int i = 0; i < 4; i++)
        for (long j = 0; j < SHMEM_REDUCE_SYNC_SIZE; j++)
            c_psync[i][j] = SHMEM_SYNC_VALUE;
    /* alltoall reads block j of the source for member j; the others read
     * the first block: element i of every source is c_val(me, i). */
    for (long i = 0; i < words * npes; i++)
        c_src[i] = c_val(me, i);
    csets[0] = (struct cset){ .name = "world", .size = npes, .member = 1, .idx = me };
    csets[1] = (struct cset){ .name = "stride2", .log = 1, .size = (npes + 1) / 2,
                              .member = me % 2 == 0, .idx = me / 2 };
#ifdef BENCH_TEAMS
    csets[0].team = SHMEM_TEAM_WORLD;
    csets[1].team = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, csets[1].size, NULL, 0,
                             &csets[1].team);
    if (csets[1].member != (csets[1].team != SHMEM_TEAM_INVALID))
        die("shmem_team_split_strided gave a team to a PE outside it (or none to a member)");
#endif
    shmem_barrier_all();
}

static void sets_fini(void)
{
#ifdef BENCH_TEAMS
    if (csets[1].team != SHMEM_TEAM_INVALID)
        shmem_team_destroy(csets[1].team);
#endif
}

/* The value the peer holds after a row must be what PE 0's calls left there. */
static void check_word(const char *test, long *word, long expect)
{
    if (me == 0) {
        long got = shmem_long_g(word, o.peer);
        if (got != expect) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s left %ld at PE %d, expected %ld",
                     test, got, o.peer, expect);
            die(msg);
        }
    }
    shmem_barrier_all();
}

static void run_word_rows(const char *target, long *word)
{
    struct row r = { "p+quiet", target, 8, 0, op_p, word, NULL, 0 };
    *word = 0;
    shmem_barrier_all();
    if (wanted(r.test)) {
        run(&r);
        r.expect = share_from_pe0(r.expect);
        check_word(r.test, word, r.expect);
    }
    run(&(struct row){ "g", target, 8, 0, op_g, word, NULL, 0 });

    long base = share_from_pe0(me == 0 ? shmem_long_g(word, o.peer) : 0);
    struct row f = { "fadd", target, 8, 0, op_fadd, word, NULL, base };
    if (wanted(f.test)) {
        run(&f);
        check_word(f.test, word, share_from_pe0(f.expect));
        base = share_from_pe0(f.expect);
    }
    struct row c = { "cswap", target, 8, 0, op_cswap, word, NULL, base };
    if (wanted(c.test)) {
        run(&c);
        check_word(c.test, word, share_from_pe0(c.expect));
    }
}

static void run_size_rows(const char *test, const char *target,
                          void (*op)(struct row *, long), int who, void *dst,
                          const void *src, long max)
{
    for (long b = 8; b <= max; b *= 2)
        run(&(struct row){ test, target, b, who, op, dst, src, 0 });
}

/* -------------------------------------------------------------- setup */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: shmem-bench [--csv] [--max-bytes N] [--reps N] "
            "[--batch-us N] [--calls N] [--mean]\n"
            "                   [--only REGEX] [--label NAME] [--no-pin] "
            "[--peer PE]\n"
            "  --csv          one CSV line per row instead of the table\n"
            "  --max-bytes N  largest size of the sized rows, a power of two "
            "(8..%ld; default 1048576)\n"
            "  --reps N       timed batches per row, 1..%d (default 51)\n"
            "  --batch-us N   least duration of one batch in microseconds, "
            "1..1000000 (default 200)\n"
            "  --calls N      calls per batch, 1..16777216, instead of growing "
            "batches to --batch-us\n"
            "                 (beside other programs a call's time swings 1000x)\n"
            "  --mean         the mean over the batches (a throughput) in place "
            "of the median\n"
            "  --only REGEX   run the rows whose test name matches (POSIX ERE)\n"
            "                 tests: rt memcpy p+quiet g fadd cswap putmem "
            "getmem pingpong\n"
            "                 barrier sbarrier bcast reduce\n"
            "  --label NAME   implementation name in the output "
            "(default: shmem_info_get_name)\n"
            "  --no-pin       leave CPU affinity as the launcher set it "
            "(default: PE i on the i-th CPU of its mask)\n"
            "  --peer PE      the target of the point-to-point rows and the "
            "round trip (default 1)\n"
            "  --sets         also the collectives over the world and over every "
            "other PE:\n"
            "                 team forms (1.5+: tsync tbcast treduce talltoall "
            "tfcollect) and\n"
            "                 1.4 active-set forms with their sync (ssync "
            "sbarrier sbcast sreduce\n"
            "                 salltoall sfcollect), 8 and 4096 bytes\n"
            "  --bare-sets    --sets, and the active-set forms back to back on "
            "one pSync\n"
            "                 (ubcast ureduce ualltoall ufcollect: only where "
            "that is allowed)\n",
            MAX_BYTES_LIMIT, MAX_REPS);
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--csv"))
            o.csv = 1;
        else if (!strcmp(a, "--mean"))
            o.mean = 1;
        else if (!strcmp(a, "--no-pin"))
            o.pin = 0;
        else if (!strcmp(a, "--sets"))
            o.sets = 1;
        else if (!strcmp(a, "--bare-sets"))
            o.sets = o.bare_sets = 1;
        else if (!strcmp(a, "--max-bytes"))
            o.max_bytes = bench_parse_long("shmem-bench", a, v, 8, MAX_BYTES_LIMIT), i++;
        else if (!strcmp(a, "--reps"))
            o.reps = bench_parse_long("shmem-bench", a, v, 1, MAX_REPS), i++;
        else if (!strcmp(a, "--batch-us"))
            o.batch_us = bench_parse_long("shmem-bench", a, v, 1, 1000000), i++;
        else if (!strcmp(a, "--calls"))
            o.calls = bench_parse_long("shmem-bench", a, v, 1, 1L << 24), i++;
        else if (!strcmp(a, "--peer"))
            o.peer = (int)bench_parse_long("shmem-bench", a, v, 1, INT_MAX), i++;
        else if (!strcmp(a, "--label") && v)
            o.label = v, i++;
        else if (!strcmp(a, "--only") && v)
            o.only = v, i++;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "shmem-bench: unknown or incomplete option '%s'\n",
                    a);
            usage(stderr);
            exit(2);
        }
    }
    if (o.max_bytes & (o.max_bytes - 1)) {
        fprintf(stderr, "shmem-bench: --max-bytes must be a power of two, "
                        "got %ld\n", o.max_bytes);
        exit(2);
    }
    regex_t re;
    if (o.only && regcomp(&re, o.only, REG_EXTENDED | REG_NOSUB)) {
        fprintf(stderr, "shmem-bench: --only '%s' is not a valid regular "
                        "expression\n", o.only);
        exit(2);
    }
    if (o.only)
        regfree(&re);
}

/* Pin PE i to the i-th CPU of its mask; note oversubscription. */
static void place(void)
{
    int ncpus = bench_place("shmem-bench", me, o.pin);
    oversub = ncpus > 0 && npes > ncpus;
}

static void siblings(int cpu, char *out, size_t len)
{
    char path[96];
    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
    FILE *f = fopen(path, "r");
    out[0] = 0;
    if (f) {
        if (!fgets(out, (int)len, f))
            out[0] = 0;
        fclose(f);
    }
    out[strcspn(out, "\n")] = 0;
}

/* Is cpu in a list like "0-3,8,10-11"? */
static int in_list(const char *list, int cpu)
{
    const char *p = list;
    while (*p) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p)
            return 0;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        if (cpu >= a && cpu <= b)
            return 1;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',')
            break;
    }
    return 0;
}

/*
 * The round-trip page: a POSIX shared-memory object PE 0 creates and names
 * to the peer through the symmetric heap; unlinked as soon as both mapped it,
 * so nothing is left behind. Plain POSIX, so it works under any
 * implementation (and between simulated hosts: they are one machine).
 * Layout: PE 0's line at offset 0, the peer's at 128 (apart from the adjacent-line
 * prefetcher's pair), the rest unused.
 */
static void rt_setup(void)
{
    int fd = -1;
    if (npes < 2)
        return;
    if (me == 0) {
        snprintf(sh.name, 64, "/shmem-bench-%ld-%ld", (long)getpid(),
                 (long)now_ns() % 1000000);
        fd = shm_open(sh.name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 || ftruncate(fd, 4096))
            die("cannot create the round-trip page with shm_open");
        shmem_putmem(sh.name, sh.name, 64, o.peer);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (me == o.peer && (fd = shm_open(sh.name, O_RDWR, 0)) < 0)
        die("cannot open the round-trip page PE 0 created");
    if (me == 0 || me == o.peer) {
        char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            die("cannot map the round-trip page");
        close(fd);
        rt_ping = (_Atomic long *)p;
        rt_pong = (_Atomic long *)(p + 128);
    }
    shmem_barrier_all();
    if (me == 0)
        shm_unlink(sh.name);
}

static void alloc_shared(void)
{
    long words = o.max_bytes / 8;
    long wrk = words / 2 + 1;
    if (wrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE)
        wrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    sh.ctl = shmem_malloc(sizeof(long));
    sh.word = shmem_malloc(sizeof(long));
    sh.pp = shmem_calloc(1, sizeof(long));
    sh.buf = shmem_malloc((size_t)o.max_bytes);
    sh.src = shmem_malloc((size_t)o.max_bytes);
    sh.psync = shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
    sh.pwrk = shmem_malloc((size_t)wrk * sizeof(long));
    sh.cpus = shmem_malloc((size_t)npes * sizeof(int));
    sh.name = shmem_malloc(64);
    lsrc = aligned_alloc(64, (size_t)o.max_bytes);
    ldst = aligned_alloc(64, (size_t)o.max_bytes);
    if (!sh.ctl || !sh.word || !sh.pp || !sh.buf || !sh.src || !sh.psync || !sh.pwrk ||
        !sh.cpus || !sh.name || !lsrc || !ldst)
        die("out of symmetric or local memory (raise SHMEM_SYMMETRIC_SIZE "
            "or lower --max-bytes)");
    for (long i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        sh.psync[i] = SHMEM_SYNC_VALUE;
    for (long i = 0; i < o.max_bytes; i++)
        lsrc[i] = (char)(i * 7 + me), ldst[i] = 0, sh.src[i] = (char)i,
        sh.buf[i] = 0;
    memset(s_buf, 0, sizeof s_buf);
}

static void report_placement(void)
{
    int cpu = sched_getcpu();
    shmem_int_p(&sh.cpus[me], cpu, 0);
    shmem_quiet();
    shmem_barrier_all();
    if (me != 0)
        return;
    char name[SHMEM_MAX_NAME_LEN + 1] = "", sib[256];
    int major = 0, minor = 0;
    shmem_info_get_name(name);
    shmem_info_get_version(&major, &minor);
    if (!o.label)
        o.label = strdup(name);
    const char *pfx = o.csv ? "# " : "";
    printf("%sshmem-bench: %s (OpenSHMEM %d.%d), %d PEs%s%s\n", pfx, name,
           major, minor, npes, o.pin ? ", pinned" : "",
           oversub ? ", more PEs than CPUs" : "");
    printf("%splacement:", pfx);
    for (int i = 0; i < npes; i++)
        printf(" PE%d=cpu%d", i, sh.cpus[i]);
    printf("\n");
    if (npes >= 2) {
        int q = o.peer;
        siblings(sh.cpus[0], sib, sizeof sib);
        printf("%sPE0/PE%d SMT siblings: %s (cpu%d thread_siblings_list: %s)\n",
               pfx, q,
               !sib[0] ? "unknown"
               : sh.cpus[0] == sh.cpus[q] ? "same CPU"
               : in_list(sib, sh.cpus[q]) ? "yes"
                                         : "no",
               sh.cpus[0], sib[0] ? sib : "unreadable");
        /* shmem_ptr says which path the point-to-point rows take. */
        printf("%sPE0 -> PE%d: %s\n", pfx, q,
               shmem_ptr(sh.word, q) ? "shared memory (shmem_ptr gives a pointer)"
                                     : "no shared memory (shmem_ptr is NULL)");
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    parse_args(argc, argv);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes >= 2 && o.peer >= npes) {
        if (me == 0)
            fprintf(stderr, "shmem-bench: --peer %d: the job has PEs 0..%d\n",
                    o.peer, npes - 1);
        shmem_finalize();
        exit(2);
    }
    place();
    alloc_shared();
    shmem_barrier_all();
    report_placement();
    rt_setup();
    if (me == 0)
        print_header();

    long maxs = o.max_bytes < STATIC_BYTES ? o.max_bytes : STATIC_BYTES;
    if (npes >= 2)
        run(&(struct row){ "rt", "pair", 64, 1, op_rt, NULL, NULL, 0 });
    run_size_rows("memcpy", "local", op_memcpy, 0, ldst, lsrc, o.max_bytes);
    if (npes >= 2) {
        run_word_rows("heap", sh.word);
        run_word_rows("static", &s_word);
        run_size_rows("putmem", "heap", op_putmem, 0, sh.buf, lsrc, o.max_bytes);
        run_size_rows("putmem", "static", op_putmem, 0, s_buf, lsrc, maxs);
        run_size_rows("getmem", "heap", op_getmem, 0, sh.buf, NULL, o.max_bytes);
        run_size_rows("getmem", "static", op_getmem, 0, s_buf, NULL, maxs);
        run(&(struct row){ "pingpong", "heap", 8, 1, op_pingpong, NULL, NULL, 0 });
    }
    run(&(struct row){ "barrier", "all", 0, 2, op_barrier, NULL, NULL, 0 });
    run(&(struct row){ "sbarrier", "all", 0, 2, op_sbarrier, NULL, NULL, 0 });
    run_size_rows("bcast", "heap", op_bcast, 2, sh.buf, sh.src, o.max_bytes);
    run_size_rows("reduce", "heap", op_reduce, 2, sh.buf, sh.src, o.max_bytes);
    if (o.sets) {
        sets_setup();
        run_set_rows();
        sets_fini();
    }

    shmem_barrier_all();
    if (rt_ping)
        munmap(rt_ping, 4096);
    free(lsrc);
    free(ldst);
    shmem_finalize();
    return 0;
}
