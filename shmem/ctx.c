/*
 * ctx.c - communication contexts (OpenSHMEM 1.4 section 9.4).
 *
 * A context is an ordering scope for fence and quiet. Here every put, get
 * and atomic completes before it returns and fence/quiet order all of this
 * PE's stores (order.c), so every context behaves as the default one: each
 * shmem_ctx_* routine is its context-free form on the world PE its PE
 * number names. A context handle points at an object per creation, so that
 * handles are distinct and destroying one is checked (SHMEM_CTX_DEFAULT may
 * not be destroyed).
 *
 * A context belongs to a team (1.5): its point-to-point routines take PE
 * numbers of that team (ctx_pe, team.h); SHMEM_CTX_DEFAULT and
 * shmem_ctx_create's contexts belong to SHMEM_TEAM_WORLD, whose numbers are
 * the world's. Each team lists its contexts, so that shmem_team_destroy
 * destroys them (the specification: the shareable ones; SOS: all, warning
 * of private ones). As in SOS, a team makes contexts past the num_contexts
 * it was configured with: the count is a hint for resources, and this
 * layer needs none.
 */
#include "team.h"

#include <pthread.h>
#include <stdlib.h>

static struct shmem_ctx_s default_ctx = {0, &team_pool[0], NULL};
shmem_ctx_t SHMEM_CTX_DEFAULT = &default_ctx;

/* The teams' context lists: contexts are made and destroyed from any thread. */
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;

static int ctx_new(const char *call, shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    shmem_ctx_t c;

    if (ctx == NULL)
        shm_fatal(call, "ctx is NULL");
    if (options & ~(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE))
        shm_fatal(call, "options 0x%lx: unknown bits (known: SHMEM_CTX_PRIVATE, "
                  "SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE)", options);
    c = malloc(sizeof *c);
    if (c == NULL) {
        *ctx = SHMEM_CTX_INVALID;
        return 1; /* the specification's "could not create": non-zero */
    }
    c->options = options;
    c->team = team;
    pthread_mutex_lock(&ctx_lock);
    c->next = team->ctxs;
    team->ctxs = c;
    team->nctx++;
    pthread_mutex_unlock(&ctx_lock);
    *ctx = c;
    return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
    shm_check_init("shmem_ctx_create");
    return ctx_new("shmem_ctx_create", SHMEM_TEAM_WORLD, options, ctx);
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
    static const char call[] = "shmem_team_create_ctx";

    shm_check_init(call);
    if (team == SHMEM_TEAM_INVALID) {
        if (ctx == NULL)
            shm_fatal(call, "ctx is NULL");
        *ctx = SHMEM_CTX_INVALID;
        return 1;
    }
    team_check(call, team);
    return ctx_new(call, team, options, ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
    shm_check_init("shmem_ctx_get_team");
    if (team == NULL)
        shm_fatal("shmem_ctx_get_team", "team is NULL");
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return 1;
    }
    *team = ctx->team;
    return 0;
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
    shmem_ctx_t *p;

    if (ctx == SHMEM_CTX_INVALID)
        return; /* 1.5: no operation */
    if (ctx == SHMEM_CTX_DEFAULT)
        shm_fatal("shmem_ctx_destroy", "SHMEM_CTX_DEFAULT cannot be destroyed");
    shmem_quiet(); /* destroy completes the context's operations */
    pthread_mutex_lock(&ctx_lock);
    for (p = &ctx->team->ctxs; *p != NULL && *p != ctx; p = &(*p)->next)
        ;
    if (*p == NULL) {
        pthread_mutex_unlock(&ctx_lock);
        shm_fatal("shmem_ctx_destroy", "ctx %p is not a context (destroyed already?)",
                  (void *)ctx);
    }
    *p = ctx->next;
    ctx->team->nctx--;
    pthread_mutex_unlock(&ctx_lock);
    free(ctx);
}

void ctx_drop_team(shmem_team_t t)
{
    pthread_mutex_lock(&ctx_lock);
    if (t->ctxs != NULL)
        shmem_quiet();
    while (t->ctxs != NULL) {
        shmem_ctx_t c = t->ctxs;

        t->ctxs = c->next;
        free(c);
    }
    t->nctx = 0;
    pthread_mutex_unlock(&ctx_lock);
}

int ctx_team_pe(const char *call, shmem_ctx_t ctx, int pe)
{
    if (ctx == SHMEM_CTX_INVALID)
        shm_fatal(call, "ctx is SHMEM_CTX_INVALID");
    /* The team lives while the context does (its destroy takes the
     * context too): no handle check on this path. */
    return team_world_pe(call, ctx->team, pe);
}

void shmem_ctx_fence(shmem_ctx_t ctx) { (void)ctx; shmem_fence(); }
void shmem_ctx_quiet(shmem_ctx_t ctx) { (void)ctx; shmem_quiet(); }

#define CTX_RMA(N, T)                                                            \
    void shmem_ctx_##N##_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)  \
    { shmem_##N##_put(d, s, n, CTX_PE(#N "_put")); }                             \
    void shmem_ctx_##N##_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)  \
    { shmem_##N##_get(d, s, n, CTX_PE(#N "_get")); }                             \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
    { shmem_##N##_put_nbi(d, s, n, CTX_PE(#N "_put_nbi")); }                     \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
    { shmem_##N##_get_nbi(d, s, n, CTX_PE(#N "_get_nbi")); }                     \
    void shmem_ctx_##N##_p(shmem_ctx_t c, T *d, T v, int pe)                     \
    { shmem_##N##_p(d, v, CTX_PE(#N "_p")); }                                    \
    T shmem_ctx_##N##_g(shmem_ctx_t c, const T *s, int pe)                       \
    { return shmem_##N##_g(s, CTX_PE(#N "_g")); }                                \
    void shmem_ctx_##N##_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t n, int pe)                                  \
    { shmem_##N##_iput(d, s, dst, sst, n, CTX_PE(#N "_iput")); }                 \
    void shmem_ctx_##N##_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                              size_t n, int pe)                                  \
    { shmem_##N##_iget(d, s, dst, sst, n, CTX_PE(#N "_iget")); }
SHMEM_RMA_TYPES(CTX_RMA)

#define CTX_SIZED(S)                                                             \
    void shmem_ctx_put##S(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { shmem_put##S(d, s, n, CTX_PE("put" #S)); }                                 \
    void shmem_ctx_get##S(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { shmem_get##S(d, s, n, CTX_PE("get" #S)); }                                 \
    void shmem_ctx_put##S##_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { shmem_put##S##_nbi(d, s, n, CTX_PE("put" #S "_nbi")); }                    \
    void shmem_ctx_get##S##_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe) \
    { shmem_get##S##_nbi(d, s, n, CTX_PE("get" #S "_nbi")); }                    \
    void shmem_ctx_iput##S(shmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, \
                           ptrdiff_t sst, size_t n, int pe)                      \
    { shmem_iput##S(d, s, dst, sst, n, CTX_PE("iput" #S)); }                     \
    void shmem_ctx_iget##S(shmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, \
                           ptrdiff_t sst, size_t n, int pe)                      \
    { shmem_iget##S(d, s, dst, sst, n, CTX_PE("iget" #S)); }
SHMEM_RMA_SIZES(CTX_SIZED)

void shmem_ctx_putmem(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ shmem_putmem(d, s, n, CTX_PE("putmem")); }
void shmem_ctx_getmem(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ shmem_getmem(d, s, n, CTX_PE("getmem")); }
void shmem_ctx_putmem_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ shmem_putmem_nbi(d, s, n, CTX_PE("putmem_nbi")); }
void shmem_ctx_getmem_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, int pe)
{ shmem_getmem_nbi(d, s, n, CTX_PE("getmem_nbi")); }

#define CTX_AMO_EXT(N, T)                                                        \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t c, const T *s, int pe)            \
    { return shmem_##N##_atomic_fetch(s, CTX_PE(#N "_atomic_fetch")); }          \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t c, T *d, T v, int pe)            \
    { shmem_##N##_atomic_set(d, v, CTX_PE(#N "_atomic_set")); }                  \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t c, T *d, T v, int pe)              \
    { return shmem_##N##_atomic_swap(d, v, CTX_PE(#N "_atomic_swap")); }
#define CTX_AMO(N, T)                                                            \
    CTX_AMO_EXT(N, T)                                                            \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t c, T *d, T cond, T v, int pe) \
    { return shmem_##N##_atomic_compare_swap(d, cond, v, CTX_PE(#N "_atomic_compare_swap")); } \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t c, T *d, int pe)              \
    { return shmem_##N##_atomic_fetch_inc(d, CTX_PE(#N "_atomic_fetch_inc")); }  \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t c, T *d, int pe)                 \
    { shmem_##N##_atomic_inc(d, CTX_PE(#N "_atomic_inc")); }                     \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t c, T *d, T v, int pe)         \
    { return shmem_##N##_atomic_fetch_add(d, v, CTX_PE(#N "_atomic_fetch_add")); } \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t c, T *d, T v, int pe)            \
    { shmem_##N##_atomic_add(d, v, CTX_PE(#N "_atomic_add")); }
#define CTX_AMO_BIT(N, T)                                                        \
    T shmem_ctx_##N##_atomic_fetch_and(shmem_ctx_t c, T *d, T v, int pe)         \
    { return shmem_##N##_atomic_fetch_and(d, v, CTX_PE(#N "_atomic_fetch_and")); } \
    T shmem_ctx_##N##_atomic_fetch_or(shmem_ctx_t c, T *d, T v, int pe)          \
    { return shmem_##N##_atomic_fetch_or(d, v, CTX_PE(#N "_atomic_fetch_or")); } \
    T shmem_ctx_##N##_atomic_fetch_xor(shmem_ctx_t c, T *d, T v, int pe)         \
    { return shmem_##N##_atomic_fetch_xor(d, v, CTX_PE(#N "_atomic_fetch_xor")); } \
    void shmem_ctx_##N##_atomic_and(shmem_ctx_t c, T *d, T v, int pe)            \
    { shmem_##N##_atomic_and(d, v, CTX_PE(#N "_atomic_and")); }                  \
    void shmem_ctx_##N##_atomic_or(shmem_ctx_t c, T *d, T v, int pe)             \
    { shmem_##N##_atomic_or(d, v, CTX_PE(#N "_atomic_or")); }                    \
    void shmem_ctx_##N##_atomic_xor(shmem_ctx_t c, T *d, T v, int pe)            \
    { shmem_##N##_atomic_xor(d, v, CTX_PE(#N "_atomic_xor")); }
SHMEM_AMO_TYPES(CTX_AMO)
SHMEM_EXTENDED_AMO_TYPES(CTX_AMO_EXT)
SHMEM_BITWISE_AMO_TYPES(CTX_AMO_BIT)
