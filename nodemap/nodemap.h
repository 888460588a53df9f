/*
 * nodemap.h - which processes of the job share this host (the supernode).
 *
 * Each process computes a host identity (GASNET_HOST_DETECT), all of them are
 * exchanged through the bootstrap, and processes with equal identities form a
 * host; a host's processes, in job-rank order, are split into supernodes of at
 * most GASNET_SUPERNODE_MAXSIZE.
 */
#ifndef PSHM_NODEMAP_H
#define PSHM_NODEMAP_H

#include <stdint.h>

struct pshm_cfg;
struct boot;

#define NODEMAP_HOSTID_LEN 64   /* fixed-size identity exchanged per rank */

typedef struct nodemap_hostid { char s[NODEMAP_HOSTID_LEN]; } nodemap_hostid_t;

typedef struct nodemap {
    int size;            /* ranks in the job */
    int *node_of;        /* job rank -> supernode index (0..node_count-1) */
    int *local_rank;     /* job rank -> supernode rank in MY supernode, or -1 */
    int *members;        /* my supernode's job ranks, ascending (node_size) */
    int node_size;
    int node_rank;
    int node_index;      /* my supernode's index (names the AM region) */
    int node_count;      /* supernodes in the job */
    int host_count;      /* distinct hosts in the job */
    int host_size;       /* ranks on my host, all its supernodes (a "/h" budget's share) */
} nodemap_t;

/* This process's host identity (honours PSHM_HOST_ID, PSHM_SIM_HOSTS). */
int nodemap_hostid(const struct pshm_cfg *cfg, int rank, nodemap_hostid_t *id);
/* Pure: builds the map from every rank's identity. ids has `size` entries. */
int nodemap_compute(nodemap_t *nm, const nodemap_hostid_t *ids, int size, int rank,
                    uint32_t supernode_max);
/* Exchanges identities through the bootstrap and computes the map. */
int nodemap_build(nodemap_t *nm, struct boot *b, const struct pshm_cfg *cfg);
void nodemap_free(nodemap_t *nm);

#endif /* PSHM_NODEMAP_H */
