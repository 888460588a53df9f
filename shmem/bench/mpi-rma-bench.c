/*
 * mpi-rma-bench: the latency of MPI's own one-sided calls between rank 0
 * and a peer, the engine the OpenSHMEM layer uses between supernodes, so
 * that the layer's cost over it can be read as a ratio measured in the
 * same sitting (shmem/bench/compare-mpi.sh):
 *
 *   put+flush  MPI_Put of one long, then MPI_Win_flush   (~ shmem_long_p + quiet)
 *   get+flush  MPI_Get of one long, then MPI_Win_flush   (~ shmem_long_g)
 *   fop+flush  MPI_Fetch_and_op(MPI_SUM) on a long, flush (~ fetch_add)
 *   cas+flush  MPI_Compare_and_swap on a long, flush      (~ compare_swap)
 *   send+recv  MPI_Send of 32 bytes to the peer, MPI_Recv of its 8-byte
 *              answer (the peer: MPI_Recv, MPI_Send): two matched messages,
 *              the floor of an atomic shipped through MPI's two-sided calls
 *
 * --thread serialized asks MPI for MPI_THREAD_SERIALIZED, the level the
 * layer asks for when it runs its progress thread (the default): Open MPI
 * then takes its internal locks, as it does under the layer.
 *
 * The window is made as the layer makes its own: MPI_Win_create over
 * memory the process already has, passive target, MPI_Win_lock_all once.
 * Method and output are shmem-bench's: batches grown until one lasts
 * --batch-us, then --reps timed batches between two MPI_Barrier calls
 * (the other ranks wait in the barrier, which gives MPI its progress);
 * median and 99th percentile of the per-call time; CSV lines alike.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"

#define MAX_REPS 10001

static struct {
    long reps, batch_us;
    int csv, pin, peer, level;
    const char *label;
} o = { 51, 200, 0, 1, 1, MPI_THREAD_SINGLE, "mpi" };

static int me, np;
static MPI_Win win;
static long *base;          /* the window: word 0 is the target */
static volatile long sink;

struct row {
    const char *test;
    void (*op)(struct row *r, long n);
    long expect;            /* what the peer's word holds after the row */
    void (*serve)(long n);  /* the peer's part, if it takes one */
};

static void die(const char *what)
{
    fprintf(stderr, "mpi-rma-bench: rank %d: %s\n", me, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static void op_put(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        long v = ++r->expect;
        MPI_Put(&v, 1, MPI_LONG, o.peer, 0, 1, MPI_LONG, win);
        MPI_Win_flush(o.peer, win);
    }
}

static void op_get(struct row *r, long n)
{
    long acc = 0, v;
    (void)r;
    for (long i = 0; i < n; i++) {
        MPI_Get(&v, 1, MPI_LONG, o.peer, 0, 1, MPI_LONG, win);
        MPI_Win_flush(o.peer, win);
        acc += v;
    }
    sink = acc;
}

static void op_fop(struct row *r, long n)
{
    long one = 1, old, acc = 0;
    for (long i = 0; i < n; i++) {
        MPI_Fetch_and_op(&one, &old, MPI_LONG, o.peer, 0, MPI_SUM, win);
        MPI_Win_flush(o.peer, win);
        acc += old;
    }
    r->expect += n;
    sink = acc;
}

static void op_cas(struct row *r, long n)
{
    for (long i = 0; i < n; i++) {
        long want = r->expect, next = want + 1, old;
        MPI_Compare_and_swap(&next, &want, &old, MPI_LONG, o.peer, 0, win);
        MPI_Win_flush(o.peer, win);
        if (old != want)
            die("compare_and_swap found a value no rank wrote");
        r->expect++;
    }
}

static void op_sendrecv(struct row *r, long n)
{
    char req[32] = {0};
    long old, acc = 0;
    (void)r;
    for (long i = 0; i < n; i++) {
        MPI_Send(req, sizeof req, MPI_BYTE, o.peer, 1, MPI_COMM_WORLD);
        MPI_Recv(&old, 1, MPI_LONG, o.peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        acc += old;
    }
    sink = acc;
}

static void serve_sendrecv(long n)
{
    char req[32];
    for (long i = 0; i < n; i++) {
        MPI_Recv(req, sizeof req, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&i, 1, MPI_LONG, 0, 2, MPI_COMM_WORLD);
    }
}

static long long timed_batch(struct row *r, long n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    long long t0 = now_ns();
    if (me == 0)
        r->op(r, n);
    else if (me == o.peer && r->serve)
        r->serve(n);
    long long t = now_ns() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    return t;
}

static void measure(struct row *r)
{
    static long long per[MAX_REPS];
    long n = 1;

    for (;;) {
        long long t = timed_batch(r, n);   /* the fastest of three */
        for (int k = 0; k < 2; k++) {
            long long u = timed_batch(r, n);
            t = u < t ? u : t;
        }
        long next = 0;
        if (t < o.batch_us * 1000LL && n < (1L << 24))
            next = t < o.batch_us * 100LL ? n * 8 : n * 2;
        MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        if (!next)
            break;
        n = next;
    }
    for (long k = 0; k < o.reps; k++)
        per[k] = timed_batch(r, n) * 1000 / n;   /* picoseconds per call */
    /* The word the calls left at the peer. */
    MPI_Bcast(&r->expect, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (me == o.peer) {
        long got;
        MPI_Win_sync(win);
        got = __atomic_load_n(base, __ATOMIC_RELAXED);
        if (got != r->expect) {
            char msg[128];
            snprintf(msg, sizeof msg, "%s left %ld here, expected %ld", r->test, got, r->expect);
            die(msg);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me != 0)
        return;
    double med, p99;
    bench_summary(per, o.reps, &med, &p99);
    if (o.csv)
        printf("%s,%d,%s,win,8,%ld,%ld,%.2f,%.2f,%.3f\n", o.label, np, r->test, n, o.reps, med,
               p99, med > 0 ? 8 / med : 0);
    else
        printf("%-10s %-7s %9d %7ld %12.1f %12.1f\n", r->test, "win", 8, n, med, p99);
    fflush(stdout);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: mpi-rma-bench [--csv] [--reps N] [--batch-us N] [--peer RANK] "
               "[--label NAME] [--thread LEVEL] [--no-pin]\n"
               "  --csv          CSV lines (shmem-bench's columns) instead of a table\n"
               "  --reps N       timed batches per row, 1..%d (default 51)\n"
               "  --batch-us N   least duration of one batch, 1..1000000 us (default 200)\n"
               "  --peer RANK    the target rank (default 1)\n"
               "  --label NAME   the first CSV column (default mpi)\n"
               "  --thread LEVEL the thread level asked of MPI: single (default) or\n"
               "                 serialized (the OpenSHMEM layer's with its progress thread)\n"
               "  --no-pin       leave CPU affinity as the launcher set it (default: rank i\n"
               "                 on the i-th CPU of its mask, as shmem-bench places PEs)\n",
            MAX_REPS);
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--csv"))
            o.csv = 1;
        else if (!strcmp(a, "--no-pin"))
            o.pin = 0;
        else if (!strcmp(a, "--reps"))
            o.reps = bench_parse_long("mpi-rma-bench", a, v, 1, MAX_REPS), i++;
        else if (!strcmp(a, "--batch-us"))
            o.batch_us = bench_parse_long("mpi-rma-bench", a, v, 1, 1000000), i++;
        else if (!strcmp(a, "--peer"))
            o.peer = (int)bench_parse_long("mpi-rma-bench", a, v, 1, INT_MAX), i++;
        else if (!strcmp(a, "--label") && v)
            o.label = v, i++;
        else if (!strcmp(a, "--thread")) {
            if (v && !strcmp(v, "single"))
                o.level = MPI_THREAD_SINGLE;
            else if (v && !strcmp(v, "serialized"))
                o.level = MPI_THREAD_SERIALIZED;
            else {
                fprintf(stderr, "mpi-rma-bench: --thread takes single or serialized, got '%s'\n",
                        v ? v : "");
                exit(2);
            }
            i++;
        }
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "mpi-rma-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    const long words = 4096 / sizeof(long);

    int provided;

    parse_args(argc, argv);
    MPI_Init_thread(&argc, &argv, o.level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2 || o.peer >= np) {
        if (me == 0)
            fprintf(stderr, "mpi-rma-bench: --peer %d: needs ranks 0..%d (run 2 or more)\n",
                    o.peer, o.peer);
        MPI_Finalize();
        return 2;
    }
    bench_place("mpi-rma-bench", me, o.pin);
    base = aligned_alloc(4096, words * sizeof(long));
    if (base == NULL)
        die("out of memory");
    memset(base, 0, words * sizeof(long));
    MPI_Win_create(base, (MPI_Aint)(words * sizeof(long)), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (me == 0) {
        int version, subversion, len, cpu = sched_getcpu();
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        MPI_Get_version(&version, &subversion);
        MPI_Get_library_version(lib, &len);
        lib[strcspn(lib, "\n,")] = 0;
        printf("%smpi-rma-bench: %s (MPI %d.%d), %d ranks, rank 0 on cpu%d -> rank %d, "
               "thread level %s\n", o.csv ? "# " : "", lib, version, subversion, np, cpu, o.peer,
               provided >= MPI_THREAD_SERIALIZED ? "serialized or more" : "single");
        if (o.csv)
            printf("impl,npes,test,target,bytes,calls_per_batch,batches,median_ns,p99_ns,"
                   "median_GBps\n");
        else
            printf("%-10s %-7s %9s %7s %12s %12s\n", "test", "target", "bytes", "calls",
                   "median_ns", "p99_ns");
    }
    struct row rows[] = {
        { "put+flush", op_put, 0, NULL },
        { "get+flush", op_get, 0, NULL },
        { "fop+flush", op_fop, 0, NULL },
        { "cas+flush", op_cas, 0, NULL },
        { "send+recv", op_sendrecv, 0, serve_sendrecv },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        /* Each row starts from the value the previous one left. */
        if (i > 0)
            rows[i].expect = rows[i - 1].expect;
        measure(&rows[i]);
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(base);
    MPI_Finalize();
    return 0;
}
