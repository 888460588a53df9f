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
 */
#include "coll.h"

#include <stdint.h>

/* The scratch area of one PE. One line per round, each written by one
 * sender and read by its owner alone. */
struct coll_scratch {
    struct {
        _Alignas(64) atomic_llong epoch; /* last barrier the sender of round k signalled */
        char pad[64 - sizeof(atomic_llong)];
    } round[COLL_ROUNDS_MAX];
};
_Static_assert(sizeof(struct coll_scratch) == 64 * COLL_ROUNDS_MAX, "one line per round");
_Static_assert(sizeof(struct coll_scratch) <= SHM_SCRATCH_SIZE,
               "the barrier lines fit in the layer's scratch area");

static struct {
    int ready;
    unsigned rounds;
    long long epoch;                    /* barriers this PE has entered */
    atomic_llong *out[COLL_ROUNDS_MAX]; /* round k's line on PE me + 2^k */
    atomic_llong *in[COLL_ROUNDS_MAX];  /* round k's line here */
} bar;

void coll_bar_init(void)
{
    struct coll_scratch *mine = shm_scratch;
    /* The PEs this barrier spans: the job, or my supernode's. */
    int n = shm.multi ? shm.node_npes : shm.npes, me = 0;

    if (shm.multi) {
        while (shm.node_pes[me] != shm.me)
            me++;
    } else {
        me = shm.me;
    }
    bar.rounds = 0;
    while (bar.rounds < COLL_ROUNDS_MAX && (1 << bar.rounds) < n)
        bar.rounds++;
    if ((1 << bar.rounds) < n)
        shm_fatal("shmem_init", "%d PEs; the barrier handles at most %d", n,
                  1 << COLL_ROUNDS_MAX);
    for (unsigned k = 0; k < bar.rounds; k++) {
        int to = (me + (1 << k)) % n;
        struct coll_scratch *peer =
            shm_remote("shmem_init", shm_scratch, shm.multi ? shm.node_pes[to] : to);

        bar.out[k] = &peer->round[k].epoch;
        bar.in[k] = &mine->round[k].epoch;
    }
    /* The area is zero on every PE at init: epoch 0 is "no barrier yet". */
    bar.epoch = 0;
    bar.ready = 1;
}

void coll_bar_fini(void)
{
    bar.ready = 0;
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

static void node_barrier(void)
{
    long long epoch = ++bar.epoch;

    for (unsigned k = 0; k < bar.rounds; k++) {
        /* Release: this PE's stores, and all it learned in earlier rounds,
         * are visible to whoever acquires this line. */
        atomic_store_explicit(bar.out[k], epoch, memory_order_release);
        /* Acquire: pairs with the sender's release above. */
        if (atomic_load_explicit(bar.in[k], memory_order_acquire) < epoch) {
            struct coll_epoch_wait w = {bar.in[k], epoch};

            shm_wait(coll_epoch_cond, &w);
        }
    }
}

static void coll_barrier_all(void)
{
    node_barrier();
    if (SHM_LIKELY(!shm.multi))
        return;
    if (shm.node_leader == shm.me)
        coll_net_barrier_all();
    node_barrier();
}

void shmem_barrier_all(void)
{
    shm_check_init("shmem_barrier_all");
    /* The barrier implies quiet: this PE's puts are complete when others
     * leave it. */
    shmem_quiet();
    if (SHM_UNLIKELY(!bar.ready)) {
        shm_barrier();
        return;
    }
    coll_barrier_all();
}

void shmem_sync_all(void)
{
    shm_check_init("shmem_sync_all");
    if (SHM_UNLIKELY(!bar.ready)) {
        shm_barrier();
        return;
    }
    coll_barrier_all();
}
