/*
 * coll.c - gasnet_coll_init and gasnet_coll_broadcast (gasnet_coll.h).
 *
 * A broadcast: a barrier (every node has set where its bytes go), the root
 * sends them in Mediums that each receiver's handler copies to its dst
 * (args: offset), every receiver waits for all nbytes, a barrier.
 */
#include "gasnetc.h"


static int coll_ready;
static char *bc_dst;              /* this node's destination, during one broadcast */
static atomic_size_t bc_got;      /* bytes of it received */

void gsn_bcast_handler(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t off_lo,
                       gasnet_handlerarg_t off_hi)
{
    uint64_t off = (uint64_t)(uint32_t)off_lo | (uint64_t)(uint32_t)off_hi << 32;
    (void)t;
    memcpy(bc_dst + off, buf, nbytes);
    atomic_fetch_add_explicit(&bc_got, nbytes, memory_order_release);
}

void gasnet_coll_init(gasnet_image_t *images, gasnet_image_t my_image,
                      gasnet_coll_fn_entry_t *fn_tbl, size_t fn_count, int init_flags)
{
    (void)my_image; (void)fn_tbl; (void)fn_count; (void)init_flags;
    gsn_need_attach("gasnet_coll_init");
    if (images != NULL)
        gsn_fatal("gasnet_coll_init", "images is not NULL: this GASNet runs one image per node");
    coll_ready = 1;
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                           void *src, size_t nbytes, int flags)
{
    static const char call[] = "gasnet_coll_broadcast";
    (void)flags;
    gsn_need_attach(call);
    if (!coll_ready)
        gsn_fatal(call, "called before gasnet_coll_init");
    if (team != GASNET_TEAM_ALL)
        gsn_fatal(call, "only GASNET_TEAM_ALL is a team here");
    if (srcimage >= (gasnet_image_t)gsn.n)
        gsn_fatal(call, "source image %u is not a node (0..%d)", (unsigned)srcimage, gsn.n - 1);
    bc_dst = dst;
    atomic_store(&bc_got, 0);
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    if ((int)srcimage == gsn.me) {
        size_t chunk = gasnet_AMMaxMedium();
        if (dst != src && nbytes)
            memmove(dst, src, nbytes);
        for (int r = 0; r < gsn.n; r++) {
            if (r == gsn.me)
                continue;
            for (size_t off = 0; off < nbytes; off += chunk) {
                size_t len = nbytes - off < chunk ? nbytes - off : chunk;
                uint32_t a[2] = {(uint32_t)off, (uint32_t)((uint64_t)off >> 32)};
                int rc = pshm_am_request_medium(gsn.ctx, r, GSN_H_BCAST, (char *)src + off, len,
                                                0, 2, a);
                if (rc < 0)
                    gsn_pshm_fail(call, rc);
            }
        }
    } else {
        while (atomic_load_explicit(&bc_got, memory_order_acquire) < nbytes)
            gsn_wait_poll(call);
    }
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}
