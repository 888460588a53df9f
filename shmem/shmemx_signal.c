/*
 * shmemx_signal.c - Cray's put with signal (shmemx.h): OpenSHMEM 1.5's
 * put with signal at SHMEM_SIGNAL_SET, the _nb forms its _nbi ones. An
 * argument error names the OpenSHMEM routine the call became.
 */
#include "shmem_internal.h"
#include "shmemx.h"

#define PUTX_SIGNAL(N, T)                                                        \
    void shmemx_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sg, int pe) \
    { shmem_##N##_put_signal(d, s, n, sa, sg, SHMEM_SIGNAL_SET, pe); }           \
    void shmemx_##N##_put_signal_nb(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sg, \
                                    int pe)                                      \
    { shmem_##N##_put_signal_nbi(d, s, n, sa, sg, SHMEM_SIGNAL_SET, pe); }
SHMEM_RMA_TYPES(PUTX_SIGNAL)

#define PUTX_SIGNAL_SIZE(S)                                                      \
    void shmemx_put##S##_signal(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sg, \
                                int pe)                                          \
    { shmem_put##S##_signal(d, s, n, sa, sg, SHMEM_SIGNAL_SET, pe); }            \
    void shmemx_put##S##_signal_nb(void *d, const void *s, size_t n, uint64_t *sa, \
                                   uint64_t sg, int pe)                          \
    { shmem_put##S##_signal_nbi(d, s, n, sa, sg, SHMEM_SIGNAL_SET, pe); }
SHMEM_RMA_SIZES(PUTX_SIGNAL_SIZE)
PUTX_SIGNAL_SIZE(mem)
