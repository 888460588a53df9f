/*
 * amo.c - atomic memory operations, new (1.4) and deprecated names.
 *
 * The target PE's object is mapped here when the PE shares my supernode, so
 * each operation is one atomic instruction on it (a LOCK-prefixed
 * instruction on x86-64): atomic with respect to every other PE's atomics
 * on the same object and to the owner's own, heap and statics alike,
 * without involving the target. A PE of another supernode applies the same
 * instruction itself, on request (net_amo.c). The hit test is the
 * transport seam's (xport.h): a hit runs the instruction inline here, the
 * mapped path's; a miss goes to the seam.
 * Read-modify-writes are sequentially consistent (on x86-64 the locked
 * instruction costs the same whatever the order asked); fetch and set are
 * relaxed loads and stores: the specification orders AMOs only through
 * fence and quiet (order.c), and a plain MOV is atomic at these widths.
 * The generic __atomic builtins also cover float and double (by their bits).
 */
#include "xport.h"

#define RLX __ATOMIC_RELAXED
#define SC __ATOMIC_SEQ_CST

/* The miss, out of line so that the fast path keeps no frame: the value's
 * bits in a uint64_t to the seam's atomic (xport.c), which checks the
 * arguments (a bad PE or address ends the job) and applies the same
 * operation by its code, here or, for a PE of another supernode, at the
 * target (net_amo.c). */
#define SLOW(N, T)                                                               \
    static __attribute__((noinline, cold)) T slow_##N(const char *call, const T *sym, int pe, \
                                                      int op, T v, T c, int fetching) \
    {                                                                            \
        uint64_t a = 0, b = 0, r;                                                \
        T out;                                                                   \
        memcpy(&a, &v, sizeof v);                                                \
        memcpy(&b, &c, sizeof c);                                                \
        r = shm_xp_amo_slow(call, sym, pe, op, sizeof(T), a, b, fetching);       \
        memcpy(&out, &r, sizeof out);                                            \
        return out;                                                              \
    }

#define CALL(N, NAME) "shmem_" #N "_atomic_" NAME

#define AMO_EXT(N, T)                                                            \
    SLOW(N, T)                                                                   \
    T shmem_##N##_atomic_fetch(const T *source, int pe)                          \
    {                                                                            \
        T *p = shm_fast(source, pe), v;                                          \
        if (SHM_UNLIKELY(p == NULL))                                             \
            return slow_##N(CALL(N, "fetch"), source, pe, SHM_AOP_FETCH, 0, 0, 1); \
        __atomic_load(p, &v, RLX);                                               \
        return v;                                                                \
    }                                                                            \
    void shmem_##N##_atomic_set(T *dest, T value, int pe)                        \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_UNLIKELY(p == NULL))                                             \
            slow_##N(CALL(N, "set"), dest, pe, SHM_AOP_SET, value, 0, 0);        \
        else                                                                     \
            __atomic_store(p, &value, RLX);                                      \
    }                                                                            \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe)                          \
    {                                                                            \
        T *p = shm_fast(dest, pe), old;                                          \
        if (SHM_UNLIKELY(p == NULL))                                             \
            return slow_##N(CALL(N, "swap"), dest, pe, SHM_AOP_SWAP, value, 0, 1); \
        __atomic_exchange(p, &value, &old, SC);                                  \
        return old;                                                              \
    }

/* A read-modify-write: OP on the fast path, AOP on the slow one. */
#define RMW(N, T, NAME, AOP, OP)                                                 \
    T shmem_##N##_atomic_fetch_##NAME(T *dest, T value, int pe)                  \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_UNLIKELY(p == NULL))                                             \
            return slow_##N(CALL(N, "fetch_" #NAME), dest, pe, AOP, value, 0, 1); \
        return OP(p, value, SC);                                                 \
    }                                                                            \
    void shmem_##N##_atomic_##NAME(T *dest, T value, int pe)                     \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_UNLIKELY(p == NULL))                                             \
            slow_##N(CALL(N, #NAME), dest, pe, AOP, value, 0, 0);                \
        else                                                                     \
            OP(p, value, SC);                                                    \
    }

#define AMO(N, T)                                                                \
    AMO_EXT(N, T)                                                                \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe)          \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_UNLIKELY(p == NULL))                                             \
            return slow_##N(CALL(N, "compare_swap"), dest, pe, SHM_AOP_CSWAP, value, cond, 1); \
        /* On failure cond receives the current value: the old value either way. */ \
        __atomic_compare_exchange_n(p, &cond, value, 0, SC, SC);                 \
        return cond;                                                             \
    }                                                                            \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe)                              \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_UNLIKELY(p == NULL))                                             \
            return slow_##N(CALL(N, "fetch_inc"), dest, pe, SHM_AOP_FADD, 1, 0, 1); \
        return __atomic_fetch_add(p, (T)1, SC);                                  \
    }                                                                            \
    void shmem_##N##_atomic_inc(T *dest, int pe)                                 \
    {                                                                            \
        T *p = shm_fast(dest, pe);                                               \
        if (SHM_UNLIKELY(p == NULL))                                             \
            slow_##N(CALL(N, "inc"), dest, pe, SHM_AOP_FADD, 1, 0, 0);           \
        else                                                                     \
            __atomic_fetch_add(p, (T)1, SC);                                     \
    }                                                                            \
    RMW(N, T, add, SHM_AOP_FADD, __atomic_fetch_add)

#define AMO_BIT(N, T)                                                            \
    RMW(N, T, and, SHM_AOP_FAND, __atomic_fetch_and)                             \
    RMW(N, T, or, SHM_AOP_FOR, __atomic_fetch_or)                                \
    RMW(N, T, xor, SHM_AOP_FXOR, __atomic_fetch_xor)

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
