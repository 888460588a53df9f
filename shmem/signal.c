/*
 * signal.c - put with signal (OpenSHMEM 1.5): the data, then the signal word
 * on the target PE, set or added, so that a PE waiting on the signal sees
 * the data once it sees the signal.
 *
 * Ordering: the copy's stores, then a release fence (a compiler barrier on
 * x86-64, where stores become visible in order; glibc's memcpy fences its
 * own non-temporal stores before returning), then the signal: a release
 * store (SET) or a locked add (ADD). The waiter's acquire load of the signal
 * (shmem_signal_wait_until, shmem_uint64_wait_until) pairs with it. To a
 * PE of another supernode the data is flushed, then the signal applied by
 * the target. Both are the transport seam's (shm_xp_signal, xport.h).
 */
#include "team.h"
#include "xport.h"

static void put_signal(const char *call, void *dest, const void *src, size_t nelems,
                       size_t size, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    if (SHM_UNLIKELY(sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD))
        shm_fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET (0) nor SHMEM_SIGNAL_ADD (1)",
                  sig_op);
    shm_put_bytes(call, dest, src, nelems, size, pe);
    shm_xp_signal(call, sig_addr, signal, sig_op == SHMEM_SIGNAL_ADD, pe, 1);
}

#define PUT_SIGNAL(N, T)                                                         \
    void shmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sg, \
                                int op, int pe)                                  \
    { put_signal("shmem_" #N "_put_signal", d, s, n, sizeof(T), sa, sg, op, pe); } \
    void shmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sg, \
                                    int op, int pe)                              \
    { put_signal("shmem_" #N "_put_signal_nbi", d, s, n, sizeof(T), sa, sg, op, pe); } \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t c, T *d, const T *s, size_t n,   \
                                    uint64_t *sa, uint64_t sg, int op, int pe)   \
    { put_signal("shmem_ctx_" #N "_put_signal", d, s, n, sizeof(T), sa, sg, op,  \
                 CTX_PE(#N "_put_signal")); }                                    \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, \
                                        uint64_t *sa, uint64_t sg, int op, int pe) \
    { put_signal("shmem_ctx_" #N "_put_signal_nbi", d, s, n, sizeof(T), sa, sg, op, \
                 CTX_PE(#N "_put_signal_nbi")); }
SHMEM_RMA_TYPES(PUT_SIGNAL)

#define PUT_SIGNAL_SIZE(S, BYTES)                                                \
    void shmem_put##S##_signal(void *d, const void *s, size_t n, uint64_t *sa,   \
                               uint64_t sg, int op, int pe)                      \
    { put_signal("shmem_put" #S "_signal", d, s, n, BYTES, sa, sg, op, pe); }    \
    void shmem_put##S##_signal_nbi(void *d, const void *s, size_t n, uint64_t *sa, \
                                   uint64_t sg, int op, int pe)                  \
    { put_signal("shmem_put" #S "_signal_nbi", d, s, n, BYTES, sa, sg, op, pe); } \
    void shmem_ctx_put##S##_signal(shmem_ctx_t c, void *d, const void *s, size_t n, \
                                   uint64_t *sa, uint64_t sg, int op, int pe)    \
    { put_signal("shmem_ctx_put" #S "_signal", d, s, n, BYTES, sa, sg, op,       \
                 CTX_PE("put" #S "_signal")); }                                  \
    void shmem_ctx_put##S##_signal_nbi(shmem_ctx_t c, void *d, const void *s, size_t n, \
                                       uint64_t *sa, uint64_t sg, int op, int pe) \
    { put_signal("shmem_ctx_put" #S "_signal_nbi", d, s, n, BYTES, sa, sg, op,   \
                 CTX_PE("put" #S "_signal_nbi")); }
PUT_SIGNAL_SIZE(8, 1)
PUT_SIGNAL_SIZE(16, 2)
PUT_SIGNAL_SIZE(32, 4)
PUT_SIGNAL_SIZE(64, 8)
PUT_SIGNAL_SIZE(128, 16)
PUT_SIGNAL_SIZE(mem, 1)

uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
{
    shm_check_init("shmem_signal_fetch");
    if (sig_addr == NULL)
        shm_fatal("shmem_signal_fetch", "sig_addr is NULL");
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

/* The value that satisfied the wait, from the load that saw it: a writer
 * may change the signal again at once, and a second load could return a
 * value that does not satisfy the condition. */
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    return shm_signal_wait("shmem_signal_wait_until", sig_addr, cmp, cmp_value);
}
