/*
 * query.c - who is where, and the way into a peer's segment.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pshm_rank(const pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_rank");
    return rc < 0 ? rc : ctx->rank;
}

int pshm_size(const pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_size");
    return rc < 0 ? rc : ctx->size;
}

int pshm_node_rank(const pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_node_rank");
    return rc < 0 ? rc : ctx->nm.node_rank;
}

int pshm_node_size(const pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_node_size");
    return rc < 0 ? rc : ctx->nm.node_size;
}

int pshm_host_count(const pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_host_count");
    return rc < 0 ? rc : ctx->nm.host_count;
}

int pshm_cpu_sharers(const pshm_ctx_t *ctx, int *cpus)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_cpu_sharers");

    if (rc < 0)
        return rc;
    if (cpus != NULL)
        *cpus = ctx->ncores;
    return ctx->cpu_sharers;
}

static int check_rank(const pshm_ctx_t *ctx, int rank, const char *fn)
{
    if (PSHM_UNLIKELY(rank < 0 || rank >= ctx->size))
        return pshm_err(-EINVAL, "%s: rank %d is out of range (the job has ranks 0..%d)", fn,
                        rank, ctx->size - 1);
    return 0;
}

int pshm_node_rank_of(const pshm_ctx_t *ctx, int rank)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_node_rank_of");

    if (rc == 0)
        rc = check_rank(ctx, rank, "pshm_node_rank_of");
    if (rc < 0)
        return rc;
    if (ctx_local(ctx, rank) < 0)
        return pshm_err(-EHOSTUNREACH, "pshm_node_rank_of: rank %d is not in my supernode "
                        "(it is on another host, or GASNET_SUPERNODE_MAXSIZE split the host)",
                        rank);
    return ctx_local(ctx, rank);
}

int pshm_is_local(const pshm_ctx_t *ctx, int rank)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_is_local");

    if (rc == 0)
        rc = check_rank(ctx, rank, "pshm_is_local");
    return rc < 0 ? rc : ctx_local(ctx, rank) >= 0;
}

int pshm_node_member(const pshm_ctx_t *ctx, int node_rank)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_node_member");

    if (rc < 0)
        return rc;
    if (node_rank < 0 || node_rank >= ctx->nm.node_size)
        return pshm_err(-EINVAL, "pshm_node_member: supernode rank %d is out of range "
                        "(0..%d)", node_rank, ctx->nm.node_size - 1);
    return ctx->nm.members[node_rank];
}

/* Supernode rank of an attached, local `rank`, or a negative error. */
static int local_of(const pshm_ctx_t *ctx, int rank, const char *fn)
{
    int rc = ctx_check(ctx, CTX_ATTACHED, fn);

    if (rc == 0)
        rc = check_rank(ctx, rank, fn);
    if (rc < 0)
        return rc;
    rc = ctx_local(ctx, rank);
    if (PSHM_UNLIKELY(rc < 0))
        return pshm_err(-EHOSTUNREACH, "%s: rank %d is not in my supernode; its segment is "
                        "not mapped here", fn, rank);
    return rc;
}

int pshm_segment_info(const pshm_ctx_t *ctx, int rank, pshm_seginfo_t *info)
{
    int nr = local_of(ctx, rank, "pshm_segment_info");

    if (nr < 0)
        return nr;
    if (info == NULL)
        return pshm_err(-EINVAL, "pshm_segment_info: info is NULL");
    *info = ctx->seginfo[nr];
    return 0;
}

/* Offset of [owner_addr, owner_addr + n) in rank's segment, or -EFAULT. The
 * comparison is written so that no sum can wrap around. */
static int seg_range(const pshm_ctx_t *ctx, int nr, int rank, const void *owner_addr, size_t n,
                     const char *fn, uintptr_t *off)
{
    const pshm_seginfo_t *si = &ctx->seginfo[nr];
    uintptr_t a = (uintptr_t)owner_addr;

    if (PSHM_UNLIKELY(a < si->owner_base || a - si->owner_base > si->size ||
                      n > si->size - (a - si->owner_base)))
        return pshm_err(-EFAULT, "%s: [%p, +%zu) is outside the segment of rank %d "
                        "([%p, +%zu) in its view)", fn, owner_addr, n, rank,
                        (void *)si->owner_base, si->size);
    *off = a - si->owner_base;
    return 0;
}

int pshm_translate(const pshm_ctx_t *ctx, int rank, const void *owner_addr, void **local_addr)
{
    int nr = local_of(ctx, rank, "pshm_translate");
    uintptr_t off;

    if (nr < 0)
        return nr;
    if (local_addr == NULL)
        return pshm_err(-EINVAL, "pshm_translate: local_addr is NULL");
    /* One byte must exist at the address for it to be in the segment. */
    if (seg_range(ctx, nr, rank, owner_addr, 1, "pshm_translate", &off) < 0)
        return -EFAULT;
    *local_addr = (char *)ctx->seginfo[nr].local_base + off;
    return 0;
}

int pshm_put(pshm_ctx_t *ctx, int rank, void *owner_addr, const void *src, size_t n)
{
    int nr = local_of(ctx, rank, "pshm_put"), rc;
    uintptr_t off;
    void *dst;

    if (nr < 0)
        return nr;
    if (n == 0)
        return 0;
    if (src == NULL)
        return pshm_err(-EINVAL, "pshm_put: src is NULL with %zu bytes to copy", n);
    if (seg_range(ctx, nr, rank, owner_addr, n, "pshm_put", &off) < 0)
        return -EFAULT;
    dst = (char *)ctx->seginfo[nr].local_base + off;
    /* Large: copied with the target's help while it polls (synergy.c). */
    if (n >= ctx->cfg.synergy_min && (rc = amq_copy_shared(ctx, nr, dst, src, n)) != 0)
        return rc < 0 ? rc : 0;
    memmove(dst, src, n);
    return 0;
}

int pshm_get(pshm_ctx_t *ctx, int rank, void *dst, const void *owner_addr, size_t n)
{
    int nr = local_of(ctx, rank, "pshm_get"), rc;
    uintptr_t off;
    const void *src;

    if (nr < 0)
        return nr;
    if (n == 0)
        return 0;
    if (dst == NULL)
        return pshm_err(-EINVAL, "pshm_get: dst is NULL with %zu bytes to copy", n);
    if (seg_range(ctx, nr, rank, owner_addr, n, "pshm_get", &off) < 0)
        return -EFAULT;
    src = (const char *)ctx->seginfo[nr].local_base + off;
    if (n >= ctx->cfg.synergy_min && (rc = amq_copy_shared(ctx, nr, dst, src, n)) != 0)
        return rc < 0 ? rc : 0;
    memmove(dst, src, n);
    return 0;
}

void pshm_set_user_data(pshm_ctx_t *ctx, void *data)
{
    if (ctx_check(ctx, CTX_INIT, "pshm_set_user_data") == 0)
        ctx->user_data = data;
}

void *pshm_get_user_data(const pshm_ctx_t *ctx)
{
    return ctx_check(ctx, CTX_INIT, "pshm_get_user_data") == 0 ? ctx->user_data : NULL;
}

/* 0 for depth or memory: the environment's value, or the default. */
static int resolve_net(size_t *depth, size_t *memory)
{
    pshm_cfg_t *cfg;
    int rc;

    if (*depth > PSHM_QUEUE_DEPTH_MAX)
        return pshm_err(-EINVAL, "queue depth %zu is out of range (%u..%u)", *depth,
                        PSHM_QUEUE_DEPTH_MIN, PSHM_QUEUE_DEPTH_MAX);
    if (*depth != 0 && *memory != 0)
        return 0;
    /* The environment's values (or the defaults): large struct, so heap. */
    cfg = calloc(1, sizeof *cfg);
    if (cfg == NULL)
        return pshm_err(-ENOMEM, "out of memory");
    rc = env_load(cfg);
    if (rc == 0) {
        if (*depth == 0)
            *depth = cfg->queue_depth;
        if (*memory == 0)
            *memory = cfg->queue_memory;
    }
    free(cfg);
    return rc < 0 ? rc : 0;
}

/* The AM region's parts for P processes, with its header page in total
 * (the network's size, and the object's); errors prefixed with call. */
static int net_parts(const char *call, unsigned nprocs, size_t depth, size_t memory,
                     pshm_am_network_parts_t *parts)
{
    pshm_am_network_parts_t p = {0};
    int rc = resolve_net(&depth, &memory);

    if (rc == 0)
        rc = amq_region_parts(nprocs, (uint32_t)depth, memory, &p.total, &p.queues, &p.pools);
    if (rc < 0)
        return pshm_err_prefix(rc, "%s", call);
    p.total += SEG_HDR_SIZE;
    p.other = p.total - p.queues - p.pools;
    p.depth = depth, p.memory = memory;
    *parts = p;
    return 0;
}

int pshm_am_network_size(unsigned nprocs, size_t depth, size_t memory, uint64_t *bytes)
{
    pshm_am_network_parts_t p;
    int rc;

    if (bytes == NULL)
        return pshm_err(-EINVAL, "pshm_am_network_size: the result pointer is NULL");
    rc = net_parts("pshm_am_network_size", nprocs, depth, memory, &p);
    if (rc == 0)
        *bytes = p.total;
    return rc;
}

int pshm_am_network_parts(unsigned nprocs, size_t depth, size_t memory,
                          pshm_am_network_parts_t *parts)
{
    if (parts == NULL)
        return pshm_err(-EINVAL, "pshm_am_network_parts: the result pointer is NULL");
    return net_parts("pshm_am_network_parts", nprocs, depth, memory, parts);
}

int pshm_am_memory(const pshm_ctx_t *ctx, uint64_t *bytes)
{
    int rc = ctx_check(ctx, CTX_ATTACHED, "pshm_am_memory");

    if (rc < 0)
        return rc;
    if (bytes == NULL)
        return pshm_err(-EINVAL, "pshm_am_memory: the result pointer is NULL");
    rc = amq_region_size((unsigned)ctx->nm.node_size, ctx->cfg.queue_depth,
                         ctx->cfg.queue_memory, bytes);
    if (rc < 0)
        return rc;
    *bytes += SEG_HDR_SIZE;
    return 0;
}
