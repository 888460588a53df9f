/*
 * amo_apply.h - an atomic operation by its code (enum shm_aop) on a 4- or
 * 8-byte object of this process's memory: what the target PE runs for an
 * atomic shipped from another supernode (net_amo.c), and the slow path of
 * amo.c. The same instructions as amo.c's fast path: read-modify-writes
 * sequentially consistent, fetch and set relaxed, so that atomics from
 * either path are atomic with respect to each other.
 */
#ifndef PSHMEM_AMO_APPLY_H
#define PSHMEM_AMO_APPLY_H

#include "shmem_internal.h"

#define SHM_AMO_APPLY(T)                                                         \
    static inline T shm_amo_apply_##T(T *p, int op, T v, T c)                    \
    {                                                                            \
        T old = 0;                                                               \
        switch (op) {                                                            \
        case SHM_AOP_FETCH: old = __atomic_load_n(p, __ATOMIC_RELAXED); break;   \
        case SHM_AOP_SET: __atomic_store_n(p, v, __ATOMIC_RELAXED); break;       \
        case SHM_AOP_SWAP: old = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); break; \
        case SHM_AOP_CSWAP:                                                      \
            old = c;                                                             \
            __atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
            break;                                                               \
        case SHM_AOP_FADD: old = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); break; \
        case SHM_AOP_FAND: old = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); break; \
        case SHM_AOP_FOR: old = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); break;  \
        case SHM_AOP_FXOR: old = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); break; \
        default: break; /* NOP */                                                \
        }                                                                        \
        return old;                                                              \
    }
SHM_AMO_APPLY(uint32_t)
SHM_AMO_APPLY(uint64_t)

/* The low `size` (4 or 8) bytes of v and c as the operands; the old value
 * likewise. */
static inline uint64_t shm_amo_apply(void *p, size_t size, int op, uint64_t v, uint64_t c)
{
    if (size == 8)
        return shm_amo_apply_uint64_t(p, op, v, c);
    return shm_amo_apply_uint32_t(p, op, (uint32_t)v, (uint32_t)c);
}

#endif /* PSHMEM_AMO_APPLY_H */
