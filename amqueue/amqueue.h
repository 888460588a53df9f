/*
 * amqueue.h - the active-message network of a supernode.
 *
 * The AM region is one shared object per supernode, created by supernode rank
 * 0 and cross-mapped like the segments. Its layout is a pure function of
 * (P, depth, memory, cache line), so every process computes the same offsets.
 * A freshly created (zero-filled) region is a valid empty network.
 */
#ifndef PSHM_AMQUEUE_H
#define PSHM_AMQUEUE_H

#include <stdint.h>

struct pshm_ctx;

/* Bumped whenever the region's layout or the meaning of its words changes:
 * ranks compare it at init (a mismatch is an error, not a corruption). */
#define AMQ_LAYOUT_VERSION 8u

/* ctx->am_nargs of a handler: registered with PSHM_AM_ANY_NARGS, or not. */
#define AMQ_NARGS_ANY 0xfeu
#define AMQ_NARGS_NONE 0xffu

/* Bytes of the region for P processes; -EOVERFLOW (message set) if the
 * layout cannot be represented. */
int amq_region_size(unsigned nprocs, uint32_t depth, uint64_t memory, uint64_t *bytes);
/* The same region's parts (pshm_am_network_parts): *queues the message
 * queues with their page rounding, *pools the payload pools; the rest of
 * the region is its control lines. */
int amq_region_parts(unsigned nprocs, uint32_t depth, uint64_t memory, uint64_t *bytes,
                     uint64_t *queues, uint64_t *pools);
/* Sets up this process's view of the network in a mapped region (after the
 * cross-mapping, before the attach barrier). ctx->region is mapped. */
int amq_init(struct pshm_ctx *ctx, void *region, uint64_t len);
void amq_fini(struct pshm_ctx *ctx);
/* pshm_put and pshm_get (synergy.c): copies [src, + n) to dst, both in
 * cross-mapped memory, with the help of supernode rank `helper` while it
 * polls. 1 when copied, 0 when not shared that way (the caller copies), or
 * < 0 (message set) when a wait for the helper failed; the bytes are all
 * copied even then. */
int amq_copy_shared(struct pshm_ctx *ctx, int helper, void *dst, const void *src, uint64_t n);
/* -EINVAL (message naming `fn`) when called from inside a handler, else 0:
 * collectives refuse there, before they change anything. */
int amq_refuse_in_handler(const char *fn);

#endif /* PSHM_AMQUEUE_H */
