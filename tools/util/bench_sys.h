/*
 * bench_sys.h - what pshm-pingpong reads from the machine: the timer (the
 * invariant TSC or CLOCK_MONOTONIC), the CPU time other processes and the
 * hypervisor took during a run (/proc), SMT siblings (sysfs), programs on PATH.
 */
#ifndef PSHM_TOOLS_BENCH_SYS_H
#define PSHM_TOOLS_BENCH_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

extern double bench_tick_ns; /* ns per tick of bench_ticks() */
extern int bench_use_tsc;    /* 1: bench_ticks() reads the TSC */

static inline uint64_t bench_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* Inline: it sits inside the timed loops. */
static inline uint64_t bench_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (bench_use_tsc) return __builtin_ia32_rdtsc();
#endif
    return bench_now_ns();
}

/* The TSC when it is invariant (constant_tsc + nonstop_tsc), calibrated
 * against CLOCK_MONOTONIC over 20 ms; else clock_gettime. */
void bench_timer_init(void);

/* Marks the start of a run between this process and `peer`; the report notes
 * (bench_note) what the rest of the machine did meanwhile. */
void bench_interference_start(pid_t peer);
void bench_interference_report(void);

/* How CPUs a and b relate, from the topology the kernel reports
 * (thread_siblings_list, core_id, physical_package_id): a sentence in out,
 * and one of these. Whether a hypervisor moves them during a run is for the
 * run's own spread to tell (pshm-pingpong's placement check). */
enum { BENCH_PLACE_UNKNOWN, BENCH_PLACE_SAME_CPU, BENCH_PLACE_SIBLINGS, BENCH_PLACE_CORES };
int bench_placement(int a, int b, char *out, size_t len);

/* Is `name` an executable on PATH? */
int bench_have_program(const char *name);

#endif
