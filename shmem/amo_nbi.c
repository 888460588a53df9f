/*
 * amo_nbi.c - the non-blocking fetching atomics of OpenSHMEM 1.5: the
 * blocking operation, its old value stored at *fetch. The atomic is one
 * instruction on mapped memory, so there is nothing to defer; *fetch is
 * valid on return, before the quiet that the specification requires. A
 * context's forms take PE numbers of its team (ctx_pe, team.h).
 */
#include "team.h"

#define NBI_EXT(N, T)                                                            \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe)         \
    { *fetch = shmem_##N##_atomic_fetch(source, pe); }                           \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe)         \
    { *fetch = shmem_##N##_atomic_swap(dest, value, pe); }                       \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t c, T *fetch, const T *source, int pe) \
    { *fetch = shmem_##N##_atomic_fetch(source, CTX_PE(#N "_atomic_fetch_nbi")); } \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t c, T *fetch, T *dest, T value, int pe) \
    { *fetch = shmem_##N##_atomic_swap(dest, value, CTX_PE(#N "_atomic_swap_nbi")); }
#define NBI(N, T)                                                                \
    NBI_EXT(N, T)                                                                \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe) \
    { *fetch = shmem_##N##_atomic_compare_swap(dest, cond, value, pe); }         \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe)             \
    { *fetch = shmem_##N##_atomic_fetch_inc(dest, pe); }                         \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe)    \
    { *fetch = shmem_##N##_atomic_fetch_add(dest, value, pe); }                  \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t c, T *fetch, T *dest, T cond, \
                                                 T value, int pe)                \
    { *fetch = shmem_##N##_atomic_compare_swap(dest, cond, value, CTX_PE(#N "_atomic_compare_swap_nbi")); } \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t c, T *fetch, T *dest, int pe) \
    { *fetch = shmem_##N##_atomic_fetch_inc(dest, CTX_PE(#N "_atomic_fetch_inc_nbi")); } \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t c, T *fetch, T *dest, T value, \
                                              int pe)                            \
    { *fetch = shmem_##N##_atomic_fetch_add(dest, value, CTX_PE(#N "_atomic_fetch_add_nbi")); }
#define NBI_BIT(N, T)                                                            \
    void shmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe)    \
    { *fetch = shmem_##N##_atomic_fetch_and(dest, value, pe); }                  \
    void shmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe)     \
    { *fetch = shmem_##N##_atomic_fetch_or(dest, value, pe); }                   \
    void shmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe)    \
    { *fetch = shmem_##N##_atomic_fetch_xor(dest, value, pe); }                  \
    void shmem_ctx_##N##_atomic_fetch_and_nbi(shmem_ctx_t c, T *fetch, T *dest, T value, \
                                              int pe)                            \
    { *fetch = shmem_##N##_atomic_fetch_and(dest, value, CTX_PE(#N "_atomic_fetch_and_nbi")); } \
    void shmem_ctx_##N##_atomic_fetch_or_nbi(shmem_ctx_t c, T *fetch, T *dest, T value, \
                                             int pe)                             \
    { *fetch = shmem_##N##_atomic_fetch_or(dest, value, CTX_PE(#N "_atomic_fetch_or_nbi")); } \
    void shmem_ctx_##N##_atomic_fetch_xor_nbi(shmem_ctx_t c, T *fetch, T *dest, T value, \
                                              int pe)                            \
    { *fetch = shmem_##N##_atomic_fetch_xor(dest, value, CTX_PE(#N "_atomic_fetch_xor_nbi")); }
SHMEM_AMO_TYPES(NBI)
SHMEM_EXTENDED_AMO_TYPES(NBI_EXT)
SHMEM_BITWISE_AMO_TYPES(NBI_BIT)
