/*
 * ctx.h - the context of a process (one per process, struct pshm_ctx), its
 * checks, and what every wait for another process goes through: liveness,
 * the abort word, the wait policy. Part of the base layer: the modules above
 * (nodemap/, segment/, amqueue/) and the driver (pshm/) fill their parts of
 * the context; the types of those parts the base does not read stay
 * incomplete here.
 */
#ifndef PSHM_CTX_H
#define PSHM_CTX_H

#include "base/base.h"
#include "base/control.h"

struct boot;
struct seg_obj;
struct amq;
struct amq_rq;
struct amq_sq;

/*
 * Which processes of the job share this host (the supernode). Built by
 * nodemap/ from every rank's host identity; read by every layer (liveness
 * watches the supernode's members, the AM network addresses them).
 */
typedef struct nodemap {
    int size;            /* ranks in the job */
    int *node_of;        /* job rank -> supernode index (0..node_count-1) */
    int *local_rank;     /* job rank -> supernode rank in MY supernode, or -1 */
    int *members;        /* my supernode's job ranks, ascending (node_size) */
    int node_size;
    int node_rank;
    int node_index;      /* my supernode's index (names the AM region) */
    int node_count;      /* supernodes in the job */
    int host_count;      /* distinct hosts in the job */
    int host_size;       /* ranks on my host, all its supernodes (a "/h" budget's share) */
} nodemap_t;

enum { CTX_INIT = 1, CTX_ATTACHED = 2 };

struct pshm_ctx {
    int state;
    unsigned flags;              /* PSHM_INIT_* */
    int rank, size;              /* in the job */
    pshm_cfg_t cfg;
    struct boot *boot;           /* the driver's bootstrap (pshm/boot.c) */
    nodemap_t nm;

    /* Attached segments, indexed by supernode rank. */
    struct seg_obj *segs;
    pshm_seginfo_t *seginfo;     /* local_base, owner_base, size */
    intptr_t *seg_delta;         /* local address = owner address + delta */
    struct seg_obj *region;      /* the supernode's AM region */
    /* pshm_attach_range: each process's range, by supernode rank (NULL
     * until then); mine stays mapped after finalize (the caller's memory). */
    struct seg_obj *ranges;
    pshm_seginfo_t *rangeinfo;

    /* Liveness of supernode peers (by supernode rank). */
    pid_t *peer_pid;
    int *peer_pidfd;             /* -1 for me, or when pidfd_open is missing */
    uint64_t next_live_check_ns; /* wait loops check at most every ~1 ms */
    int ncores;                  /* CPUs usable: affinity mask and cgroup quota */
    int cpu_sharers;             /* this host's processes whose masks meet mine, me too */
    bool oversubscribed;         /* more of them than usable CPUs: waits yield */
    /* AUTO: a wait longer than a hand-off sleeps (live.c). In the padding
     * before spin_max: the fields after it keep their lines. */
    bool wait_sleeps;
    uint32_t spin_max;           /* a wait's steps spin while fewer (ctx_wait_policy) */
    /* The supernode's control line in the shared region while attached
     * (NULL before): the abort word. */
    pshm_control_t *control;

    struct amq *amq;
    /* The AM fast paths' state, read without going through `amq`: the
     * incoming queues an idle poll scans, [scan_lo, scan_hi), an even
     * count of at least 2 (see amqueue/poll.c); the outgoing request queue of
     * each job rank (NULL when not in this supernode); each handler's
     * argument count (AMQ_NARGS_*); am_nfast, a send's one compare: the
     * same count, or for a handler of any count the count last sent to it
     * (without threads: the send writes it; AMQ_NARGS_NONE if none); the slot meta
     * word of a Short to it with its exact count inline (all ones, which
     * no message has, if none; AMQ_META_ANY for any count), the poll's
     * registration key; am_fast, the poll's first compare: for a Short
     * inline (s) the same key for a handler of an exact count, for one of
     * any count the meta word of the last it got (without threads: the
     * poll writes it); the same for a Medium (m: its meta word without the
     * spill and pad bits); for a handler not registered, a key whose low
     * byte is not its index, which no message matches; its function. */
    struct amq_rq *scan_lo, *scan_hi;
    struct amq_sq **req_sq;
    uint8_t am_nargs[PSHM_AM_HANDLER_MAX + 1];
    uint8_t am_nfast[PSHM_AM_HANDLER_MAX + 1];
    uint32_t am_meta[PSHM_AM_HANDLER_MAX + 1];
    struct {
        uint32_t s, m;
    } am_fast[PSHM_AM_HANDLER_MAX + 1];
    pshm_handler_fn am_fn[PSHM_AM_HANDLER_MAX + 1];
    pshm_handler_entry_t handlers[PSHM_AM_HANDLER_MAX + 1];
    void *user_data;
};

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

/* Sets ctx->spin_max from GASNET_WAIT_MODE and ctx->oversubscribed: the
 * steps of a wait spin while fewer (always: UINT32_MAX; never: 0); and
 * ctx->wait_sleeps for AUTO, whose waits sleep once they have lasted
 * longer than a hand-off (the slow step's clock tells). */
void ctx_wait_policy(pshm_ctx_t *ctx);
/* The clock is read every CTX_SPIN_CHECK + 1 spins. */
#define CTX_SPIN_CHECK 255u
/* ctx_wait_step's other cases: a yield, or the spin that reads the clock. */
int ctx_wait_step_slow(pshm_ctx_t *ctx, uint32_t n);
/*
 * One step of a wait for another process: PAUSE while spinning is allowed,
 * else sched_yield(); every ~1 ms also checks that no peer died and the job
 * was not aborted. Returns 0 to go on waiting, or -ESRCH / -ECANCELED with the
 * message set. `spins` is the caller's counter, zero at the start of the wait
 * and again after each poll that ran messages: AUTO's sleeps follow an idle
 * stretch, not a long wait full of messages (a server waiting for its last).
 * Inline, its common case a compare and a PAUSE: it runs between every two
 * polls of a wait, so its length is part of how late a message is seen.
 */
static inline int ctx_wait_step(pshm_ctx_t *ctx, uint32_t *spins)
{
    uint32_t n = ++*spins;

    if (PSHM_LIKELY(n < ctx->spin_max && (n & CTX_SPIN_CHECK) != 0)) {
        pshm_cpu_relax();
        return 0;
    }
    return ctx_wait_step_slow(ctx, n);
}
/* Checks now: -ESRCH if a supernode peer died, -ECANCELED if aborted, else 0.
 * peer >= 0 restricts the death check to that supernode rank. */
int live_check(pshm_ctx_t *ctx, int peer);
/* live_check(ctx, -1) at most every ~1 ms (a clock read otherwise): for loops
 * that call it often (wait steps, idle polls). */
int live_check_paced(pshm_ctx_t *ctx);
/* Code in the supernode's abort word that means "this rank died" (recorded by
 * the first survivor to notice); pshm_abort never records it. */
#define LIVE_DIED_CODE INT32_MIN
/* Marks the supernode's job as aborted by `rank` with `code` in the control
 * line (the first abort wins; wait loops see it). No-op before attach. */
void live_set_abort(pshm_ctx_t *ctx, int rank, int code);
/* Non-zero if the supernode's job was aborted; fills rank and code. */
int live_aborted(const pshm_ctx_t *ctx, int *rank, int *code);
int live_init(pshm_ctx_t *ctx);  /* opens pidfds after the attach exchange */
void live_fini(pshm_ctx_t *ctx);

#endif /* PSHM_CTX_H */
