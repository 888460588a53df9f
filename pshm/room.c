/*
 * room.c - one reading of the room for a supernode's segments.
 *
 * Each rank used to read the free space of the store (and the memory cgroup)
 * itself, some after faster ranks had reserved their segments, and divided
 * what was left among all again: 4 x 4 MiB failed in a 30 MiB /dev/shm. Now
 * supernode rank 0 reads once, before anyone creates anything, and every
 * rank divides that same reading.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct room_rec {
    seg_room_t room;
    int32_t err;        /* 0, or the reader's failure */
    char msg[300];
} room_rec_t;

int attach_room(pshm_ctx_t *ctx, seg_room_t *out)
{
    room_rec_t mine, *all;
    int rc;

    memset(&mine, 0, sizeof mine);
    if (ctx->nm.node_rank == 0 && (rc = seg_room_read(&ctx->cfg, &mine.room)) < 0) {
        mine.err = rc;
        snprintf(mine.msg, sizeof mine.msg, "%s", pshm_last_error());
    }
    all = calloc((size_t)ctx->size, sizeof *all);
    if (all == NULL)
        return pshm_err(-ENOMEM, "out of memory for %d records of room", ctx->size);
    rc = boot_exchange(ctx->boot, &mine, sizeof mine, all);
    if (rc == 0) {
        const room_rec_t *r = &all[ctx->nm.members[0]];
        if (r->err < 0)
            rc = pshm_err(r->err, "rank %d: %s", ctx->nm.members[0], r->msg);
        else
            *out = r->room;
        out->mem_where[sizeof out->mem_where - 1] = 0;
    }
    free(all);
    return rc;
}
