/*
 * amo.c - atomic memory operations, new (1.4) and deprecated names.
 *
 * The target PE's object is mapped here, so each operation is one atomic
 * instruction on it (a LOCK-prefixed instruction on x86-64): atomic with
 * respect to every other PE's atomics on the same object and to the owner's
 * own, heap and statics alike, without involving the target.
 * Read-modify-writes are sequentially consistent (on x86-64 the locked
 * instruction costs the same whatever the order asked); fetch and set are
 * relaxed loads and stores: the specification orders AMOs only through
 * fence and quiet (order.c), and a plain MOV is atomic at these widths.
 * The generic __atomic builtins also cover float and double (by their bits).
 */
#include "shmem_internal.h"

#define RLX __ATOMIC_RELAXED
#define SC __ATOMIC_SEQ_CST

#define AMO_EXT(N, T)                                                            \
    T shmem_##N##_atomic_fetch(const T *source, int pe)                          \
    {                                                                            \
        T v;                                                                     \
        __atomic_load((T *)shm_at("shmem_" #N "_atomic_fetch", source, pe), &v, RLX); \
        return v;                                                                \
    }                                                                            \
    void shmem_##N##_atomic_set(T *dest, T value, int pe)                        \
    {                                                                            \
        __atomic_store((T *)shm_at("shmem_" #N "_atomic_set", dest, pe), &value, RLX); \
    }                                                                            \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe)                          \
    {                                                                            \
        T old;                                                                   \
        __atomic_exchange((T *)shm_at("shmem_" #N "_atomic_swap", dest, pe), &value, &old, SC); \
        return old;                                                              \
    }

#define AMO(N, T)                                                                \
    AMO_EXT(N, T)                                                                \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)          \
    {                                                                            \
        T *p = shm_at("shmem_" #N "_atomic_compare_swap", dest, pe);             \
        /* On failure cond receives the current value: the old value either way. */ \
        __atomic_compare_exchange_n(p, &cond, value, 0, SC, SC);                 \
        return cond;                                                             \
    }                                                                            \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe)                              \
    {                                                                            \
        return __atomic_fetch_add((T *)shm_at("shmem_" #N "_atomic_fetch_inc", dest, pe), \
                                  (T)1, SC);                                     \
    }                                                                            \
    void shmem_##N##_atomic_inc(T *dest, int pe)                                 \
    {                                                                            \
        __atomic_fetch_add((T *)shm_at("shmem_" #N "_atomic_inc", dest, pe), (T)1, SC); \
    }                                                                            \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe)                     \
    {                                                                            \
        return __atomic_fetch_add((T *)shm_at("shmem_" #N "_atomic_fetch_add", dest, pe), \
                                  value, SC);                                    \
    }                                                                            \
    void shmem_##N##_atomic_add(T *dest, T value, int pe)                        \
    {                                                                            \
        __atomic_fetch_add((T *)shm_at("shmem_" #N "_atomic_add", dest, pe), value, SC); \
    }

#define AMO_BIT(N, T)                                                            \
    T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe)                     \
    {                                                                            \
        return __atomic_fetch_and((T *)shm_at("shmem_" #N "_atomic_fetch_and", dest, pe), \
                                  value, SC);                                    \
    }                                                                            \
    T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe)                      \
    {                                                                            \
        return __atomic_fetch_or((T *)shm_at("shmem_" #N "_atomic_fetch_or", dest, pe), \
                                 value, SC);                                     \
    }                                                                            \
    T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe)                     \
    {                                                                            \
        return __atomic_fetch_xor((T *)shm_at("shmem_" #N "_atomic_fetch_xor", dest, pe), \
                                  value, SC);                                    \
    }                                                                            \
    void shmem_##N##_atomic_and(T *dest, T value, int pe)                        \
    {                                                                            \
        __atomic_fetch_and((T *)shm_at("shmem_" #N "_atomic_and", dest, pe), value, SC); \
    }                                                                            \
    void shmem_##N##_atomic_or(T *dest, T value, int pe)                         \
    {                                                                            \
        __atomic_fetch_or((T *)shm_at("shmem_" #N "_atomic_or", dest, pe), value, SC); \
    }                                                                            \
    void shmem_##N##_atomic_xor(T *dest, T value, int pe)                        \
    {                                                                            \
        __atomic_fetch_xor((T *)shm_at("shmem_" #N "_atomic_xor", dest, pe), value, SC); \
    }

SHMEM_AMO_TYPES(AMO)
SHMEM_EXTENDED_AMO_TYPES(AMO_EXT)
SHMEM_BITWISE_AMO_TYPES(AMO_BIT)

/* Deprecated names: the same operations. */
#define DEPR_EXT(N, T)                                                           \
    T shmem_##N##_fetch(const T *source, int pe) { return shmem_##N##_atomic_fetch(source, pe); } \
    void shmem_##N##_set(T *dest, T value, int pe) { shmem_##N##_atomic_set(dest, value, pe); } \
    T shmem_##N##_swap(T *dest, T value, int pe) { return shmem_##N##_atomic_swap(dest, value, pe); }
#define DEPR(N, T)                                                               \
    DEPR_EXT(N, T)                                                               \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe)                        \
    {                                                                            \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);           \
    }                                                                            \
    T shmem_##N##_finc(T *dest, int pe) { return shmem_##N##_atomic_fetch_inc(dest, pe); } \
    void shmem_##N##_inc(T *dest, int pe) { shmem_##N##_atomic_inc(dest, pe); }  \
    T shmem_##N##_fadd(T *dest, T value, int pe)                                 \
    {                                                                            \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                    \
    }                                                                            \
    void shmem_##N##_add(T *dest, T value, int pe) { shmem_##N##_atomic_add(dest, value, pe); }
SHMEM_DEPR_AMO_TYPES(DEPR)
SHMEM_DEPR_EXT_AMO_TYPES(DEPR_EXT)

/* The C11 generic macro of the same name hides the old long-only function. */
#undef shmem_swap
long shmem_swap(long *dest, long value, int pe) { return shmem_long_atomic_swap(dest, value, pe); }
