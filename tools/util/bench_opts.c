/*
 * bench_opts.c - pshm-pingpong's options and help text.
 */
#include "common/misc.h"
#include "pshm.h"
#include "tools/util/bench_instr.h"
#include "tools/util/bench_limits.h"
#include "tools/util/bench_opts.h"
#include "tools/util/bench_plot.h"
#include "tools/util/bench_sys.h"
#include "tools/util/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The options being parsed and the CPUs allowed: the list callbacks fill them. */
static bench_opts_t *o;
static cpu_set_t *allowed_set;

static const struct { const char *name; unsigned bit; } test_names[] = {
    {"short", T_SHORT}, {"medium", T_MEDIUM}, {"long", T_LONG}, {"put", T_PUT},
    {"get", T_GET},     {"flood", T_FLOOD},   {"bw", T_BW},     {"limits", T_LIMITS},
    {"medium-prepare", T_MEDIUM_PREP},        {"long-prepare", T_LONG_PREP},
    {"all", T_ALL},
};

#define QUICK_MAX (64 * 1024ull)

static void usage(void)
{
    printf(
"Usage: pshmrun -n 2 pshm-pingpong [options]\n"
"       pshm-pingpong --limits-only [options]\n"
"       pshmrun -n P pshm-pingpong --poll-idle | --startup | --incast [options]\n"
"       pshm-pingpong --instructions [-p LIST] [--scenarios LIST] [--idle poll|wait]\n"
"                     [--csv | --json]\n"
"\n"
"Latency, bandwidth and message rate between two processes through pshm, each\n"
"next to the floor of the same operation done by hand between the same two\n"
"cores: a cache-line hand-off round trip (Short), a 1-copy ring round trip\n"
"(Medium), a memcpy into the peer's memory and a flag (put, Long), a local\n"
"memcpy (get, Long/put/get bandwidth), a streaming ring of one-line messages\n"
"(flood). Each test measures its floor again beside each repetition; ratio =\n"
"the median of the repetitions' value / floor; each section says which\n"
"direction is better (times: lower; bandwidth and rate: higher).\n"
"\n"
"Tests:\n"
"  --tests LIST     comma-separated: short, medium, medium-prepare, long,\n"
"                   long-prepare, put, get, flood, bw, limits, all (default all).\n"
"                   short: Short AM with 0, 2 and 16 args; medium/long/put:\n"
"                   ping-pong over sizes; medium-prepare/long-prepare: the same\n"
"                   through prepare/commit, the payload written into the prepared\n"
"                   buffer (same floors as medium/long); get: pshm_get\n"
"                   call time; flood: one-way Short AMs per second; bw: streaming\n"
"                   bandwidth of Medium, Long, put and get; limits: the baselines\n"
"  --quick          few iterations and sizes (smoke test, ~1-2 s)\n"
"  --limits-only    only the limits, in two forked processes, without pshmrun\n"
"  --poll-idle      ns per pshm_poll() with no traffic, any -n; the other ranks\n"
"                   sleep meanwhile\n"
"  --startup        pshm_init, pshm_attach, first round trip and finalize times\n"
"                   in ms, any -n (with --segsize); the first round trip beside\n"
"                   the floor: the same storage reserved by bare system calls\n"
"  --incast         P - 1 processes send Shorts of 2 arguments to rank 0:\n"
"                   messages per second received, any -n from 2\n"
"  --instructions   instruction counts of the library's calls (valgrind's\n"
"                   callgrind): a Short round trip of 1000 queued requests, an\n"
"                   idle pshm_poll, a ping-pong round trip, a turn of the wait\n"
"                   loop; runs its own pshmrun jobs (run it without pshmrun)\n"
"  -p, --procs LIST with --instructions: job sizes (default 2); above 2 ranks 0\n"
"                   and 1 do the counted work, the others sit idle; without\n"
"                   --scenarios the idle poll and the queued round trip (burst)\n"
"  --scenarios LIST with --instructions: burst, burst-any, idle, pingpong, wait,\n"
"                   pingpong-medium-prepare, pingpong-medium, pingpong-medium-any,\n"
"                   incast (P - 1 senders to rank 0, per message), barrier (per\n"
"                   pshm_barrier of a process that arrives last)\n"
"  --idle MODE      what the ranks without a part do: wait (pshm_wait_until,\n"
"                   the default) or poll (pshm_poll, yielding between calls)\n"
"\n"
"Sizes:\n"
"  --sizes LIST     comma-separated sizes (4096, 64K, 1M) for every sweep\n"
"  --min-size N     smallest size of the default sweeps (0, 8, 16, ... powers of 2)\n"
"  --max-size N     largest size of the Long, put and get sweeps (default 16M;\n"
"                   Medium stops at pshm_am_max_medium)\n"
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
"  --touch WHEN     where the serving side of the Medium ping-pongs (medium,\n"
"                   medium-prepare) and of their floor (limit-ring) reads the\n"
"                   payload's first byte: before its reply (default), after it,\n"
"                   or none (neither side reads it): shows what that read costs\n"
"  --ring-slots N   slots limit-ring's ring goes round: 2, 4 or 8 (default 8,\n"
"                   as a queue goes round its lines); fewer keep its lines in\n"
"                   this core's L1 between uses\n"
"  --flood-floor F  what the flood is set against beside each repetition: ring\n"
"                   (limit-ring-rate, the default) or cell (limit-cell-rate, its\n"
"                   own queue protocol alone: the share of it the library keeps)\n"
"\n"
"Placement:\n"
"  --cpus A,B,...   rank r runs on CPU LIST[r %% len] (default: the r %% n-th CPU\n"
"                   this process may use)\n"
"  --no-pin         do not pin\n"
"\n"
"Output (only rank 0 prints):\n"
"  (default)        aligned tables: size, median, p99 or worst, floor, ratio\n"
"  --csv            CSV, one schema for every row (units in the column names;\n"
"                   see pshm-pingpong(1)); a column that does not apply is empty\n"
"  --json           one JSON object: the header, and one record per row with\n"
"                   the CSV columns (null where a column does not apply)\n"
"  --plot FILE      latency and bandwidth against size as SVG: FILE and FILE with\n"
"                   -bw before the extension (.png: through gnuplot)\n"
"  -h, --help       this text\n"
"\n"
"Latency is one-way = round trip / 2 (Short: size is bytes of arguments; get:\n"
"time of one pshm_get call). median = median of the repetitions' medians; p99 =\n"
"99th percentile of all timed iterations pooled. Bandwidth GB/s = 1e9 B/s over\n"
"the timed loop of a repetition: median of the repetitions, worst = the slowest\n"
"repetition. The payload is checked after every repetition (outside the timed\n"
"loop); a wrong byte ends the run with its offset. Exit status: 0 success,\n"
"1 error (a failed call, a wrong payload), 2 bad usage.\n");
}

static uint64_t parse_size(const char *flag, const char *s)
{
    uint64_t v;
    if (pshm_parse(PSHM_PARSE_SIZE, flag, s, 0, 1ull << 40, &v) < 0)
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
    if (o->nsizes == MAX_SIZES)
        cli_usage_error("%s: at most %d sizes", flag, MAX_SIZES);
    o->sizes[o->nsizes++] = parse_size(flag, item);
}

static void add_test(const char *flag, const char *item)
{
    for (size_t i = 0; i < ARRAY_LEN(test_names); i++)
        if (strcmp(item, test_names[i].name) == 0) {
            o->tests |= test_names[i].bit;
            return;
        }
    cli_usage_error("%s: unknown test '%s' (short, medium, medium-prepare, long, long-prepare, put, "
                    "get, flood, bw, limits, all)",
                    flag, item);
}

static void add_procs(const char *flag, const char *item)
{
    if (o->ireq.nprocs == BENCH_INSTR_MAX_PROCS)
        cli_usage_error("%s: at most %d job sizes", flag, BENCH_INSTR_MAX_PROCS);
    o->ireq.procs[o->ireq.nprocs++] = (int)cli_u64(flag, item, 2, 4096);
}

static void add_scenario(const char *flag, const char *item)
{
    if (!bench_instr_known(item))
        cli_usage_error("%s: unknown scenario '%s' (%s)", flag, item, bench_instr_list());
    if (o->ireq.nnames == BENCH_INSTR_MAX_NAMES)
        cli_usage_error("%s: at most %d scenarios", flag, BENCH_INSTR_MAX_NAMES);
    char *name = strdup(item); /* item is parse_list's copy */
    if (!name) cli_usage_error("out of memory");
    o->ireq.names[o->ireq.nnames++] = name;
}

static void add_cpu(const char *flag, const char *item)
{
    if (o->ncpus == MAX_CPUS)
        cli_usage_error("%s: at most %d CPUs", flag, MAX_CPUS);
    int c = (int)cli_u64(flag, item, 0, CPU_SETSIZE - 1);
    if (!CPU_ISSET(c, allowed_set))
        cli_usage_error("%s: CPU %d is not one this process may run on (see taskset -p %d)", flag, c,
                        (int)getpid());
    o->cpus[o->ncpus++] = c;
}

void bench_parse_args(int argc, char **argv, bench_opts_t *opts, cpu_set_t *allowed)
{
    static const char *const f_iters[] = {"--iters", NULL}, *const f_reps[] = {"--reps", NULL},
                             *const f_warm[] = {"--warmup", NULL}, *const f_win[] = {"--window", NULL},
                             *const f_sizes[] = {"--sizes", NULL}, *const f_min[] = {"--min-size", NULL},
                             *const f_max[] = {"--max-size", NULL}, *const f_cpus[] = {"--cpus", NULL},
                             *const f_tests[] = {"--tests", NULL}, *const f_plot[] = {"--plot", NULL},
                             *const f_seg[] = {"--segsize", NULL}, *const f_touch[] = {"--touch", NULL},
                             *const f_slots[] = {"--ring-slots", NULL},
                             *const f_ffloor[] = {"--flood-floor", NULL},
                             *const f_ichild[] = {"--instr-child", NULL},
                             *const f_procs[] = {"-p", "--procs", NULL},
                             *const f_scen[] = {"--scenarios", NULL}, *const f_idle[] = {"--idle", NULL};
    int tests_given = 0, idle_given = 0;
    const char *v;

    *opts = (bench_opts_t){.iters = 10000, .reps = 5, .window = 64, .pin = 1, .tests = T_ALL,
                           .ring_slots = LIM_NSLOT, .flood_floor = "limit-ring-rate"};
    o = opts;
    allowed_set = allowed;

    if (sched_getaffinity(0, sizeof *allowed, allowed) != 0) {
        CPU_ZERO(allowed);
        CPU_SET(0, allowed);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            exit(0);
        } else if (cli_flag_value(argc, argv, &i, f_iters, &v)) {
            o->iters = (long)cli_u64("--iters", v, 1, 100000000);
            o->iters_set = 1;
        } else if (cli_flag_value(argc, argv, &i, f_reps, &v)) {
            o->reps = (int)cli_u64("--reps", v, 1, 1000);
        } else if (cli_flag_value(argc, argv, &i, f_warm, &v)) {
            o->warmup = (long)cli_u64("--warmup", v, 0, 100000000);
            o->warmup_set = 1;
        } else if (cli_flag_value(argc, argv, &i, f_win, &v)) {
            o->window = (long)cli_u64("--window", v, 1, 1000000);
        } else if (cli_flag_value(argc, argv, &i, f_sizes, &v)) {
            o->nsizes = 0;
            parse_list("--sizes", v, add_size);
        } else if (cli_flag_value(argc, argv, &i, f_min, &v)) {
            o->min_size = parse_size("--min-size", v);
        } else if (cli_flag_value(argc, argv, &i, f_max, &v)) {
            o->max_size = parse_size("--max-size", v);
            o->max_set = 1;
        } else if (cli_flag_value(argc, argv, &i, f_cpus, &v)) {
            o->ncpus = 0;
            parse_list("--cpus", v, add_cpu);
        } else if (cli_flag_value(argc, argv, &i, f_tests, &v)) {
            if (!tests_given) o->tests = 0;
            tests_given = 1;
            parse_list("--tests", v, add_test);
        } else if (cli_flag_value(argc, argv, &i, f_plot, &v)) {
            if (*v == '\0') cli_usage_error("--plot needs a file name");
            o->plot = v;
        } else if (cli_flag_value(argc, argv, &i, f_seg, &v)) {
            o->segsize = parse_size("--segsize", v);
            if (o->segsize == 0) cli_usage_error("--segsize must be at least 2M");
        } else if (cli_flag_value(argc, argv, &i, f_ichild, &v)) {
            if (!bench_instr_known(v)) cli_usage_error("--instr-child: unknown scenario '%s'", v);
            o->instr_child = v;
        } else if (cli_flag_value(argc, argv, &i, f_procs, &v)) {
            parse_list("--procs", v, add_procs);
        } else if (cli_flag_value(argc, argv, &i, f_scen, &v)) {
            parse_list("--scenarios", v, add_scenario);
        } else if (cli_flag_value(argc, argv, &i, f_idle, &v)) {
            if (strcmp(v, "wait") == 0) o->ireq.idle = BENCH_IDLE_WAIT;
            else if (strcmp(v, "poll") == 0) o->ireq.idle = BENCH_IDLE_POLL;
            else cli_usage_error("--idle wants wait or poll, not '%s'", v);
            idle_given = 1;
        } else if (cli_flag_value(argc, argv, &i, f_touch, &v)) {
            if (strcmp(v, "before") == 0) o->touch = BENCH_TOUCH_BEFORE;
            else if (strcmp(v, "after") == 0) o->touch = BENCH_TOUCH_AFTER;
            else if (strcmp(v, "none") == 0) o->touch = BENCH_TOUCH_NONE;
            else cli_usage_error("--touch wants before, after or none, not '%s'", v);
        } else if (cli_flag_value(argc, argv, &i, f_slots, &v)) {
            /* At least 2: a message of more than LIM_CHUNK takes two
             * slots, which --touch after holds together. */
            if (strcmp(v, "2") == 0 || strcmp(v, "4") == 0 || strcmp(v, "8") == 0)
                o->ring_slots = (unsigned)(*v - '0');
            else
                cli_usage_error("--ring-slots wants 2, 4 or 8, not '%s'", v);
        } else if (cli_flag_value(argc, argv, &i, f_ffloor, &v)) {
            if (strcmp(v, "ring") == 0) o->flood_floor = "limit-ring-rate";
            else if (strcmp(v, "cell") == 0) o->flood_floor = "limit-cell-rate";
            else cli_usage_error("--flood-floor wants ring or cell, not '%s'", v);
        } else if (strcmp(a, "--instructions") == 0) {
            o->instructions = 1;
        } else if (strcmp(a, "--no-pin") == 0) {
            o->pin = 0;
        } else if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
        } else if (strcmp(a, "--csv") == 0) {
            o->csv = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--incast") == 0) {
            o->incast = 1;
        } else if (strcmp(a, "--poll-idle") == 0) {
            o->poll_idle = 1;
        } else if (strcmp(a, "--startup") == 0) {
            o->startup = 1;
        } else if (strcmp(a, "--limits-only") == 0) {
            o->limits_only = 1;
        } else if (a[0] == '-') {
            cli_usage_error("unknown option '%s'", a);
        } else {
            cli_usage_error("unexpected argument '%s'", a);
        }
    }
    if (o->csv && o->json) cli_usage_error("--csv and --json are exclusive");
    if (o->poll_idle + o->startup + o->limits_only + o->instructions + o->incast +
            (o->instr_child != NULL) > 1)
        cli_usage_error("--poll-idle, --startup, --incast, --limits-only and --instructions are "
                        "exclusive");
    if ((o->ireq.nprocs || o->ireq.nnames) && !o->instructions)
        cli_usage_error("--procs and --scenarios go with --instructions (a timed run takes its "
                        "processes from pshmrun -n)");
    if (idle_given && !o->instructions && !o->instr_child)
        cli_usage_error("--idle goes with --instructions");
    for (int j = 0; j < o->ireq.nnames; j++)
        for (int k = 0; k < (o->ireq.nprocs ? o->ireq.nprocs : 1); k++) {
            int P = o->ireq.nprocs ? o->ireq.procs[k] : 2;
            if (!bench_instr_scenario_ok(o->ireq.names[j], P))
                cli_usage_error("--scenarios %s does not run with %d processes (the wait turn is "
                                "counted at 2 only)", o->ireq.names[j], P);
        }
    if (o->instructions && getenv("PSHM_RANK"))
        cli_usage_error("--instructions starts its own jobs under valgrind: run it without pshmrun");
    if (o->max_set && o->max_size < o->min_size)
        cli_usage_error("--max-size %llu is below --min-size %llu", (unsigned long long)o->max_size,
                        (unsigned long long)o->min_size);
    /* Told before the run, not after minutes of it. */
    if (o->plot && bench_plot_check(o->plot) < 0)
        exit(2);
    if (o->plot && bench_plot_is_png(o->plot) && !bench_have_program("gnuplot"))
        cli_usage_error("--plot %s: PNG output needs gnuplot, which is not installed; "
                        "give a .svg file name instead", o->plot);
    if (o->quick) {
        if (!o->iters_set) o->iters = 300;
        o->reps = o->reps < 2 ? o->reps : 2;
        if (!o->max_set) o->max_size = QUICK_MAX, o->max_set = 1;
    }
    if (!o->warmup_set) o->warmup = -1; /* per size: a tenth of the iterations */
}
