/*
 * bench_stats.h - pshm-pingpong's results: the medians it reduces timings
 * with, the list of results and notes, and their output (the aligned table
 * row by row as results come, CSV or JSON at the end, the summary).
 */
#ifndef PSHM_TOOLS_BENCH_STATS_H
#define PSHM_TOOLS_BENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_result {
    char test[24];
    const char *unit;   /* "us", "ns", "GB/s", "Mmsg/s" */
    uint64_t size;
    double median, p99, limit, ratio; /* limit, ratio: NAN when none */
    int reps;
    long iters;
} bench_result_t;

enum bench_format { BENCH_TABLE, BENCH_CSV, BENCH_JSON };

/* How results are printed; BENCH_TABLE (the default) prints rows as they
 * come, the others print everything at the end (bench_print_machine). */
void bench_set_format(enum bench_format f);

/* A remark on the run: printed now (table: stdout, else stderr), kept for the
 * summary and the JSON header. At most 8. */
__attribute__((format(printf, 1, 2))) void bench_note(const char *fmt, ...);

/* Records a result (ratio = median / limit) and prints its table row. */
void bench_add_result(const char *test, const char *unit, uint64_t size, double median, double p99,
                      double limit, int reps, long iters);

/* The first result of `test` at `size` (UINT64_MAX: any size), or NULL. */
const bench_result_t *bench_find_result(const char *test, uint64_t size);
/* Its median, NAN if there is none: the limit a measurement is set against. */
double bench_limit_of(const char *test, uint64_t size);
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
} bench_header_t;

/* CSV or JSON of every result (nothing for the table). */
void bench_print_machine(const bench_header_t *h);
/* The table's end: the headline figures against their limits, and the notes. */
void bench_print_summary(void);

#endif
