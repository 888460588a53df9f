/*
 * range.c - pshm_attach_range: a caller's memory range as a second
 * cross-mapped area of every process.
 *
 * In every process of the job (the steps of pshm_attach, for one object):
 *   1. create my range object (kind 'r'), header page written, storage
 *      reserved; copy my range into it and move its usable pages over the
 *      range (seg_move_over): my memory is now shared-backed, in place;
 *   2. exchange one record per rank: how to find the object, where its
 *      owner's range is, or the failure;
 *   3. map every supernode peer's object;
 *   4. agree that all mapped (or all undo);
 *   5. remove my name; a supernode barrier, so no name outlives the call.
 * A failure after step 1 leaves my range shared-backed with its bytes: the
 * object has no name by then, so nothing is left in the system.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RANGE_MSG_MAX 480

typedef struct range_rec {
    seg_ref_t ref;
    uint64_t owner_base;   /* my range's address */
    uint64_t size;         /* its bytes (page multiple), 0 for none */
    int32_t err;
    char msg[RANGE_MSG_MAX];
} range_rec_t;

void range_undo(pshm_ctx_t *ctx)
{
    if (ctx->ranges != NULL) {
        for (int nr = 0; nr < ctx->nm.node_size; nr++) {
            seg_obj_t *o = &ctx->ranges[nr];
            if (o->addr == NULL)
                continue;
            if (nr == ctx->nm.node_rank)
                seg_be_release(o, &ctx->cfg); /* the header only: the range stays */
            else
                seg_range_release(o, &ctx->cfg);
        }
    }
    free(ctx->ranges);
    free(ctx->rangeinfo);
    ctx->ranges = NULL;
    ctx->rangeinfo = NULL;
}

/* The range must be mapped: mincore fails with ENOMEM on any hole. */
static int range_check(void *addr, size_t len, size_t page)
{
    unsigned char *vec;
    int rc = 0;

    if ((uintptr_t)addr % page != 0)
        return pshm_err(-EINVAL, "pshm_attach_range: address %p is not page aligned (%zu)",
                        addr, page);
    if (len == 0)
        return 0;
    if ((uintptr_t)addr + len < (uintptr_t)addr)
        return pshm_err(-EINVAL, "pshm_attach_range: [%p, +%zu) wraps around", addr, len);
    vec = malloc(len / page);
    if (vec == NULL)
        return pshm_err(-ENOMEM, "pshm_attach_range: out of memory");
    if (mincore(addr, len, vec) < 0)
        rc = pshm_err(-EFAULT, "pshm_attach_range: [%p, +%zu) is not all mapped: %s", addr,
                      len, strerror(errno));
    free(vec);
    return rc;
}

/* Step 1; failures go into my record. */
static void range_create(pshm_ctx_t *ctx, void *addr, size_t len, range_rec_t *mine)
{
    seg_obj_t *me = &ctx->ranges[ctx->nm.node_rank];
    int rc;

    mine->owner_base = (uint64_t)(uintptr_t)addr;
    mine->size = len;
    if (len == 0)
        return;
    rc = seg_create(me, &ctx->cfg, ctx->boot->tag, SEG_KIND_RANGE, ctx->rank, ctx->rank,
                    (uint32_t)ctx->size, len);
    if (rc == 0) {
        mine->ref = me->ref;
        rc = seg_move_over(me, addr, len);
    }
    if (rc < 0) {
        mine->err = rc;
        snprintf(mine->msg, sizeof mine->msg, "%s", pshm_last_error());
    }
}

/* Step 3. */
static int range_map(pshm_ctx_t *ctx, const range_rec_t *recs)
{
    for (int nr = 0; nr < ctx->nm.node_size; nr++) {
        const range_rec_t *rec = &recs[ctx->nm.members[nr]];
        pshm_seginfo_t *info = &ctx->rangeinfo[nr];

        info->owner_base = (uintptr_t)rec->owner_base;
        info->size = (size_t)rec->size;
        if (nr == ctx->nm.node_rank) {
            info->local_base = (void *)(uintptr_t)rec->owner_base;
        } else if (rec->size > 0) {
            int rc = seg_be_attach(&ctx->ranges[nr], &ctx->cfg, &rec->ref);
            if (rc < 0)
                return pshm_err_prefix(rc, "mapping the range of rank %d", ctx->nm.members[nr]);
            if (ctx->ranges[nr].len < SEG_HDR_SIZE + rec->size)
                return pshm_err(-EINVAL, "the range object of rank %d holds %zu bytes, less "
                                "than the %llu it announced", ctx->nm.members[nr],
                                ctx->ranges[nr].len, (unsigned long long)rec->size);
            info->local_base = seg_user_base(&ctx->ranges[nr]);
        }
    }
    return 0;
}

int pshm_attach_range(pshm_ctx_t *ctx, void *addr, size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n;
    range_rec_t mine, *recs = NULL;
    int rc, r;

    rc = ctx_check(ctx, CTX_ATTACHED, "pshm_attach_range");
    if (rc < 0)
        return rc;
    if (ctx->ranges != NULL)
        return pshm_err(-EALREADY, "pshm_attach_range: this context has its range already");
    n = (size_t)ctx->nm.node_size;
    memset(&mine, 0, sizeof mine);
    if (len > SIZE_MAX - page)
        rc = pshm_err(-EINVAL, "pshm_attach_range: length %zu is too large", len);
    else
        len = (len + page - 1) / page * page;
    if (rc == 0)
        rc = range_check(addr, len, page);
    ctx->ranges = calloc(n, sizeof *ctx->ranges);
    ctx->rangeinfo = calloc(n, sizeof *ctx->rangeinfo);
    recs = calloc((size_t)ctx->size, sizeof *recs);
    if (rc == 0 && (!ctx->ranges || !ctx->rangeinfo || !recs))
        rc = pshm_err(-ENOMEM, "pshm_attach_range: out of memory for %zu processes", n);
    if (rc < 0) {
        /* Still take part in the exchange, so that no rank waits forever. */
        mine.err = rc;
        snprintf(mine.msg, sizeof mine.msg, "%s", pshm_last_error());
    } else {
        for (size_t i = 0; i < n; i++)
            ctx->ranges[i].fd = -1;
        sigguard_arm(ctx, &ctx->ranges[ctx->nm.node_rank], NULL);
        range_create(ctx, addr, len, &mine);
    }
    if (recs == NULL) {
        /* Without room for the records the exchange cannot happen: end the
         * job rather than hang the others. */
        pshm_abort(ctx, 1);
    }
    rc = boot_exchange(ctx->boot, &mine, sizeof mine, recs);
    for (r = 0; rc == 0 && r < ctx->size; r++)
        if (recs[r].err < 0)
            rc = pshm_err(recs[r].err, "creating the ranges: rank %d: %s", r, recs[r].msg);
    /* Every rank saw the same records: all go on, or all stop here. */
    if (rc == 0)
        rc = ctx_agree(ctx, range_map(ctx, recs), "mapping the ranges");
    if (rc == 0 && ctx->ranges[ctx->nm.node_rank].addr != NULL)
        rc = seg_be_unlink(&ctx->ranges[ctx->nm.node_rank], &ctx->cfg);
    sigguard_disarm();
    if (rc == 0)
        rc = pshm_node_barrier(ctx);
    free(recs);
    if (rc < 0) {
        range_undo(ctx);
        return pshm_err_prefix(rc, "pshm_attach_range");
    }
    pshm_err_clear();
    return 0;
}

int pshm_range_info(const pshm_ctx_t *ctx, int rank, pshm_seginfo_t *info)
{
    int rc = ctx_check(ctx, CTX_ATTACHED, "pshm_range_info"), nr;

    if (rc < 0)
        return rc;
    if (info == NULL)
        return pshm_err(-EINVAL, "pshm_range_info: info is NULL");
    if (rank < 0 || rank >= ctx->size)
        return pshm_err(-EINVAL, "pshm_range_info: rank %d is not in 0..%d", rank, ctx->size - 1);
    nr = ctx_local(ctx, rank);
    if (nr < 0)
        return pshm_err(-EHOSTUNREACH, "pshm_range_info: rank %d is on another host", rank);
    if (ctx->rangeinfo == NULL)
        return pshm_err(-ENOENT, "pshm_range_info: call pshm_attach_range first");
    *info = ctx->rangeinfo[nr];
    return 0;
}
