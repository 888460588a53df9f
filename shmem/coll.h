/*
 * coll.h - what the collectives share: active sets and the pSync protocol.
 *
 * Every PE's memory is mapped here, so a collective moves data with plain
 * loads and stores into peers' symmetric objects; what it needs from the
 * network is only "who has arrived", and that is counted in the user's pSync.
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
 *   slot 3 + k  sync: the signal of round k (dissemination)
 * Each kind of signal has slots of its own, so that a PE that has left one
 * collective and started the next on the same pSync cannot have its signal
 * taken for one of another kind.
 */
#ifndef PSHMEM_COLL_H
#define PSHMEM_COLL_H

#include "shmem_internal.h"

#include <stdatomic.h>
#include <stddef.h>

enum { COLL_COUNT = 0, COLL_READY = 1, COLL_ACK = 2, COLL_ROUND0 = 3 };
#define COLL_ROUNDS_MAX 16 /* barrier rounds: up to 2^16 PEs */
#define COLL_SYNC_SLOTS (COLL_ROUND0 + COLL_ROUNDS_MAX)

_Static_assert(SHMEM_BARRIER_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_BCAST_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_REDUCE_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_ALLTOALL_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_ALLTOALLS_SYNC_SIZE >= COLL_SYNC_SLOTS &&
                   SHMEM_COLLECT_SYNC_SIZE >= COLL_SYNC_SLOTS,
               "the pSync sizes of shmem.h are smaller than the collectives use");
_Static_assert(sizeof(long) == sizeof(atomic_long), "pSync slots are used as atomic_long");

/* An active set: PE of member i is start + i * stride; `me` is my index. */
typedef struct coll_set {
    int start;
    int stride;
    int size;
    int me;
} coll_set_t;

static inline int coll_pe(const coll_set_t *s, int i)
{
    return s->start + i * s->stride;
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

/* Barrier over the set on pSync slots 3 and up (dissemination: in round k
 * member i signals member i + 2^k and waits for member i - 2^k, so two PEs
 * need one signal each way). Orders memory, but does not quiet. */
void coll_sync(const char *call, const coll_set_t *s, long *pSync) SHM_HIDDEN;

/* nelems * esize, fatal (naming call) if it overflows. */
size_t coll_bytes(const char *call, size_t nelems, size_t esize) SHM_HIDDEN;

/* Fatal (naming call) if [a, a+n) and [b, b+m) overlap. */
void coll_check_overlap(const char *call, const void *a, size_t n, const void *b,
                        size_t m) SHM_HIDDEN;

#endif /* PSHMEM_COLL_H */
