/*
 * coll_barrier_all.c - shmem_barrier_all and shmem_sync_all.
 *
 * A dissemination barrier on the layer's scratch area at the start of the
 * symmetric heap: in round k, PE p signals PE (p + 2^k) mod N and waits for
 * the signal of PE (p - 2^k) mod N; after ceil(log2 N) rounds every PE has
 * heard, transitively, from all. Two PEs need one round: each stores into
 * the other's line and reads its own, so the barrier costs one cache-line
 * transfer each way, in parallel.
 *
 * A signal is the barrier's epoch (1, 2, ...), stored in the receiver's line
 * for that round, which only the sender of the round writes. Epochs only
 * grow, so "line >= epoch" needs no reset and no sense reversal: a fast peer
 * already in the next barrier stores a larger epoch, which still satisfies
 * the slower waiter; it cannot get two barriers ahead, as it would need this
 * PE's signal of the next barrier first.
 *
 * The barrier itself (coll_dbar, inline in coll.h; its waits here) runs
 * over any set of PEs of one supernode on any zeroed lines: here the
 * supernode's PEs on the scratch area's first lines, and each team's
 * members on its slot's (team_sync.c). The active sets' barrier
 * (coll_set.c) is the same with a count per pair of PEs for the epoch.
 */
#include "coll.h"
#include "xport.h"

/* The scratch area of one PE starts with the barrier's lines. */
_Static_assert(sizeof(coll_lines_t) <= 4096,
               "the barrier lines fit in the layer's scratch area");

static struct {
    int ready;
    int fast; /* ready, and the job is one supernode: coll_dbar is all */
    coll_dbar_t b; /* over my supernode's PEs (the job's when it is one) */
} bar;

void coll_dbar_init(coll_dbar_t *b, const char *call, const coll_set_t *s, coll_lines_t *lines)
{
    int n = s->size;

    b->rounds = 0;
    while (b->rounds < COLL_ROUNDS_MAX && (1 << b->rounds) < n)
        b->rounds++;
    if ((1 << b->rounds) < n)
        shm_fatal(call, "%d PEs; the barrier handles at most %d", n, 1 << COLL_ROUNDS_MAX);
    for (unsigned k = 0; k < b->rounds; k++) {
        int to = (s->me + (1 << k)) % n;
        coll_lines_t *peer = shm_remote(call, lines, coll_pe(s, to));

        b->out[k] = &peer->round[k].epoch;
        b->in[k] = &lines->round[k].epoch;
    }
    /* The lines are zero on every member: epoch 0 is "no barrier yet". */
    b->epoch = 0;
}

void coll_bar_init(void)
{
    /* The PEs this barrier spans: the job, or my supernode's. */
    coll_set_t s = {0, 1, shm.npes, shm.me, NULL};

    if (shm.multi) {
        s.size = shm.node_npes;
        s.pes = shm.node_pes;
        s.me = 0;
        while (shm.node_pes[s.me] != shm.me)
            s.me++;
    }
    coll_dbar_init(&bar.b, "shmem_init", &s, shm_scratch);
    bar.ready = 1;
    bar.fast = !shm.multi;
}

void coll_bar_fini(void)
{
    bar.ready = 0;
    bar.fast = 0;
}

struct coll_epoch_wait {
    atomic_llong *p;
    long long v;
};

static int coll_epoch_cond(void *arg)
{
    const struct coll_epoch_wait *w = arg;

    return atomic_load_explicit(w->p, memory_order_acquire) >= w->v;
}

void coll_wait_epoch(atomic_llong *p, long long v)
{
    struct coll_epoch_wait w = {p, v};

    if (atomic_load_explicit(p, memory_order_acquire) < v)
        shm_wait(coll_epoch_cond, &w);
}

void coll_dbar_rest(coll_dbar_t *b, unsigned k, long long epoch)
{
    coll_wait_epoch(b->in[k], epoch);
    for (k++; k < b->rounds; k++) {
        atomic_store_explicit(b->out[k], epoch, memory_order_release);
        coll_wait_epoch(b->in[k], epoch);
    }
}

static void coll_barrier_all(void)
{
    coll_dbar(&bar.b);
    if (SHM_LIKELY(!shm.multi))
        return;
    if (shm.node_leader == shm.me)
        coll_net_barrier_all();
    coll_dbar(&bar.b);
}

/* The synchronization of both: the dissemination barrier once shmem_init
 * has set it up, the layer's own before. */
static void barrier_sync(void *arg)
{
    (void)arg;
    if (SHM_UNLIKELY(!bar.ready))
        shm_xp_sync_all();
    else
        coll_barrier_all();
}

/* Everything but the common case: before shmem_init (the check says so),
 * during it, and a job over several supernodes. */
static __attribute__((noinline)) void barrier_slow(const char *call, int quiet)
{
    shm_check_init(call);
    if (quiet)
        shm_xp_barrier(barrier_sync, NULL);
    else
        barrier_sync(NULL);
}

/* The common case: the supernode's barrier alone, inline. */
static inline void barrier_fast(void *arg)
{
    (void)arg;
    coll_dbar(&bar.b);
}

void shmem_barrier_all(void)
{
    if (SHM_UNLIKELY(!bar.fast)) {
        barrier_slow("shmem_barrier_all", 1);
        return;
    }
    /* The barrier implies quiet (the seam's barrier, xport.h). */
    shm_xp_barrier(barrier_fast, NULL);
}

void shmem_sync_all(void)
{
    if (SHM_UNLIKELY(!bar.fast)) {
        barrier_slow("shmem_sync_all", 0);
        return;
    }
    coll_dbar(&bar.b);
}
