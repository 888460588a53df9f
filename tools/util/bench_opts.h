/*
 * bench_opts.h - pshm-pingpong's command line: the options, their defaults,
 * the help text and the strict parsing (bad usage exits 2 with a message).
 */
#ifndef PSHM_TOOLS_BENCH_OPTS_H
#define PSHM_TOOLS_BENCH_OPTS_H

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/util/bench_instr.h"

/* --tests bits */
enum {
    T_SHORT = 1 << 0, T_MEDIUM = 1 << 1, T_LONG = 1 << 2, T_PUT = 1 << 3, T_GET = 1 << 4,
    T_FLOOD = 1 << 5, T_BW = 1 << 6, T_LIMITS = 1 << 7, T_MEDIUM_PREP = 1 << 8,
    T_LONG_PREP = 1 << 9, T_ALL = (1 << 10) - 1
};

#define MAX_SIZES 64
#define MAX_CPUS 64

#define DEFAULT_LONG_MAX (16ull * 1024 * 1024)
#define DEFAULT_PUT_MAX (16ull * 1024 * 1024)

/* --touch: the serving side reads the payload's first byte before its reply
 * (a handler that uses its data first: the default), after it, or never. */
enum { BENCH_TOUCH_BEFORE = 0, BENCH_TOUCH_AFTER = 1, BENCH_TOUCH_NONE = 2 };

typedef struct bench_opts {
    long iters, warmup, window; /* warmup -1: a tenth of the iterations, per size */
    int reps, iters_set, warmup_set;
    size_t sizes[MAX_SIZES];
    int nsizes;
    uint64_t min_size, max_size;
    int max_set;
    int cpus[MAX_CPUS], ncpus, pin;
    int quick, csv, json, poll_idle, startup, limits_only, instructions, incast;
    const char *instr_child; /* internal: one rank of a --instructions scenario */
    bench_instr_req_t ireq;  /* --instructions: --scenarios, --procs, --idle */
    unsigned tests;
    const char *plot;
    uint64_t segsize;
    int touch; /* BENCH_TOUCH_*: where the Medium ping-pongs' servers read the payload */
    unsigned ring_slots; /* --ring-slots: limit-ring's slots, a power of 2 <= LIM_NSLOT */
    const char *flood_floor; /* --flood-floor: the flood's floor kernel (limit-ring-rate) */
} bench_opts_t;

/* Fills *o from the defaults and argv; *allowed gets the CPUs this process
 * may run on. -h/--help prints the help and exits 0. */
void bench_parse_args(int argc, char **argv, bench_opts_t *o, cpu_set_t *allowed);

#endif
