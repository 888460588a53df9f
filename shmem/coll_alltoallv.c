/*
 * coll_alltoallv.c - shmemx_alltoallv and shmemx_team_alltoallv (Cray
 * SHMEM's alltoall of varying sizes, shmemx.h): member i's s_sizes[j]
 * bytes at source + s_offsets[j] land at target + t_offsets[i] on member
 * j, whose t_sizes[i] says how many. Indices are positions in the set.
 *
 * As shmem_alltoall (coll_alltoall.c): every member pulls what its
 * supernode's members have for it, reading their s_sizes and s_offsets
 * where they lie, between a sync that says every source and table is in
 * place and one that says nobody reads them any more. Across supernodes
 * each leader sends every other leader two messages: the sizes its members
 * send to that supernode's members (m x m' size_t, sender-major), then the
 * bytes themselves in the same order; it writes what it receives straight
 * into its members' targets and t_sizes (they wait in the second sync).
 */
#include "coll.h"
#include "shmemx.h"
#include "team.h"

#include <stdlib.h>
#include <string.h>

/* Member a's s_sizes[j] and s_offsets[j] (a of my supernode). */
static void send_entry(const char *call, const coll_set_t *s, int pe, const size_t *s_offsets,
                       const size_t *s_sizes, int j, size_t *off, size_t *len)
{
    size_t tbl = (size_t)s->size * sizeof(size_t);

    *len = ((const size_t *)shm_remote_range(call, s_sizes, tbl, pe))[j];
    *off = ((const size_t *)shm_remote_range(call, s_offsets, tbl, pe))[j];
}

/* len bytes from sender `from` (set index) into member pe's target, and
 * its t_sizes entry. */
static void deliver(const char *call, const coll_set_t *s, int pe, void *target,
                    const size_t *t_offsets, size_t *t_sizes, int from, const void *data,
                    size_t len)
{
    size_t tbl = (size_t)s->size * sizeof(size_t);
    size_t off = ((const size_t *)shm_remote_range(call, t_offsets, tbl, pe))[from];

    if (len > 0)
        memcpy(shm_remote_range(call, (char *)target + off, len, pe), data, len);
    ((size_t *)shm_remote_range(call, t_sizes, tbl, pe))[from] = len;
}

/* The leader's part across supernodes. */
static void leader_alltoallv(const char *call, const coll_set_t *s, coll_span_t *sp,
                             void *target, const size_t *t_offsets, size_t *t_sizes,
                             const void *source, const size_t *s_offsets,
                             const size_t *s_sizes)
{
    const coll_set_t *l = &sp->local;
    int me = sp->node, nn = sp->nnodes, m = l->size, others = s->size - m;
    size_t cells = (size_t)m * (size_t)others, all = 0, rall = 0;
    size_t *len = calloc(4 * (size_t)nn, sizeof(size_t));
    size_t *scnt = malloc((cells ? cells : 1) * sizeof(size_t));
    size_t *rcnt = malloc((cells ? cells : 1) * sizeof(size_t));
    void **buf = calloc(4 * (size_t)nn, sizeof(void *));
    char *out = NULL, *in = NULL, *o, *r;

    if (len == NULL || scnt == NULL || rcnt == NULL || buf == NULL)
        shm_fatal(call, "out of memory for the size tables of %d members", s->size);
    /* The counts: to supernode g, for each of my members a, for each of
     * g's members b, a's s_sizes[b]; from g the same the other way. */
    size_t *sc = scnt, *rc = rcnt;
    for (int g = 0; g < nn; g++) {
        size_t n = (size_t)m * (size_t)(sp->first[g + 1] - sp->first[g]);

        if (g == me)
            continue;
        buf[g] = sc;
        buf[nn + g] = rc;
        len[g] = len[nn + g] = n * sizeof(size_t);
        for (int a = 0; a < m; a++) {
            const size_t *ss = shm_remote_range(call, s_sizes, (size_t)s->size * sizeof(size_t),
                                                coll_pe(l, a));
            for (int j = sp->first[g]; j < sp->first[g + 1]; j++, sc++)
                all += *sc = ss[sp->idx[j]];
        }
        rc += n;
    }
    coll_net_exchange(call, sp, COLL_STEP_COUNTS, buf, len, buf + nn, len + nn);
    for (size_t c = 0; c < cells; c++)
        rall += rcnt[c];
    out = malloc(all ? all : 1);
    in = malloc(rall ? rall : 1);
    if (out == NULL || in == NULL)
        shm_fatal(call, "out of memory for %zu + %zu bytes of an alltoallv between supernodes",
                  all, rall);
    /* The data, in the order of the counts. */
    o = out, r = in, sc = scnt, rc = rcnt;
    for (int g = 0; g < nn; g++) {
        int mg = sp->first[g + 1] - sp->first[g];
        char *o0 = o, *r0 = r;

        if (g == me)
            continue;
        for (int a = 0; a < m; a++)
            for (int j = sp->first[g]; j < sp->first[g + 1]; j++, sc++) {
                size_t off, n;

                send_entry(call, s, coll_pe(l, a), s_offsets, s_sizes, sp->idx[j], &off, &n);
                if (n > 0)
                    memcpy(o, shm_remote_range(call, (const char *)source + off, n, coll_pe(l, a)),
                           n);
                o += n;
            }
        for (int c = 0; c < mg * m; c++)
            r += *rc++;
        buf[2 * nn + g] = o0;
        buf[3 * nn + g] = r0;
        len[2 * nn + g] = (size_t)(o - o0);
        len[3 * nn + g] = (size_t)(r - r0);
    }
    coll_net_exchange(call, sp, COLL_STEP_DATA, buf + 2 * nn, len + 2 * nn, buf + 3 * nn,
                      len + 3 * nn);
    /* From g: for each of g's members a', for each of mine b, a''s bytes for b. */
    rc = rcnt;
    for (int g = 0; g < nn; g++) {
        if (g == me)
            continue;
        r = buf[3 * nn + g];
        for (int j = sp->first[g]; j < sp->first[g + 1]; j++)
            for (int b = 0; b < m; b++, rc++) {
                deliver(call, s, coll_pe(l, b), target, t_offsets, t_sizes, sp->idx[j], r, *rc);
                r += *rc;
            }
    }
    free(in);
    free(out);
    free(buf);
    free(rcnt);
    free(scnt);
    free(len);
}

static void alltoallv(const char *call, const coll_set_t *s, coll_span_t *sp, void *target,
                      const size_t *t_offsets, size_t *t_sizes, const void *source,
                      const size_t *s_offsets, const size_t *s_sizes, long *pSync)
{
    const coll_set_t *l = sp != NULL ? &sp->local : s;
    size_t tbl = (size_t)s->size * sizeof(size_t);

    /* My own tables must be symmetric (every member reads or writes them). */
    shm_remote_range(call, t_offsets, tbl, shm.me);
    shm_remote_range(call, t_sizes, tbl, shm.me);
    shm_remote_range(call, s_offsets, tbl, shm.me);
    shm_remote_range(call, s_sizes, tbl, shm.me);
    /* Every source and table (of my supernode) is in place after this. */
    coll_sync(call, l, pSync);
    for (int k = 1; k <= l->size; k++) {
        int a = (l->me + k) % l->size, i = sp != NULL ? sp->idx[sp->first[sp->node] + a] : a;
        int pe = coll_pe(l, a);
        size_t off, n;

        send_entry(call, s, pe, s_offsets, s_sizes, s->me, &off, &n);
        deliver(call, s, shm.me, target, t_offsets, t_sizes, i,
                n > 0 ? shm_remote_range(call, (const char *)source + off, n, pe) : NULL, n);
    }
    if (sp != NULL && l->me == 0)
        leader_alltoallv(call, s, sp, target, t_offsets, t_sizes, source, s_offsets, s_sizes);
    /* Nobody reads this member's source and tables after this, and every
     * block has reached its target. */
    coll_sync(call, l, pSync);
}

void shmemx_alltoallv(void *target, const size_t *t_offsets, size_t *t_sizes, const void *source,
                      const size_t *s_offsets, const size_t *s_sizes, int PE_start,
                      int logPE_stride, int PE_size, long *pSync)
{
    static const char call[] = "shmemx_alltoallv";
    coll_set_t s;

    shm_check_init(call);
    coll_set_init(&s, call, PE_start, logPE_stride, PE_size);
    alltoallv(call, &s, coll_span(call, &s), target, t_offsets, t_sizes, source, s_offsets,
              s_sizes, pSync);
}

void shmemx_team_alltoallv(void *target, const size_t *t_offsets, size_t *t_sizes,
                           const void *source, const size_t *s_offsets, const size_t *s_sizes,
                           shmem_team_t team, long *pSync)
{
    static const char call[] = "shmemx_team_alltoallv";
    const coll_set_t *s;

    shm_check_init(call);
    s = team_set(call, team);
    alltoallv(call, s, team_span_next(call, team), target, t_offsets, t_sizes, source,
              s_offsets, s_sizes, pSync);
}
