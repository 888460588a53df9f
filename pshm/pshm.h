/*
 * pshm.h - intra-node shared-memory communication between the processes of a job.
 *
 * The processes of a job that share a host form a "supernode". Each process
 * owns a segment that every supernode peer maps (cross-mapping), and all of
 * them exchange active messages through cache-line-slotted queues.
 *
 * Conventions:
 *  - Every call that can fail returns 0 (or a count) on success and a negative
 *    errno value on failure. pshm_strerror() names the code; pshm_last_error()
 *    gives a sentence about the last failure of the calling thread (resource,
 *    amount asked and available, what to change).
 *  - The library never prints, exits or aborts by itself; only pshm_abort() ends
 *    the process.
 *  - One context per process: a second pshm_init() before pshm_finalize() fails
 *    with -EALREADY.
 */
#ifndef PSHM_H
#define PSHM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PSHM_VERSION_MAJOR 0
#define PSHM_VERSION_MINOR 1
#define PSHM_VERSION_PATCH 0

#if defined(__GNUC__)
#define PSHM_API __attribute__((visibility("default")))
#define PSHM_NORETURN __attribute__((noreturn))
#define PSHM_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PSHM_API
#define PSHM_NORETURN
#define PSHM_PRINTF(f, a)
#endif

typedef struct pshm_ctx pshm_ctx_t;

/* ---------------------------------------------------------------- errors */

/* Text of a (negative or positive) error code, e.g. "peer process died". */
PSHM_API const char *pshm_strerror(int err);
/* The calling thread's explanation of its last failed call ("" if none). */
PSHM_API const char *pshm_last_error(void);
/*
 * Sets the calling thread's explanation to the formatted sentence and returns
 * err: a bootstrap callback that fails says why in its own words, which the
 * failing pshm call then keeps (see pshm_bootstrap_t).
 */
PSHM_API int pshm_set_error(int err, const char *fmt, ...) PSHM_PRINTF(2, 3);
/* "0.1.0 (posix backend)" - version and configuration of the library. */
PSHM_API const char *pshm_version(void);
/*
 * Variables of the environment that look like pshm's but are not read by it
 * (a misspelt GASNET_PSHMNET_QUEU_DEPTH would be ignored): one line each,
 * "NAME is not a variable pshm reads; did you mean OTHER?", written into buf
 * (NUL-terminated, cut to len bytes; buf may be NULL with len 0). Returns the
 * number of such variables (whatever fitted), or a negative errno. Needs no
 * context; the library never prints them itself.
 */
PSHM_API int pshm_env_warnings(char *buf, size_t len);
/* The same for a layer over pshm: every variable of the environment whose
 * name starts with `prefix` and is none of `known` (NULL-terminated) gives
 * a line "NAME is not a variable <who> reads; did you mean KNOWN?" (the
 * nearest known name, when it is near). Returns the count, or a negative
 * errno. */
PSHM_API int pshm_env_unknown(const char *prefix, const char *const *known, const char *who,
                              char *buf, size_t len);

/* ------------------------------------------------------------- bootstrap */

/*
 * How the processes of a job find each other. An embedding runtime passes its
 * own collectives, as a GASNet conduit does. Both callbacks are collective over
 * all `size` ranks of the job and return 0 or a negative errno.
 *   exchange: all-gather; every rank contributes `len` bytes at `mine`, and
 *             `all` (size * len bytes) receives rank r's bytes at r * len.
 *   barrier:  returns once every rank has entered it.
 * job_tag, if not NULL, is a string of 1..16 characters [a-z0-9] that is the
 * same in all ranks and unique among the concurrent jobs of a user on a host;
 * when NULL, rank 0 draws one and shares it through exchange.
 */
typedef struct pshm_bootstrap {
    int rank;
    int size;
    int (*exchange)(void *arg, const void *mine, size_t len, void *all);
    int (*barrier)(void *arg);
    void *arg;
    const char *job_tag;
} pshm_bootstrap_t;

/* pshm_init_attr_t.flags */
#define PSHM_INIT_THREADS 0x1u /* several threads may send, poll and reply at once */

typedef struct pshm_init_attr {
    unsigned flags;
    /* NULL: started by pshmrun (found in the environment), else a job of one. */
    const pshm_bootstrap_t *bootstrap;
} pshm_init_attr_t;

/* Joins the job: bootstrap, host identity, supernode. attr may be NULL. */
PSHM_API int pshm_init(pshm_ctx_t **ctx, const pshm_init_attr_t *attr);

/* Largest segment the machine allows (see GASNET_MAX_SEGSIZE). */
#define PSHM_SEGSIZE_MAX ((size_t)-1)

/*
 * Collective over the job: creates this process's segment of `segsize` bytes
 * (rounded up to the page size; PSHM_SEGSIZE_MAX for the largest allowed; 0 for
 * none), reserves its storage, maps every supernode peer's segment, builds the
 * active-message network, and removes every name from the system.
 */
PSHM_API int pshm_attach(pshm_ctx_t *ctx, size_t segsize);

/* Collective: tears everything down and frees ctx. */
PSHM_API int pshm_finalize(pshm_ctx_t *ctx);

/*
 * Ends the whole job: marks it aborted for every supernode peer (their waits
 * fail with -ECANCELED), tells the launcher, and exits with status
 * `code & 0xff` (0 included: a job may end early and successfully this way).
 * The first abort's code wins. ctx may be NULL.
 */
PSHM_API PSHM_NORETURN void pshm_abort(pshm_ctx_t *ctx, int code);
/* pshm_abort, and the launcher tells `reason` (what ended the job, in the
 * caller's words: "called shmem_global_exit(7)") instead of
 * "called pshm_abort(7)". reason may be NULL; at most PSHM_ABORT_REASON_MAX
 * bytes of it are sent. */
#define PSHM_ABORT_REASON_MAX 200
PSHM_API PSHM_NORETURN void pshm_abort_reason(pshm_ctx_t *ctx, int code, const char *reason);

/* ---------------------------------------------------------------- queries */

PSHM_API int pshm_rank(const pshm_ctx_t *ctx);       /* rank in the job */
PSHM_API int pshm_size(const pshm_ctx_t *ctx);       /* ranks in the job */
PSHM_API int pshm_node_rank(const pshm_ctx_t *ctx);  /* my rank in my supernode */
PSHM_API int pshm_node_size(const pshm_ctx_t *ctx);  /* processes in my supernode */
PSHM_API int pshm_host_count(const pshm_ctx_t *ctx); /* distinct hosts in the job */
/* Supernode rank of job rank `rank`, or -EHOSTUNREACH if it is not in mine. */
PSHM_API int pshm_node_rank_of(const pshm_ctx_t *ctx, int rank);
/* 1 if `rank` is reachable through shared memory, 0 if not, < 0 on error. */
PSHM_API int pshm_is_local(const pshm_ctx_t *ctx, int rank);
/* Job rank of supernode rank `node_rank`. */
PSHM_API int pshm_node_member(const pshm_ctx_t *ctx, int node_rank);
/* The processes of this host (of every supernode of the job) whose CPU
 * affinity meets this process's, itself included; *cpus, if not NULL, gets
 * the CPUs this process may run on (affinity mask, cgroup CPU quota). While
 * the count exceeds *cpus, pshm's waits yield the CPU (GASNET_WAIT_MODE
 * auto); a runtime's own waits can follow the same rule. */
PSHM_API int pshm_cpu_sharers(const pshm_ctx_t *ctx, int *cpus);

/* ---------------------------------------------------------------- segments */

typedef struct pshm_seginfo {
    void *local_base;       /* where the segment is mapped in this process */
    uintptr_t owner_base;   /* where it is mapped in its owner */
    size_t size;            /* usable bytes */
} pshm_seginfo_t;

PSHM_API int pshm_segment_info(const pshm_ctx_t *ctx, int rank, pshm_seginfo_t *info);

/*
 * Translates `owner_addr`, an address in `rank`'s view of its own segment, to
 * this process's view, in O(1). -EFAULT if it lies outside that segment.
 */
PSHM_API int pshm_translate(const pshm_ctx_t *ctx, int rank, const void *owner_addr,
                            void **local_addr);

/*
 * Collective over the job, after pshm_attach, at most once per context:
 * makes this process's memory [addr, addr + len) cross-mapped like the
 * segment, without moving it. Its bytes are copied into a new shared object
 * that is then mapped over the same addresses (pointers into the range stay
 * valid), and every supernode peer maps that object too. addr must be page
 * aligned and the range mapped read-write; len is rounded up to the page
 * size; len 0 shares nothing. Each process may give a different range (the
 * executable's data and bss, for an OpenSHMEM layer). No other thread may
 * write the range during the call. The range stays mapped, shared-backed,
 * after pshm_finalize and after a failure (its contents unchanged); a child
 * of fork() shares it with its parent instead of getting a copy.
 */
PSHM_API int pshm_attach_range(pshm_ctx_t *ctx, void *addr, size_t len);
/* Where `rank`'s range is: local_base in this process, owner_base (its
 * address in its owner), size (0: none). */
PSHM_API int pshm_range_info(const pshm_ctx_t *ctx, int rank, pshm_seginfo_t *info);

/* One-sided copies through the cross-mapped segment (owner_addr as above). */
PSHM_API int pshm_put(pshm_ctx_t *ctx, int rank, void *owner_addr, const void *src, size_t n);
PSHM_API int pshm_get(pshm_ctx_t *ctx, int rank, void *dst, const void *owner_addr, size_t n);

/* ------------------------------------------------------- active messages */

#define PSHM_AM_MAX_ARGS 16     /* 32-bit arguments per message */
#define PSHM_AM_HANDLER_MIN 1   /* index 0 is never valid: catches zeroed tables */
#define PSHM_AM_HANDLER_MAX 255
#define PSHM_AM_ANY_NARGS (-1)  /* handler accepts any argument count */

/* Send flags */
#define PSHM_IMMEDIATE 0x1u /* return -EAGAIN instead of waiting for queue room */

typedef struct pshm_token pshm_token_t; /* valid only while its handler runs */

/*
 * A handler. Short: buf NULL, nbytes 0. Medium: buf is the payload in place,
 * valid until the handler returns. Long: buf is where the payload landed in
 * this process's segment. buf is NULL for a Short only (a Medium's or a
 * Long's is not, even with 0 bytes), which tells a handler registered for
 * several categories which one ran it. A request handler may reply at most
 * once.
 */
typedef void (*pshm_handler_fn)(pshm_token_t *token, void *buf, size_t nbytes,
                                const uint32_t *args, unsigned nargs);

typedef struct pshm_handler_entry {
    unsigned index;     /* PSHM_AM_HANDLER_MIN..PSHM_AM_HANDLER_MAX */
    pshm_handler_fn fn;
    int nargs;          /* exact count, or PSHM_AM_ANY_NARGS */
} pshm_handler_entry_t;

/* Registers handlers (before or after attach); a later entry replaces one. */
PSHM_API int pshm_am_register(pshm_ctx_t *ctx, const pshm_handler_entry_t *table, size_t count);

/* Largest Medium payload (at least 65536). */
PSHM_API size_t pshm_am_max_medium(const pshm_ctx_t *ctx);

PSHM_API int pshm_am_request_short(pshm_ctx_t *ctx, int dest, unsigned handler, unsigned flags,
                                   unsigned nargs, const uint32_t *args);
PSHM_API int pshm_am_request_medium(pshm_ctx_t *ctx, int dest, unsigned handler,
                                    const void *buf, size_t nbytes, unsigned flags,
                                    unsigned nargs, const uint32_t *args);
/* dest_addr is an address in dest's own view of its segment. */
PSHM_API int pshm_am_request_long(pshm_ctx_t *ctx, int dest, unsigned handler,
                                  const void *buf, size_t nbytes, void *dest_addr,
                                  unsigned flags, unsigned nargs, const uint32_t *args);

PSHM_API int pshm_am_reply_short(pshm_token_t *token, unsigned handler, unsigned flags,
                                 unsigned nargs, const uint32_t *args);
PSHM_API int pshm_am_reply_medium(pshm_token_t *token, unsigned handler, const void *buf,
                                  size_t nbytes, unsigned flags, unsigned nargs,
                                  const uint32_t *args);
PSHM_API int pshm_am_reply_long(pshm_token_t *token, unsigned handler, const void *buf,
                                size_t nbytes, void *dest_addr, unsigned flags,
                                unsigned nargs, const uint32_t *args);

/*
 * Negotiated payload: the payload is built where the receiver reads it, with
 * no copy on the send side. Prepare reserves the message (queue slot, and
 * pool room for a Medium) and returns in *buf a buffer of *size bytes,
 * least <= *size <= most: for a Medium in the sender's payload pool (or the
 * queue slot), at most pshm_am_max_medium(); for a Long, dest_addr itself
 * (receiver's view) mapped in this process. Commit sends the first nbytes
 * (<= *size) with the handler and arguments (nargs as prepared); it never
 * waits. One prepared message per thread, committed by the same thread; a
 * prepared reply is committed inside its handler. PSHM_IMMEDIATE applies to
 * the prepare (-EAGAIN when the queue or the pool is full).
 */
PSHM_API int pshm_am_prepare_request_medium(pshm_ctx_t *ctx, int dest, size_t least,
                                            size_t most, unsigned flags, unsigned nargs,
                                            void **buf, size_t *size);
PSHM_API int pshm_am_commit_request_medium(pshm_ctx_t *ctx, unsigned handler, size_t nbytes,
                                           unsigned nargs, const uint32_t *args);
PSHM_API int pshm_am_prepare_request_long(pshm_ctx_t *ctx, int dest, void *dest_addr,
                                          size_t least, size_t most, unsigned flags,
                                          unsigned nargs, void **buf, size_t *size);
PSHM_API int pshm_am_commit_request_long(pshm_ctx_t *ctx, unsigned handler, size_t nbytes,
                                         unsigned nargs, const uint32_t *args);
PSHM_API int pshm_am_prepare_reply_medium(pshm_token_t *token, size_t least, size_t most,
                                          unsigned flags, unsigned nargs, void **buf,
                                          size_t *size);
PSHM_API int pshm_am_commit_reply_medium(pshm_token_t *token, unsigned handler, size_t nbytes,
                                         unsigned nargs, const uint32_t *args);
PSHM_API int pshm_am_prepare_reply_long(pshm_token_t *token, void *dest_addr, size_t least,
                                        size_t most, unsigned flags, unsigned nargs, void **buf,
                                        size_t *size);
PSHM_API int pshm_am_commit_reply_long(pshm_token_t *token, unsigned handler, size_t nbytes,
                                       unsigned nargs, const uint32_t *args);

/* Job rank that sent the message being handled. */
PSHM_API int pshm_token_source(const pshm_token_t *token);
/* The context the message arrived on (to send from a handler, or find user data). */
PSHM_API pshm_ctx_t *pshm_token_ctx(const pshm_token_t *token);

/* A pointer the application keeps with the context. */
PSHM_API void pshm_set_user_data(pshm_ctx_t *ctx, void *data);
PSHM_API void *pshm_get_user_data(const pshm_ctx_t *ctx);

/*
 * Runs pending handlers, a bounded number per call, visiting every sender in
 * turn. Returns the number of handlers run, or < 0 (a peer died, job aborted).
 */
PSHM_API int pshm_poll(pshm_ctx_t *ctx);

/*
 * Polls until cond(arg) returns non-zero. Spins while the host has no more
 * processes that may run on this process's CPUs than those CPUs (affinity
 * mask, cgroup CPU quota: pshm_cpu_sharers), else yields the CPU
 * (GASNET_WAIT_MODE overrides).
 * Fails with -ESRCH if a peer died, -ECANCELED if the job was aborted.
 */
PSHM_API int pshm_wait_until(pshm_ctx_t *ctx, int (*cond)(void *arg), void *arg);

/* Barrier over the supernode through shared memory; polls while it waits. */
PSHM_API int pshm_node_barrier(pshm_ctx_t *ctx);
/* Barrier over the whole job (supernode barrier plus the bootstrap's). */
PSHM_API int pshm_barrier(pshm_ctx_t *ctx);

/* Bytes of shared memory the AM network of this context takes. */
PSHM_API int pshm_am_memory(const pshm_ctx_t *ctx, uint64_t *bytes);
/*
 * Bytes the AM network takes for `nprocs` processes with queue depth `depth`
 * and pool size `memory` (0 for either: the default or the environment's).
 */
PSHM_API int pshm_am_network_size(unsigned nprocs, size_t depth, size_t memory, uint64_t *bytes);
/* What that size is made of: the part that grows with the processes' pairs
 * or with the processes (queues), and the part that grows with the pool
 * size (pools), as a runtime weighs GASNET_PSHMNET_QUEUE_DEPTH and _MEMORY. */
typedef struct pshm_am_network_parts {
    uint64_t total;  /* pshm_am_network_size's figure: the sum of the three */
    uint64_t queues; /* the message queues of both networks (requests, replies) */
    uint64_t pools;  /* the payload pools of both networks */
    uint64_t other;  /* the object's header page, the abort and barrier lines */
    size_t depth, memory; /* the depth and pool size taken (0 given: the environment's) */
} pshm_am_network_parts_t;
PSHM_API int pshm_am_network_parts(unsigned nprocs, size_t depth, size_t memory,
                                   pshm_am_network_parts_t *parts);

/* ------------------------------------------------------- for tools and launchers */

/*
 * What pshm-info, pshm-cleanup and pshmrun need from the library, and a
 * runtime's own launcher or diagnostics may want too. None needs a context.
 */

/* How this library was built. */
typedef struct pshm_build_info {
    const char *version;         /* "0.1.0" */
    const char *backend;         /* "posix", "sysv", "file" or "none" */
    const char *object_prefix;   /* every shared object's name starts with it: "pshm" */
    unsigned cache_line;         /* bytes; builds that differ refuse to share a job */
    int debug;                   /* 1: built with internal checks */
    const char *prefix;          /* installation prefix */
    const char *configure_args;  /* ./configure's arguments */
} pshm_build_info_t;
PSHM_API const pshm_build_info_t *pshm_build_info(void);

/* A variable pshm reads (the table README.PSHM and pshm-info show). */
typedef struct pshm_env_var {
    const char *name;
    const char *deflt;           /* the default, as a phrase */
    const char *range;           /* what is accepted */
    const char *doc;             /* one sentence */
} pshm_env_var_t;
/* The variable at `index` (0, 1, ...), or NULL past the last. */
PSHM_API const pshm_env_var_t *pshm_env_var(int index);
/* Reads and checks every variable as pshm_init does: 0, or a negative errno
 * with the message naming the variable and what it accepts. */
PSHM_API int pshm_env_check(void);

/* Strict numbers, as pshm's variables spell them: the whole string is used,
 * no sign, overflow and out-of-range are errors (the message names `what`). */
enum {
    PSHM_PARSE_U64 = 0,          /* a decimal integer in [min, max] */
    PSHM_PARSE_SIZE,             /* bytes: "4096", "64K", "512M", "2G" (powers of 1024) */
    PSHM_PARSE_SECONDS           /* "2", "0.5": *out in milliseconds, [min, max] in ms */
};
PSHM_API int pshm_parse(int kind, const char *what, const char *s, uint64_t min, uint64_t max,
                        uint64_t *out);

/* What this process may use of the machine. */
typedef struct pshm_host_limits {
    uint64_t phys_mem;           /* bytes of physical memory (0 if unknown) */
    int usable_cpus;             /* affinity mask, lowered to a cgroup CPU quota */
    int memcg;                   /* 1 if a cgroup memory limit applies */
    uint64_t memcg_limit;        /* ... its limit, bytes */
    uint64_t memcg_room;         /* ... what may still be charged, bytes */
    char memcg_file[200];        /* ... the file that sets it */
} pshm_host_limits_t;
PSHM_API int pshm_host_limits(pshm_host_limits_t *out);

/* The network and segments a job of `procs` processes on this host gets,
 * with the settings of the environment, as pshm_init and pshm_attach compute
 * them (the message says why, when no segment fits). On failure *out holds
 * what was computed before it (the settings, once the environment is valid). */
typedef struct pshm_host_plan {
    unsigned queue_depth;        /* the settings used: GASNET_PSHMNET_QUEUE_DEPTH, */
    uint64_t queue_memory;       /* ... GASNET_PSHMNET_QUEUE_MEMORY (bytes), */
    unsigned supernode_max;      /* ... GASNET_SUPERNODE_MAXSIZE (0: no limit) */
    unsigned node_size;          /* processes of a supernode */
    unsigned nodes;              /* supernodes on the host */
    uint64_t am_bytes;           /* one supernode's AM network, header included */
    uint64_t seg_max;            /* the largest segment each process may attach */
} pshm_host_plan_t;
PSHM_API int pshm_host_plan(unsigned procs, pshm_host_plan_t *out);

/*
 * The shared objects pshm creates (segments, AM regions, ranges) start with a
 * header page of PSHM_OBJECT_HEADER_SIZE bytes telling whose they are.
 * pshm_object_inspect reads one from `hdr` (len bytes, the object's start):
 * 0 and *out filled; -ENODATA if there is no header (fewer bytes than one,
 * or never written: its creator died first); -EINVAL (message set) if it is
 * not a pshm header, or another version's.
 */
#define PSHM_OBJECT_HEADER_SIZE 4096u
typedef struct pshm_object_info {
    char kind;                   /* 's' segment, 'q' AM region, 'r' range */
    uint32_t uid;                /* the creator's */
    int32_t rank;                /* creator's job rank (a region: its supernode) */
    int32_t pid;                 /* creator */
    uint64_t pid_start;          /* its start time, clock ticks after boot (0: unknown) */
    uint64_t pidns;              /* its PID namespace's inode (0: unknown) */
    uint32_t nranks;             /* job size */
    uint64_t created;            /* CLOCK_REALTIME seconds */
    uint64_t len;                /* the object's bytes, header included */
    char tag[24];                /* the job tag */
    char name[64];               /* the object's name */
} pshm_object_info_t;
PSHM_API int pshm_object_inspect(const void *hdr, size_t len, pshm_object_info_t *out);
/* The SysV key of the object named `name` (sysv backend). */
PSHM_API uint32_t pshm_object_sysv_key(const char *name);
/* True if `tag` is a job tag: 1..16 characters of [a-z0-9]. */
PSHM_API int pshm_tag_valid(const char *tag);
/* Removes every object of job `tag` (`nranks` processes) that this user
 * created and that nobody maps any more: a launcher's cleanup after a job
 * that died. Returns the number removed, or a negative errno. */
PSHM_API int pshm_job_remove(const char *tag, unsigned nranks);

#ifdef __cplusplus
}
#endif
#endif /* PSHM_H */
