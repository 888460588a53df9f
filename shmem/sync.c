/*
 * sync.c - point-to-point synchronization: wait_until, test and the 1.5
 * forms over arrays (all, any, some), and the deprecated wait.
 *
 * The variable is local (this PE's copy of a symmetric object) and changed
 * by other PEs' puts and atomics, so each read is an acquire load: once the
 * condition holds, what the writer stored before its fence/quiet and the
 * update is visible here too. Waits go through shm_wait (pshm_wait_until):
 * they poll, yield the CPU when PEs outnumber cores, and end the job if a
 * peer dies. A test does not wait, but a loop of tests must not spin
 * forever on a dead peer either: every 256th test polls pshm.
 */
#include "shmem_internal.h"

static void bad_cmp(const char *call, int cmp)
{
    shm_fatal(call, "cmp %d is not a comparison: use SHMEM_CMP_EQ, _NE, _GT, _GE, _LT or _LE "
              "(0..5)", cmp);
}

/* Every so many tests, one round of progress (and the liveness check);
 * per thread, as tests may come from several. */
static _Thread_local unsigned test_count;
static inline void test_tick(void)
{
    if (SHM_UNLIKELY((++test_count & 255u) == 0))
        shm_progress();
}

/* Where the scan of an "any" call starts. 1.5: if entry i satisfies the
 * condition, a series of calls must eventually return i; each call returns
 * the first satisfying entry from its start on (wrapping), so the start
 * must come round to every index. It turns by the golden ratio (a Weyl
 * sequence, 2^64 / phi per call) on one per-thread counter, whatever the
 * call site or set: any run of calls, and any regular subsequence of them
 * (calls on another set in between), spreads its starts evenly over [0, n),
 * so every index is a start within a few n calls. A cursor kept at the
 * last index + 1 would not: calls on another set in between can reset it
 * to the same place each time. SOS draws a random start (rand_r under a
 * lock) to the same end. The high 32 bits times n, shifted: no division
 * (a set of 2^32 elements or more takes one). */
static _Thread_local uint64_t any_turn;
static inline size_t any_start(size_t n)
{
    uint64_t t = any_turn += 0x9e3779b97f4a7c15u;

    if (SHM_LIKELY(n <= UINT32_MAX))
        return (size_t)(((t >> 32) * (uint64_t)n) >> 32);
    return (size_t)(t % n);
}

static void check_status(const char *call, const void *ivars, size_t nelems)
{
    if (ivars == NULL && nelems > 0)
        shm_fatal(call, "ivars is NULL with nelems %zu", nelems);
}

/* cmp() compares one element; the argument structs carry the wait's state
 * to the condition callback of shm_wait. */
#define SYNC(N, T)                                                               \
    static inline int holds_##N(T x, int cmp, T v)                               \
    {                                                                            \
        switch (cmp) {                                                           \
        case SHMEM_CMP_EQ: return x == v;                                        \
        case SHMEM_CMP_NE: return x != v;                                        \
        case SHMEM_CMP_GT: return x > v;                                         \
        case SHMEM_CMP_GE: return x >= v;                                        \
        case SHMEM_CMP_LT: return x < v;                                         \
        default: return x <= v;                                                  \
        }                                                                        \
    }                                                                            \
    static inline int cmp_##N(const T *ivar, int cmp, T v)                       \
    {                                                                            \
        return holds_##N(__atomic_load_n((T *)ivar, __ATOMIC_ACQUIRE), cmp, v);  \
    }                                                                            \
    typedef struct {                                                             \
        T *ivars;                                                                \
        size_t nelems, *indices, found, start; /* start: any's first index */   \
        const int *status;                                                       \
        int cmp, mode;                                                           \
        T v, seen;     /* seen: the value that satisfied a wait on one */       \
        const T *vals; /* the _vector forms: one comparison value each */       \
    } warg_##N;                                                                  \
    /* mode 0: all; 1: any (found = index); 2: some (found = count). */         \
    static int scan_##N(warg_##N *a)                                             \
    {                                                                            \
        size_t hits = 0, live = 0, i = a->start;                                 \
        for (size_t k = 0; k < a->nelems; k++, i = i + 1 < a->nelems ? i + 1 : 0) { \
            if (a->status != NULL && a->status[i] != 0)                          \
                continue;                                                        \
            live++;                                                              \
            if (!cmp_##N(&a->ivars[i], a->cmp, a->vals ? a->vals[i] : a->v)) {   \
                if (a->mode == 0) return 0;                                      \
                continue;                                                        \
            }                                                                    \
            if (a->mode == 1) { a->found = i; return 1; }                        \
            if (a->mode == 2) a->indices[hits] = i;                              \
            hits++;                                                              \
        }                                                                        \
        if (a->mode == 2) a->found = hits;                                       \
        /* all: every live one holds; any/some: none to wait for counts as done. */ \
        return a->mode == 0 || hits > 0 || live == 0;                            \
    }                                                                            \
    static int cond_##N(void *arg) { return scan_##N(arg); }                     \
    /* One load per test, kept: the caller gets the value that held. */      \
    static int cond1_##N(void *arg)                                              \
    {                                                                            \
        warg_##N *a = arg;                                                       \
        a->seen = __atomic_load_n(a->ivars, __ATOMIC_ACQUIRE);                   \
        return holds_##N(a->seen, a->cmp, a->v);                                 \
    }                                                                            \
    static void check_##N(const char *call, T *ivar, int cmp)                    \
    {                                                                            \
        shm_check_init(call);                                                    \
        if (SHM_UNLIKELY((unsigned)cmp > SHMEM_CMP_LE)) bad_cmp(call, cmp);      \
        if (SHM_UNLIKELY(shm_sym.debug) && ivar != NULL &&                       \
            shm_xlate(ivar, shm.me) == NULL)                                     \
            shm_remote(call, ivar, shm.me); /* says why, and exits */           \
    }                                                                            \
    static T wait1_##N(const char *call, T *ivar, int cmp, T cmp_value)          \
    {                                                                            \
        warg_##N a = {.ivars = ivar, .cmp = cmp, .v = cmp_value};                \
        check_##N(call, ivar, cmp);                                              \
        shm_wait(cond1_##N, &a);                                                 \
        return a.seen;                                                           \
    }                                                                            \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                   \
    {                                                                            \
        wait1_##N("shmem_" #N "_wait_until", ivar, cmp, cmp_value);              \
    }                                                                            \
    void shmem_##N##_wait(T *ivar, T cmp_value)                                  \
    {                                                                            \
        shmem_##N##_wait_until(ivar, SHMEM_CMP_NE, cmp_value);                   \
    }                                                                            \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value)                          \
    {                                                                            \
        check_##N("shmem_" #N "_test", ivar, cmp);                               \
        test_tick();                                                             \
        return cmp_##N(ivar, cmp, cmp_value);                                    \
    }                                                                            \
    static size_t multi_##N(const char *call, int wait, int mode, T *ivars, size_t nelems, \
                            size_t *indices, const int *status, int cmp, T v,    \
                            const T *vals)                                       \
    {                                                                            \
        warg_##N a = {.ivars = ivars, .nelems = nelems, .indices = indices,      \
                      .status = status, .cmp = cmp, .mode = mode, .v = v,        \
                      .vals = vals};                                             \
        check_##N(call, ivars, cmp);                                             \
        check_status(call, ivars, nelems);                                       \
        if (vals == NULL && mode >= 3 && nelems > 0)                            \
            shm_fatal(call, "cmp_values is NULL with nelems %zu", nelems);       \
        mode %= 3;                                                               \
        a.mode = mode;                                                           \
        if (mode == 2 && indices == NULL && nelems > 0)                          \
            shm_fatal(call, "indices is NULL with nelems %zu", nelems);          \
        a.found = SIZE_MAX;                                                      \
        if (mode == 1 && nelems > 1)                                             \
            a.start = any_start(nelems);                                         \
        if (wait) {                                                              \
            shm_wait(cond_##N, &a);                                              \
        } else {                                                                 \
            test_tick(); /* failing tests too: a loop of them must progress */  \
            if (!scan_##N(&a))                                                   \
                return mode == 1 ? SIZE_MAX : 0;                                 \
        }                                                                        \
        return mode == 0 ? 1 : a.found;                                          \
    }                                                                            \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status,  \
                                    int cmp, T cmp_value)                        \
    {                                                                            \
        multi_##N("shmem_" #N "_wait_until_all", 1, 0, ivars, nelems, NULL, status, cmp, \
                  cmp_value, NULL);                                                    \
    }                                                                            \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, \
                                      int cmp, T cmp_value)                      \
    {                                                                            \
        return multi_##N("shmem_" #N "_wait_until_any", 1, 1, ivars, nelems, NULL, status, \
                         cmp, cmp_value, NULL);                                        \
    }                                                                            \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, \
                                       const int *status, int cmp, T cmp_value)  \
    {                                                                            \
        return multi_##N("shmem_" #N "_wait_until_some", 1, 2, ivars, nelems, indices, \
                         status, cmp, cmp_value, NULL);                                \
    }                                                                            \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, \
                             T cmp_value)                                        \
    {                                                                            \
        return (int)multi_##N("shmem_" #N "_test_all", 0, 0, ivars, nelems, NULL, status, \
                              cmp, cmp_value, NULL);                                   \
    }                                                                            \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, \
                                T cmp_value)                                     \
    {                                                                            \
        return multi_##N("shmem_" #N "_test_any", 0, 1, ivars, nelems, NULL, status, cmp, \
                         cmp_value, NULL);                                             \
    }                                                                            \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices,       \
                                 const int *status, int cmp, T cmp_value)        \
    {                                                                            \
        return multi_##N("shmem_" #N "_test_some", 0, 2, ivars, nelems, indices, status, \
                         cmp, cmp_value, NULL);                                        \
    }
/* The 1.5 _vector forms: mode + 3 says "compare with vals[i]". */
#define SYNC_VEC(N, T)                                                           \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, \
                                           int cmp, const T *cmp_values)          \
    {                                                                            \
        multi_##N("shmem_" #N "_wait_until_all_vector", 1, 3, ivars, nelems, NULL, status, \
                  cmp, 0, cmp_values);                                           \
    }                                                                            \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, \
                                             int cmp, const T *cmp_values)        \
    {                                                                            \
        return multi_##N("shmem_" #N "_wait_until_any_vector", 1, 4, ivars, nelems, NULL, \
                         status, cmp, 0, cmp_values);                            \
    }                                                                            \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices, \
                                              const int *status, int cmp, const T *cmp_values) \
    {                                                                            \
        return multi_##N("shmem_" #N "_wait_until_some_vector", 1, 5, ivars, nelems, \
                         indices, status, cmp, 0, cmp_values);                   \
    }                                                                            \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                    const T *cmp_values)                          \
    {                                                                            \
        return (int)multi_##N("shmem_" #N "_test_all_vector", 0, 3, ivars, nelems, NULL, \
                              status, cmp, 0, cmp_values);                       \
    }                                                                            \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                       const T *cmp_values)                       \
    {                                                                            \
        return multi_##N("shmem_" #N "_test_any_vector", 0, 4, ivars, nelems, NULL, status, \
                         cmp, 0, cmp_values);                                    \
    }                                                                            \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,  \
                                        const int *status, int cmp, const T *cmp_values) \
    {                                                                            \
        return multi_##N("shmem_" #N "_test_some_vector", 0, 5, ivars, nelems, indices, \
                         status, cmp, 0, cmp_values);                            \
    }

SHMEM_SYNC_TYPES(SYNC)
SHMEM_SYNC_TYPES(SYNC_VEC)

uint64_t shm_signal_wait(const char *call, uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    return wait1_uint64(call, sig_addr, cmp, cmp_value);
}

/* The deprecated long-only functions behind the C11 generic names. */
#undef shmem_wait_until
#undef shmem_wait
void shmem_wait_until(long *ivar, int cmp, long cmp_value)
{
    shmem_long_wait_until(ivar, cmp, cmp_value);
}
void shmem_wait(long *ivar, long cmp_value) { shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
