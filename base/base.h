/*
 * base.h - the base layer every module of libpshm stands on: errors, the
 * environment and its parsers, what the machine and the cgroups allow, job
 * tags, clocks. It depends on nothing of the library but the public header
 * (docs/HACKING.md, "Layers"). Nothing here is exported: the library is
 * built with -fvisibility=hidden and a version script.
 */
#ifndef PSHM_BASE_H
#define PSHM_BASE_H

#include "config.h"
#include "pshm.h"
#include "pshm/launch.h"
#include "common/misc.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PSHM_LIKELY(x) __builtin_expect(!!(x), 1)
#define PSHM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PSHM_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PSHM_ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((uint64_t)(a)-1))

#define PSHM_PATH_MAX 4096

/* ------------------------------------------------------------------ errors */

/*
 * Records the calling thread's explanation of a failure and returns `err`
 * (a negative errno) so that callers can write `return pshm_err(-ENOSPC, ...)`.
 * The sentence names the resource, the amount asked and available, and what
 * to change.
 */
#define PSHM_ERRMSG_MAX 512   /* bytes of the per-thread message */
int pshm_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepends context to the current message: "attach: <old message>". */
int pshm_err_prefix(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pshm_err_clear(void);
/* "12.0 MiB" - human size into buf. */
const char *pshm_fmt_size(char *buf, size_t n, uint64_t bytes);

/* ------------------------------------------------------------- environment */

enum { HOST_DETECT_BOOTID = 0, HOST_DETECT_HOSTNAME, HOST_DETECT_GETHOSTID };
enum { WAIT_AUTO = 0, WAIT_SPIN, WAIT_BLOCK, WAIT_SPINBLOCK };
enum { HUGE_NO = 0, HUGE_AUTO, HUGE_YES };

/* GASNET_MAX_SEGSIZE: "<size>" or "<fraction of physical memory>", optionally
 * "/p" (per process) or "/h" (per host, divided among the supernode). */
typedef struct segsize_spec {
    uint64_t bytes;    /* absolute size, or 0 when `fraction` is used */
    double fraction;   /* 0 < fraction <= 1 of physical memory, or 0 */
    char per;          /* 'p' per process, 'h' per host */
} segsize_spec_t;

typedef struct pshm_cfg {
    segsize_spec_t max_segsize;  /* GASNET_MAX_SEGSIZE, default "0.85/h" */
    uint32_t queue_depth;        /* GASNET_PSHMNET_QUEUE_DEPTH, 0 when not set
                                  * (pshm_queue_depth: the default for P) */
    uint64_t queue_memory;       /* GASNET_PSHMNET_QUEUE_MEMORY, bytes */
    uint32_t supernode_max;      /* GASNET_SUPERNODE_MAXSIZE, 0 = no limit */
    int host_detect;             /* GASNET_HOST_DETECT */
    int wait_mode;               /* GASNET_WAIT_MODE */
    uint32_t exit_timeout_ms;    /* GASNET_EXITTIMEOUT (seconds, may be fractional) */
    uint32_t boot_timeout_ms;    /* PSHM_BOOT_TIMEOUT (pshmrun's start-up bound), 0: none */
    uint32_t sim_hosts;          /* PSHM_SIM_HOSTS: split this host into N (tests) */
    char host_id[64];            /* PSHM_HOST_ID: explicit host identity, "" if unset */
    char tmpdir[PSHM_PATH_MAX];  /* file backend: GASNET_TMPDIR, else TMPDIR, else /tmp (validated); "" otherwise */
    int hugepages;               /* PSHM_HUGEPAGES */
    uint64_t synergy_min;        /* PSHM_SYNERGY_MIN, UINT64_MAX when off (0) */
    uint64_t synergy_chunk;      /* PSHM_SYNERGY_CHUNK */
    bool huge_use;               /* set by huge_decide: huge pages are offered and asked for */
    bool huge_advise;            /* ... and a mapping must be advised (SysV, "advise") */
    uint64_t huge_tlb;           /* ... from the hugetlb pool, pages of this size (SysV:
                                    SHM_HUGETLB; file: GASNET_TMPDIR is a hugetlbfs); 0: not */
} pshm_cfg_t;

/* Defaults and bounds, shared by env.c, the AM network and pshm-info. */
#define PSHM_QUEUE_DEPTH_DEFAULT 64u
#define PSHM_QUEUE_DEPTH_MIN 1u
#define PSHM_QUEUE_DEPTH_MAX 65536u
/* The AM network's wide layout from this many processes of a supernode on
 * (amqueue/amq_internal.h; chosen by instruction counts, see
 * docs/amnet-design.md); -DPSHM_AM_WIDE_MIN=N moves it, for measurements. */
#ifndef PSHM_AM_WIDE_MIN
#define PSHM_AM_WIDE_MIN 8u
#endif
/* The lines a receiver's queues of one network hold by default in a wide
 * layout, shared out among its senders. */
#define PSHM_QUEUE_WIDE_LINES 256u

/* Lines of each queue (one per sender, receiver and network) for P
 * processes: GASNET_PSHMNET_QUEUE_DEPTH when set (`depth`, 0 when not),
 * else PSHM_QUEUE_DEPTH_DEFAULT below PSHM_AM_WIDE_MIN processes and
 * PSHM_QUEUE_WIDE_LINES / (P - 1) from there on, within 1..the default:
 * the queues of a host then grow with P, not P^2. */
static inline uint32_t pshm_queue_depth(unsigned P, uint32_t depth)
{
    uint32_t d;

    if (depth != 0)
        return depth;
    if (P < PSHM_AM_WIDE_MIN)
        return PSHM_QUEUE_DEPTH_DEFAULT;
    d = PSHM_QUEUE_WIDE_LINES / (P - 1);
    return d < 1 ? 1 : d > PSHM_QUEUE_DEPTH_DEFAULT ? PSHM_QUEUE_DEPTH_DEFAULT : d;
}
#define PSHM_QUEUE_MEMORY_DEFAULT (1ull << 20)
#define PSHM_AM_MEDIUM_MAX 65536u
#define PSHM_SYNERGY_MIN_DEFAULT (256ull << 10)
#define PSHM_SYNERGY_CHUNK_DEFAULT (64ull << 10)
#define PSHM_SYNERGY_MIN_MAX (1ull << 40)
#define PSHM_SYNERGY_CHUNK_MIN (4ull << 10)
#define PSHM_SYNERGY_CHUNK_MAX (1ull << 30)

/* A variable pshm reads, for pshm-info (pshm_env_var) and README.PSHM. */
typedef pshm_env_var_t env_desc_t;
extern const env_desc_t pshm_env_vars[];  /* terminated by a NULL name */

/* Reads and checks every variable; the message names the variable. */
int env_load(pshm_cfg_t *cfg);
/* Calls fn for each variable of the environment that looks like pshm's but
 * is not read by it (any unknown PSHM_* or GASNET_PSHM*, and other GASNET_*
 * within two edits of one of ours), with the nearest known name or NULL;
 * stops at fn's first non-zero return and returns it. */
int env_unknown_each(int (*fn)(const char *name, const char *suggest, void *arg), void *arg);
/* PSHM_HUGEPAGES against what the system offers the backend (hugepages.c):
 * sets huge_use, huge_advise and huge_tlb; -EOPNOTSUPP (message set) for
 * "yes" when huge pages are not offered, -EINVAL for "no" when GASNET_TMPDIR
 * is a hugetlbfs (the file backend gets nothing else there). */
int huge_decide(pshm_cfg_t *cfg);

/*
 * Strict parsers (the whole string must be used; no sign; overflow is an
 * error). `var` names the variable or flag in the message.
 */
int env_parse_u64(const char *var, const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* Sizes: "4096", "64K", "512M", "2G", "1T" (powers of 1024; also KB/KiB). */
int env_parse_size(const char *var, const char *s, uint64_t min, uint64_t max, uint64_t *out);
int env_parse_segsize(const char *var, const char *s, segsize_spec_t *out);
/* Seconds, fractional allowed: "2", "0.5". */
int env_parse_seconds(const char *var, const char *s, uint32_t max_ms, uint32_t *out_ms);
/* Seconds into milliseconds within [min_ms, max_ms]. */
int env_parse_ms(const char *var, const char *s, uint32_t min_ms, uint32_t max_ms, uint32_t *out_ms);
/* GASNET_EXITTIMEOUT and pshmrun's --exit-timeout: one range, one parser. */
int env_parse_exit_timeout(const char *var, const char *s, uint32_t *out_ms);

/* ------------------------------------------------------------------ cgroups */

/* CPUs this process may run on: its affinity mask, lowered to what a cgroup
 * CPU quota (v2 cpu.max, v1 cpu.cfs_quota_us, any ancestor) is worth. */
int cgroup_usable_cpus(void);
/* A process's affinity mask as its host-mates see it (exchanged at init, so
 * that each counts the processes it shares CPUs with): 64 bytes. Equal
 * masks have equal hashes and counts; masks whose folds (bit c % 384 for
 * CPU c) do not meet have no CPU in common. */
#define CPU_FOLD_BITS 384
typedef struct cpu_summary {
    uint64_t hash;               /* FNV-1a of the mask's CPU numbers */
    uint32_t count;              /* CPUs in the mask; 0: could not be read */
    uint32_t reserved;
    uint64_t fold[CPU_FOLD_BITS / 64];
} cpu_summary_t;
void cpu_summary_self(cpu_summary_t *s);
/* The same of a given set (sz bytes, CPUs 0 .. ncpu - 1). */
void cpu_summary_of(const cpu_set_t *set, size_t sz, size_t ncpu, cpu_summary_t *s);
/* Whether two processes may share a CPU: true unless the masks are known
 * disjoint (a mask not read shares every CPU). */
bool cpu_summary_overlap(const cpu_summary_t *a, const cpu_summary_t *b);
/* CPUs the tightest cgroup CPU quota is worth (rounded up), or 0 if none. */
int cgroup_cpu_limit(void);
/* The tightest memory limit of this process's cgroups (v2 memory.max, v1
 * memory.limit_in_bytes): the bytes it may still charge, the limit and the
 * file that sets it. Returns 1 if a limit was found, 0 if none. */
int cgroup_mem_room(uint64_t *room, uint64_t *limit, char *where, size_t n);

/* Physical memory in bytes (0 if unknown). */
uint64_t sys_phys_mem(void);
/* The number a /proc or /sys file starts with, 0 if it cannot be read. */
uint64_t sys_read_u64(const char *path);
/* Page size of the hugetlbfs holding the file behind fd (fstatfs), or 0 if
 * it is on another file system. */
uint64_t sys_hugetlbfs_fd(int fd);
/* The same for a directory (statfs), 0 if not a hugetlbfs. */
uint64_t sys_hugetlbfs_dir(const char *dir);
/* Bytes the hugetlb pool of pages of `page` bytes can still give (free and
 * not reserved; /sys/kernel/mm/hugepages), 0 if none or unknown. */
uint64_t sys_hugetlb_free(uint64_t page);
/* Default huge page size (Hugepagesize of /proc/meminfo), 0 if none. */
uint64_t sys_hugetlb_default(void);

/* ------------------------------------------------------------------ job tags */

/* True if `tag` is 1..PSHM_TAG_MAX chars of [a-z0-9]: the job tag that names
 * every shared object of a job. */
bool tag_valid(const char *tag);

/* ------------------------------------------------------------------- clocks */

uint64_t pshm_now_ns(void);

static inline void pshm_cpu_relax(void) { cpu_relax(); }

#endif /* PSHM_BASE_H */
