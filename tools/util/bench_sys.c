/*
 * bench_sys.c - pshm-pingpong's timer and its readings of /proc and sysfs.
 */
#include "common/misc.h"
#include "tools/util/bench_stats.h"
#include "tools/util/bench_sys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double bench_tick_ns = 1.0;
int bench_use_tsc;

void bench_timer_init(void)
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
    uint64_t t0 = bench_now_ns(), c0 = __builtin_ia32_rdtsc(), t1;
    while ((t1 = bench_now_ns()) - t0 < 20000000) {}
    uint64_t c1 = __builtin_ia32_rdtsc();
    if (c1 > c0) {
        bench_tick_ns = (double)(t1 - t0) / (double)(c1 - c0);
        bench_use_tsc = 1;
    }
#endif
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
static struct { uint64_t t_ns, busy, steal, pair; pid_t peer; } mark;

static uint64_t pair_ticks(void) { return process_ticks(getpid()) + process_ticks(mark.peer); }

void bench_interference_start(pid_t peer)
{
    mark.peer = peer;
    mark.t_ns = bench_now_ns();
    machine_ticks(&mark.busy, &mark.steal);
    mark.pair = pair_ticks();
}

void bench_interference_report(void)
{
    uint64_t busy, steal, pair = pair_ticks();
    machine_ticks(&busy, &steal);
    double hz = (double)sysconf(_SC_CLK_TCK), secs = (double)(bench_now_ns() - mark.t_ns) / 1e9;
    if (hz <= 0 || secs < 0.5 || busy < mark.busy) return;
    double other = ((double)(busy - mark.busy) - (double)(pair - mark.pair)) / hz / secs;
    double stolen = (double)(steal - mark.steal) / hz / secs;
    if (other > 0.10)
        bench_note("other processes used %.0f%% of a CPU during the run; distrust this run", other * 100);
    if (stolen > 0.05)
        bench_note("the hypervisor took %.0f%% of a CPU (steal time) during the run; distrust this run",
                   stolen * 100);
}

/* One line of a CPU's topology in sysfs, or "" when the kernel does not say. */
static void topo_read(int cpu, const char *what, char *buf, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
    FILE *f = fopen(path, "r");
    buf[0] = '\0';
    if (f && fgets(buf, (int)len, f)) buf[strcspn(buf, "\n")] = '\0';
    else buf[0] = '\0';
    if (f) fclose(f);
}

/* Is cpu listed in a sysfs list ("0-1", "0,2", "0-3,8-11")? */
static int in_list(const char *list, int cpu)
{
    for (const char *p = list; *p;) {
        char *e;
        long lo = strtol(p, &e, 10), hi = lo;
        if (e == p) break;
        if (*e == '-') hi = strtol(e + 1, &e, 10);
        if (cpu >= lo && cpu <= hi) return 1;
        p = *e ? e + 1 : e;
    }
    return 0;
}

int bench_placement(int a, int b, char *out, size_t len)
{
    char sib[256], core[2][32], pkg[2][32];
    if (a < 0 || b < 0) return snprintf(out, len, "unknown (CPUs not known)"), BENCH_PLACE_UNKNOWN;
    if (a == b) return snprintf(out, len, "one CPU (%d) for both processes", a), BENCH_PLACE_SAME_CPU;
    topo_read(a, "thread_siblings_list", sib, sizeof sib);
    for (int k = 0; k < 2; k++) {
        topo_read(k ? b : a, "core_id", core[k], sizeof core[0]);
        topo_read(k ? b : a, "physical_package_id", pkg[k], sizeof pkg[0]);
    }
    if (!sib[0] && !core[0][0])
        return snprintf(out, len, "CPUs %d and %d; the kernel reports no topology", a, b),
               BENCH_PLACE_UNKNOWN;
    if (in_list(sib, b) || (core[0][0] && strcmp(core[0], core[1]) == 0 && strcmp(pkg[0], pkg[1]) == 0))
        return snprintf(out, len, "CPUs %d and %d are SMT siblings of one core (kernel topology: "
                        "thread_siblings_list of %d is %s, core_id %s)", a, b, a, sib, core[0]),
               BENCH_PLACE_SIBLINGS;
    snprintf(out, len, "CPUs %d and %d on distinct cores (kernel topology: core_id %s and %s, "
             "package %s and %s); a hypervisor may still share a host core",
             a, b, core[0][0] ? core[0] : "?", core[1][0] ? core[1] : "?", pkg[0][0] ? pkg[0] : "?",
             pkg[1][0] ? pkg[1] : "?");
    return BENCH_PLACE_CORES;
}

int bench_have_program(const char *name)
{
    const char *path = getenv("PATH");
    char buf[TOOL_PATH_MAX];
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
