/*
 * coll_team.c - the team forms of broadcast, collect, fcollect, alltoall
 * and alltoalls (OpenSHMEM 1.5): the active-set kernels (coll.h) over the
 * team's set and span, on the team's own pSync.
 *
 * Every routine returns 0: an invalid team handle is a fatal error naming
 * the routine (team_set), as Sandia OpenSHMEM's error checks make it, so
 * there is no failure left to report (the specification leaves both to the
 * implementation). Unlike shmem_broadcast32/64, the team broadcast writes
 * the root's dest too.
 */
#include "team.h"

static int team_bcast(const char *call, shmem_team_t team, void *dest, const void *source,
                      size_t nelems, size_t esize, int root)
{
    const coll_set_t *s = team_set(call, team);
    size_t n = coll_bytes(call, nelems, esize);

    coll_bcast_run(call, s, team_span_next(call, team), dest, source, n, root,
                   team_psync(team), 1);
    return 0;
}

static int team_collect(const char *call, shmem_team_t team, void *dest, const void *source,
                        size_t nelems, size_t esize, int fixed)
{
    const coll_set_t *s = team_set(call, team);

    coll_collect_run(call, s, team_span_next(call, team), dest, source, nelems, esize,
                     team_psync(team), fixed);
    return 0;
}

static int team_alltoalls(const char *call, shmem_team_t team, void *dest, const void *source,
                          ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t esize)
{
    const coll_set_t *s = team_set(call, team);

    coll_alltoalls_run(call, s, team_span_next(call, team), dest, source, dst, sst, nelems,
                       esize, team_psync(team));
    return 0;
}

#define TEAM_COLL_DEF_(N, T)                                                          \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, \
                              int PE_root)                                            \
    {                                                                                 \
        return team_bcast("shmem_" #N "_broadcast", team, dest, source, nelems, sizeof(T), \
                          PE_root);                                                   \
    }                                                                                 \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems) \
    {                                                                                 \
        return team_collect("shmem_" #N "_collect", team, dest, source, nelems, sizeof(T), 0); \
    }                                                                                 \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems) \
    {                                                                                 \
        return team_collect("shmem_" #N "_fcollect", team, dest, source, nelems, sizeof(T), 1); \
    }                                                                                 \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems) \
    {                                                                                 \
        return team_alltoalls("shmem_" #N "_alltoall", team, dest, source, 1, 1, nelems, \
                              sizeof(T));                                             \
    }                                                                                 \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, \
                              ptrdiff_t sst, size_t nelems)                           \
    {                                                                                 \
        return team_alltoalls("shmem_" #N "_alltoalls", team, dest, source, dst, sst, nelems, \
                              sizeof(T));                                             \
    }
SHMEM_RMA_TYPES(TEAM_COLL_DEF_)

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root)
{
    return team_bcast("shmem_broadcastmem", team, dest, source, nelems, 1, PE_root);
}

int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_collect("shmem_collectmem", team, dest, source, nelems, 1, 0);
}

int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_collect("shmem_fcollectmem", team, dest, source, nelems, 1, 1);
}

int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems)
{
    return team_alltoalls("shmem_alltoallmem", team, dest, source, 1, 1, nelems, 1);
}

int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems)
{
    return team_alltoalls("shmem_alltoallsmem", team, dest, source, dst, sst, nelems, 1);
}
