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

#include "base/ctx.h"

#define NODEMAP_HOSTID_LEN 64   /* fixed-size identity exchanged per rank */

typedef struct nodemap_hostid { char s[NODEMAP_HOSTID_LEN]; } nodemap_hostid_t;

/* nodemap_t, the map itself, is in base/ctx.h: every layer reads it. */

/* This process's host identity (honours PSHM_HOST_ID, PSHM_SIM_HOSTS). */
int nodemap_hostid(const struct pshm_cfg *cfg, int rank, nodemap_hostid_t *id);
/* Pure: builds the map from every rank's identity. ids has `size` entries. */
/* The machine under the identity: a hash of it, or with PSHM_SIM_HOSTS of
 * the real host's (simulated hosts share its CPUs). */
uint64_t nodemap_machine(const struct pshm_cfg *cfg, const nodemap_hostid_t *id);
int nodemap_compute(nodemap_t *nm, const nodemap_hostid_t *ids, int size, int rank,
                    uint32_t supernode_max);
void nodemap_free(nodemap_t *nm);

#endif /* PSHM_NODEMAP_H */
