/*
 * bench_util.h - what shmem-bench.c and mpi-rma-bench.c share, so that the
 * two measure alike: the clock, the median and 99th percentile of the
 * per-call times, strict option numbers, the placement of process i on
 * the i-th CPU of its mask. Header-only (static functions), POSIX only:
 * each benchmark stays one file for its compiler wrapper (any oshcc, mpicc).
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* per[0..n): picoseconds per call of each timed batch (sorted here); the
 * median and the 99th percentile in nanoseconds. */
static void bench_summary(long long *per, long n, double *med_ns, double *p99_ns)
{
    qsort(per, (size_t)n, sizeof per[0], cmp_ll);
    *med_ns = (n & 1 ? per[n / 2] : (per[n / 2 - 1] + per[n / 2]) / 2) / 1000.0;
    long i99 = (n * 99 + 99) / 100 - 1;
    *p99_ns = per[i99 < n ? i99 : n - 1] / 1000.0;
}

/* The integer value of option opt, in lo..hi; otherwise exit 2 naming it. */
static long bench_parse_long(const char *prog, const char *opt, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "%s: %s needs an integer in %ld..%ld, got '%s'\n", prog, opt, lo, hi,
                s ? s : "(nothing)");
        exit(2);
    }
    return v;
}

/* With pin, process `me` goes on the me-th CPU of the mask it started with
 * (modulo their number). Returns the number of CPUs of that mask (0 if
 * unknown), so the caller knows whether processes outnumber them. */
static int bench_place(const char *prog, int me, int pin)
{
    cpu_set_t set;
    int cpus[CPU_SETSIZE], n = 0;
    if (sched_getaffinity(0, sizeof set, &set))
        return 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    if (pin && n > 0) {
        CPU_ZERO(&set);
        CPU_SET(cpus[me % n], &set);
        if (sched_setaffinity(0, sizeof set, &set))
            fprintf(stderr, "%s: process %d: cannot pin to CPU %d: %s\n", prog, me, cpus[me % n],
                    strerror(errno));
    }
    return n;
}

#endif /* BENCH_UTIL_H */
