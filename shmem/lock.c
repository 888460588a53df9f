/*
 * lock.c - shmem_set_lock, shmem_test_lock, shmem_clear_lock: an MCS queue
 * lock, so the lock goes to the PEs in the order they asked for it (FIFO),
 * and every waiter spins on a word of its own.
 *
 * The lock is a symmetric long, zero at first, that the program never
 * touches otherwise. Each PE's copy is used as two 32-bit words:
 *   word 0 (PE 0's copy only)  tail: 0 when free, else 1 + the last PE in
 *                              the queue (the holder, if nobody waits)
 *   word 1 (every PE's copy)   this PE's queue node:
 *                              bits 0-30  1 + the PE queued behind it, 0 none
 *                              bit 31     the lock was handed to this PE
 * A PE joins by swapping itself into the tail; if there was a PE before it,
 * it writes its number into that PE's node and waits for the handover bit in
 * its own. Releasing hands over to the successor, or empties the tail when
 * there is none (a compare-and-swap, which fails if one is just joining;
 * then the releaser waits for it to write its number).
 *
 * The tail and another PE's node may be on another host: those operations
 * (swap, compare-and-swap or fetch of the tail, or into another PE's node)
 * go through the seam's atomics (xport.h), the instruction itself on a PE
 * of my supernode, MPI's shipped atomic otherwise, atomic with each other;
 * a PE still waits on its own node, in its own memory.
 */
#include "xport.h"

#include <stdatomic.h>
#include <stdint.h>

#define LOCK_GRANTED 0x80000000u
#define LOCK_NEXT 0x7fffffffu

_Static_assert(sizeof(long) == 2 * sizeof(atomic_uint_least32_t),
               "a lock (long) holds the tail and this PE's queue node");

/* This PE's own node, in its own memory (the lock's address checked). */
static atomic_uint_least32_t *lock_node(const char *call, long *lock)
{
    return (atomic_uint_least32_t *)shm_remote_range(call, lock, sizeof(long), shm.me) + 1;
}

/* The tail (on PE 0) and the node of PE pe, as symmetric addresses. */
#define LOCK_TAIL_SYM(lock) ((uint32_t *)(lock))
#define LOCK_NODE_SYM(lock) ((uint32_t *)(lock) + 1)

/* The atomic op on a 32-bit word of PE pe's copy of the lock, through the
 * seam (xport.h). The layer's atomics are sequentially consistent: the
 * swap and compare-and-swap of the tail acquire the releaser's critical
 * section and publish the caller's reset node; node_or's releases what
 * this PE did before to pe. */
static uint32_t lock_amo(const char *call, uint32_t *sym, int pe, int op, uint32_t v,
                         uint32_t c, int fetching)
{
    return (uint32_t)shm_xp_amo(call, sym, pe, op, sizeof *sym, v, c, fetching);
}

static uint32_t tail_swap(const char *call, long *lock, uint32_t v)
{
    return lock_amo(call, LOCK_TAIL_SYM(lock), 0, SHM_AOP_SWAP, v, 0, 1);
}

/* Compare-and-swap of the tail from `from` to `to`: 1 if it was `from`. */
static int tail_cas(const char *call, long *lock, uint32_t from, uint32_t to)
{
    return lock_amo(call, LOCK_TAIL_SYM(lock), 0, SHM_AOP_CSWAP, to, from, 1) == from;
}

static uint32_t tail_peek(const char *call, long *lock)
{
    return lock_amo(call, LOCK_TAIL_SYM(lock), 0, SHM_AOP_FETCH, 0, 0, 1);
}

/* Sets bits in PE pe's node. */
static void node_or(const char *call, long *lock, int pe, uint32_t bits)
{
    lock_amo(call, LOCK_NODE_SYM(lock), pe, SHM_AOP_FOR, bits, 0, 0);
}

struct lock_wait {
    atomic_uint_least32_t *node;
    uint32_t mask;
};

static int lock_bits_set(void *arg)
{
    const struct lock_wait *w = arg;

    return (atomic_load_explicit(w->node, memory_order_acquire) & w->mask) != 0;
}

/* Waits until one of `mask`'s bits is set in *node; returns the node. */
static uint32_t lock_wait_bits(atomic_uint_least32_t *node, uint32_t mask)
{
    struct lock_wait w = {node, mask};

    if (!lock_bits_set(&w))
        shm_wait(lock_bits_set, &w);
    return atomic_load_explicit(node, memory_order_acquire);
}

/* Asking again for a lock this PE holds would wait for itself forever (set)
 * or drop the link to its successor (test). */
static void lock_check_free(const char *call, long *lock, atomic_uint_least32_t *node)
{
    if (atomic_load_explicit(node, memory_order_relaxed) & LOCK_GRANTED)
        shm_fatal(call, "PE %d already holds the lock at %p", shm.me, (void *)lock);
}

void shmem_set_lock(long *lock)
{
    static const char call[] = "shmem_set_lock";
    atomic_uint_least32_t *node;
    uint32_t prev;

    shm_check_init(call);
    node = lock_node(call, lock);
    lock_check_free(call, lock, node);
    /* Nobody knows this node until the swap below publishes it. */
    atomic_store_explicit(node, 0, memory_order_relaxed);
    prev = tail_swap(call, lock, (uint32_t)shm.me + 1);
    if (prev == 0) {
        atomic_fetch_or_explicit(node, LOCK_GRANTED, memory_order_relaxed);
        return;
    }
    node_or(call, lock, (int)prev - 1, (uint32_t)shm.me + 1);
    lock_wait_bits(node, LOCK_GRANTED);
}

int shmem_test_lock(long *lock)
{
    static const char call[] = "shmem_test_lock";
    atomic_uint_least32_t *node;

    shm_check_init(call);
    node = lock_node(call, lock);
    lock_check_free(call, lock, node);
    if (tail_peek(call, lock) != 0)
        return 1;
    atomic_store_explicit(node, 0, memory_order_relaxed);
    if (!tail_cas(call, lock, 0, (uint32_t)shm.me + 1))
        return 1;
    atomic_fetch_or_explicit(node, LOCK_GRANTED, memory_order_relaxed);
    return 0;
}

void shmem_clear_lock(long *lock)
{
    static const char call[] = "shmem_clear_lock";
    atomic_uint_least32_t *node;
    uint32_t v, me1 = (uint32_t)shm.me + 1;

    shm_check_init(call);
    node = lock_node(call, lock);
    v = atomic_load_explicit(node, memory_order_acquire);
    if (!(v & LOCK_GRANTED))
        shm_fatal(call, "PE %d does not hold the lock at %p", shm.me, (void *)lock);
    /* The lock orders the critical sections: this PE's stores are complete
     * before the next holder's begin. */
    shmem_quiet();
    if (!(v & LOCK_NEXT)) {
        /* Release: the critical section before whoever takes the free lock. */
        if (tail_cas(call, lock, me1, 0)) {
            atomic_store_explicit(node, 0, memory_order_relaxed);
            return;
        }
        /* A PE swapped itself in behind this one: wait for its number. */
        v = lock_wait_bits(node, LOCK_NEXT);
    }
    atomic_store_explicit(node, 0, memory_order_relaxed);
    /* Release: the critical section before the successor's. */
    node_or(call, lock, (int)(v & LOCK_NEXT) - 1, LOCK_GRANTED);
}
