/*
 * internal.h - what the modules of libpshm share. Nothing here is exported:
 * the library is built with -fvisibility=hidden and a version script.
 */
#ifndef PSHM_INTERNAL_H
#define PSHM_INTERNAL_H

#include "config.h"
#include "pshm.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PSHM_LIKELY(x) __builtin_expect(!!(x), 1)
#define PSHM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PSHM_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PSHM_ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((uint64_t)(a)-1))

#define PSHM_TAG_MAX 16       /* job tag: 1..16 chars of [a-z0-9] */
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
    uint32_t queue_depth;        /* GASNET_PSHMNET_QUEUE_DEPTH */
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
    bool huge_use;               /* set by huge_decide: huge pages are offered and asked for */
    bool huge_advise;            /* ... and a mapping must be advised (SysV, "advise") */
    uint64_t huge_tlb;           /* ... from the hugetlb pool, pages of this size (SysV:
                                    SHM_HUGETLB; file: GASNET_TMPDIR is a hugetlbfs); 0: not */
} pshm_cfg_t;

/* Defaults and bounds, shared by env.c, the AM network and pshm-info. */
#define PSHM_QUEUE_DEPTH_DEFAULT 64u
#define PSHM_QUEUE_DEPTH_MIN 1u
#define PSHM_QUEUE_DEPTH_MAX 65536u
#define PSHM_QUEUE_MEMORY_DEFAULT (1ull << 20)
#define PSHM_AM_MEDIUM_MAX 65536u
#define PSHM_BOOT_TIMEOUT_DEFAULT_MS 120000u
#define PSHM_BOOT_TIMEOUT_MAX_MS 4000000000u   /* about 46 days */

/* A variable pshm reads, for pshm-info and README.PSHM. */
typedef struct env_desc {
    const char *name;
    const char *deflt;
    const char *range;
    const char *doc;
} env_desc_t;
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
/* GASNET_EXITTIMEOUT and pshmrun's --exit-timeout: one range, one parser. */
#define PSHM_EXIT_TIMEOUT_DEFAULT_MS 2000u
#define PSHM_EXIT_TIMEOUT_MIN_MS 100u
#define PSHM_EXIT_TIMEOUT_MAX_MS 600000u
int env_parse_exit_timeout(const char *var, const char *s, uint32_t *out_ms);

/* ------------------------------------------------------------------ cgroups */

/* CPUs this process may run on: its affinity mask, lowered to what a cgroup
 * CPU quota (v2 cpu.max, v1 cpu.cfs_quota_us, any ancestor) is worth. */
int cgroup_usable_cpus(void);
/* CPUs the tightest cgroup CPU quota is worth (rounded up), or 0 if none. */
int cgroup_cpu_limit(void);
/* The tightest memory limit of this process's cgroups (v2 memory.max, v1
 * memory.limit_in_bytes): the bytes it may still charge, the limit and the
 * file that sets it. Returns 1 if a limit was found, 0 if none. */
int cgroup_mem_room(uint64_t *room, uint64_t *limit, char *where, size_t n);

/* --------------------------------------------------------------- bootstrap */

enum { BOOT_SINGLE = 0, BOOT_LAUNCHER, BOOT_CALLBACKS };

typedef struct boot {
    int kind;
    int rank, size;
    int (*exchange)(void *arg, const void *mine, size_t len, void *all);
    int (*barrier)(void *arg);
    void *arg;
    int fd;                          /* BOOT_LAUNCHER: socket to pshmrun, else -1 */
    char tag[PSHM_TAG_MAX + 1];      /* job tag agreed by all ranks */
} boot_t;

/* Chooses the bootstrap: `user` if given, else pshmrun's environment, else single. */
int boot_open(boot_t *b, const pshm_bootstrap_t *user);
int boot_exchange(boot_t *b, const void *mine, size_t len, void *all);
int boot_barrier(boot_t *b);
/* Tells the launcher the process finalized cleanly (or aborts with code). */
void boot_finish(boot_t *b);
void boot_abort(boot_t *b, int code);
void boot_close(boot_t *b);
/* Exchanges every setting that shapes shared state (queue depth and memory,
 * supernode size, host detection, backend, versions, ...) and fails on every
 * rank alike, naming the setting, the ranks and their values, if any differs. */
int agree_settings(boot_t *b, const pshm_cfg_t *cfg);
/* True if `tag` is 1..PSHM_TAG_MAX chars of [a-z0-9]. */
bool boot_tag_valid(const char *tag);

/* ----------------------------------------------------------------- nodemap */

#include "nodemap/nodemap.h"

/* ----------------------------------------------------------------- segment */

#include "segment/segment.h"

/* ------------------------------------------------------------------ context */

enum { CTX_INIT = 1, CTX_ATTACHED = 2 };

struct amq;

struct pshm_ctx {
    int state;
    unsigned flags;              /* PSHM_INIT_* */
    int rank, size;              /* in the job */
    pshm_cfg_t cfg;
    boot_t boot;
    nodemap_t nm;

    /* Attached segments, indexed by supernode rank. */
    seg_obj_t *segs;
    pshm_seginfo_t *seginfo;     /* local_base, owner_base, size */
    intptr_t *seg_delta;         /* local address = owner address + delta */
    seg_obj_t region;            /* the supernode's AM region */
    /* pshm_attach_range: each process's range, by supernode rank (NULL
     * until then); mine stays mapped after finalize (the caller's memory). */
    seg_obj_t *ranges;
    pshm_seginfo_t *rangeinfo;

    /* Liveness of supernode peers (by supernode rank). */
    pid_t *peer_pid;
    int *peer_pidfd;             /* -1 for me, or when pidfd_open is missing */
    uint64_t next_live_check_ns; /* wait loops check at most every ~1 ms */
    int ncores;                  /* CPUs usable: affinity mask and cgroup quota */
    bool oversubscribed;         /* more supernode processes than usable CPUs */

    struct amq *amq;
    /* The AM fast paths' state, read without going through `amq`: the
     * incoming queues an idle poll scans, [scan_lo, scan_hi), an even
     * count of at least 2 (see amqueue/poll.c); the outgoing request queue of
     * each job rank (NULL when not in this supernode); each handler's
     * argument count (AMQ_NARGS_*), one compare for a send; the slot meta
     * word of a Short to it with its exact count inline (all ones, which
     * no message has, if none), one compare for the poll; its function. */
#define AMQ_NARGS_ANY 0xfeu  /* registered with PSHM_AM_ANY_NARGS */
#define AMQ_NARGS_NONE 0xffu /* not registered */
    struct amq_rq *scan_lo, *scan_hi;
    struct amq_sq **req_sq;
    uint8_t am_nargs[PSHM_AM_HANDLER_MAX + 1];
    uint32_t am_meta[PSHM_AM_HANDLER_MAX + 1];
    pshm_handler_fn am_fn[PSHM_AM_HANDLER_MAX + 1];
    pshm_handler_entry_t handlers[PSHM_AM_HANDLER_MAX + 1];
    void *user_data;
};

/* Collective: every rank reports my_rc (and its message); returns the first
 * failure of any rank, prefixed with `what`, or 0. */
int ctx_agree(pshm_ctx_t *ctx, int my_rc, const char *what);
/* Unmaps the peers' ranges and removes my range's name (range.c). */
void range_undo(pshm_ctx_t *ctx);

/* Context checks shared by every public call. */
int ctx_check(const pshm_ctx_t *ctx, int need_state, const char *fn);

/* The live context of this process: a double init, and calls with a context
 * that was finalized or never was, are detected by comparing pointers, so
 * that such a pointer is never dereferenced. */
extern pshm_ctx_t *_Atomic pshm_live_ctx;
/* The live context while it is attached, else a placeholder that no context
 * (nor NULL) equals: the fast paths' whole context check is one compare.
 * Not atomic: only attach and finalize write it, and no other call may run
 * meanwhile (collective calls are made by one thread, README.PSHM 8.6). */
extern pshm_ctx_t *pshm_attached_ctx __attribute__((visibility("hidden")));
/* Sets ctx->state and keeps pshm_attached_ctx in step with it. */
void ctx_set_state(pshm_ctx_t *ctx, int state);

static inline bool ctx_attached(const pshm_ctx_t *ctx)
{
    return ctx == pshm_attached_ctx;
}

/* Job rank -> supernode rank, or -1 when not local (no checks: hot path). */
static inline int ctx_local(const pshm_ctx_t *ctx, int rank) { return ctx->nm.local_rank[rank]; }

/* ----------------------------------------------------------------- waiting */

/*
 * One step of a wait for another process: PAUSE while spinning is allowed,
 * else sched_yield(); every ~1 ms also checks that no peer died and the job
 * was not aborted. Returns 0 to go on waiting, or -ESRCH / -ECANCELED with the
 * message set. `spins` is the caller's counter, zero at the start of the wait.
 */
int ctx_wait_step(pshm_ctx_t *ctx, uint32_t *spins);
/* Checks now: -ESRCH if a supernode peer died, -ECANCELED if aborted, else 0.
 * peer >= 0 restricts the death check to that supernode rank. */
int live_check(pshm_ctx_t *ctx, int peer);
/* live_check(ctx, -1) at most every ~1 ms (a clock read otherwise): for loops
 * that call it often (wait steps, idle polls). */
int live_check_paced(pshm_ctx_t *ctx);
/* Code in the supernode's abort word that means "this rank died" (recorded by
 * the first survivor to notice); pshm_abort never records it. */
#define LIVE_DIED_CODE INT32_MIN
/* Collective (pshm_init): -EXDEV if a supernode spans PID namespaces, or IPC
 * namespaces with the sysv backend (liveness and SysV ids would be wrong). */
int ns_check(pshm_ctx_t *ctx);
/* Collective (pshm_attach): the supernode's rank 0 reads the room for the
 * segments once (seg_room_read) and every rank of the supernode gets it. */
int attach_room(pshm_ctx_t *ctx, seg_room_t *out);
int live_init(pshm_ctx_t *ctx);  /* opens pidfds after the attach exchange */
/* While named objects exist (inside pshm_attach), a fatal signal removes the
 * names first, then goes to the application's handler or default action. */
void sigguard_arm(pshm_ctx_t *ctx, seg_obj_t *seg, seg_obj_t *region);
void sigguard_disarm(void);
void live_fini(pshm_ctx_t *ctx);
uint64_t pshm_now_ns(void);

static inline void pshm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* ------------------------------------------------------------- AM network */

#include "amqueue/amqueue.h"

#endif /* PSHM_INTERNAL_H */
