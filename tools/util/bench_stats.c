/*
 * bench_stats.c - pshm-pingpong's results, medians and their output.
 */
#include "internal.h" /* PSHM_ARRAY_LEN */
#include "pshm.h"
#include "tools/util/bench_stats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum bench_format format;
static bench_result_t *res;
static size_t nres, capres;
static char notes[8][256];
static int nnotes;

void bench_set_format(enum bench_format f) { format = f; }

void bench_note(const char *fmt, ...)
{
    va_list ap;
    if (nnotes == (int)PSHM_ARRAY_LEN(notes)) return;
    va_start(ap, fmt);
    vsnprintf(notes[nnotes], sizeof notes[0], fmt, ap);
    va_end(ap);
    if (format == BENCH_TABLE) printf("# NOTE: %s\n", notes[nnotes]);
    else fprintf(stderr, "pshm-pingpong: note: %s\n", notes[nnotes]);
    nnotes++;
}

const bench_result_t *bench_find_result(const char *test, uint64_t size)
{
    for (size_t i = 0; i < nres; i++)
        if (strcmp(res[i].test, test) == 0 && (res[i].size == size || size == UINT64_MAX))
            return &res[i];
    return NULL;
}

const bench_result_t *bench_results(size_t *n)
{
    *n = nres;
    return res;
}

static const char *title_of(const char *test)
{
    static const struct { const char *test, *title; } t[] = {
        {"limit-handoff", "Limit: cache-line hand-off, one line per direction (56 B payload + seq)"},
        {"limit-ring", "Limit: 1-copy ring (sender copies in, receiver reads in place)"},
        {"limit-ring-bw", "Limit: 1-copy ring streaming bandwidth"},
        {"limit-ring-rate", "Limit: 1-copy ring, 8-byte messages streamed"},
        {"limit-memcpy", "Limit: local memcpy, time per call"},
        {"limit-memcpy-bw", "Limit: local memcpy bandwidth"},
        {"short", "Short AM request/reply; size = bytes of arguments (0, 2, 16 args)"},
        {"medium", "Medium AM request/reply"},
        {"long", "Long AM request/reply (payload into the peer's segment)"},
        {"put", "pshm_put ping-pong (put, then a flag word; the peer answers alike)"},
        {"get", "pshm_get, time per call"},
        {"flood", "Short AM flood, one way, 2 args, acknowledged every window"},
        {"medium-bw", "Medium AM streaming bandwidth"},
        {"long-bw", "Long AM streaming bandwidth"},
        {"put-bw", "pshm_put streaming bandwidth"},
        {"get-bw", "pshm_get streaming bandwidth"},
        {"poll-idle", "pshm_poll() with no traffic; size = processes in the job"},
        {"startup", "Start-up; size = processes; median over ranks, p99 column = slowest rank"},
    };
    for (size_t i = 0; i < PSHM_ARRAY_LEN(t); i++)
        if (strncmp(test, t[i].test, strlen(t[i].test)) == 0 &&
            (test[strlen(t[i].test)] == '\0' || strcmp(t[i].test, "startup") == 0))
            return t[i].title;
    return test;
}

static int is_rate(const char *unit) { return strcmp(unit, "us") != 0 && strcmp(unit, "ns") != 0; }

static void print_row(const bench_result_t *r)
{
    static char last[24];
    if (format != BENCH_TABLE) return;
    if (strcmp(last, r->test) != 0) {
        snprintf(last, sizeof last, "%s", r->test);
        printf("\n# %s: %s\n", r->test, title_of(r->test));
        printf("%10s %12s %12s %12s %8s\n", "size", r->unit, is_rate(r->unit) ? "worst" : "p99",
               "limit", "ratio");
    }
    printf("%10llu %12.3f %12.3f ", (unsigned long long)r->size, r->median, r->p99);
    if (isnan(r->limit)) printf("%12s %8s\n", "-", "-");
    else printf("%12.3f %8.2f\n", r->limit, r->ratio);
    fflush(stdout);
}

void bench_add_result(const char *test, const char *unit, uint64_t size, double median, double p99,
                      double limit, int reps, long iters)
{
    if (nres == capres) {
        capres = capres ? 2 * capres : 64;
        res = realloc(res, capres * sizeof *res);
        if (!res) {
            fprintf(stderr, "pshm-pingpong: out of memory\n");
            exit(1);
        }
    }
    bench_result_t *r = &res[nres++];
    snprintf(r->test, sizeof r->test, "%s", test);
    r->unit = unit;
    r->size = size;
    r->median = median;
    r->p99 = p99;
    r->limit = limit;
    r->ratio = isnan(limit) || limit <= 0 ? NAN : median / limit;
    r->reps = reps;
    r->iters = iters;
    print_row(r);
}

double bench_limit_of(const char *test, uint64_t size)
{
    const bench_result_t *r = bench_find_result(test, size);
    return r ? r->median : NAN;
}

int bench_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bench_median_u64(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp_u64);
    return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

double bench_median_dbl(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double bench_median_blocks(const uint64_t *v, size_t n)
{
    size_t nb = n / BENCH_LAT_BLOCK;
    if (nb < 5) {
        uint64_t *c = malloc(n * sizeof *c);
        if (!c) return NAN;
        memcpy(c, v, n * sizeof *c);
        double m = bench_median_u64(c, n);
        free(c);
        return m;
    }
    double *b = malloc(nb * sizeof *b);
    if (!b) return NAN;
    for (size_t k = 0; k < nb; k++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < BENCH_LAT_BLOCK; i++) sum += v[k * BENCH_LAT_BLOCK + i];
        b[k] = (double)sum / BENCH_LAT_BLOCK;
    }
    double m = bench_median_dbl(b, nb);
    free(b);
    return m;
}

static void print_json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v)) fputs("null", f);
    else fprintf(f, "%.6g", v);
}

static void print_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

void bench_print_machine(const bench_header_t *h)
{
    if (format == BENCH_CSV) {
        puts("test,size,unit,median,p99,limit,ratio,reps,iters");
        for (size_t i = 0; i < nres; i++) {
            const bench_result_t *r = &res[i];
            printf("%s,%llu,%s,%.6g,%.6g,", r->test, (unsigned long long)r->size, r->unit, r->median,
                   r->p99);
            if (!isnan(r->limit)) printf("%.6g", r->limit);
            putchar(',');
            if (!isnan(r->ratio)) printf("%.6g", r->ratio);
            printf(",%d,%ld\n", r->reps, r->iters);
        }
    } else if (format == BENCH_JSON) {
        printf("{\"version\": ");
        print_json_str(stdout, pshm_version());
        printf(", \"cpus\": [%d, %d], \"pinned\": %s, \"reps\": %d, \"iters\": %ld, \"window\": %ld,\n",
               h->cpu[0], h->cpu[1],
               h->pinned ? "true" : "false", h->reps, h->iters, h->window);
        printf(" \"notes\": [");
        for (int i = 0; i < nnotes; i++) {
            if (i) printf(", ");
            print_json_str(stdout, notes[i]);
        }
        printf("],\n \"results\": [\n");
        for (size_t i = 0; i < nres; i++) {
            const bench_result_t *r = &res[i];
            printf("  {\"test\": \"%s\", \"size\": %llu, \"unit\": \"%s\", \"median\": ", r->test,
                   (unsigned long long)r->size, r->unit);
            print_json_num(stdout, r->median);
            printf(", \"p99\": ");
            print_json_num(stdout, r->p99);
            printf(", \"limit\": ");
            print_json_num(stdout, r->limit);
            printf(", \"ratio\": ");
            print_json_num(stdout, r->ratio);
            printf(", \"reps\": %d, \"iters\": %ld}%s\n", r->reps, r->iters, i + 1 < nres ? "," : "");
        }
        printf(" ]}\n");
    }
    fflush(stdout);
}


/* The headline figures, each against its limit, at the end of the tables. */
void bench_print_summary(void)
{
    static const struct { const char *label, *test; uint64_t size; } k[] = {
        {"Short 8 B one-way latency", "short", 8},
        {"Medium 4 KiB one-way latency", "medium", 4096},
        {"Long 64 KiB one-way latency", "long", 65536},
        {"put 8 B one-way latency", "put", 8},
        {"flood, Short messages one way", "flood", 8},
        {"Medium 64 KiB bandwidth", "medium-bw", 65536},
        {"Long 1 MiB bandwidth", "long-bw", 1048576},
        {"put 1 MiB bandwidth", "put-bw", 1048576},
    };
    int header = 0;
    if (format != BENCH_TABLE) return;
    for (size_t i = 0; i < PSHM_ARRAY_LEN(k); i++) {
        const bench_result_t *r = bench_find_result(k[i].test, k[i].size);
        if (!r) continue;
        if (!header++)
            printf("\n# summary: value and limit, ratio = value / limit\n%-32s %10s %10s %8s %s\n",
                   "", "value", "limit", "ratio", "unit");
        printf("%-32s %10.3f ", k[i].label, r->median);
        if (isnan(r->limit)) printf("%10s %8s %s\n", "-", "-", r->unit);
        else printf("%10.3f %8.2f %s\n", r->limit, r->ratio, r->unit);
    }
    for (int i = 0; i < nnotes; i++) printf("# NOTE: %s\n", notes[i]);
    fflush(stdout);
}
