/*
 * pshm-pingpong - latency, bandwidth and message rate between the two
 * processes of a `pshmrun -n 2` job, each printed next to the machine's own
 * limit measured between the same two cores in the same run:
 *
 *   limit-handoff    one cache line per direction, payload + sequence number
 *                    in the line, PAUSE in the spin loop (the floor of Short)
 *   limit-ring       a 1-copy ring: the sender copies into a shared ring, the
 *                    receiver reads in place (the floor of Medium)
 *   limit-memcpy     a local memcpy of the same size (the floor of Long/put)
 *
 * The library is measured through pshm.h only; the limits run in a piece of
 * rank 0's segment that both processes already map. --limits-only runs the
 * limits alone in two forked processes, without the library.
 *
 * Statistics (see pshm-pingpong(1)): latency = round trip / 2 for ping-pongs;
 * "median" is the median of the repetitions' medians (a repetition's median
 * taken over the means of blocks of LAT_BLOCK iterations), "p99" the 99th
 * percentile of every timed iteration of every repetition pooled. Rates are
 * measured over a whole timed loop per repetition; "median" is the median of
 * the repetitions and the p99 column holds the slowest repetition.
 */
#include "internal.h" /* env_parse_size (strict size spellings), pshm_cpu_relax */
#include "pshm.h"
#include "tools/util/cli.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KiB (1024ull)
#define MiB (1024ull * 1024)

/* ------------------------------------------------------------------ options */

enum {
    T_SHORT = 1 << 0, T_MEDIUM = 1 << 1, T_LONG = 1 << 2, T_PUT = 1 << 3, T_GET = 1 << 4,
    T_FLOOD = 1 << 5, T_BW = 1 << 6, T_LIMITS = 1 << 7, T_ALL = (1 << 8) - 1
};
static const struct { const char *name; unsigned bit; } test_names[] = {
    {"short", T_SHORT}, {"medium", T_MEDIUM}, {"long", T_LONG}, {"put", T_PUT},
    {"get", T_GET},     {"flood", T_FLOOD},   {"bw", T_BW},     {"limits", T_LIMITS},
    {"all", T_ALL},
};

#define MAX_SIZES 64
#define MAX_CPUS 64

static struct opts {
    long iters, warmup, window;
    int reps, iters_set, warmup_set;
    size_t sizes[MAX_SIZES];
    int nsizes;
    uint64_t min_size, max_size;
    int max_set;
    int cpus[MAX_CPUS], ncpus, pin;
    int quick, csv, json, poll_idle, startup, limits_only;
    unsigned tests;
    const char *plot;
    uint64_t segsize;
} o = {.iters = 10000, .reps = 5, .window = 64, .pin = 1, .tests = T_ALL};

#define DEFAULT_LONG_MAX (4 * MiB)
#define DEFAULT_PUT_MAX (16 * MiB)
#define QUICK_MAX (64 * KiB)
#define LAT_BYTES (64 * MiB)  /* payload per latency repetition: caps iterations */
#define BW_BYTES (256 * MiB)  /* payload per bandwidth repetition */

static void usage(void)
{
    printf(
"Usage: pshmrun -n 2 pshm-pingpong [options]\n"
"       pshm-pingpong --limits-only [options]\n"
"       pshmrun -n P pshm-pingpong --poll-idle | --startup [options]\n"
"\n"
"Latency, bandwidth and message rate between two processes through pshm, each\n"
"next to the machine's limit between the same two cores: a cache-line hand-off\n"
"(Short), a 1-copy shared ring (Medium, put latency) and a local memcpy (Long,\n"
"put and get bandwidth). ratio = measured / limit (latency: >= 1 is slower than\n"
"the limit; bandwidth and rate: <= 1 is the fraction of the limit reached).\n"
"\n"
"Tests:\n"
"  --tests LIST     comma-separated: short, medium, long, put, get, flood, bw,\n"
"                   limits, all (default all). short: Short AM with 0, 2 and 16\n"
"                   args; medium/long/put: ping-pong over sizes; get: pshm_get\n"
"                   call time; flood: one-way Short AMs per second; bw: streaming\n"
"                   bandwidth of Medium, Long, put and get; limits: the baselines\n"
"  --quick          few iterations and sizes (smoke test, ~1-2 s)\n"
"  --limits-only    only the limits, in two forked processes, without pshmrun\n"
"  --poll-idle      ns per pshm_poll() with no traffic, any -n; the other ranks\n"
"                   sleep meanwhile\n"
"  --startup        pshm_init, pshm_attach, first round trip and finalize times,\n"
"                   any -n (with --segsize)\n"
"\n"
"Sizes:\n"
"  --sizes LIST     comma-separated sizes (4096, 64K, 1M) for every sweep\n"
"  --min-size N     smallest size of the default sweeps (0, 8, 16, ... powers of 2)\n"
"  --max-size N     largest size of the Long, put and get sweeps (default 4M for\n"
"                   Long, 16M for put/get; Medium stops at pshm_am_max_medium)\n"
"  --segsize N      segment per process (default: what the sizes need; 2M for\n"
"                   --poll-idle and --startup)\n"
"\n"
"Repetitions:\n"
"  --iters N        timed iterations per repetition (default 10000; fewer for\n"
"                   large sizes, at most 64 MiB moved per repetition); also the\n"
"                   base of message counts for flood and bw (x20, x10)\n"
"  --reps R         repetitions (default 5)\n"
"  --warmup N       untimed iterations before each repetition (default iters/10)\n"
"  --window W       messages between acknowledgements in flood and bw (default 64)\n"
"\n"
"Placement:\n"
"  --cpus A,B,...   rank r runs on CPU LIST[r %% len] (default: the r %% n-th CPU\n"
"                   this process may use)\n"
"  --no-pin         do not pin\n"
"\n"
"Output (only rank 0 prints):\n"
"  (default)        aligned tables: size, median, p99, limit, ratio\n"
"  --csv            CSV: test,size,unit,median,p99,limit,ratio,reps,iters\n"
"  --json           one JSON object with the header and one record per result\n"
"  --plot FILE      latency and bandwidth against size as SVG: FILE and FILE with\n"
"                   -bw before the extension (.png: through gnuplot)\n"
"  -h, --help       this text\n"
"\n"
"Latency is one-way = round trip / 2 (Short: size is bytes of arguments; get:\n"
"time of one pshm_get call). median = median of the repetitions' medians; p99 =\n"
"99th percentile of all timed iterations pooled. Bandwidth GB/s = 1e9 B/s over\n"
"the timed loop of a repetition: median of the repetitions, p99 column = the\n"
"slowest repetition. Exit status: 0 success, 1 error, 2 bad usage.\n");
}

static uint64_t parse_size(const char *flag, const char *s)
{
    uint64_t v;
    if (env_parse_size(flag, s, 0, 1ull << 40, &v) < 0)
        cli_usage_error("%s", pshm_last_error());
    return v;
}

/* Splits a comma list; each item goes to fn. Empty items are errors. */
static void parse_list(const char *flag, const char *s, void (*fn)(const char *flag, const char *item))
{
    char buf[1024];
    if (strlen(s) >= sizeof buf)
        cli_usage_error("%s: list too long", flag);
    strcpy(buf, s);
    char *p = buf;
    for (;;) {
        char *c = strchr(p, ',');
        if (c) *c = '\0';
        if (*p == '\0')
            cli_usage_error("%s '%s': empty item in the list", flag, s);
        fn(flag, p);
        if (!c) break;
        p = c + 1;
    }
}

static void add_size(const char *flag, const char *item)
{
    if (o.nsizes == MAX_SIZES)
        cli_usage_error("%s: at most %d sizes", flag, MAX_SIZES);
    o.sizes[o.nsizes++] = parse_size(flag, item);
}

static void add_test(const char *flag, const char *item)
{
    for (size_t i = 0; i < PSHM_ARRAY_LEN(test_names); i++)
        if (strcmp(item, test_names[i].name) == 0) {
            o.tests |= test_names[i].bit;
            return;
        }
    cli_usage_error("%s: unknown test '%s' (short, medium, long, put, get, flood, bw, limits, all)",
                    flag, item);
}

static cpu_set_t allowed_cpus;

static void add_cpu(const char *flag, const char *item)
{
    if (o.ncpus == MAX_CPUS)
        cli_usage_error("%s: at most %d CPUs", flag, MAX_CPUS);
    int c = (int)cli_u64(flag, item, 0, CPU_SETSIZE - 1);
    if (!CPU_ISSET(c, &allowed_cpus))
        cli_usage_error("%s: CPU %d is not one this process may run on (see taskset -p %d)", flag, c,
                        (int)getpid());
    o.cpus[o.ncpus++] = c;
}

static int have_program(const char *name)
{
    const char *path = getenv("PATH");
    char buf[PSHM_PATH_MAX];
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && n + strlen(name) + 2 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
            if (access(buf, X_OK) == 0) return 1;
        }
        path += n + (path[n] == ':');
    }
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static void parse_args(int argc, char **argv)
{
    static const char *const f_iters[] = {"--iters", NULL}, *const f_reps[] = {"--reps", NULL},
                             *const f_warm[] = {"--warmup", NULL}, *const f_win[] = {"--window", NULL},
                             *const f_sizes[] = {"--sizes", NULL}, *const f_min[] = {"--min-size", NULL},
                             *const f_max[] = {"--max-size", NULL}, *const f_cpus[] = {"--cpus", NULL},
                             *const f_tests[] = {"--tests", NULL}, *const f_plot[] = {"--plot", NULL},
                             *const f_seg[] = {"--segsize", NULL};
    int tests_given = 0;
    const char *v;

    if (sched_getaffinity(0, sizeof allowed_cpus, &allowed_cpus) != 0) {
        CPU_ZERO(&allowed_cpus);
        CPU_SET(0, &allowed_cpus);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            exit(0);
        } else if (cli_flag_value(argc, argv, &i, f_iters, &v)) {
            o.iters = (long)cli_u64("--iters", v, 1, 100000000);
            o.iters_set = 1;
        } else if (cli_flag_value(argc, argv, &i, f_reps, &v)) {
            o.reps = (int)cli_u64("--reps", v, 1, 1000);
        } else if (cli_flag_value(argc, argv, &i, f_warm, &v)) {
            o.warmup = (long)cli_u64("--warmup", v, 0, 100000000);
            o.warmup_set = 1;
        } else if (cli_flag_value(argc, argv, &i, f_win, &v)) {
            o.window = (long)cli_u64("--window", v, 1, 1000000);
        } else if (cli_flag_value(argc, argv, &i, f_sizes, &v)) {
            o.nsizes = 0;
            parse_list("--sizes", v, add_size);
        } else if (cli_flag_value(argc, argv, &i, f_min, &v)) {
            o.min_size = parse_size("--min-size", v);
        } else if (cli_flag_value(argc, argv, &i, f_max, &v)) {
            o.max_size = parse_size("--max-size", v);
            o.max_set = 1;
        } else if (cli_flag_value(argc, argv, &i, f_cpus, &v)) {
            o.ncpus = 0;
            parse_list("--cpus", v, add_cpu);
        } else if (cli_flag_value(argc, argv, &i, f_tests, &v)) {
            if (!tests_given) o.tests = 0;
            tests_given = 1;
            parse_list("--tests", v, add_test);
        } else if (cli_flag_value(argc, argv, &i, f_plot, &v)) {
            if (*v == '\0') cli_usage_error("--plot needs a file name");
            o.plot = v;
        } else if (cli_flag_value(argc, argv, &i, f_seg, &v)) {
            o.segsize = parse_size("--segsize", v);
            if (o.segsize == 0) cli_usage_error("--segsize must be at least 2M");
        } else if (strcmp(a, "--no-pin") == 0) {
            o.pin = 0;
        } else if (strcmp(a, "--quick") == 0) {
            o.quick = 1;
        } else if (strcmp(a, "--csv") == 0) {
            o.csv = 1;
        } else if (strcmp(a, "--json") == 0) {
            o.json = 1;
        } else if (strcmp(a, "--poll-idle") == 0) {
            o.poll_idle = 1;
        } else if (strcmp(a, "--startup") == 0) {
            o.startup = 1;
        } else if (strcmp(a, "--limits-only") == 0) {
            o.limits_only = 1;
        } else if (a[0] == '-') {
            cli_usage_error("unknown option '%s'", a);
        } else {
            cli_usage_error("unexpected argument '%s'", a);
        }
    }
    if (o.csv && o.json) cli_usage_error("--csv and --json are exclusive");
    if (o.poll_idle + o.startup + o.limits_only > 1)
        cli_usage_error("--poll-idle, --startup and --limits-only are exclusive");
    if (o.max_set && o.max_size < o.min_size)
        cli_usage_error("--max-size %llu is below --min-size %llu", (unsigned long long)o.max_size,
                        (unsigned long long)o.min_size);
    if (o.plot && ends_with(o.plot, ".png") && !have_program("gnuplot"))
        cli_usage_error("--plot %s: PNG output needs gnuplot, which is not installed; "
                        "give a .svg file name instead", o.plot);
    if (o.quick) {
        if (!o.iters_set) o.iters = 300;
        o.reps = o.reps < 2 ? o.reps : 2;
        if (!o.max_set) o.max_size = QUICK_MAX, o.max_set = 1;
    }
    if (!o.warmup_set) o.warmup = -1; /* per size: a tenth of the iterations */
}

/* ------------------------------------------------------------------ timing */

static double tick_ns = 1.0; /* ns per tick */
static int use_tsc;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static inline uint64_t ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (use_tsc) return __builtin_ia32_rdtsc();
#endif
    return now_ns();
}

/* The TSC when it is invariant (constant_tsc + nonstop_tsc), calibrated
 * against CLOCK_MONOTONIC over 20 ms; else clock_gettime. */
static void timer_init(void)
{
#if defined(__x86_64__) || defined(__i386__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int ok = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    if (f) fclose(f);
    if (!ok) return;
    uint64_t t0 = now_ns(), c0 = __builtin_ia32_rdtsc(), t1;
    while ((t1 = now_ns()) - t0 < 20000000) {}
    uint64_t c1 = __builtin_ia32_rdtsc();
    if (c1 > c0) {
        tick_ns = (double)(t1 - t0) / (double)(c1 - c0);
        use_tsc = 1;
    }
#endif
}


/* ------------------------------------------------------------------ math */

/* The few functions of libm the output needs (the tools link libc only). */
static double xmin2(double a, double b) { return a < b ? a : b; }
static double xmax2(double a, double b) { return a > b ? a : b; }
static double xfloor(double x) { double t = (double)(long long)x; return t > x ? t - 1 : t; }
static double xceil(double x) { double t = (double)(long long)x; return t < x ? t + 1 : t; }

/* log2 for x > 0: exponent by halving, then ln of the mantissa by the atanh series. */
static double xlog2(double x)
{
    int e = 0;
    while (x >= 2) x /= 2, e++;
    while (x < 1) x *= 2, e--;
    double z = (x - 1) / (x + 1), z2 = z * z, term = z, sum = 0;
    for (int k = 1; k < 40; k += 2, term *= z2) sum += term / k;
    return e + 2 * sum / 0.69314718055994530942;
}
static double xlog10(double x) { return xlog2(x) * 0.30102999566398119521; }
/* b**k for an integer k. */
static double xpowi(double b, long k)
{
    double r = 1;
    for (long i = 0; i < (k < 0 ? -k : k); i++) r *= b;
    return k < 0 ? 1 / r : r;
}

/* ------------------------------------------------------------------ results */

typedef struct result {
    char test[24];
    const char *unit;
    uint64_t size;
    double median, p99, limit, ratio;
    int reps;
    long iters;
} result_t;

static result_t *res;
static size_t nres, capres;
static char notes[8][256];
static int nnotes;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    va_list ap;
    if (nnotes == (int)PSHM_ARRAY_LEN(notes)) return;
    va_start(ap, fmt);
    vsnprintf(notes[nnotes], sizeof notes[0], fmt, ap);
    va_end(ap);
    if (!o.csv && !o.json) printf("# NOTE: %s\n", notes[nnotes]);
    else fprintf(stderr, "pshm-pingpong: note: %s\n", notes[nnotes]);
    nnotes++;
}

static const result_t *find_result(const char *test, uint64_t size)
{
    for (size_t i = 0; i < nres; i++)
        if (strcmp(res[i].test, test) == 0 && (res[i].size == size || size == UINT64_MAX))
            return &res[i];
    return NULL;
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

static void print_row(const result_t *r)
{
    static char last[24];
    if (o.csv || o.json) return;
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

static void add_result(const char *test, const char *unit, uint64_t size, double median, double p99,
                       double limit, long iters)
{
    if (nres == capres) {
        capres = capres ? 2 * capres : 64;
        res = realloc(res, capres * sizeof *res);
        if (!res) {
            fprintf(stderr, "pshm-pingpong: out of memory\n");
            exit(1);
        }
    }
    result_t *r = &res[nres++];
    snprintf(r->test, sizeof r->test, "%s", test);
    r->unit = unit;
    r->size = size;
    r->median = median;
    r->p99 = p99;
    r->limit = limit;
    r->ratio = isnan(limit) || limit <= 0 ? NAN : median / limit;
    r->reps = o.reps;
    r->iters = iters;
    print_row(r);
}

static double limit_of(const char *test, uint64_t size)
{
    const result_t *r = find_result(test, size);
    return r ? r->median : NAN;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_u64(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

static double median_dbl(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Median per iteration over blocks of LAT_BLOCK consecutive iterations. The
 * TSC of some machines (AMD Zen under a hypervisor) advances in steps of
 * ~30 ns, so the median of single iterations of a ~100 ns round trip can
 * only take a few values; summing a block averages the rounding out while a
 * median over blocks still ignores the outliers. Applied alike to the limits
 * and to pshm. Sorts nothing in v.
 */
#define LAT_BLOCK 16
static double median_blocks(const uint64_t *v, size_t n)
{
    size_t nb = n / LAT_BLOCK;
    if (nb < 5) {
        uint64_t *c = malloc(n * sizeof *c);
        if (!c) return NAN;
        memcpy(c, v, n * sizeof *c);
        double m = median_u64(c, n);
        free(c);
        return m;
    }
    double *b = malloc(nb * sizeof *b);
    if (!b) return NAN;
    for (size_t k = 0; k < nb; k++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < LAT_BLOCK; i++) sum += v[k * LAT_BLOCK + i];
        b[k] = (double)sum / LAT_BLOCK;
    }
    double m = median_dbl(b, nb);
    free(b);
    return m;
}

/* ------------------------------------------------------------------ job state */

/* Segment layout (owner offsets, every rank's segment):
 *   [0, 1M)      limits area (used in rank 0's segment only), lim_area_t
 *   [1M, +64)    flag line: put notifications written by the peer
 *   [1M+4K, 2M)  start-up records, 16 bytes per rank
 *   [2M, ...)    data area: Long and put targets, get sources */
#define OFF_LIM 0
#define OFF_FLAG (1 * MiB)
#define OFF_STARTUP (1 * MiB + 4 * KiB)
#define OFF_DATA (2 * MiB)

#define LIM_NSLOT 8
#define LIM_CHUNK (32 * KiB)
#define LIM_INL 48

typedef struct lim_line {
    _Atomic uint64_t v;
    uint64_t pad[7];
} __attribute__((aligned(64))) lim_line_t;

/* One cache line: sequence number and payload travel together. */
typedef struct lim_slot {
    _Atomic uint64_t seq;
    uint64_t payload[7];
} __attribute__((aligned(64))) lim_slot_t;

/* Ring slot header: seq != 0 means full (seq = message number + 1). */
typedef struct lim_hdr {
    _Atomic uint64_t seq;
    uint64_t len;
    unsigned char inl[LIM_INL]; /* payloads up to 48 bytes travel in the header */
} __attribute__((aligned(64))) lim_hdr_t;

typedef struct lim_ring {
    lim_hdr_t hdr[LIM_NSLOT];
    unsigned char data[LIM_NSLOT][LIM_CHUNK];
} lim_ring_t;

typedef struct lim_area {
    lim_line_t arrive[2];                    /* spin barrier: epochs reached, one line per side */
    struct {
        int64_t pid[2], cpu[2];
    } __attribute__((aligned(64))) who;      /* written before the first barrier */
    lim_slot_t ping, pong;                   /* hand-off: 0 -> 1, 1 -> 0 */
    lim_ring_t ring[2];                      /* [0]: 0 -> 1, [1]: 1 -> 0 */
} lim_area_t;
_Static_assert(sizeof(lim_area_t) <= OFF_FLAG, "limits area overlaps the flag line");
_Static_assert(sizeof(lim_hdr_t) == 64 && sizeof(lim_slot_t) == 64, "one cache line each");

static struct {
    pshm_ctx_t *ctx;       /* NULL in --limits-only */
    int me, peer, size;    /* me: rank (0 or 1 in the pair) */
    pid_t peer_pid, parent;
    int same_core;
    int cpu[2];                 /* where the pair runs (-1: not known) */
    lim_area_t *lim;
    unsigned char *src, *dst;   /* private buffers */
    void *my_data;              /* my data area (local view) */
    void *peer_data;            /* the peer's data area, owner address (for put/get/Long) */
    _Atomic uint64_t *my_flag;  /* written by the peer */
    _Atomic uint64_t *peer_flag;/* the peer's flag line, local view */
    uint64_t flag_out, flag_in; /* sequence numbers sent / expected */
    uint64_t lim_epoch, hs_seq, ring_head[2];
    uint64_t pongs, count, acks, exp_pongs, exp_acks;
    int hrc;                    /* first error of a handler's reply */
    size_t max_medium;
} g;

static volatile unsigned char sink_byte;
static uint64_t sink_words[8];

static void die(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void die(int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pshm-pingpong: rank %d: ", g.me);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (g.ctx) pshm_abort(g.ctx, code);
    exit(code);
}

/* A failed library call ends the job; a rank that fails because another one
 * aborted first stays quiet (that one printed why). */
static void fail(const char *call, int rc)
{
    if (rc == -ECANCELED) {
        if (g.ctx) pshm_abort(g.ctx, 1);
        exit(1);
    }
    const char *why = pshm_last_error();
    die(1, "%.*s failed: %s", (int)strcspn(call, "("), call, *why ? why : pshm_strerror(rc));
}
#define CHK(call) do { int rc_ = (call); if (rc_ < 0) fail(#call, rc_); } while (0)

/* ------------------------------------------------------------ limits: waiting */

typedef struct spin { uint32_t n; uint64_t t0; } spin_t;

/* A step of a limits wait: PAUSE (yield if both processes share a CPU); every
 * 16K steps checks that the peer is alive and that 60 s have not passed. */
static void lim_spin(spin_t *s)
{
    if (g.same_core) sched_yield();
    else pshm_cpu_relax();
    if ((++s->n & 0x3fff) != 0) return;
    int dead;
    if (!g.ctx && g.me == 0) dead = waitpid(g.peer_pid, NULL, WNOHANG) == g.peer_pid;
    else if (!g.ctx) dead = getppid() != g.parent;
    else dead = g.peer_pid > 0 && kill(g.peer_pid, 0) != 0 && errno == ESRCH;
    if (dead) die(1, "the other process (pid %d) died", (int)g.peer_pid);
    uint64_t t = now_ns();
    if (s->t0 == 0) s->t0 = t;
    else if (t - s->t0 > 60000000000ull) die(1, "no answer from the other process in 60 s");
}

static void wait_eq(_Atomic uint64_t *p, uint64_t v)
{
    spin_t s = {0, 0};
    while (atomic_load_explicit(p, memory_order_acquire) != v) lim_spin(&s);
}

static void lim_barrier(void)
{
    uint64_t e = ++g.lim_epoch;
    spin_t s = {0, 0};
    /* release: my writes before the barrier are seen by the peer after it */
    atomic_store_explicit(&g.lim->arrive[g.me].v, e, memory_order_release);
    while (atomic_load_explicit(&g.lim->arrive[1 - g.me].v, memory_order_acquire) < e) lim_spin(&s);
}

static void sync_pair(void)
{
    if (g.ctx) CHK(pshm_barrier(g.ctx));
    else lim_barrier();
}

/* ------------------------------------------------------------ limits: kernels */

static void handoff_op(size_t size)
{
    (void)size;
    uint64_t i = ++g.hs_seq;
    for (int k = 0; k < 7; k++) g.lim->ping.payload[k] = i + (uint64_t)k;
    atomic_store_explicit(&g.lim->ping.seq, i, memory_order_release); /* publishes the payload */
    wait_eq(&g.lim->pong.seq, i);
    memcpy(sink_words, g.lim->pong.payload, 56);
}

static void handoff_serve(size_t size, long n)
{
    (void)size;
    for (long j = 0; j < n; j++) {
        uint64_t i = ++g.hs_seq;
        wait_eq(&g.lim->ping.seq, i);
        memcpy(sink_words, g.lim->ping.payload, 56);
        for (int k = 0; k < 7; k++) g.lim->pong.payload[k] = sink_words[k] + 1;
        atomic_store_explicit(&g.lim->pong.seq, i, memory_order_release);
    }
}

static void ring_send(int k, const unsigned char *src, size_t len)
{
    lim_ring_t *r = &g.lim->ring[k];
    size_t off = 0;
    do {
        uint64_t h = g.ring_head[k];
        lim_hdr_t *hd = &r->hdr[h % LIM_NSLOT];
        size_t n = len - off < LIM_CHUNK ? len - off : LIM_CHUNK;
        wait_eq(&hd->seq, 0); /* acquire: the receiver is done with the slot */
        if (n <= LIM_INL) memcpy(hd->inl, src + off, n);
        else memcpy(r->data[h % LIM_NSLOT], src + off, n);
        hd->len = n;
        atomic_store_explicit(&hd->seq, h + 1, memory_order_release); /* publishes len + data */
        g.ring_head[k] = h + 1;
        off += n;
    } while (off < len);
}

/* Reads in place: the inline bytes, or the first byte of a chunk. */
static void ring_recv(int k, size_t len)
{
    lim_ring_t *r = &g.lim->ring[k];
    size_t off = 0;
    do {
        uint64_t h = g.ring_head[k];
        lim_hdr_t *hd = &r->hdr[h % LIM_NSLOT];
        wait_eq(&hd->seq, h + 1);
        size_t n = hd->len;
        if (n <= LIM_INL) memcpy(sink_words, hd->inl, n);
        else sink_byte = r->data[h % LIM_NSLOT][0];
        atomic_store_explicit(&hd->seq, 0, memory_order_release); /* my reads happen before reuse */
        g.ring_head[k] = h + 1;
        off += n;
    } while (off < len);
}

static void ring_op(size_t size)
{
    ring_send(0, g.src, size);
    ring_recv(1, size);
}

static void ring_serve(size_t size, long n)
{
    for (long j = 0; j < n; j++) {
        ring_recv(0, size);
        ring_send(1, g.src, size);
    }
}

static void ring_stream(size_t size, long nwin, long window)
{
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++) ring_send(0, g.src, size);
        ring_recv(1, 4);
    }
}

static void ring_sink(size_t size, long nwin, long window)
{
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++) ring_recv(0, size);
        ring_send(1, g.src, 4);
    }
}

static void memcpy_op(size_t size) { memcpy(g.dst, g.src, size); }

static void memcpy_stream(size_t size, long nwin, long window)
{
    for (long i = 0; i < nwin * window; i++) memcpy(g.dst, g.src, size);
}

static void serve_nothing(size_t size, long n) { (void)size, (void)n; }
static void sink_nothing(size_t size, long nwin, long window) { (void)size, (void)nwin, (void)window; }

/* ------------------------------------------------------------ measurement */

typedef void (*op_fn)(size_t size);               /* one round on rank 0 */
typedef void (*serve_fn)(size_t size, long n);    /* rank 1's part of n rounds */
typedef void (*stream_fn)(size_t size, long nwin, long window);

static void reset_counters(void)
{
    g.pongs = g.count = g.acks = g.exp_pongs = g.exp_acks = 0;
}

static long lat_iters(size_t size)
{
    long n = o.iters, floor = o.iters < 10 ? o.iters : 10;
    if (size > 0 && (uint64_t)n > LAT_BYTES / size) n = (long)(LAT_BYTES / size);
    return n < floor ? floor : n;
}

static long warm_of(long iters)
{
    if (o.warmup >= 0) return o.warmup;
    return iters / 10 > 0 ? iters / 10 : 1;
}

/*
 * Times `iters` calls of op per repetition on rank 0 (rank 1 runs serve).
 * halve: a round trip, reported as one-way. Returns nothing; records the
 * result (median of the repetitions' medians, p99 of all pooled) in us.
 */
static void lat_run(const char *test, size_t size, op_fn op, serve_fn serve, int halve,
                    double limit)
{
    long iters = lat_iters(size), warm = warm_of(iters);
    uint64_t *pool = NULL, *rt = NULL;
    double *meds = NULL;
    if (g.me == 0) {
        pool = malloc((size_t)o.reps * (size_t)iters * sizeof *pool);
        rt = malloc((size_t)iters * sizeof *rt);
        meds = malloc((size_t)o.reps * sizeof *meds);
        if (!pool || !rt || !meds) die(1, "out of memory for %ld timings", iters * o.reps);
    }
    for (int r = 0; r < o.reps; r++) {
        reset_counters();
        sync_pair();
        if (g.me != 0) {
            serve(size, warm + iters);
            continue;
        }
        for (long i = 0; i < warm; i++) op(size);
        for (long i = 0; i < iters; i++) {
            uint64_t t0 = ticks();
            op(size);
            rt[i] = ticks() - t0;
        }
        memcpy(pool + (size_t)r * (size_t)iters, rt, (size_t)iters * sizeof *rt);
        meds[r] = median_blocks(rt, (size_t)iters);
    }
    if (g.me == 0) {
        size_t n = (size_t)o.reps * (size_t)iters, k = (n * 99 + 99) / 100;
        qsort(pool, n, sizeof *pool, cmp_u64);
        double scale = tick_ns / 1000.0 / (halve ? 2 : 1);
        add_result(test, "us", size, median_dbl(meds, (size_t)o.reps) * scale,
                   (double)pool[k > 0 ? k - 1 : 0] * scale, limit, iters);
    }
    free(pool), free(rt), free(meds);
}

/* Messages of `size` bytes per repetition, as nwin windows of `window`. */
static void bw_shape(size_t size, long base, long *nwin, long *window)
{
    long w = o.window, msgs = base;
    if (size > 0 && (uint64_t)msgs > BW_BYTES / size) msgs = (long)(BW_BYTES / size);
    if (o.quick && size > 0 && (uint64_t)msgs > 8 * MiB / size) msgs = (long)(8 * MiB / size);
    if (msgs < 1) msgs = 1;
    if (w > msgs) w = msgs;
    *window = w;
    *nwin = msgs / w;
}

/* Streams nwin windows per repetition; records the rate (GB/s of `size`
 * messages, or million messages/s when size_unit is 0). */
static void bw_run(const char *test, size_t size, long base, stream_fn active, stream_fn passive,
                   int msgs_rate, double limit)
{
    long nwin, window;
    bw_shape(size, base, &nwin, &window);
    long warm = nwin / 10 > 0 ? nwin / 10 : 1;
    double vals[1000] = {0};
    for (int r = 0; r < o.reps; r++) {
        reset_counters();
        sync_pair();
        if (g.me != 0) {
            passive(size, warm + nwin, window);
            continue;
        }
        active(size, warm, window);
        uint64_t t0 = ticks();
        active(size, nwin, window);
        double ns = (double)(ticks() - t0) * tick_ns;
        double msgs = (double)nwin * (double)window;
        vals[r] = msgs_rate ? msgs / ns * 1e3 : msgs * (double)size / ns;
    }
    if (g.me == 0) {
        double worst = vals[0];
        for (int r = 1; r < o.reps; r++) worst = vals[r] < worst ? vals[r] : worst;
        add_result(test, msgs_rate ? "Mmsg/s" : "GB/s", size, median_dbl(vals, (size_t)o.reps),
                   worst, limit, nwin * window);
    }
}

/* ------------------------------------------------------------ sizes */

typedef struct sizes { size_t v[MAX_SIZES + 32]; int n; } sizes_t;

/* The sweep 0, 8, 16, ... up to max, filtered by --min-size, or --sizes. */
static sizes_t sweep(uint64_t max, int nonzero)
{
    sizes_t s = {.n = 0};
    if (o.nsizes > 0) {
        for (int i = 0; i < o.nsizes; i++)
            if (o.sizes[i] <= max && !(nonzero && o.sizes[i] == 0)) s.v[s.n++] = o.sizes[i];
        return s;
    }
    if (o.quick) {
        static const size_t q[] = {0, 8, 64, 4096, 65536};
        for (size_t i = 0; i < PSHM_ARRAY_LEN(q); i++)
            if (q[i] <= max && q[i] >= o.min_size && !(nonzero && q[i] == 0)) s.v[s.n++] = q[i];
        return s;
    }
    if (!nonzero && o.min_size == 0) s.v[s.n++] = 0;
    for (uint64_t v = 8; v <= max && s.n < (int)PSHM_ARRAY_LEN(s.v); v *= 2)
        if (v >= o.min_size) s.v[s.n++] = v;
    return s;
}

static void sizes_union(sizes_t *a, const sizes_t *b)
{
    for (int i = 0; i < b->n; i++) {
        int found = 0;
        for (int j = 0; j < a->n; j++) found |= a->v[j] == b->v[i];
        if (!found && a->n < (int)PSHM_ARRAY_LEN(a->v)) a->v[a->n++] = b->v[i];
    }
    qsort(a->v, (size_t)a->n, sizeof a->v[0], cmp_u64);
}

static uint64_t long_max(void) { return o.max_set ? o.max_size : DEFAULT_LONG_MAX; }
static uint64_t put_max(void) { return o.max_set ? o.max_size : DEFAULT_PUT_MAX; }

/* The largest size any sweep may use: sizes the private buffers and segment. */
static uint64_t biggest_size(void)
{
    uint64_t m = put_max() > long_max() ? put_max() : long_max();
    if (o.nsizes > 0) {
        m = 64 * KiB;
        for (int i = 0; i < o.nsizes; i++) m = o.sizes[i] > m ? o.sizes[i] : m;
    }
    return m;
}

/* ------------------------------------------------------------ run hygiene */

/* Median round trip of the cache-line hand-off, in ns (rank 0; 0 on rank 1). */
static double handoff_probe(long n)
{
    uint64_t *rt = g.me == 0 ? malloc((size_t)n * sizeof *rt) : NULL;
    sync_pair();
    if (g.me != 0) {
        handoff_serve(0, n);
        return 0;
    }
    if (!rt) die(1, "out of memory");
    for (long i = 0; i < n; i++) {
        uint64_t t0 = ticks();
        handoff_op(0);
        rt[i] = ticks() - t0;
    }
    double m = median_blocks(rt, (size_t)n) * tick_ns;
    free(rt);
    return m;
}

/* CPU time in clock ticks: of the whole machine (busy, steal) from /proc/stat,
 * of one process from /proc/PID/stat. */
static void machine_ticks(uint64_t *busy, uint64_t *steal)
{
    unsigned long long u = 0, ni = 0, sy = 0, id = 0, io = 0, irq = 0, sirq = 0, st = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (f) {
        if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni, &sy, &id, &io, &irq,
                   &sirq, &st) < 4)
            u = ni = sy = irq = sirq = st = 0;
        fclose(f);
    }
    *busy = u + ni + sy + irq + sirq;
    *steal = st;
}

static uint64_t process_ticks(pid_t pid)
{
    char path[64], buf[1024];
    unsigned long long ut = 0, stt = 0;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stt) != 2)
        ut = stt = 0;
    return ut + stt;
}

/* What the rest of the machine did while the pair ran: CPU used by other
 * processes, and time the hypervisor gave to other guests (steal). */
static struct { uint64_t t_ns, busy, steal, pair; } mark;

static uint64_t pair_ticks(void) { return process_ticks(getpid()) + process_ticks(g.peer_pid); }

static void interference_start(void)
{
    mark.t_ns = now_ns();
    machine_ticks(&mark.busy, &mark.steal);
    mark.pair = pair_ticks();
}

static void interference_report(void)
{
    uint64_t busy, steal, pair = pair_ticks();
    machine_ticks(&busy, &steal);
    double hz = (double)sysconf(_SC_CLK_TCK), secs = (double)(now_ns() - mark.t_ns) / 1e9;
    if (hz <= 0 || secs < 0.5 || busy < mark.busy) return;
    double other = ((double)(busy - mark.busy) - (double)(pair - mark.pair)) / hz / secs;
    double stolen = (double)(steal - mark.steal) / hz / secs;
    if (other > 0.10)
        note("other processes used %.0f%% of a CPU during the run; distrust this run", other * 100);
    if (stolen > 0.05)
        note("the hypervisor took %.0f%% of a CPU (steal time) during the run; distrust this run",
             stolen * 100);
}

/* The hand-off again at the end: host vCPU placement may have moved. */
static void placement_recheck(void)
{
    const result_t *h = find_result("limit-handoff", 56);
    double end = handoff_probe(o.quick ? 500 : 5000);
    if (g.me != 0 || !h) return;
    double start = h->median * 2000.0;
    if (end < 120.0 && start >= 120.0)
        note("cache-line round trip %.0f ns at the end: the CPUs became SMT siblings during the run; "
             "distrust this run", end);
    else if (end > 1.5 * start || start > 1.5 * end)
        note("cache-line round trip moved from %.0f ns to %.0f ns during the run (placement of the "
             "CPUs changed); distrust the ratios", start, end);
}

/* ------------------------------------------------------------ the limits */

static void run_limits(void)
{
    unsigned t = o.tests;
    sizes_t lat = {.n = 0}, bw = {.n = 0}, mem = {.n = 0}, mbw = {.n = 0};
    sizes_t med = sweep(g.max_medium, 0), lng = sweep(long_max(), 0), put = sweep(put_max(), 0);
    if (t & T_MEDIUM) sizes_union(&lat, &med);
    if (t & T_LONG) sizes_union(&lat, &lng), sizes_union(&mem, &lng);
    if (t & T_PUT) sizes_union(&lat, &put);
    if (t & T_GET) sizes_union(&mem, &put);
    if (t & T_BW) {
        sizes_t mb = sweep(g.max_medium, 1), pb = sweep(put_max(), 1), lb = sweep(long_max(), 1);
        sizes_union(&bw, &mb);
        sizes_union(&mbw, &pb);
        sizes_union(&mbw, &lb);
    }
    lat_run("limit-handoff", 56, handoff_op, handoff_serve, 1, NAN);
    if (g.me == 0) {
        double rt = find_result("limit-handoff", 56)->median * 2000.0;
        if (rt < 120.0)
            note("cache-line round trip %.0f ns: the two CPUs behave like SMT siblings of one "
                 "core (normally 230-400 ns on a VM); distrust this run", rt);
    }
    for (int i = 0; i < lat.n; i++) lat_run("limit-ring", lat.v[i], ring_op, ring_serve, 1, NAN);
    if (t & T_FLOOD) bw_run("limit-ring-rate", 8, o.iters * 20, ring_stream, ring_sink, 1, NAN);
    for (int i = 0; i < bw.n; i++)
        bw_run("limit-ring-bw", bw.v[i], o.iters * 10, ring_stream, ring_sink, 0, NAN);
    for (int i = 0; i < mem.n; i++) lat_run("limit-memcpy", mem.v[i], memcpy_op, serve_nothing, 0, NAN);
    for (int i = 0; i < mbw.n; i++)
        bw_run("limit-memcpy-bw", mbw.v[i], o.iters * 10, memcpy_stream, sink_nothing, 0, NAN);
}

/* ------------------------------------------------------------ AM handlers */

enum { H_PING_SHORT = 1, H_PING_MEDIUM, H_PING_LONG, H_PONG, H_SINK, H_ACK };

static void h_ping_short(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)buf, (void)n;
    int rc = pshm_am_reply_short(tk, H_PONG, 0, nargs, args);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    g.count++;
}

/* Does what the 1-copy ring limit's receiver does: looks at the payload's
 * first byte in place, answers with the same size from its own buffer.
 * (Echoing `buf` would add a cross-core read of the whole payload that the
 * limit does not pay, and compare unlike things.) */
static void h_ping_medium(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)args, (void)nargs;
    if (n > 0) sink_byte = *(volatile unsigned char *)buf;
    int rc = pshm_am_reply_medium(tk, H_PONG, g.src, n, 0, 0, NULL);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    g.count++;
}

/* Replies from where the payload landed, into the requester's data area. */
static void h_ping_long(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)args, (void)nargs;
    int rc = pshm_am_reply_long(tk, H_PONG, buf, n, g.peer_data, 0, 0, NULL);
    if (rc < 0 && !g.hrc) g.hrc = rc;
    g.count++;
}

static void h_pong(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk, (void)args, (void)nargs;
    if (n > 0) sink_byte = *(volatile unsigned char *)buf;
    g.pongs++;
}

/* Counts, reads the payload's first byte in place (as the ring limit does),
 * and acknowledges every args[0] messages. */
static void h_sink(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    if (n > 0) sink_byte = *(volatile unsigned char *)buf;
    g.count++;
    if (nargs >= 1 && args[0] > 0 && g.count % args[0] == 0) {
        int rc = pshm_am_reply_short(tk, H_ACK, 0, 0, NULL);
        if (rc < 0 && !g.hrc) g.hrc = rc;
    }
}

static void h_ack(pshm_token_t *tk, void *buf, size_t n, const uint32_t *args, unsigned nargs)
{
    (void)tk, (void)buf, (void)n, (void)args, (void)nargs;
    g.acks++;
}

static const pshm_handler_entry_t handlers[] = {
    {H_PING_SHORT, h_ping_short, PSHM_AM_ANY_NARGS}, {H_PING_MEDIUM, h_ping_medium, PSHM_AM_ANY_NARGS},
    {H_PING_LONG, h_ping_long, PSHM_AM_ANY_NARGS},   {H_PONG, h_pong, PSHM_AM_ANY_NARGS},
    {H_SINK, h_sink, PSHM_AM_ANY_NARGS},             {H_ACK, h_ack, PSHM_AM_ANY_NARGS},
};

/* ------------------------------------------------------------ AM and put tests */

typedef struct until { uint64_t *ctr; uint64_t target; } until_t;

static int cond_reached(void *arg)
{
    until_t *u = arg;
    return *u->ctr >= u->target || g.hrc != 0;
}

static void wait_count(uint64_t *ctr, uint64_t target)
{
    until_t u = {ctr, target};
    CHK(pshm_wait_until(g.ctx, cond_reached, &u));
    if (g.hrc) fail("pshm_am_reply (in a handler)", g.hrc);
}

static int cond_flag(void *arg)
{
    until_t *u = arg;
    return atomic_load_explicit((_Atomic uint64_t *)u->ctr, memory_order_acquire) >= u->target;
}

/* Waits for the peer's next put notification. */
static void wait_flag(void)
{
    until_t u = {(uint64_t *)(void *)g.my_flag, ++g.flag_in};
    CHK(pshm_wait_until(g.ctx, cond_flag, &u));
}

static void signal_flag(void)
{
    /* release: the put's bytes are visible before the flag that announces them */
    atomic_store_explicit(g.peer_flag, ++g.flag_out, memory_order_release);
}

static uint32_t short_args[PSHM_AM_MAX_ARGS];

static void short_op(size_t size)
{
    CHK(pshm_am_request_short(g.ctx, g.peer, H_PING_SHORT, 0, (unsigned)(size / 4), short_args));
    wait_count(&g.pongs, ++g.exp_pongs);
}

static void medium_op(size_t size)
{
    CHK(pshm_am_request_medium(g.ctx, g.peer, H_PING_MEDIUM, g.src, size, 0, 0, NULL));
    wait_count(&g.pongs, ++g.exp_pongs);
}

static void long_op(size_t size)
{
    CHK(pshm_am_request_long(g.ctx, g.peer, H_PING_LONG, g.src, size, g.peer_data, 0, 0, NULL));
    wait_count(&g.pongs, ++g.exp_pongs);
}

/* Rank 1 of every AM ping-pong: its handlers reply. */
static void am_serve(size_t size, long n)
{
    (void)size;
    wait_count(&g.count, (uint64_t)n);
}

static void put_op(size_t size)
{
    CHK(pshm_put(g.ctx, g.peer, g.peer_data, g.src, size));
    signal_flag();
    wait_flag();
}

static void put_serve(size_t size, long n)
{
    for (long i = 0; i < n; i++) {
        wait_flag();
        CHK(pshm_put(g.ctx, g.peer, g.peer_data, g.src, size));
        signal_flag();
    }
}

static void get_op(size_t size) { CHK(pshm_get(g.ctx, g.peer, g.dst, g.peer_data, size)); }

static void flood_stream(size_t size, long nwin, long window)
{
    (void)size;
    uint32_t a[2] = {(uint32_t)window, 0};
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++, a[1]++)
            CHK(pshm_am_request_short(g.ctx, g.peer, H_SINK, 0, 2, a));
        wait_count(&g.acks, ++g.exp_acks);
    }
}

static void medium_stream(size_t size, long nwin, long window)
{
    uint32_t a = (uint32_t)window;
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++)
            CHK(pshm_am_request_medium(g.ctx, g.peer, H_SINK, g.src, size, 0, 1, &a));
        wait_count(&g.acks, ++g.exp_acks);
    }
}

static void long_stream(size_t size, long nwin, long window)
{
    uint32_t a = (uint32_t)window;
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++)
            CHK(pshm_am_request_long(g.ctx, g.peer, H_SINK, g.src, size, g.peer_data, 0, 1, &a));
        wait_count(&g.acks, ++g.exp_acks);
    }
}

static void am_sink(size_t size, long nwin, long window)
{
    (void)size;
    wait_count(&g.count, (uint64_t)(nwin * window));
}

/* Puts a window, then a flag; the peer answers with a flag (0-byte put). */
static void put_stream(size_t size, long nwin, long window)
{
    for (long w = 0; w < nwin; w++) {
        for (long j = 0; j < window; j++) CHK(pshm_put(g.ctx, g.peer, g.peer_data, g.src, size));
        signal_flag();
        wait_flag();
    }
}

static void put_sink(size_t size, long nwin, long window)
{
    (void)size, (void)window;
    put_serve(0, nwin);
}

static void get_stream(size_t size, long nwin, long window)
{
    for (long i = 0; i < nwin * window; i++) CHK(pshm_get(g.ctx, g.peer, g.dst, g.peer_data, size));
}

static void run_tests(void)
{
    unsigned t = o.tests;
    if (t & T_SHORT)
        for (size_t s = 0; s <= 64; s = s ? s * 8 : 8)
            lat_run("short", s, short_op, am_serve, 1, limit_of("limit-handoff", 56));
    sizes_t med = sweep(g.max_medium, 0), lng = sweep(long_max(), 0), put = sweep(put_max(), 0);
    if (t & T_MEDIUM)
        for (int i = 0; i < med.n; i++)
            lat_run("medium", med.v[i], medium_op, am_serve, 1, limit_of("limit-ring", med.v[i]));
    if (t & T_LONG)
        for (int i = 0; i < lng.n; i++)
            lat_run("long", lng.v[i], long_op, am_serve, 1, limit_of("limit-ring", lng.v[i]));
    if (t & T_PUT)
        for (int i = 0; i < put.n; i++)
            lat_run("put", put.v[i], put_op, put_serve, 1, limit_of("limit-ring", put.v[i]));
    if (t & T_GET)
        for (int i = 0; i < put.n; i++)
            lat_run("get", put.v[i], get_op, serve_nothing, 0, limit_of("limit-memcpy", put.v[i]));
    if (t & T_FLOOD)
        bw_run("flood", 8, o.iters * 20, flood_stream, am_sink, 1, limit_of("limit-ring-rate", 8));
    if (t & T_BW) {
        sizes_t mb = sweep(g.max_medium, 1), lb = sweep(long_max(), 1), pb = sweep(put_max(), 1);
        for (int i = 0; i < mb.n; i++)
            bw_run("medium-bw", mb.v[i], o.iters * 10, medium_stream, am_sink, 0,
                   limit_of("limit-ring-bw", mb.v[i]));
        for (int i = 0; i < lb.n; i++)
            bw_run("long-bw", lb.v[i], o.iters * 10, long_stream, am_sink, 0,
                   limit_of("limit-memcpy-bw", lb.v[i]));
        for (int i = 0; i < pb.n; i++)
            bw_run("put-bw", pb.v[i], o.iters * 10, put_stream, put_sink, 0,
                   limit_of("limit-memcpy-bw", pb.v[i]));
        for (int i = 0; i < pb.n; i++)
            bw_run("get-bw", pb.v[i], o.iters * 10, get_stream, sink_nothing, 0,
                   limit_of("limit-memcpy-bw", pb.v[i]));
    }
}

/* ------------------------------------------------------------ placement */

static int pin_cpu_for(int rank)
{
    if (o.ncpus > 0) return o.cpus[rank % o.ncpus];
    int n = CPU_COUNT(&allowed_cpus), k = rank % (n > 0 ? n : 1);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &allowed_cpus) && k-- == 0) return c;
    return 0;
}

static void pin(int rank)
{
    if (!o.pin) return;
    cpu_set_t s;
    int c = pin_cpu_for(rank);
    CPU_ZERO(&s);
    CPU_SET(c, &s);
    if (sched_setaffinity(0, sizeof s, &s) != 0) die(1, "cannot pin to CPU %d: %s", c, strerror(errno));
}

/* "0-1" or "0,2" from sysfs: is cpu b listed among the siblings of cpu a? */
static int smt_siblings(int a, int b)
{
    char path[128], buf[256];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", a);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int hit = 0;
    if (fgets(buf, sizeof buf, f)) {
        for (char *p = buf; *p;) {
            char *e;
            long lo = strtol(p, &e, 10), hi = lo;
            if (e == p) break;
            if (*e == '-') hi = strtol(e + 1, &e, 10);
            hit |= b >= lo && b <= hi;
            p = *e ? e + 1 : e;
        }
    }
    fclose(f);
    return hit;
}

/* Both processes record pid and CPU, then meet; rank 0 judges the placement. */
static void meet_peer(void)
{
    g.lim->who.pid[g.me] = getpid();
    g.lim->who.cpu[g.me] = sched_getcpu();
    sync_pair();
    if (g.ctx) g.peer_pid = (pid_t)g.lim->who.pid[1 - g.me];
    int a = g.cpu[0] = (int)g.lim->who.cpu[0], b = g.cpu[1] = (int)g.lim->who.cpu[1];
    g.same_core = o.pin && a == b;
    if (g.me != 0) return;
    if (!o.csv && !o.json) {
        printf("# pshm-pingpong: pshm %s; %s\n", pshm_version(),
               g.ctx ? "library between two processes" : "limits only (two forked processes)");
        printf("# CPUs %d,%d (%s); %d repetitions of %ld iterations (at most %llu MiB moved per "
               "repetition), warm-up %s, window %ld; %s timer\n",
               a, b, o.pin ? "pinned" : "not pinned, as last seen", o.reps, o.iters,
               (unsigned long long)(LAT_BYTES / MiB), o.warmup >= 0 ? "as given" : "iters/10",
               o.window, use_tsc ? "TSC" : "clock_gettime");
        printf("# latency us, one-way = round trip / 2; median of repetition medians (each over "
               "%d-iteration blocks); p99 of all iterations pooled\n"
               "# bandwidth GB/s (1e9 B/s), rate Mmsg/s: median of repetitions; "
               "worst = slowest repetition; ratio = value / limit\n", LAT_BLOCK);
    }
    if (g.same_core) note("both processes run on CPU %d: latencies are scheduler time slices", a);
    else if (o.pin && smt_siblings(a, b))
        note("CPUs %d and %d are SMT siblings of one core: faster than two cores would be", a, b);
}

/* ------------------------------------------------------------ output */

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

static void print_machine(void)
{
    if (o.csv) {
        puts("test,size,unit,median,p99,limit,ratio,reps,iters");
        for (size_t i = 0; i < nres; i++) {
            const result_t *r = &res[i];
            printf("%s,%llu,%s,%.6g,%.6g,", r->test, (unsigned long long)r->size, r->unit, r->median,
                   r->p99);
            if (!isnan(r->limit)) printf("%.6g", r->limit);
            putchar(',');
            if (!isnan(r->ratio)) printf("%.6g", r->ratio);
            printf(",%d,%ld\n", r->reps, r->iters);
        }
    } else if (o.json) {
        printf("{\"version\": ");
        print_json_str(stdout, pshm_version());
        printf(", \"cpus\": [%d, %d], \"pinned\": %s, \"reps\": %d, \"iters\": %ld, \"window\": %ld,\n",
               g.cpu[0], g.cpu[1],
               o.pin ? "true" : "false", o.reps, o.iters, o.window);
        printf(" \"notes\": [");
        for (int i = 0; i < nnotes; i++) {
            if (i) printf(", ");
            print_json_str(stdout, notes[i]);
        }
        printf("],\n \"results\": [\n");
        for (size_t i = 0; i < nres; i++) {
            const result_t *r = &res[i];
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

/* ------------------------------------------------------------ plots */

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                      "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

/* The tests of one panel: latency ("us") or bandwidth ("GB/s"); size 0 has no
 * place on a log axis and is left out. */
static int series_of(const char *unit, const char *names[], int max)
{
    int n = 0;
    for (size_t i = 0; i < nres; i++) {
        if (strcmp(res[i].unit, unit) != 0 || res[i].size == 0 || strcmp(res[i].test, "poll-idle") == 0)
            continue;
        int seen = 0;
        for (int k = 0; k < n; k++) seen |= strcmp(names[k], res[i].test) == 0;
        if (!seen && n < max) names[n++] = res[i].test;
    }
    return n;
}

static int write_svg(const char *file, const char *unit, const char *ylabel, const char *title)
{
    const char *names[16];
    int ns = series_of(unit, names, 16);
    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
    for (size_t i = 0; i < nres; i++) {
        const result_t *r = &res[i];
        if (strcmp(r->unit, unit) != 0 || r->size == 0 || r->median <= 0) continue;
        double x = xlog2((double)r->size), y = xlog10(r->median);
        xmin = xmin2(xmin, x), xmax = xmax2(xmax, x), ymin = xmin2(ymin, y), ymax = xmax2(ymax, y);
    }
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "pshm-pingpong: cannot write %s: %s\n", file, strerror(errno));
        return -1;
    }
    const double W = 900, H = 520, L = 80, R = 230, T = 40, B = 60, pw = W - L - R, ph = H - T - B;
    if (ns == 0) xmin = 0, xmax = 1, ymin = 0, ymax = 1;
    xmin = xfloor(xmin), xmax = xceil(xmax);
    if (xmax <= xmin) xmax = xmin + 1;
    ymin = xfloor(ymin), ymax = xceil(ymax);
    if (ymax <= ymin) ymax = ymin + 1;
#define PX(x) (L + ((x) - xmin) / (xmax - xmin) * pw)
#define PY(y) (T + ph - ((y) - ymin) / (ymax - ymin) * ph)
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"%.0f\" y=\"24\" font-size=\"15\" text-anchor=\"middle\">%s</text>\n",
            W, H, L + pw / 2, title);
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n",
            L, T, pw, ph);
    for (double x = xmin; x <= xmax; x++) {
        double v = xpowi(2, (long)x);
        char lab[32];
        if (v >= MiB) snprintf(lab, sizeof lab, "%.0fM", v / MiB);
        else if (v >= KiB) snprintf(lab, sizeof lab, "%.0fK", v / KiB);
        else snprintf(lab, sizeof lab, "%.0f", v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>\n", PX(x), T,
                PX(x), T + ph);
        if (xmax - xmin <= 12 || ((long)(x - xmin)) % 2 == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>\n", PX(x),
                    T + ph + 18, lab);
    }
    for (double y = ymin; y <= ymax; y++) {
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, PY(y),
                L + pw, PY(y));
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, PY(y) + 4,
                xpowi(10, (long)y));
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">message size (bytes, log2 scale)</text>\n",
            L + pw / 2, H - 18);
    fprintf(f, "<text transform=\"translate(20 %.0f) rotate(-90)\" text-anchor=\"middle\">%s (log scale)</text>\n",
            T + ph / 2, ylabel);
    for (int s = 0; s < ns; s++) {
        const char *color = palette[s % PSHM_ARRAY_LEN(palette)];
        int limit = strncmp(names[s], "limit-", 6) == 0;
        const char *dash = limit ? " stroke-dasharray=\"6,4\"" : "";
        int npts = 0;
        double lasty = 0;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", color, dash);
        for (size_t i = 0; i < nres; i++) {
            const result_t *r = &res[i];
            if (strcmp(r->test, names[s]) != 0 || r->size == 0 || r->median <= 0) continue;
            lasty = xlog10(r->median);
            fprintf(f, "%.1f,%.1f ", PX(xlog2((double)r->size)), PY(lasty));
            npts++;
        }
        if (npts == 1 && limit) /* a single-size limit: a level across the panel */
            fprintf(f, "%.1f,%.1f %.1f,%.1f", L, PY(lasty), L + pw, PY(lasty));
        fprintf(f, "\"/>\n");
        for (size_t i = 0; i < nres && !limit; i++) {
            const result_t *r = &res[i];
            if (strcmp(r->test, names[s]) != 0 || r->size == 0 || r->median <= 0) continue;
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", PX(xlog2((double)r->size)),
                    PY(xlog10(r->median)), color);
        }
        double ly = T + 10 + 20 * s;
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                L + pw + 15, ly, L + pw + 45, ly, color, dash);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%s</text>\n", L + pw + 52, ly + 4, names[s]);
    }
#undef PX
#undef PY
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "pshm-pingpong: cannot write %s: %s\n", file, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_png(const char *file, const char *unit, const char *ylabel, const char *title)
{
    const char *names[16];
    int ns = series_of(unit, names, 16);
    FILE *p = popen("gnuplot", "w");
    if (!p) {
        fprintf(stderr, "pshm-pingpong: cannot run gnuplot: %s\n", strerror(errno));
        return -1;
    }
    fprintf(p, "set terminal pngcairo size 900,520\nset output '%s'\nset title '%s'\n"
               "set logscale x 2\nset logscale y\nset xlabel 'message size (bytes)'\n"
               "set ylabel '%s'\nset key outside right\nset grid\n", file, title, ylabel);
    if (ns == 0) fprintf(p, "set xrange [1:2]\nplot 1/0 notitle\n");
    for (int s = 0; s < ns; s++)
        fprintf(p, "%s'-' with %s title '%s'%s", s ? ", " : "plot ",
                strncmp(names[s], "limit-", 6) == 0 ? "lines dashtype 2 lw 2" : "linespoints lw 2",
                names[s], s + 1 < ns ? "" : "\n");
    for (int s = 0; s < ns; s++) {
        for (size_t i = 0; i < nres; i++)
            if (strcmp(res[i].test, names[s]) == 0 && res[i].size > 0)
                fprintf(p, "%llu %g\n", (unsigned long long)res[i].size, res[i].median);
        fprintf(p, "e\n");
    }
    int st = pclose(p);
    if (st != 0) {
        fprintf(stderr, "pshm-pingpong: gnuplot failed writing %s (status %d)\n", file, st);
        return -1;
    }
    return 0;
}

/* FILE gets latency, FILE with "-bw" before the extension gets bandwidth. */
static int write_plots(void)
{
    char bw[PSHM_PATH_MAX];
    const char *dot = strrchr(o.plot, '.'), *slash = strrchr(o.plot, '/');
    if (!dot || (slash && dot < slash)) dot = o.plot + strlen(o.plot);
    if (snprintf(bw, sizeof bw, "%.*s-bw%s", (int)(dot - o.plot), o.plot, dot) >= (int)sizeof bw) {
        fprintf(stderr, "pshm-pingpong: --plot name too long\n");
        return -1;
    }
    int png = ends_with(o.plot, ".png");
    int (*w)(const char *, const char *, const char *, const char *) = png ? write_png : write_svg;
    if (w(o.plot, "us", "one-way latency (us)", "pshm latency vs the machine's limits") < 0 ||
        w(bw, "GB/s", "bandwidth (GB/s)", "pshm bandwidth vs the machine's limits") < 0)
        return -1;
    return 0;
}

/* The headline figures, each against its limit, at the end of the tables. */
static void print_summary(void)
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
    if (o.csv || o.json) return;
    for (size_t i = 0; i < PSHM_ARRAY_LEN(k); i++) {
        const result_t *r = find_result(k[i].test, k[i].size);
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

static int finish_output(void)
{
    print_summary();
    print_machine();
    if (o.plot && write_plots() < 0) return -1;
    return 0;
}

/* ------------------------------------------------------------ --limits-only */

static int run_forked(void)
{
    size_t big = (size_t)biggest_size();
    lim_area_t *lim = mmap(NULL, sizeof *lim, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (lim == MAP_FAILED) {
        fprintf(stderr, "pshm-pingpong: cannot map %zu bytes of shared memory: %s\n", sizeof *lim,
                strerror(errno));
        return 1;
    }
    g.lim = lim;
    g.max_medium = PSHM_AM_MEDIUM_MAX;
    g.src = aligned_alloc(4096, PSHM_ALIGN_UP(big + 64, 4096));
    g.dst = aligned_alloc(4096, PSHM_ALIGN_UP(big + 64, 4096));
    if (!g.src || !g.dst) {
        fprintf(stderr, "pshm-pingpong: out of memory for two %zu-byte buffers\n", big);
        return 1;
    }
    memset(g.src, 'a', big), memset(g.dst, 'b', big);
    g.parent = getpid();
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "pshm-pingpong: fork: %s\n", strerror(errno));
        return 1;
    }
    g.me = pid == 0 ? 1 : 0;
    g.peer_pid = pid == 0 ? g.parent : pid;
    pin(g.me);
    meet_peer();
    o.tests |= T_LIMITS;
    if (g.me == 0) interference_start();
    run_limits();
    placement_recheck();
    if (g.me == 0) interference_report();
    sync_pair();
    if (g.me == 1) _exit(0);
    int st;
    waitpid(pid, &st, 0);
    munmap(lim, sizeof *lim);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "pshm-pingpong: the second process failed\n");
        return 1;
    }
    return finish_output() < 0 ? 1 : 0;
}

/* ------------------------------------------------------------ --poll-idle */

/* Rank 0 times pshm_poll() while the others sleep (they look at a done flag
 * in rank 0's segment every 2 ms), so that a job with more processes than
 * cores measures the poll, not the scheduler. */
static void run_poll_idle(void *seg0)
{
    _Atomic uint64_t *done = seg0 ? (_Atomic uint64_t *)((char *)seg0 + OFF_FLAG + 64) : NULL;
    long n = o.iters_set ? o.iters : o.quick ? 10000 : 1000000;
    CHK(pshm_barrier(g.ctx));
    if (g.me != 0) {
        uint64_t t0 = now_ns();
        while (done && atomic_load_explicit(done, memory_order_acquire) == 0) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
            if (now_ns() - t0 > 600000000000ull) die(1, "rank 0 did not finish --poll-idle in 600 s");
        }
    } else {
        double vals[1000] = {0};
        uint64_t *pool = malloc((size_t)o.reps * sizeof *pool);
        if (!pool) die(1, "out of memory");
        for (long i = 0; i < n / 10 + 1; i++) CHK(pshm_poll(g.ctx));
        for (int r = 0; r < o.reps; r++) {
            uint64_t t0 = ticks();
            for (long i = 0; i < n; i++) CHK(pshm_poll(g.ctx));
            vals[r] = (double)(ticks() - t0) * tick_ns / (double)n;
        }
        double worst = vals[0];
        for (int r = 1; r < o.reps; r++) worst = xmax2(worst, vals[r]);
        if (!o.csv && !o.json)
            printf("# pshm-pingpong --poll-idle: pshm %s; %d processes; %d repetitions of %ld calls; "
                   "p99 column = slowest repetition\n", pshm_version(), g.size, o.reps, n);
        add_result("poll-idle", "ns", (uint64_t)g.size, median_dbl(vals, (size_t)o.reps), worst, NAN, n);
        free(pool);
        if (seg0) atomic_store_explicit(done, 1, memory_order_release);
    }
    CHK(pshm_barrier(g.ctx));
}

/* ------------------------------------------------------------ --startup */

typedef struct startup_rec { uint64_t init_ns, attach_ns; } startup_rec_t;

static void run_startup(void *seg0, uint64_t init_ns, uint64_t attach_ns, uint64_t t_init)
{
    uint64_t first_ns = 0;
    int shared = seg0 != NULL, nrec = shared ? g.size : 1;
    if (g.me == 0 && g.size > 1 && shared) {
        CHK(pshm_am_request_short(g.ctx, 1, H_PING_SHORT, 0, 0, NULL));
        wait_count(&g.pongs, 1);
        first_ns = now_ns() - t_init;
    }
    startup_rec_t rec = {init_ns, attach_ns}, *all = &rec;
    if (shared) {
        pshm_seginfo_t si;
        CHK(pshm_segment_info(g.ctx, 0, &si));
        CHK(pshm_put(g.ctx, 0, (char *)si.owner_base + OFF_STARTUP + (size_t)g.me * sizeof rec, &rec,
                     sizeof rec));
        all = (startup_rec_t *)((char *)seg0 + OFF_STARTUP);
    }
    CHK(pshm_barrier(g.ctx));
    if (g.me != 0) return;
    uint64_t *v = malloc((size_t)g.size * sizeof *v);
    if (!v) die(1, "out of memory");
    if (!o.csv && !o.json)
        printf("# pshm-pingpong --startup: pshm %s; %d processes; segment %llu bytes each; times in us\n",
               pshm_version(), g.size, (unsigned long long)o.segsize);
    for (int k = 0; k < 2; k++) {
        uint64_t mx = 0;
        for (int r = 0; r < nrec; r++) {
            v[r] = k ? all[r].attach_ns : all[r].init_ns;
            mx = v[r] > mx ? v[r] : mx;
        }
        add_result(k ? "startup-attach" : "startup-init", "us", (uint64_t)g.size,
                   median_u64(v, (size_t)nrec) / 1e3, (double)mx / 1e3, NAN, 1);
    }
    if (g.size > 1 && shared)
        add_result("startup-first-msg", "us", (uint64_t)g.size, (double)first_ns / 1e3,
                   (double)first_ns / 1e3, NAN, 1);
    free(v);
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
    cli_init("pshm-pingpong");
    g.cpu[0] = g.cpu[1] = -1;
    parse_args(argc, argv);
    timer_init();
    if (o.limits_only) return run_forked();

    pshm_ctx_t *ctx;
    uint64_t t_init = now_ns();
    int rc = pshm_init(&ctx, NULL);
    if (rc < 0) {
        fprintf(stderr, "pshm-pingpong: pshm_init failed: %s\n", pshm_last_error());
        return 1;
    }
    uint64_t init_ns = now_ns() - t_init;
    g.ctx = ctx;
    g.me = pshm_rank(ctx);
    g.size = pshm_size(ctx);
    int suite = !o.poll_idle && !o.startup;
    if (suite && g.size != 2) {
        if (g.me == 0)
            fprintf(stderr, "pshm-pingpong: needs exactly 2 processes, has %d: run it as "
                            "'pshmrun -n 2 pshm-pingpong' (or use --limits-only, --poll-idle, --startup)\n",
                    g.size);
        CHK(pshm_finalize(ctx));
        return 2;
    }
    if (suite && pshm_is_local(ctx, 1 - g.me) != 1) {
        if (g.me == 0)
            fprintf(stderr, "pshm-pingpong: rank 1 is not reachable through shared memory (a library "
                            "built with --disable-pshm, or two hosts): nothing to measure; "
                            "--limits-only still measures the machine\n");
        CHK(pshm_finalize(ctx));
        return 1;
    }
    g.peer = g.size > 1 ? (g.me == 0 ? 1 : 0) : 0;
    pin(g.me);

    uint64_t big = suite ? biggest_size() : 0, need = OFF_DATA + PSHM_ALIGN_UP(big + 64, 4096);
    if (!suite && (uint64_t)g.size * sizeof(startup_rec_t) > OFF_DATA - OFF_STARTUP)
        die(2, "--startup records %d ranks at most", (int)((OFF_DATA - OFF_STARTUP) / sizeof(startup_rec_t)));
    if (o.segsize == 0) o.segsize = need;
    else if (o.segsize < need) {
        if (g.me == 0)
            fprintf(stderr, "pshm-pingpong: --segsize %llu is too small: the sizes need %llu bytes\n",
                    (unsigned long long)o.segsize, (unsigned long long)need);
        CHK(pshm_finalize(ctx));
        return 2;
    }
    CHK(pshm_am_register(ctx, handlers, PSHM_ARRAY_LEN(handlers)));
    uint64_t t_attach = now_ns();
    CHK(pshm_attach(ctx, o.segsize));
    uint64_t attach_ns = now_ns() - t_attach;

    /* Rank 0's segment holds the limits and the start-up records; without
     * shared memory (--disable-pshm) the modes that allow it go without. */
    pshm_seginfo_t s0, mine;
    void *seg0 = NULL;
    if (pshm_node_size(ctx) == g.size) {
        CHK(pshm_segment_info(ctx, 0, &s0));
        CHK(pshm_translate(ctx, 0, (void *)s0.owner_base, &seg0));
        g.lim = (lim_area_t *)((char *)seg0 + OFF_LIM);
    }
    CHK(pshm_segment_info(ctx, g.me, &mine));
    g.my_flag = (_Atomic uint64_t *)((char *)mine.local_base + OFF_FLAG);
    g.my_data = (char *)mine.local_base + OFF_DATA;
    g.max_medium = pshm_am_max_medium(ctx);

    if (o.startup) run_startup(seg0, init_ns, attach_ns, t_init);
    else if (o.poll_idle) run_poll_idle(seg0);
    else {
        pshm_seginfo_t sp;
        void *flag;
        CHK(pshm_segment_info(ctx, g.peer, &sp));
        g.peer_data = (char *)sp.owner_base + OFF_DATA;
        CHK(pshm_translate(ctx, g.peer, (char *)sp.owner_base + OFF_FLAG, &flag));
        g.peer_flag = flag;
        g.src = aligned_alloc(4096, PSHM_ALIGN_UP(big + 64, 4096));
        g.dst = aligned_alloc(4096, PSHM_ALIGN_UP(big + 64, 4096));
        if (!g.src || !g.dst) die(1, "out of memory for two %llu-byte buffers", (unsigned long long)big);
        memset(g.src, 'a', big), memset(g.dst, 'b', big);
        memset(g.my_data, 'c', big);
        for (int i = 0; i < PSHM_AM_MAX_ARGS; i++) short_args[i] = (uint32_t)i;
        meet_peer();
        if (g.me == 0) interference_start();
        if (o.tests & T_LIMITS) run_limits();
        run_tests();
        if (o.tests & T_LIMITS) placement_recheck();
        if (g.me == 0) interference_report();
        free(g.src), free(g.dst);
    }
    CHK(pshm_barrier(ctx));
    uint64_t t_fin = now_ns();
    CHK(pshm_finalize(ctx));
    g.ctx = NULL;
    if (o.startup && g.me == 0)
        {
        double us = (double)(now_ns() - t_fin) / 1e3;
        add_result("startup-finalize", "us", (uint64_t)g.size, us, us, NAN, 1);
    }
    if (g.me != 0) return 0;
    return finish_output() < 0 ? 1 : 0;
}
