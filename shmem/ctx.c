/*
 * ctx.c - communication contexts (OpenSHMEM 1.4 section 9.4).
 *
 * A context is an ordering scope for fence and quiet. Here every put, get
 * and atomic completes before it returns and fence/quiet order all of this
 * PE's stores (order.c), so every context behaves as the default one: each
 * shmem_ctx_* routine is its context-free form. A context handle points at
 * a one-byte object per creation, so that handles are distinct and
 * destroying one is checked (SHMEM_CTX_DEFAULT may not be destroyed).
 */
#include "shmem_internal.h"

#include <stdlib.h>

struct shmem_ctx_s {
    long options;
};

static struct shmem_ctx_s default_ctx;
shmem_ctx_t SHMEM_CTX_DEFAULT = &default_ctx;

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    shmem_ctx_t c;

    shm_check_init("shmem_ctx_create");
    if (ctx == NULL)
        shm_fatal("shmem_ctx_create", "ctx is NULL");
    if (options & ~(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE))
        shm_fatal("shmem_ctx_create", "options 0x%lx: unknown bits (known: SHMEM_CTX_PRIVATE, "
                  "SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE)", options);
    c = malloc(sizeof *c);
    if (c == NULL) {
        *ctx = SHMEM_CTX_INVALID; /* 1.5: a failed creation says so in *ctx */
        return 1; /* the specification's "could not create": non-zero */
    }
    c->options = options;
    *ctx = c;
    return 0;
}

/* 1.5: destroy, fence and quiet do nothing on SHMEM_CTX_INVALID. */
void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    if (ctx == SHMEM_CTX_INVALID)
        return;
    if (ctx == SHMEM_CTX_DEFAULT)
        shm_fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
    shmem_quiet(); /* destroy completes the context's operations */
    free(ctx);
}

void shmem_ctx_fence(shmem_ctx_t ctx) { if (ctx != SHMEM_CTX_INVALID) shmem_fence(); }
void shmem_ctx_quiet(shmem_ctx_t ctx) { if (ctx != SHMEM_CTX_INVALID) shmem_quiet(); }

#define CTX_RMA(N, T)                                                            \
    void shmem_ctx_##N##_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)  \
    { (void)c; shmem_##N##_put(d, s, n, pe); }                                   \
    void shmem_ctx_##N##_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)  \
    { (void)c; shmem_##N##_get(d, s, n, pe); }                                   \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
    { (void)c; shmem_##N##_put_nbi(d, s, n, pe); }                               \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
    { (void)c; shmem_##N##_get_nbi(d, s, n, pe); }                               \
    void shmem_ctx_##N##_p(shmem_ctx_t c, T *d, T v, int pe)                     \
    { (void)c; shmem_##N##_p(d, v, pe); }                                        \
    T shmem_ctx_##N##_g(shmem_ctx_t c, const T *s, int pe)                       \
    { (void)c; return shmem_##N##_g(s, pe); }                                    \
    void shmem_ctx_##N##_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t n, int pe)                                  \
    { (void)c; shmem_##N##_iput(d, s, dst, sst, n, pe); }                        \
    void shmem_ctx_##N##_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t n, int pe)                                  \
    { (void)c; shmem_##N##_iget(d, s, dst, sst, n, pe); }
SHMEM_RMA_TYPES(CTX_RMA)

#define CTX_SIZED(S)                                                             \
    void shmem_ctx_put##S(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { (void)c; shmem_put##S(d, s, n, pe); }                                      \
    void shmem_ctx_get##S(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { (void)c; shmem_get##S(d, s, n, pe); }                                      \
    void shmem_ctx_put##S##_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { (void)c; shmem_put##S##_nbi(d, s, n, pe); }                                \
    void shmem_ctx_get##S##_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { (void)c; shmem_get##S##_nbi(d, s, n, pe); }                                \
    void shmem_ctx_iput##S(shmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, \
                           ptrdiff_t sst, size_t n, int pe)                      \
    { (void)c; shmem_iput##S(d, s, dst, sst, n, pe); }                           \
    void shmem_ctx_iget##S(shmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, \
                           ptrdiff_t sst, size_t n, int pe)                      \
    { (void)c; shmem_iget##S(d, s, dst, sst, n, pe); }
SHMEM_RMA_SIZES(CTX_SIZED)

void shmem_ctx_putmem(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ (void)c; shmem_putmem(d, s, n, pe); }
void shmem_ctx_getmem(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ (void)c; shmem_getmem(d, s, n, pe); }
void shmem_ctx_putmem_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ (void)c; shmem_putmem_nbi(d, s, n, pe); }
void shmem_ctx_getmem_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ (void)c; shmem_getmem_nbi(d, s, n, pe); }

#define CTX_AMO_EXT(N, T)                                                        \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t c, const T *s, int pe)            \
    { (void)c; return shmem_##N##_atomic_fetch(s, pe); }                         \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t c, T *d, T v, int pe)            \
    { (void)c; shmem_##N##_atomic_set(d, v, pe); }                               \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t c, T *d, T v, int pe)              \
    { (void)c; return shmem_##N##_atomic_swap(d, v, pe); }
#define CTX_AMO(N, T)                                                            \
    CTX_AMO_EXT(N, T)                                                            \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t c, T *d, T cond, T v, int pe) \
    { (void)c; return shmem_##N##_atomic_compare_swap(d, cond, v, pe); }         \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t c, T *d, int pe)              \
    { (void)c; return shmem_##N##_atomic_fetch_inc(d, pe); }                     \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t c, T *d, int pe)                 \
    { (void)c; shmem_##N##_atomic_inc(d, pe); }                                  \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t c, T *d, T v, int pe)         \
    { (void)c; return shmem_##N##_atomic_fetch_add(d, v, pe); }                  \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t c, T *d, T v, int pe)            \
    { (void)c; shmem_##N##_atomic_add(d, v, pe); }
#define CTX_AMO_BIT(N, T)                                                        \
    T shmem_ctx_##N##_atomic_fetch_and(shmem_ctx_t c, T *d, T v, int pe)         \
    { (void)c; return shmem_##N##_atomic_fetch_and(d, v, pe); }                  \
    T shmem_ctx_##N##_atomic_fetch_or(shmem_ctx_t c, T *d, T v, int pe)          \
    { (void)c; return shmem_##N##_atomic_fetch_or(d, v, pe); }                   \
    T shmem_ctx_##N##_atomic_fetch_xor(shmem_ctx_t c, T *d, T v, int pe)         \
    { (void)c; return shmem_##N##_atomic_fetch_xor(d, v, pe); }                  \
    void shmem_ctx_##N##_atomic_and(shmem_ctx_t c, T *d, T v, int pe)            \
    { (void)c; shmem_##N##_atomic_and(d, v, pe); }                               \
    void shmem_ctx_##N##_atomic_or(shmem_ctx_t c, T *d, T v, int pe)             \
    { (void)c; shmem_##N##_atomic_or(d, v, pe); }                                \
    void shmem_ctx_##N##_atomic_xor(shmem_ctx_t c, T *d, T v, int pe)            \
    { (void)c; shmem_##N##_atomic_xor(d, v, pe); }
SHMEM_AMO_TYPES(CTX_AMO)
SHMEM_EXTENDED_AMO_TYPES(CTX_AMO_EXT)
SHMEM_BITWISE_AMO_TYPES(CTX_AMO_BIT)
