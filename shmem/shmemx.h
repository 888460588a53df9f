/*
 * shmemx.h - the extensions beyond OpenSHMEM that programs probe for, as
 * Cray SHMEM defines them (docs/shmem.md "Extensions (shmemx.h)"): bale's
 * conveyors, for one, look for shmemx_alltoallv, shmemx_team_alltoallv and
 * shmemx_putmem_signal. Includes shmem.h: a program that includes this
 * alone has the whole interface. Every routine here also has its profiling
 * name, pshmemx_* (pshmem.h).
 */
#ifndef PSHMEM_SHMEMX_H
#define PSHMEM_SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------- alltoall of varying sizes */

/* Over an active set (shmemx_alltoallv) or a team (shmemx_team_alltoallv):
 * member i sends s_sizes[j] bytes from source + s_offsets[j] to member j,
 * which receives them at target + t_offsets[i] and finds their count in
 * t_sizes[i] on return. Indices are positions in the set or team; every
 * array is symmetric, with one entry per member; pSync has
 * SHMEM_ALLTOALL_SYNC_SIZE longs at SHMEM_SYNC_VALUE, as for
 * shmem_alltoall. */
SHMEM_API_ void shmemx_alltoallv(void *target, const size_t *t_offsets, size_t *t_sizes,
                                 const void *source, const size_t *s_offsets,
                                 const size_t *s_sizes, int PE_start, int logPE_stride,
                                 int PE_size, long *pSync);
SHMEM_API_ void shmemx_team_alltoallv(void *target, const size_t *t_offsets, size_t *t_sizes,
                                      const void *source, const size_t *s_offsets,
                                      const size_t *s_sizes, shmem_team_t team, long *pSync);

/* ------------------------------------------------------ put with signal */

/* Cray's put with signal, from before OpenSHMEM 1.5 had one: the signal is
 * always set, after the data (shmem_put_signal with SHMEM_SIGNAL_SET; the
 * _nb forms are shmem_put_signal_nbi's); len counts elements (bytes for
 * putmem). */
#define SHMEMX_DECL_PUT_SIGNAL_(N, T)                                             \
    SHMEM_API_ void shmemx_##N##_put_signal(T *target, const T *source, size_t len, \
                                            uint64_t *sig_addr, uint64_t signal, int pe); \
    SHMEM_API_ void shmemx_##N##_put_signal_nb(T *target, const T *source, size_t len, \
                                               uint64_t *sig_addr, uint64_t signal, int pe);
SHMEM_RMA_TYPES(SHMEMX_DECL_PUT_SIGNAL_)
#define SHMEMX_DECL_PUT_SIGNAL_SIZE_(S)                                           \
    SHMEM_API_ void shmemx_put##S##_signal(void *target, const void *source, size_t len, \
                                           uint64_t *sig_addr, uint64_t signal, int pe); \
    SHMEM_API_ void shmemx_put##S##_signal_nb(void *target, const void *source, size_t len, \
                                              uint64_t *sig_addr, uint64_t signal, int pe);
SHMEM_RMA_SIZES(SHMEMX_DECL_PUT_SIGNAL_SIZE_)
SHMEMX_DECL_PUT_SIGNAL_SIZE_(mem)

#ifdef __cplusplus
}
#endif

#endif /* PSHMEM_SHMEMX_H */
