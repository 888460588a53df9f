/*
 * coll_ops.h - the reductions' and scans' combining functions: one per
 * operator and type name, acc[i] = acc[i] OP in[i] for i < n (coll_ops.c).
 * The active-set and the team entry points take them from the same lists,
 * so each name's function exists once.
 */
#ifndef PSHMEM_COLL_OPS_H
#define PSHMEM_COLL_OPS_H

#include "coll.h"

/* The names each operator has a function for: the team table's, and for
 * AND, OR, XOR also the active-set table's signed names (short .. long
 * long), which the team table leaves out. Integer SUM and PROD wrap. */
#define COLL_BITWISE_TYPES(X) SHMEM_REDUCE_BITWISE_TYPES(X) SHMEM_TEAM_REDUCE_BITWISE_TYPES(X)
#define COLL_MINMAX_TYPES(X) SHMEM_TEAM_REDUCE_MINMAX_TYPES(X)
#define COLL_INT_TYPES(X) SHMEM_TEAM_REDUCE_INT_TYPES(X)
#define COLL_NONINT_TYPES(X) SHMEM_TEAM_REDUCE_REAL_TYPES(X) SHMEM_TEAM_REDUCE_COMPLEX_TYPES(X)

#define COLL_DECL_OP_(OP, N, T) void coll_##N##_##OP(void *acc, const void *in, size_t n) SHM_HIDDEN;
#define COLL_DECL_AND_(N, T) COLL_DECL_OP_(and, N, T)
#define COLL_DECL_OR_(N, T) COLL_DECL_OP_(or, N, T)
#define COLL_DECL_XOR_(N, T) COLL_DECL_OP_(xor, N, T)
#define COLL_DECL_MIN_(N, T) COLL_DECL_OP_(min, N, T)
#define COLL_DECL_MAX_(N, T) COLL_DECL_OP_(max, N, T)
#define COLL_DECL_SUM_(N, T) COLL_DECL_OP_(sum, N, T)
#define COLL_DECL_PROD_(N, T) COLL_DECL_OP_(prod, N, T)
COLL_BITWISE_TYPES(COLL_DECL_AND_)
COLL_BITWISE_TYPES(COLL_DECL_OR_)
COLL_BITWISE_TYPES(COLL_DECL_XOR_)
COLL_MINMAX_TYPES(COLL_DECL_MIN_)
COLL_MINMAX_TYPES(COLL_DECL_MAX_)
COLL_INT_TYPES(COLL_DECL_SUM_)
COLL_INT_TYPES(COLL_DECL_PROD_)
COLL_NONINT_TYPES(COLL_DECL_SUM_)
COLL_NONINT_TYPES(COLL_DECL_PROD_)

#endif /* PSHMEM_COLL_OPS_H */
