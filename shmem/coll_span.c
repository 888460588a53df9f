/*
 * coll_span.c - how an active set lies across supernodes: this PE's
 * supernode's members of the set, one leader per supernode, the members of
 * each. Built on the set's first collective and kept for the job, so a
 * collective pays a table look-up, not a pass over the set; a program uses
 * a handful of sets, and each costs a few ints per member.
 */
#include "coll.h"

#include <stdlib.h>

#define SPAN_BUCKETS 64u

static coll_span_t *spans[SPAN_BUCKETS];

static unsigned span_hash(int start, int stride, int size)
{
    return ((unsigned)start * 2654435761u ^ (unsigned)stride * 40503u ^ (unsigned)size) %
           SPAN_BUCKETS;
}

static void *span_alloc(const char *call, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);

    if (p == NULL)
        shm_fatal(call, "out of memory for the layout of an active set of %zu PEs", n);
    return p;
}

static coll_span_t *span_build(const char *call, const coll_set_t *s)
{
    coll_span_t *sp = span_alloc(call, 1, sizeof *sp);
    int size = s->size, mine = coll_node_id[shm.me];
    int *node_index = span_alloc(call, (size_t)shm.npes, sizeof(int)); /* by supernode id */
    int *pes, *cursor;

    sp->start = s->start;
    sp->stride = s->stride;
    sp->size = size;
    sp->leader = span_alloc(call, (size_t)size, sizeof(int));
    sp->first = span_alloc(call, (size_t)size + 1, sizeof(int));
    sp->idx = span_alloc(call, (size_t)size, sizeof(int));
    sp->node_of = span_alloc(call, (size_t)size, sizeof(int));
    pes = span_alloc(call, (size_t)size, sizeof(int));
    /* Supernodes in the order of their lowest member; first[g + 1] counts
     * g's members for now. */
    for (int i = 0; i < size; i++) {
        int pe = coll_pe(s, i), id = coll_node_id[pe];

        if (node_index[id] == 0) {
            node_index[id] = ++sp->nnodes; /* 0 stands for "not seen" */
            sp->leader[sp->nnodes - 1] = pe;
        }
        sp->node_of[i] = node_index[id] - 1;
        sp->first[sp->node_of[i] + 1]++;
        if (id == mine) {
            if (pe == shm.me)
                sp->local.me = sp->local.size;
            pes[sp->local.size++] = pe;
        }
    }
    for (int g = 0; g < sp->nnodes; g++)
        sp->first[g + 1] += sp->first[g];
    cursor = node_index; /* reused: the next free place of each supernode */
    for (int g = 0; g < sp->nnodes; g++)
        cursor[g] = sp->first[g];
    for (int i = 0; i < size; i++)
        sp->idx[cursor[sp->node_of[i]]++] = i;
    sp->node = sp->node_of[s->me];
    sp->local.start = pes[0];
    sp->local.stride = 1;
    sp->local.pes = pes;
    free(node_index);
    return sp;
}

coll_span_t *coll_span(const char *call, const coll_set_t *s)
{
    coll_span_t *sp;
    unsigned h;

    if (SHM_LIKELY(!shm.multi))
        return NULL;
    h = span_hash(s->start, s->stride, s->size);
    for (sp = spans[h]; sp != NULL; sp = sp->next)
        if (sp->start == s->start && sp->stride == s->stride && sp->size == s->size)
            break;
    if (sp == NULL) {
        sp = span_build(call, s);
        sp->next = spans[h];
        spans[h] = sp;
    }
    if (sp->nnodes == 1)
        return NULL;
    sp->seq++;
    return sp;
}

coll_span_t *coll_span_new(const char *call, const coll_set_t *s, unsigned seq)
{
    coll_span_t *sp = span_build(call, s);

    sp->seq = seq;
    return sp;
}

void coll_span_free(coll_span_t *sp)
{
    if (sp == NULL)
        return;
    free((void *)sp->local.pes);
    free(sp->leader);
    free(sp->first);
    free(sp->idx);
    free(sp->node_of);
    free(sp);
}

void coll_span_fini(void)
{
    for (unsigned h = 0; h < SPAN_BUCKETS; h++) {
        while (spans[h] != NULL) {
            coll_span_t *sp = spans[h];

            spans[h] = sp->next;
            coll_span_free(sp);
        }
    }
}
