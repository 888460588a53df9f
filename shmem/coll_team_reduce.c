/*
 * coll_team_reduce.c - every shmem_TYPE_OP_reduce of OpenSHMEM 1.6 (the
 * team table of shmem.h): the reduction kernel of coll_reduce.c over the
 * team's set and span, with the team's own pSync and pWrk. 0 on success;
 * an invalid team is fatal (team_set), as in coll_team.c.
 */
#include "coll_ops.h"
#include "team.h"

static int team_reduce(const char *call, shmem_team_t team, void *dest, const void *source,
                       size_t nreduce, size_t esize, coll_combine_fn combine)
{
    const coll_set_t *s;

    s = team_set(call, team); /* checks init too */
    coll_reduce_run(call, s, team_span_next(call, team), dest, source, nreduce, esize, combine,
                    team_pwrk(team), team_psync(team));
    return 0;
}

#define TEAM_REDUCE_DEF(OP, N, T)                                                    \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source,       \
                                  size_t nreduce)                                    \
    {                                                                                \
        return team_reduce("shmem_" #N "_" #OP "_reduce", team, dest, source, nreduce, \
                           sizeof(T), coll_##N##_##OP);                              \
    }
#define TEAM_AND_(N, T) TEAM_REDUCE_DEF(and, N, T)
#define TEAM_OR_(N, T) TEAM_REDUCE_DEF(or, N, T)
#define TEAM_XOR_(N, T) TEAM_REDUCE_DEF(xor, N, T)
#define TEAM_MAX_(N, T) TEAM_REDUCE_DEF(max, N, T)
#define TEAM_MIN_(N, T) TEAM_REDUCE_DEF(min, N, T)
#define TEAM_SUM_(N, T) TEAM_REDUCE_DEF(sum, N, T)
#define TEAM_PROD_(N, T) TEAM_REDUCE_DEF(prod, N, T)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(TEAM_AND_)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(TEAM_OR_)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(TEAM_XOR_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TEAM_MAX_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(TEAM_MIN_)
SHMEM_TEAM_REDUCE_ARITH_TYPES(TEAM_SUM_)
SHMEM_TEAM_REDUCE_ARITH_TYPES(TEAM_PROD_)
