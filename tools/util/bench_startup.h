/*
 * bench_startup.h - what pshm-pingpong --startup prints beside pshm's
 * figures: the machine's own floor for reserving the same storage (the
 * backend's bare system calls, no library), and the time since the launcher
 * started.
 */
#ifndef PSHM_TOOLS_BENCH_STARTUP_H
#define PSHM_TOOLS_BENCH_STARTUP_H

#include <stddef.h>
#include <stdint.h>

/* Nanoseconds since the parent process (pshmrun) started, from its start
 * time in /proc (1/CLK_TCK resolution, 10 ms). -1 if the parent is not
 * pshmrun or /proc cannot tell. */
int bench_since_launch(uint64_t *ns);

/* Bytes of shared memory in use machine-wide (Shmem of /proc/meminfo, and
 * the hugetlb pool's pages in use). */
uint64_t bench_shmem_bytes(void);

/* Waits (up to timeout_s) until Shmem is at most `bytes`: the job's freed
 * segments are gone before the floor takes the same room. 0, or -1 after the
 * timeout. */
int bench_shmem_wait(uint64_t bytes, double timeout_s);

/* The floor: `nobj` objects of `bytes` each, reserved the way the
 * configured backend reserves a segment (posix: fallocate on /dev/shm;
 * file: fallocate in `dir`, or a shared mapping on a hugetlbfs; sysv:
 * shmget and MADV_POPULATE_WRITE, or shmget with SHM_HUGETLB if `hugetlb`)
 * by `workers` processes at once, object i by worker i % workers. Times
 * from the first fork to the last object reserved; the objects are
 * nameless (O_TMPFILE or removed at once) and freed after the clock stops.
 * 0 and *ns, the workers' CPU time in *cpu_ns, or -1 with the reason in
 * `why`. */
int bench_reserve_floor(const char *dir, int nobj, uint64_t bytes, int workers, int hugetlb,
                        uint64_t *ns, uint64_t *cpu_ns, char *why, size_t whylen);

/* Page size the kernel maps `addr` with (KernelPageSize of
 * /proc/self/smaps): 4096, or a huge page's size (hugetlbfs, SHM_HUGETLB);
 * 0 if unknown. */
uint64_t bench_page_of(const void *addr);

/* CPU time of this process so far (user and system), ns. */
uint64_t bench_cpu_ns(void);

#endif
