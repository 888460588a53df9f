/*
 * coll.h - what the collectives share: active sets and the pSync protocol.
 *
 * Every PE of this supernode has its memory mapped here, so among them a
 * collective moves data with plain loads and stores into peers' symmetric
 * objects; what it needs from the network is only "who has arrived", and
 * that is counted in the user's pSync.
 *
 * pSync slots hold counters relative to SHMEM_SYNC_VALUE. A signal is an
 * atomic add on the receiver's slot; the receiver waits for the count it
 * expects, then subtracts exactly that count. Counts, unlike flags, keep a
 * signal that arrives early from the next call with the same pSync (a fast
 * peer already past this one), so consecutive collectives may reuse a pSync,
 * and every slot is back at SHMEM_SYNC_VALUE once the call's own signals are
 * consumed.
 *   slot 0  collect: this PE's element count, published for the others
 *   slot 1  broadcast: "the root's source is ready"
 *   slot 2  broadcast: acks to the root, "copied"
 *   slot 19     a job on several supernodes: the byte count a supernode's
 *               leader hands each member with the data (collect), stored
 *               as is and set back by the member that reads it
 * The sync (every barrier of a set, and those inside the collectives)
 * writes no slot: it signals on the layer's own lines (coll_set.c).
 * Slots 3 to 18 and 20 on are unused.
 * Each kind of signal has slots of its own, so that a PE that has left one
 * collective and started the next on the same pSync cannot have its signal
 * taken for one of another kind.
 *
 * When the job spans supernodes (shm.multi), a set's members of one
 * supernode run the same algorithms among themselves (a coll_set_t with an
 * explicit member list), and one leader per supernode carries the rest over
 * MPI (coll_net.c); coll_span.c tells how a set lies across supernodes.
 */
#ifndef PSHMEM_COLL_H
#define PSHMEM_COLL_H

#include "shmem_internal.h"

#include <stdatomic.h>
#include <stddef.h>

enum { COLL_COUNT = 0, COLL_READY = 1, COLL_ACK = 2, COLL_ROUND0 = 3 };
#define COLL_ROUNDS_MAX 16 /* barrier rounds: up to 2^16 PEs */
#define COLL_TOTAL (COLL_ROUND0 + COLL_ROUNDS_MAX)
#define COLL_ROUND1 (COLL_TOTAL + 1)
#define COLL_SYNC_SLOTS (COLL_ROUND1 + COLL_ROUNDS_MAX)

_Static_assert(SHMEM_BARRIER_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_BCAST_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_REDUCE_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_ALLTOALL_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_ALLTOALLS_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_COLLECT_SYNC_SIZE >= COLL_SYNC_SLOTS,
               "the pSync sizes of shmem.h are smaller than the collectives use");
_Static_assert(sizeof(long) == sizeof(atomic_long), "pSync slots are used as atomic_long");

/* An active set: PE of member i is start + i * stride, or pes[i] when pes
 * is not NULL (one supernode's members of a set, or a team given by its
 * list, in set order); `me` is my index. */
typedef struct coll_set {
    int start;
    int stride;
    int size;
    int me;
    const int *pes;
} coll_set_t;

static inline int coll_pe(const coll_set_t *s, int i)
{
    return s->pes != NULL ? s->pes[i] : s->start + i * s->stride;
}

/* Checks the triplet (fatal error naming `call` and the bad value) and that
 * the calling PE is a member; fills *s. */
void coll_set_init(coll_set_t *s, const char *call, int PE_start, int logPE_stride,
                   int PE_size) SHM_HIDDEN;

/* Local pointer to member i's slot `slot` of pSync (mine when i == s->me). */
atomic_long *coll_slot(const char *call, const coll_set_t *s, long *pSync, int i,
                       int slot) SHM_HIDDEN;

/* Adds one to a slot, releasing this PE's earlier stores to the waiter. */
static inline void coll_signal(atomic_long *slot)
{
    atomic_fetch_add_explicit(slot, 1, memory_order_release);
}

/* Waits until *slot counts n signals (acquire), then takes them away. */
void coll_consume(atomic_long *slot, long n) SHM_HIDDEN;

/* Waits until *p >= v (acquire), with progress, peer-death exit and yield. */
void coll_wait_ge(atomic_long *p, long v) SHM_HIDDEN;

/* shmem_barrier_all's own state (coll_barrier_all.c), set up and dropped
 * by shm_coll_init and shm_coll_fini (coll_net.c). */
void coll_bar_init(void) SHM_HIDDEN;
void coll_bar_fini(void) SHM_HIDDEN;

/* The epoch dissemination barrier of shmem_barrier_all (coll_barrier_all.c)
 * over any set of PEs of this supernode: one cache line per round on each
 * member, written by that round's one sender (the epoch it entered) and read
 * by the owner alone. shmem_barrier_all runs one over the supernode's PEs,
 * each team one over its members of this supernode (team_sync.c). */
typedef struct coll_lines {
    struct {
        _Alignas(64) atomic_llong epoch; /* last barrier the sender of round k signalled */
        char pad[64 - sizeof(atomic_llong)];
    } round[COLL_ROUNDS_MAX];
} coll_lines_t;
_Static_assert(sizeof(coll_lines_t) == 64 * COLL_ROUNDS_MAX, "one line per round");

typedef struct coll_dbar {
    unsigned rounds;
    long long epoch;                    /* barriers this PE has entered */
    atomic_llong *out[COLL_ROUNDS_MAX]; /* round k's line on member me + 2^k */
    atomic_llong *in[COLL_ROUNDS_MAX];  /* round k's line here */
} coll_dbar_t;

/* Sets b up over the members of s (all of this supernode) on the lines at
 * the symmetric address `lines`, zero on every member (epoch 0: no barrier
 * yet); fatal (naming call) for a set larger than 2^COLL_ROUNDS_MAX. */
void coll_dbar_init(coll_dbar_t *b, const char *call, const coll_set_t *s,
                    coll_lines_t *lines) SHM_HIDDEN;
/* Waits until *p >= v (acquire), with progress, peer-death exit and yield. */
void coll_wait_epoch(atomic_llong *p, long long v) SHM_HIDDEN;
/* The rest of coll_dbar from round k, whose signal has not come yet: out
 * of line, so that the inline rounds keep no frame. */
void coll_dbar_rest(coll_dbar_t *b, unsigned k, long long epoch) SHM_HIDDEN;

/* One barrier: every member's stores before it are visible to every member
 * after it (release/acquire on the lines). Inline: its callers pay no call,
 * no frame, only the rounds. */
static inline void coll_dbar(coll_dbar_t *b)
{
    long long epoch = ++b->epoch;

    for (unsigned k = 0; k < b->rounds; k++) {
        /* Release: this PE's stores, and all it learned in earlier rounds,
         * are visible to whoever acquires this line. */
        atomic_store_explicit(b->out[k], epoch, memory_order_release);
        /* Acquire: pairs with the sender's release above. */
        if (atomic_load_explicit(b->in[k], memory_order_acquire) < epoch) {
            coll_dbar_rest(b, k, epoch);
            return;
        }
    }
}

/* Barrier over the set (dissemination: in round k member i signals member
 * i + 2^k and waits for member i - 2^k, so two PEs need one store and one
 * load each), on the layer's lines: pSync is only checked. Orders memory,
 * but does not quiet. */
void coll_sync(const char *call, const coll_set_t *s, long *pSync) SHM_HIDDEN;
/* coll_sync's state (the signal counts of each pair of PEs), set up and
 * dropped by shm_coll_init and shm_coll_fini (coll_net.c). */
void coll_sync_init(void) SHM_HIDDEN;
void coll_sync_fini(void) SHM_HIDDEN;

/* Broadcast within s from member `root`: every other member copies n bytes
 * of the symmetric object `from` on the root into its dest (pulling), then
 * acknowledges; the root returns when all have copied. With publish, the
 * root stores n in each member's COLL_TOTAL slot and the others take their
 * count from there (pass n = 0): the caller on a member does not know it.
 * A member's copy must not overlap [own, own + own_n) (fatal, naming call).
 * Returns the bytes copied. Uses pSync slots READY, ACK (and TOTAL). */
size_t coll_fanout(const char *call, const coll_set_t *s, int root, const void *from,
                   void *dest, size_t n, long *pSync, int publish, const void *own,
                   size_t own_n) SHM_HIDDEN;

/*
 * How an active set lies across supernodes, in a job that spans several.
 * Supernodes are numbered 0.. in the order of their lowest member of the
 * set; that member is the supernode's leader for the set. Members of one
 * supernode are listed in set order.
 */
typedef struct coll_span {
    int start, stride, size; /* the set */
    coll_set_t local;        /* this supernode's members (local.pes; leader: local.me == 0) */
    int nnodes;              /* supernodes with members */
    int node;                /* this PE's supernode */
    int *leader;             /* [nnodes] each supernode's leader (PE) */
    int *first;              /* [nnodes + 1] members of supernode g: idx[first[g] .. first[g+1]) */
    int *idx;                /* [size] set indices, supernode after supernode */
    int *node_of;            /* [size] each member's supernode */
    unsigned seq;            /* collectives this PE entered on the set (message tags) */
    struct coll_span *next;
} coll_span_t;

/* For a collective on s in a job that spans supernodes: the span of s,
 * built on first use and kept, its seq advanced by one (every member calls
 * once per collective, so all agree). NULL when the job is on one supernode
 * or all of s is in mine: then the one-supernode algorithms apply as is. */
coll_span_t *coll_span(const char *call, const coll_set_t *s) SHM_HIDDEN;
/* Frees every span (shmem_finalize). */
void coll_span_fini(void) SHM_HIDDEN;
/* The span of s, built for the caller to keep (a team's, whose set may be
 * an explicit list), outside coll_span's table; seq starts at `seq`.
 * coll_span_free frees one (NULL: nothing). */
coll_span_t *coll_span_new(const char *call, const coll_set_t *s, unsigned seq) SHM_HIDDEN;
void coll_span_free(coll_span_t *sp) SHM_HIDDEN;

/* The leaders' messages (coll_net.c), over MPI; every call below is made by
 * the set's leaders only, and returns when this leader's part is done. Waits
 * make progress on both paths and yield when this host is oversubscribed. */
void coll_net_init(void) SHM_HIDDEN;  /* collective over the job, at init */
void coll_net_fini(void) SHM_HIDDEN;
/* The supernode of every PE (its lowest PE), filled by coll_net_init. */
extern int *coll_node_id SHM_HIDDEN;
/* shmem_barrier_all's step between supernodes: one MPI barrier among the
 * supernodes' leaders. */
void coll_net_barrier_all(void) SHM_HIDDEN;
/* A barrier among the leaders of sp (dissemination). */
void coll_net_sync(const char *call, coll_span_t *sp) SHM_HIDDEN;
/* Broadcast of n bytes at buf down a binomial tree over the supernodes,
 * from supernode root_node, where PE root_pe (not necessarily the leader)
 * holds the data and sends; every other supernode's leader receives. */
void coll_net_bcast(const char *call, coll_span_t *sp, void *buf, size_t n, int root_node,
                    int root_pe) SHM_HIDDEN;
/* Every leader sends send[g] (slen[g] bytes) to the leader of supernode g
 * and receives rlen[g] bytes into recv[g] from it, for every g but its own;
 * `step` tells apart the exchanges of one collective. */
void coll_net_exchange(const char *call, coll_span_t *sp, int step, void *const *send,
                       const size_t *slen, void *const *recv, const size_t *rlen) SHM_HIDDEN;
enum { COLL_STEP_SYNC = 0, COLL_STEP_BCAST = 40, COLL_STEP_COUNTS, COLL_STEP_DATA,
       COLL_STEPS = 64 };

/* The collectives' kernels. Each runs over the set s (checked, the caller
 * a member) with sp its span across supernodes (coll_span for an active
 * set, team_span_next for a team; NULL within one supernode), on pSync
 * (and pWrk): the active-set routines and the team routines call the same
 * ones. Errors are fatal and name call. */

/* n bytes of the root's (member `root`) source into the others' dest;
 * with root_dest, into the root's dest too (the team form). */
void coll_bcast_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                    const void *source, size_t n, int root, long *pSync,
                    int root_dest) SHM_HIDDEN;
/* Every member's nelems elements of esize bytes, in member order, into
 * every dest; fixed: nelems is the same on all (fcollect). */
void coll_collect_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                      const void *source, size_t nelems, size_t esize, long *pSync,
                      int fixed) SHM_HIDDEN;
/* Member i's block j (nelems elements, strides sst, dst) into member j's
 * dest as block i. */
void coll_alltoalls_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                        const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                        size_t esize, long *pSync) SHM_HIDDEN;
/* acc[i] = acc[i] OP in[i] for i < n (coll_ops.h lists them). */
typedef void (*coll_combine_fn)(void *acc, const void *in, size_t n);
/* The reduction of nreduce elements with combine, in every dest; pWrk
 * holds SHMEM_REDUCE_MIN_WRKDATA_SIZE elements. */
void coll_reduce_run(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                     const void *source, size_t nreduce, size_t esize, coll_combine_fn combine,
                     void *pWrk, long *pSync) SHM_HIDDEN;

/* coll_sync over the whole of s: with sp (coll_span), each supernode's
 * members, then their leaders over MPI, then each supernode's again. */
void coll_sync_span(const char *call, const coll_set_t *s, coll_span_t *sp,
                    long *pSync) SHM_HIDDEN;

/* The reduction kernel of shmem_long_and_to_all over s (sp: its span, or
 * NULL within one supernode) on the given pSync and pWrk, for the layer's
 * own use (a team split agreeing on a free slot): dest and source are
 * symmetric and checked by the caller. */
void coll_reduce_and_long(const char *call, long *dest, const long *source, int nreduce,
                          const coll_set_t *s, coll_span_t *sp, void *pWrk,
                          long *pSync) SHM_HIDDEN;

/* nelems * esize, fatal (naming call) if it overflows. */
size_t coll_bytes(const char *call, size_t nelems, size_t esize) SHM_HIDDEN;

/* Fatal (naming call) if [a, a+n) and [b, b+m) overlap. */
void coll_check_overlap(const char *call, const void *a, size_t n, const void *b,
                        size_t m) SHM_HIDDEN;

#endif /* PSHMEM_COLL_H */
