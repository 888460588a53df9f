/*
 * coll_team_scan.c - shmem_TYPE_sum_inscan and shmem_TYPE_sum_exscan
 * (OpenSHMEM 1.6) on the types of the team sum reduction.
 *
 * Within one supernode the elements are cut into one slice per member, as
 * the reduction does. Member m walks the members in team order over slice
 * m with a running sum, storing it in each member's dest (inscan: after
 * adding that member's source, exscan: before; member 0's exscan is zero).
 * Only member m touches slice m of anyone's source and dest, and it reads a
 * member's source slice before it writes that member's dest slice, so dest
 * may be the source. A sync before says every source is in place; a sync
 * after says every dest is written and no source is read any more. Each
 * prefix is added in team order, as a serial loop would.
 *
 * Across supernodes (members of one supernode need not be contiguous in
 * team order): after a sync within each supernode, its leader copies its
 * members' sources and swaps them with the other leaders (one message per
 * pair, coll_net_exchange, with the sources the receiver needs: those of
 * the members before its last one); then it walks the members in team
 * order with one running sum, up to its own last member, and stores each
 * of its members' prefix straight into that member's dest, mapped here. A second
 * sync within the supernode lets the members go.
 *
 * 0 on success; an invalid team is fatal (team_set), as in coll_team.c.
 */
#include "coll_ops.h"
#include "team.h"

#include <stdlib.h>
#include <string.h>

/* Bytes summed per pass over the members: the running sum stays in L1. */
#define SCAN_BLOCK 8192u

/* One element block of one member: the running sum acc (cnt elements)
 * takes src; dst gets the sum after (inscan) or before (exscan) it. first:
 * member 0, whose source starts the sum. src may be dst when tmp, cnt
 * elements of scratch, is not NULL. */
static void scan_step(char *dst, const char *src, char *acc, char *tmp, size_t cnt,
                      size_t esize, coll_combine_fn add, int ex, int first)
{
    size_t len = cnt * esize;

    if (first) {
        memcpy(acc, src, len);
        if (ex)
            memset(dst, 0, len);
        else if (dst != acc)
            memcpy(dst, acc, len);
    } else if (ex) {
        if (tmp != NULL) {
            memcpy(tmp, src, len);
            src = tmp;
        }
        memcpy(dst, acc, len);
        add(acc, src, cnt);
    } else {
        add(acc, src, cnt);
        memcpy(dst, acc, len);
    }
}

static void scan_local(const char *call, const coll_set_t *s, char *dest, const char *source,
                       size_t nelems, size_t esize, coll_combine_fn add, int ex, long *pSync)
{
    _Alignas(64) unsigned char acc[SCAN_BLOCK], tmp[SCAN_BLOCK];
    size_t per = SCAN_BLOCK / esize, n = nelems * esize;
    size_t chunk = (nelems + (size_t)s->size - 1) / (size_t)s->size;
    size_t lo = chunk * (size_t)s->me, hi = lo + chunk < nelems ? lo + chunk : nelems;

    coll_sync(call, s, pSync);
    for (size_t b = lo; b < hi; b += per) {
        size_t cnt = hi - b < per ? hi - b : per, off = b * esize;

        for (int i = 0; i < s->size; i++) {
            int pe = coll_pe(s, i);

            scan_step((char *)shm_remote_range(call, dest, n, pe) + off,
                      (const char *)shm_remote_range(call, source, n, pe) + off, (char *)acc,
                      (char *)tmp, cnt, esize, add, ex, i == 0);
        }
    }
    coll_sync(call, s, pSync);
}

static void *scan_alloc(const char *call, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);

    if (p == NULL)
        shm_fatal(call, "out of memory for %zu bytes of a scan between supernodes", n * size);
    return p;
}

/* How many of supernode g's members come before member `bound` in team
 * order (they are listed in team order). */
static int members_before(const coll_span_t *sp, int g, int bound)
{
    int c = 0;

    while (sp->first[g] + c < sp->first[g + 1] && sp->idx[sp->first[g] + c] < bound)
        c++;
    return c;
}

/* The leader's part across supernodes. A leader needs the sources of the
 * members before its own last one only: each sends another leader the
 * first of its members' sources up to that leader's last member. */
static void leader_scan(const char *call, const coll_set_t *s, coll_span_t *sp, void *dest,
                        const void *source, size_t nelems, size_t esize, coll_combine_fn add,
                        int ex)
{
    const coll_set_t *l = &sp->local;
    int nn = sp->nnodes, me = sp->node, last = sp->idx[sp->first[me + 1] - 1];
    size_t n = nelems * esize;
    /* all: every member's source, supernode after supernode (idx order). */
    char *all = scan_alloc(call, (size_t)sp->size, n), *acc = scan_alloc(call, 1, n);
    int *pos = scan_alloc(call, (size_t)sp->size, sizeof(int)); /* idx position of member i */
    size_t *len = scan_alloc(call, 2 * (size_t)nn, sizeof(size_t));
    void **buf = scan_alloc(call, 2 * (size_t)nn, sizeof(void *));

    coll_bytes(call, (size_t)sp->size, n);
    for (int k = 0; k < l->size; k++)
        memcpy(all + (size_t)(sp->first[me] + k) * n,
               shm_remote_range(call, source, n, coll_pe(l, k)), n);
    for (int g = 0; g < nn; g++) {
        buf[g] = all + (size_t)sp->first[me] * n;
        len[g] = (size_t)members_before(sp, me, sp->idx[sp->first[g + 1] - 1]) * n;
        buf[nn + g] = all + (size_t)sp->first[g] * n;
        len[nn + g] = (size_t)members_before(sp, g, last) * n;
    }
    coll_net_exchange(call, sp, COLL_STEP_DATA, buf, len, buf + nn, len + nn);
    for (int j = 0; j < sp->size; j++)
        pos[sp->idx[j]] = j;
    /* The sources are copies: dest may be any member's source. */
    for (int i = 0; i <= last; i++) {
        const char *src = all + (size_t)pos[i] * n;

        if (sp->node_of[i] == me)
            scan_step(shm_remote_range(call, dest, n, coll_pe(s, i)), src, acc, NULL, nelems,
                      esize, add, ex, i == 0);
        else if (i == 0)
            memcpy(acc, src, n);
        else
            add(acc, src, nelems);
    }
    free(buf);
    free(len);
    free(pos);
    free(acc);
    free(all);
}

static int team_scan(const char *call, shmem_team_t team, void *dest, const void *source,
                     size_t nelems, size_t esize, coll_combine_fn add, int ex)
{
    const coll_set_t *s;
    coll_span_t *sp;
    size_t n;

    s = team_set(call, team); /* checks init too */
    sp = team_span_next(call, team);
    if (nelems == 0)
        return 0;
    n = coll_bytes(call, nelems, esize);
    shm_remote_range(call, dest, n, shm.me);
    shm_remote_range(call, source, n, shm.me);
    if (dest != source)
        coll_check_overlap(call, dest, n, source, n);
    if (sp == NULL) {
        scan_local(call, s, dest, source, nelems, esize, add, ex, team_psync(team));
        return 0;
    }
    coll_sync(call, &sp->local, team_psync(team));
    if (sp->local.me == 0)
        leader_scan(call, s, sp, dest, source, nelems, esize, add, ex);
    coll_sync(call, &sp->local, team_psync(team));
    return 0;
}

#define TEAM_SCAN_DEF(N, T)                                                          \
    int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems) \
    {                                                                                \
        return team_scan("shmem_" #N "_sum_inscan", team, dest, source, nelems, sizeof(T), \
                         coll_##N##_sum, 0);                                         \
    }                                                                                \
    int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems) \
    {                                                                                \
        return team_scan("shmem_" #N "_sum_exscan", team, dest, source, nelems, sizeof(T), \
                         coll_##N##_sum, 1);                                         \
    }
SHMEM_TEAM_REDUCE_ARITH_TYPES(TEAM_SCAN_DEF)
