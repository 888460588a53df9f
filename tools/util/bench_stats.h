/*
 * bench_stats.h - pshm-pingpong's results: the medians it reduces timings
 * with, the list of results and notes, and their output (the aligned table
 * row by row as results come, CSV or JSON at the end, the summary).
 */
#ifndef PSHM_TOOLS_BENCH_STATS_H
#define PSHM_TOOLS_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The quantities a row measures, each in one unit. */
#define BENCH_US "us"              /* a time: latency (one way), a call, start-up */
#define BENCH_GBPS "GB/s"          /* bandwidth, 1e9 B/s */
#define BENCH_MMSGPS "Mmsg/s"      /* message rate */
#define BENCH_INSTR "instructions" /* per operation, counted by callgrind */

#define BENCH_NO_SIZE UINT64_MAX   /* a row without a message size */

/* What a measurement gives; fields left 0 are not measured. */
typedef struct bench_row {
    const char *test, *unit;
    uint64_t size;          /* bytes (Short: of arguments), or BENCH_NO_SIZE */
    int procs;              /* processes of the job */
    double median;
    double p99;             /* latencies: 99th percentile of all iterations */
    double worst;           /* rates, per-call times, start-up: slowest repetition or rank */
    double rep_min, rep_max;/* the repetitions' extremes (not printed): the run's spread */
    const char *floor;      /* the test of the same operation done by hand (same size) */
    /* paired: the floor was measured beside each repetition (alternating),
     * its median and the median of the repetitions' ratios are here; else
     * the floor is the limits row of that name measured earlier. */
    int paired;
    uint64_t floor_size;
    double floor_median, floor_ratio;
    int reps;
    long iters;             /* operations timed per repetition (instructions: counted) */
} bench_row_t;

typedef struct bench_result {
    bench_row_t row;
    char test[32];
    double floor_median, ratio; /* NAN when there is no floor */
    uint64_t floor_size;        /* the floor's row: this size, or its only one */
} bench_result_t;

/* Is a higher value better (rates), or a lower one (times, instructions)? */
int bench_higher_is_better(const char *unit);

enum bench_format { BENCH_TABLE, BENCH_CSV, BENCH_JSON };

/* How results are printed; BENCH_TABLE (the default) prints rows as they
 * come, the others print everything at the end (bench_print_machine). */
void bench_set_format(enum bench_format f);

/* A remark on the run: printed now (table: stdout, else stderr), kept for the
 * summary and the JSON header. At most 8. */
__attribute__((format(printf, 1, 2))) void bench_note(const char *fmt, ...);

/* Records a result and prints its table row. Its ratio: a paired row's own
 * (the median of value / floor over repetitions), else median / the floor
 * row's median at the same size, or at its only size (the hand-off). */
void bench_add_result(const bench_row_t *row);

/* The first result of `test` at `size` (UINT64_MAX: any size), or NULL. */
const bench_result_t *bench_find_result(const char *test, uint64_t size);
/* All results in the order they came. */
const bench_result_t *bench_results(size_t *n);

int bench_cmp_u64(const void *a, const void *b);
/* Sort v, then take the median. */
double bench_median_u64(uint64_t *v, size_t n);
double bench_median_dbl(double *v, size_t n);

/*
 * Median per iteration over blocks of BENCH_LAT_BLOCK consecutive iterations.
 * The TSC of some machines (AMD Zen under a hypervisor) advances in steps of
 * ~30 ns, so the median of single iterations of a ~100 ns round trip can
 * only take a few values; summing a block averages the rounding out while a
 * median over blocks still ignores the outliers. Applied alike to the limits
 * and to pshm. Sorts nothing in v.
 */
#define BENCH_LAT_BLOCK 16
double bench_median_blocks(const uint64_t *v, size_t n);

/* The run's description in the JSON header. */
typedef struct bench_header {
    int cpu[2];
    int pinned, reps;
    long iters, window;
    const char *placement; /* how the two CPUs relate (bench_placement) */
} bench_header_t;

/* CSV or JSON of every result (nothing for the table). */
void bench_print_machine(const bench_header_t *h);
/* The table's end: the headline figures against their limits, and the notes. */
void bench_print_summary(void);

#endif
