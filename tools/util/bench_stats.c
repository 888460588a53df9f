/*
 * bench_stats.c - pshm-pingpong's results, medians and their output.
 */
#include "common/misc.h"
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
    if (nnotes == (int)ARRAY_LEN(notes)) return;
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
        if (strcmp(res[i].test, test) == 0 && (res[i].row.size == size || size == UINT64_MAX))
            return &res[i];
    return NULL;
}

const bench_result_t *bench_results(size_t *n)
{
    *n = nres;
    return res;
}

int bench_higher_is_better(const char *unit)
{
    return strcmp(unit, BENCH_GBPS) == 0 || strcmp(unit, BENCH_MMSGPS) == 0;
}

static const char *title_of(const char *test)
{
    static const struct { const char *test, *title; } t[] = {
        {"limit-handoff",
         "Floor: cache-line hand-off round trip, one line per direction (56 B payload + seq), "
         "64 line pairs in turn"},
        {"limit-ring", "Floor: 1-copy ring round trip (sender copies in, receiver reads in place)"},
        {"limit-ring-bw", "Floor: 1-copy ring streaming bandwidth"},
        {"limit-ring-rate", "Floor: streaming ring of one-line messages (8 B in the slot's line)"},
        {"limit-cell-rate", "Limit: the flood's queue protocol alone (16-byte cells four to a line; "
                            "no call, argument check or handler)"},
        {"limit-copy-flag", "Floor: round trip of a memcpy into the peer's memory and a flag line"},
        {"limit-memcpy", "Floor: local memcpy, time per call"},
        {"limit-memcpy-bw", "Floor: local memcpy bandwidth (one core)"},
        {"limit-copy2-bw", "Limit: two-core copy, each process copies half (shared memory)"},
        {"short", "Short AM request/reply; size = bytes of arguments (0, 2, 16 args)"},
        {"medium", "Medium AM request/reply"},
        {"long", "Long AM request/reply (payload into the peer's segment)"},
        {"medium-prepare", "Medium AM request/reply through prepare/commit (payload written into "
                           "the prepared buffer)"},
        {"long-prepare", "Long AM request/reply through prepare/commit (payload written straight "
                         "into the peer's segment)"},
        {"put", "pshm_put ping-pong (put, then a flag word; the peer answers alike)"},
        {"get", "pshm_get, time per call"},
        {"flood", "Short AM flood, one way, 2 args, acknowledged every window"},
        {"medium-bw", "Medium AM streaming bandwidth"},
        {"long-bw", "Long AM streaming bandwidth"},
        {"put-bw", "pshm_put streaming bandwidth"},
        {"get-bw", "pshm_get streaming bandwidth"},
        {"poll-idle", "pshm_poll() with no traffic, time per call; worst = slowest repetition"},
        {"startup-init", "pshm_init; median over ranks, worst = slowest rank"},
        {"startup-attach", "pshm_attach; median over ranks, worst = slowest rank"},
        {"limit-reserve", "Floor: the segments' storage reserved by bare system calls (posix, file: "
                          "fallocate; sysv: shmget, MADV_POPULATE_WRITE), one process per usable "
                          "CPU; iters = processes"},
        {"limit-reserve-1cpu", "Floor: the same storage reserved by one process"},
        {"limit-reserve-cpu", "Floor: CPU time of limit-reserve, its processes summed"},
        {"startup-cpu", "CPU time of pshm_init and pshm_attach, every rank summed"},
        {"startup-first-msg", "from the start of pshm_init to rank 0's first Short round trip"},
        {"startup-launch", "from pshmrun's start to rank 0's first Short round trip (10 ms "
                           "resolution)"},
        {"startup-finalize", "rank 0's pshm_finalize"},
        {"instr-short-burst", "Instructions per Short round trip, 2 args: 1000 requests queued, then "
                              "served, each replied to (request + dispatch + reply + receipt)"},
        {"instr-short-burst-any", "Instructions per Short round trip as instr-short-burst, the handlers "
                                  "registered for any argument count"},
        {"instr-poll-idle", "Instructions per idle pshm_poll (processes: the job's; the others "
                            "idle)"},
        {"instr-incast", "Instructions per Short of 2 args, P - 1 senders queueing 500 each to "
                         "rank 0, then served (request + dispatch), every rank counted"},
        {"instr-barrier", "Instructions per pshm_barrier of a process that arrives last (the "
                          "others already in it): the barrier's own work, no wait"},
        {"incast", "P - 1 processes sending Shorts of 2 args to rank 0: messages rank 0 runs per "
                   "second; worst = slowest repetition"},
        {"instr-pingpong", "Instructions per ping-pong round trip of Shorts with 2 args, every poll "
                           "finding its message"},
        {"instr-wait-turn", "Instructions per turn of pshm_wait_until's loop with nothing arriving"},
        {"instr-pingpong-prepare", "Instructions per ping-pong round trip of 4 KiB Mediums through "
                                   "prepare/commit, every poll finding its message"},
        {"instr-pingpong-medium", "Instructions per ping-pong round trip of 64-byte Mediums (in a "
                                  "chunk) copied by request/reply, every poll finding its message"},
        {"instr-pingpong-medium-any", "Instructions per ping-pong round trip as instr-pingpong-medium, "
                                      "the handlers registered for any argument count"},
    };
    for (size_t i = 0; i < ARRAY_LEN(t); i++)
        if (strcmp(test, t[i].test) == 0) return t[i].title;
    return test;
}

/* The table shows each time in the unit that suits it; CSV and JSON keep us. */
static double table_scale(const bench_result_t *r, const char **unit)
{
    *unit = r->row.unit;
    if (strcmp(r->row.unit, BENCH_US) != 0) return 1;
    if (strcmp(r->test, "poll-idle") == 0) return *unit = "ns", 1e3;
    if (strncmp(r->test, "startup", 7) == 0 || strncmp(r->test, "limit-reserve", 13) == 0)
        return *unit = "ms", 1e-3;
    return 1;
}

static void print_row(const bench_result_t *r)
{
    static char last[sizeof r->test];
    const bench_row_t *w = &r->row;
    const char *unit;
    double k = table_scale(r, &unit);
    if (format != BENCH_TABLE) return;
    if (strcmp(w->unit, BENCH_INSTR) == 0) { /* a count: no spread, no floor */
        if (strcmp(last, r->test) != 0) {
            snprintf(last, sizeof last, "%s", r->test);
            printf("\n# %s: %s\n%10s %10s %14s %12s\n", r->test, title_of(r->test), "size",
                   "processes", "instructions", "operations");
        }
        if (w->size == BENCH_NO_SIZE) printf("%10s ", "-");
        else printf("%10llu ", (unsigned long long)w->size);
        printf("%10d ", w->procs);
        printf("%14.1f %12ld\n", w->median, w->iters);
        fflush(stdout);
        return;
    }
    if (strcmp(last, r->test) != 0) {
        snprintf(last, sizeof last, "%s", r->test);
        printf("\n# %s: %s\n", r->test, title_of(r->test));
        if (w->floor)
            printf("# floor: %s (%s)%s: %s is better\n", w->floor,
                   r->floor_size == w->size ? "same size" : "one size for all",
                   w->paired ? ", measured beside each repetition; ratio = median of the\n"
                               "# repetitions' value / floor"
                             : "; ratio = median / floor",
                   bench_higher_is_better(w->unit) ? "higher" : "lower");
        printf("%10s %12s %12s %12s %8s\n", w->size == BENCH_NO_SIZE ? "processes" : "size", unit,
               w->p99 > 0 ? "p99" : "worst", "floor", "ratio");
    }
    if (w->size == BENCH_NO_SIZE) printf("%10d ", w->procs);
    else printf("%10llu ", (unsigned long long)w->size);
    printf("%12.3f ", w->median * k);
    if (w->p99 > 0 || w->worst > 0) printf("%12.3f ", (w->p99 > 0 ? w->p99 : w->worst) * k);
    else printf("%12s ", "-");
    if (isnan(r->ratio)) printf("%12s %8s\n", "-", "-");
    else printf("%12.3f %8.2f\n", r->floor_median * k, r->ratio);
    fflush(stdout);
}

static size_t floor_rows(const char *test)
{
    size_t n = 0;
    for (size_t i = 0; i < nres; i++) n += strcmp(res[i].test, test) == 0;
    return n;
}

void bench_add_result(const bench_row_t *row)
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
    r->row = *row;
    snprintf(r->test, sizeof r->test, "%s", row->test);
    r->row.test = r->test;
    if (row->paired) {
        r->floor_size = row->floor_size;
        r->floor_median = row->floor_median;
        r->ratio = row->floor_ratio;
        print_row(r);
        return;
    }
    const bench_result_t *f = row->floor ? bench_find_result(row->floor, row->size) : NULL;
    if (!f && row->floor && floor_rows(row->floor) == 1) /* a floor of one size (the hand-off) */
        f = bench_find_result(row->floor, UINT64_MAX);
    r->floor_size = f ? f->row.size : 0;
    r->floor_median = f ? f->row.median : NAN;
    r->ratio = f && f->row.median > 0 ? row->median / f->row.median : NAN;
    if (!f) r->row.floor = NULL; /* not measured in this run */
    print_row(r);
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

/*
 * CSV and JSON share one schema: every row has every column, and a column
 * means one thing in every row (its unit is in its name); a column that does
 * not apply to a row is empty (CSV) or null (JSON).
 */
enum col_kind { C_STR, C_INT, C_NUM };
static const struct column { const char *name; enum col_kind kind; } columns[] = {
    {"test", C_STR},           {"size_bytes", C_INT},    {"processes", C_INT},
    {"median_us", C_NUM},      {"p99_us", C_NUM},        {"worst_us", C_NUM},
    {"median_GBps", C_NUM},    {"worst_GBps", C_NUM},    {"median_Mmsgps", C_NUM},
    {"worst_Mmsgps", C_NUM},   {"instructions", C_NUM},  {"floor", C_STR},
    {"floor_size_bytes", C_INT}, {"ratio", C_NUM},       {"better", C_STR},
    {"reps", C_INT},           {"iters", C_INT},         {"floor_median", C_NUM},
    {"floor_paired", C_INT},
};

/* Column c of row r: a string, or NULL when it does not apply. */
static const char *cell(const bench_result_t *r, size_t c, char *buf, size_t len)
{
    const bench_row_t *w = &r->row;
    const char *u = w->unit, *name = columns[c].name;
    double v = NAN;
    switch (c) {
    case 0: return r->test;
    case 1: if (w->size == BENCH_NO_SIZE) return NULL;
            snprintf(buf, len, "%llu", (unsigned long long)w->size); return buf;
    case 2: snprintf(buf, len, "%d", w->procs); return buf;
    case 10: v = strcmp(u, BENCH_INSTR) == 0 ? w->median : NAN; break;
    case 11: return w->floor;
    case 12: if (!w->floor || r->floor_size == BENCH_NO_SIZE) return NULL;
             snprintf(buf, len, "%llu", (unsigned long long)r->floor_size); return buf;
    case 13: v = r->ratio; break;
    case 14: return bench_higher_is_better(u) ? "higher" : "lower";
    case 15: snprintf(buf, len, "%d", w->reps); return buf;
    case 16: snprintf(buf, len, "%ld", w->iters); return buf;
    case 17: v = r->floor_median; break;
    case 18: if (isnan(r->ratio)) return NULL;
             snprintf(buf, len, "%d", w->paired); return buf;
    default: {
        /* median_X, p99_X, worst_X: X names the row's unit */
        const char *x = strchr(name, '_') + 1;
        const char *ux = !strcmp(u, BENCH_US) ? "us" : !strcmp(u, BENCH_GBPS) ? "GBps"
                       : !strcmp(u, BENCH_MMSGPS) ? "Mmsgps" : "";
        if (strcmp(x, ux) != 0) return NULL;
        v = name[0] == 'm' ? w->median : name[0] == 'p' ? w->p99 : w->worst;
        if (v <= 0) return NULL; /* not measured */
    }
    }
    if (isnan(v) || isinf(v)) return NULL;
    snprintf(buf, len, "%.6g", v);
    return buf;
}

void bench_print_machine(const bench_header_t *h)
{
    char buf[64];
    const size_t nc = ARRAY_LEN(columns);
    if (format == BENCH_CSV) {
        for (size_t c = 0; c < nc; c++) printf("%s%s", c ? "," : "", columns[c].name);
        putchar('\n');
        for (size_t i = 0; i < nres; i++)
            for (size_t c = 0; c < nc; c++) {
                const char *v = cell(&res[i], c, buf, sizeof buf);
                printf("%s%s%s", c ? "," : "", v ? v : "", c + 1 < nc ? "" : "\n");
            }
    } else if (format == BENCH_JSON) {
        printf("{\"version\": ");
        print_json_str(stdout, pshm_version());
        printf(", \"cpus\": [%d, %d], \"pinned\": %s, \"reps\": %d, \"iters\": %ld, \"window\": %ld,\n",
               h->cpu[0], h->cpu[1], h->pinned ? "true" : "false", h->reps, h->iters, h->window);
        printf(" \"placement\": ");
        print_json_str(stdout, h->placement ? h->placement : "");
        printf(",\n \"notes\": [");
        for (int i = 0; i < nnotes; i++) {
            if (i) printf(", ");
            print_json_str(stdout, notes[i]);
        }
        printf("],\n \"results\": [\n");
        for (size_t i = 0; i < nres; i++) {
            printf("  {");
            for (size_t c = 0; c < nc; c++) {
                const char *v = cell(&res[i], c, buf, sizeof buf);
                printf("%s\"%s\": ", c ? ", " : "", columns[c].name);
                if (!v) fputs("null", stdout);
                else if (columns[c].kind == C_STR) print_json_str(stdout, v);
                else fputs(v, stdout);
            }
            printf("}%s\n", i + 1 < nres ? "," : "");
        }
        printf(" ]}\n");
    }
    fflush(stdout);
}

/* The headline figures, each against its floor, at the end of the tables. */
void bench_print_summary(void)
{
    static const struct { const char *label, *test; uint64_t size; } k[] = {
        {"Short 8 B one-way latency", "short", 8},
        {"Medium 4 KiB one-way latency", "medium", 4096},
        {"Medium 4 KiB prepared, one-way", "medium-prepare", 4096},
        {"Long 64 KiB one-way latency", "long", 65536},
        {"put 8 B one-way latency", "put", 8},
        {"flood, Short messages one way", "flood", 8},
        {"Medium 64 KiB bandwidth", "medium-bw", 65536},
        {"Long 1 MiB bandwidth", "long-bw", 1048576},
        {"put 1 MiB bandwidth", "put-bw", 1048576},
        {"two-core copy 1 MiB", "limit-copy2-bw", 1048576},
        {"two-core copy 16 MiB", "limit-copy2-bw", 16777216},
    };
    int header = 0;
    if (format != BENCH_TABLE) return;
    for (size_t i = 0; i < ARRAY_LEN(k); i++) {
        const bench_result_t *r = bench_find_result(k[i].test, k[i].size);
        if (!r) continue;
        if (!header++)
            printf("\n# summary: value and the floor of the same operation, ratio = value / floor\n"
                   "# (the median of the repetitions' ratios where the floor ran beside them)\n"
                   "%-32s %10s %10s %8s %-7s %s\n", "", "value", "floor", "ratio", "unit", "better");
        printf("%-32s %10.3f ", k[i].label, r->row.median);
        if (isnan(r->ratio)) printf("%10s %8s ", "-", "-");
        else printf("%10.3f %8.2f ", r->floor_median, r->ratio);
        printf("%-7s %s\n", r->row.unit, bench_higher_is_better(r->row.unit) ? "higher" : "lower");
    }
    for (int i = 0; i < nnotes; i++) printf("# NOTE: %s\n", notes[i]);
    fflush(stdout);
}
