/*
 * init.c - the life of a context: init, attach, finalize, abort.
 *
 * attach, in every process of the job:
 *   1. create my segment (and, on supernode rank 0, the AM region), storage
 *      reserved, header page written;
 *   2. exchange one attach_rec_t per rank through the bootstrap: how to find
 *      the objects, where the owner mapped its segment, and whether creation
 *      failed (so that one failure fails every rank instead of hanging them);
 *   3. map every supernode peer's segment and the region, set up the AM view;
 *   4. exchange a status again: everyone has mapped everything (or someone
 *      failed, and all undo);
 *   5. remove my names, then a supernode barrier so that when attach returns
 *      anywhere, no name of the supernode is left in the system.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A failing rank's sentence, whole, to every other rank. */
#define ATTACH_MSG_MAX 480

typedef struct attach_rec {
    seg_ref_t seg;          /* my segment */
    seg_ref_t region;       /* my supernode's AM region (supernode rank 0 only) */
    uint64_t owner_base;    /* where I mapped my segment's usable bytes */
    uint64_t size;          /* usable bytes of my segment */
    int32_t pid;
    int32_t err;            /* 0, or the negative code of my failure */
    char msg[ATTACH_MSG_MAX];
} attach_rec_t;

typedef struct attach_status {
    int32_t err;
    char msg[ATTACH_MSG_MAX];
} attach_status_t;

/* The context and the driver's parts of it, in one allocation (ctx first:
 * the context's address is the block's). */
typedef struct ctx_block {
    pshm_ctx_t ctx;
    boot_t boot;
    seg_obj_t region;
} ctx_block_t;

/* What each rank tells the others at init: its host and its CPUs. */
typedef struct host_rec {
    nodemap_hostid_t id;
    uint64_t machine;        /* nodemap_machine: whose CPUs the process shares */
    cpu_summary_t cpus;
} host_rec_t;

/*
 * Exchanges host identities and affinity masks through the bootstrap,
 * computes the map, and counts the processes of this host that may share a
 * CPU with this one, itself included (*sharers): the host's, not only the
 * supernode's, since every supernode of the host competes for its CPUs
 * (and every simulated host of PSHM_SIM_HOSTS: the machine's), and
 * only those whose masks meet this one's (ranks bound each to a core of
 * its own, as mpirun and batch systems bind them, share nothing).
 */
static int map_build(nodemap_t *nm, boot_t *b, const pshm_cfg_t *cfg, int *sharers)
{
    host_rec_t mine, *all;
    nodemap_hostid_t *ids;
    int rc;

    memset(nm, 0, sizeof *nm);
    memset(&mine, 0, sizeof mine);
    rc = nodemap_hostid(cfg, b->rank, &mine.id);
    if (rc < 0)
        return rc;
    mine.machine = nodemap_machine(cfg, &mine.id);
    cpu_summary_self(&mine.cpus);
    all = malloc((size_t)b->size * (sizeof *all + sizeof *ids));
    if (all == NULL)
        return pshm_err(-ENOMEM, "nodemap: cannot allocate %zu bytes for the host "
                        "identities of %d ranks",
                        (size_t)b->size * (sizeof *all + sizeof *ids), b->size);
    ids = (nodemap_hostid_t *)(all + b->size);
    rc = boot_exchange(b, &mine, sizeof mine, all);
    if (rc < 0) {
        pshm_err_prefix(rc, "exchanging host identities");
    } else {
        *sharers = 0;
        for (int r = 0; r < b->size; r++) {
            ids[r] = all[r].id;
            if (all[r].machine == mine.machine && cpu_summary_overlap(&all[r].cpus, &mine.cpus))
                ++*sharers;
        }
        rc = nodemap_compute(nm, ids, b->size, b->rank, cfg->supernode_max);
    }
    free(all);
    return rc;
}

int pshm_init(pshm_ctx_t **out, const pshm_init_attr_t *attr)
{
    pshm_ctx_t *ctx, *expected = NULL;
    ctx_block_t *blk;
    char msg[PSHM_ERRMSG_MAX];
    int rc;

    if (out == NULL)
        return pshm_err(-EINVAL, "pshm_init: the context pointer is NULL");
    *out = NULL;
    if (attr != NULL && (attr->flags & ~PSHM_INIT_THREADS) != 0)
        return pshm_err(-EINVAL, "pshm_init: unknown flags 0x%x (known: PSHM_INIT_THREADS)",
                        attr->flags & ~PSHM_INIT_THREADS);
    blk = calloc(1, sizeof *blk);
    if (blk == NULL)
        return pshm_err(-ENOMEM, "pshm_init: out of memory for the context (%zu bytes)",
                        sizeof *blk);
    ctx = &blk->ctx;
    ctx->boot = &blk->boot;
    ctx->region = &blk->region;
    /* Claim the process-wide slot first: a second init must change nothing. */
    if (!atomic_compare_exchange_strong(&pshm_live_ctx, &expected, ctx)) {
        free(ctx);
        return pshm_err(-EALREADY, "pshm_init: this process already has a context; call "
                                   "pshm_finalize before initializing again");
    }
    ctx->flags = attr != NULL ? attr->flags : 0;
    ctx->boot->fd = -1;
    ctx->region->fd = -1;

    rc = env_load(&ctx->cfg);
    if (rc < 0)
        goto fail_env;
    rc = boot_open(ctx->boot, attr != NULL ? attr->bootstrap : NULL);
    if (rc < 0)
        goto fail_env;
    ctx->rank = ctx->boot->rank;
    ctx->size = ctx->boot->size;
    /* Before anything is built from them: the settings as the user gave them. */
    rc = agree_settings(ctx->boot, &ctx->cfg);
    if (rc < 0)
        goto fail_boot;
#if PSHM_BACKEND_NONE
    ctx->cfg.supernode_max = 1; /* --disable-pshm: every process is a supernode of one */
#endif
    rc = map_build(&ctx->nm, ctx->boot, &ctx->cfg, &ctx->cpu_sharers);
    if (rc < 0)
        goto fail_boot;
    rc = ns_check(ctx);
    if (rc < 0)
        goto fail_nodemap;
    /* Not the online CPUs: a process pinned to one (taskset) or held to a
     * quota has only those, and spinning there starves the peer it waits for
     * when more of the host's processes may run on them. */
    ctx->ncores = cgroup_usable_cpus();
    ctx->oversubscribed = ctx->cpu_sharers > ctx->ncores;
    ctx_wait_policy(ctx);
    ctx->state = CTX_INIT;
    memset(ctx->am_nargs, AMQ_NARGS_NONE, sizeof ctx->am_nargs);
    memset(ctx->am_nfast, AMQ_NARGS_NONE, sizeof ctx->am_nfast);
    memset(ctx->am_meta, 0xff, sizeof ctx->am_meta);
    /* No meta word to handler h has a low byte other than h: these keys
     * match no message (all ones would match one to handler 255). */
    for (unsigned h = 0; h < PSHM_ARRAY_LEN(ctx->am_fast); h++)
        ctx->am_fast[h].s = ctx->am_fast[h].m = 0xffffff00u | (h ^ 1u);
    *out = ctx;
    pshm_err_clear();
    return 0;

fail_nodemap:
    nodemap_free(&ctx->nm);
fail_boot:
    /* A copy: telling the launcher may set a message of its own. */
    (void)pshm_err_prefix(rc, "pshm_init");
    snprintf(msg, sizeof msg, "%s", pshm_last_error());
    boot_init_failed(ctx->boot, msg);
    boot_close(ctx->boot);
    atomic_store(&pshm_live_ctx, NULL);
    free(ctx);
    return pshm_err(rc, "%s", msg);
fail_env:
    atomic_store(&pshm_live_ctx, NULL);
    free(ctx);
    return pshm_err_prefix(rc, "pshm_init");
}

/* Frees what attach built, in reverse order. Names still present are removed. */
static void attach_undo(pshm_ctx_t *ctx)
{
    int i;

    if (ctx->amq != NULL)
        amq_fini(ctx);
    range_undo(ctx);
    live_fini(ctx);
    if (ctx->region->addr != NULL)
        seg_be_release(ctx->region, &ctx->cfg);
    memset(ctx->region, 0, sizeof *ctx->region);
    ctx->region->fd = -1;
    if (ctx->segs != NULL)
        for (i = 0; i < ctx->nm.node_size; i++)
            if (ctx->segs[i].addr != NULL)
                seg_be_release(&ctx->segs[i], &ctx->cfg);
    free(ctx->segs);
    free(ctx->seginfo);
    free(ctx->seg_delta);
    ctx->segs = NULL;
    ctx->seginfo = NULL;
    ctx->seg_delta = NULL;
}

static void rec_fail(attach_rec_t *rec, int err)
{
    rec->err = err;
    snprintf(rec->msg, sizeof rec->msg, "%s", pshm_last_error());
}

/* Returns the first failure any rank reported, with its sentence, or 0. */
static int first_failure(const attach_rec_t *recs, int n, const char *what)
{
    for (int r = 0; r < n; r++)
        if (recs[r].err < 0)
            return pshm_err(recs[r].err, "%s: rank %d: %s", what, r, recs[r].msg);
    return 0;
}

/* Steps 1-2: create my objects, exchange the records. */
static int attach_create(pshm_ctx_t *ctx, size_t segsize, uint64_t region_len,
                         attach_rec_t *recs)
{
    attach_rec_t mine;
    seg_obj_t *me = &ctx->segs[ctx->nm.node_rank];
    int rc = 0;

    memset(&mine, 0, sizeof mine);
    mine.pid = (int32_t)getpid();
    rc = seg_create(me, &ctx->cfg, ctx->boot->tag, SEG_KIND_SEGMENT, ctx->rank, ctx->rank,
                    (uint32_t)ctx->size, segsize);
    if (rc == 0 && ctx->nm.node_rank == 0) {
        rc = seg_create(ctx->region, &ctx->cfg, ctx->boot->tag, SEG_KIND_REGION,
                        ctx->nm.node_index, ctx->rank, (uint32_t)ctx->size, region_len);
        if (rc == 0)
            mine.region = ctx->region->ref;
    }
    if (rc < 0) {
        rec_fail(&mine, rc);
    } else {
        mine.seg = me->ref;
        mine.owner_base = (uint64_t)(uintptr_t)seg_user_base(me);
        mine.size = segsize;
    }
    rc = boot_exchange(ctx->boot, &mine, sizeof mine, recs);
    if (rc < 0)
        return rc;
    return first_failure(recs, ctx->size, "creating the segments");
}

/* Step 3: map every peer's segment and the region. */
static int attach_map(pshm_ctx_t *ctx, const attach_rec_t *recs, uint64_t region_len)
{
    const nodemap_t *nm = &ctx->nm;
    int rc;

    for (int nr = 0; nr < nm->node_size; nr++) {
        const attach_rec_t *rec = &recs[nm->members[nr]];
        seg_obj_t *o = &ctx->segs[nr];

        if (nr != nm->node_rank) {
            rc = seg_be_attach(o, &ctx->cfg, &rec->seg);
            if (rc == 0)
                rc = seg_check_mapped(o, ctx->boot->tag, SEG_KIND_SEGMENT,
                                      SEG_HDR_SIZE + rec->size);
            if (rc < 0)
                return pshm_err_prefix(rc, "mapping the segment of rank %d", nm->members[nr]);
        }
        ctx->peer_pid[nr] = rec->pid;
        ctx->seginfo[nr].local_base = seg_user_base(o);
        ctx->seginfo[nr].owner_base = (uintptr_t)rec->owner_base;
        ctx->seginfo[nr].size = (size_t)rec->size;
        ctx->seg_delta[nr] = (intptr_t)((uintptr_t)seg_user_base(o) - (uintptr_t)rec->owner_base);
    }
    if (nm->node_rank != 0) {
        rc = seg_be_attach(ctx->region, &ctx->cfg, &recs[nm->members[0]].region);
        /* Its layout is computed here from this process's settings: a
         * region of another length would be read with wrong offsets. */
        if (rc == 0)
            rc = seg_check_mapped(ctx->region, ctx->boot->tag, SEG_KIND_REGION,
                                  SEG_HDR_SIZE + PSHM_ALIGN_UP(region_len,
                                                               (uint64_t)sysconf(_SC_PAGESIZE)));
        if (rc < 0)
            return pshm_err_prefix(rc, "mapping the active-message region of rank %d",
                                   nm->members[0]);
    }
    rc = live_init(ctx);
    if (rc < 0)
        return rc;
    return amq_init(ctx, seg_user_base(ctx->region), region_len);
}

/* Step 4: everyone reports whether mapping worked. */
int ctx_agree(pshm_ctx_t *ctx, int my_rc, const char *what)
{
    attach_status_t mine, *all;
    int rc;

    memset(&mine, 0, sizeof mine);
    mine.err = my_rc;
    if (my_rc < 0)
        snprintf(mine.msg, sizeof mine.msg, "%s", pshm_last_error());
    all = calloc((size_t)ctx->size, sizeof *all);
    if (all == NULL)
        return pshm_err(-ENOMEM, "attach: out of memory for %d status records", ctx->size);
    rc = boot_exchange(ctx->boot, &mine, sizeof mine, all);
    for (int r = 0; rc == 0 && r < ctx->size; r++)
        if (all[r].err < 0)
            rc = pshm_err(all[r].err, "%s: rank %d: %s", what, r, all[r].msg);
    free(all);
    return rc;
}

/* The segment size to create: page-rounded, within what `room` allows. */
static int attach_segsize(pshm_ctx_t *ctx, size_t asked, uint64_t region_len,
                          const seg_room_t *room, size_t *out)
{
    uint64_t max, page = (uint64_t)sysconf(_SC_PAGESIZE);
    char a[32], m[32], why[PSHM_PATH_MAX + 400];
    int rc, err;

    rc = seg_max_size_room(&ctx->cfg, ctx->nm.node_size, ctx->nm.host_size,
                           region_len + SEG_HDR_SIZE, room, &max, &err, why, sizeof why);
    if (rc < 0)
        snprintf(why, sizeof why, "%s", pshm_last_error());
    if (rc < 0 && region_len + SEG_HDR_SIZE <= room->obj_max &&
        seg_max_size_room(&ctx->cfg, ctx->nm.node_size, ctx->nm.host_size, SEG_HDR_SIZE, room,
                          &max, NULL, NULL, 0) == 0) {
        /* Without the queues there would be room: they are what to lower,
         * or the limit the first check names (the store, say) to raise. */
        char q[32], e[32], s[32];
        const char *lim = strstr(why, "the limit is ");
        if (asked == PSHM_SEGSIZE_MAX)
            snprintf(s, sizeof s, "the largest");
        else
            pshm_fmt_size(s, sizeof s, (uint64_t)asked);
        return pshm_err(rc, "the message queues of %d processes need %s, and each asked for a "
                        "segment of %s besides, more than this host can give%s%s; or lower "
                        "the queues (GASNET_PSHMNET_QUEUE_DEPTH=%u, GASNET_PSHMNET_QUEUE_MEMORY=%s "
                        "per process)", ctx->nm.node_size,
                        pshm_fmt_size(q, sizeof q, region_len), s, lim ? ": " : "",
                        lim ? lim : "",
                        (unsigned)pshm_queue_depth((unsigned)ctx->nm.node_size,
                                                   ctx->cfg.queue_depth),
                        pshm_fmt_size(e, sizeof e, ctx->cfg.queue_memory));
    }
    if (rc < 0)
        return pshm_err(rc, "%s", why); /* the first check's sentence, not the second's */
    if (asked == PSHM_SEGSIZE_MAX) {
        *out = (size_t)max;
        return 0;
    }
    if (asked > UINT64_MAX - page)
        return pshm_err(-EINVAL, "pshm_attach: segment size %zu is too large", asked);
    *out = (size_t)PSHM_ALIGN_UP((uint64_t)asked, page);
    if (*out > max) {
        char l[32];
        /* What the supernode lacks in all: the figure a fix must add. */
        return pshm_err(err, "pshm_attach: asked for a %s segment, but at most %s is "
                        "available to each of the %d processes on this host (%s short in "
                        "all), the limit being %s; or ask for less (pshm-info shows every "
                        "limit)",
                        pshm_fmt_size(a, sizeof a, *out), pshm_fmt_size(m, sizeof m, max),
                        ctx->nm.node_size,
                        pshm_fmt_size(l, sizeof l, (uint64_t)(*out - max) * (uint64_t)ctx->nm.node_size),
                        why);
    }
    return 0;
}

int pshm_attach(pshm_ctx_t *ctx, size_t segsize)
{
    attach_rec_t *recs = NULL;
    seg_room_t room;
    uint64_t region_len;
    size_t n;
    int rc, i;

    rc = ctx_check(ctx, CTX_INIT, "pshm_attach");
    if (rc < 0)
        return rc;
    if (ctx->state == CTX_ATTACHED)
        return pshm_err(-EALREADY, "pshm_attach: already attached");
    if ((rc = huge_decide(&ctx->cfg)) < 0)
        return pshm_err_prefix(rc, "pshm_attach");
    n = (size_t)ctx->nm.node_size;
    rc = amq_region_size((unsigned)n, ctx->cfg.queue_depth, ctx->cfg.queue_memory, &region_len);
    if (rc < 0)
        return pshm_err_prefix(rc, "pshm_attach");
    /* Every rank must reach the collective exchange even when its size check
     * fails, so the failure is carried in its record rather than returned. */
    ctx->segs = calloc(n, sizeof *ctx->segs);
    ctx->seginfo = calloc(n, sizeof *ctx->seginfo);
    ctx->seg_delta = calloc(n, sizeof *ctx->seg_delta);
    ctx->peer_pid = calloc(n, sizeof *ctx->peer_pid);
    ctx->peer_pidfd = calloc(n, sizeof *ctx->peer_pidfd);
    recs = calloc((size_t)ctx->size, sizeof *recs);
    if (!ctx->segs || !ctx->seginfo || !ctx->seg_delta || !ctx->peer_pid || !ctx->peer_pidfd ||
        !recs) {
        rc = pshm_err(-ENOMEM, "pshm_attach: out of memory for the tables of %zu processes", n);
        goto fail;
    }
    for (i = 0; i < (int)n; i++) {
        ctx->segs[i].fd = -1;
        ctx->peer_pidfd[i] = -1;
    }

    rc = attach_room(ctx, &room);
    if (rc < 0)
        goto fail;
    rc = attach_segsize(ctx, segsize, region_len, &room, &segsize);
    if (rc < 0) {
        /* Still take part in the exchange, reporting the failure. */
        attach_rec_t mine;
        memset(&mine, 0, sizeof mine);
        rec_fail(&mine, rc);
        if (boot_exchange(ctx->boot, &mine, sizeof mine, recs) == 0)
            rc = first_failure(recs, ctx->size, "checking the segment size");
        goto fail;
    }
    sigguard_arm(ctx, &ctx->segs[ctx->nm.node_rank], ctx->region);
    rc = attach_create(ctx, segsize, region_len, recs);
    if (rc < 0)
        goto fail;
    rc = ctx_agree(ctx, attach_map(ctx, recs, region_len), "mapping the segments");
    if (rc < 0)
        goto fail;

    /* Step 5: every peer has mapped everything; the names can go. */
    rc = seg_be_unlink(&ctx->segs[ctx->nm.node_rank], &ctx->cfg);
    if (rc == 0 && ctx->nm.node_rank == 0)
        rc = seg_be_unlink(ctx->region, &ctx->cfg);
    sigguard_disarm();
    ctx_set_state(ctx, CTX_ATTACHED);
    if (rc == 0)
        rc = pshm_node_barrier(ctx);
    if (rc < 0) {
        ctx_set_state(ctx, CTX_INIT);
        goto fail;
    }
    free(recs);
    pshm_err_clear();
    return 0;

fail:
    attach_undo(ctx);
    sigguard_disarm();
    free(ctx->peer_pid);
    free(ctx->peer_pidfd);
    ctx->peer_pid = NULL;
    ctx->peer_pidfd = NULL;
    free(recs);
    return pshm_err_prefix(rc, "pshm_attach");
}

/* The supernode barrier. Its -EPROTO (a message dropped on the way) means
 * that it completed: the caller goes on with the job-wide part, so that the
 * collective completes as a whole, and reports it at the end (*late). */
static int node_barrier_whole(pshm_ctx_t *ctx, int *late, char *msg, size_t n)
{
    int rc = pshm_node_barrier(ctx);

    if (rc == -EPROTO) {
        *late = rc;
        snprintf(msg, n, "%s", pshm_last_error());
        rc = 0;
    }
    return rc;
}

int pshm_finalize(pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_INIT, "pshm_finalize"), late = 0;
    char msg[PSHM_ERRMSG_MAX];

    if (rc < 0)
        return rc;
    /* Inside a handler the poll that called it still uses the context. */
    if ((rc = amq_refuse_in_handler("pshm_finalize")) < 0)
        return rc;
    /* Nobody may tear down while a peer still sends to it. */
    if (ctx->state == CTX_ATTACHED)
        rc = node_barrier_whole(ctx, &late, msg, sizeof msg);
    if (rc == 0)
        rc = boot_barrier(ctx->boot);
    if (ctx->state == CTX_ATTACHED) {
        ctx_set_state(ctx, CTX_INIT); /* the fast paths refuse from here */
        attach_undo(ctx);
        free(ctx->peer_pid);
        free(ctx->peer_pidfd);
    }
    if (rc == 0)
        boot_finish(ctx->boot);
    boot_close(ctx->boot);
    nodemap_free(&ctx->nm);
    atomic_store(&pshm_live_ctx, NULL);
    /* A stale pointer used later reads a state that is not attached. */
    memset(ctx, 0, sizeof(ctx_block_t));
    free(ctx);
    if (rc == 0 && late < 0)
        return pshm_err(late, "pshm_finalize: %s", msg);
    return rc < 0 ? pshm_err_prefix(rc, "pshm_finalize") : 0;
}

void pshm_abort(pshm_ctx_t *ctx, int code)
{
    pshm_abort_reason(ctx, code, NULL);
}

void pshm_abort_reason(pshm_ctx_t *ctx, int code, const char *reason)
{
    /* The status is code & 0xff, as exit(3) gives; LIVE_DIED_CODE means
     * "died" in the abort word, and its low byte is 0 too. */
    if (code == LIVE_DIED_CODE)
        code = 0;
    if (ctx != NULL && ctx == atomic_load(&pshm_live_ctx)) {
        int first_rank, first_code, tell = 1;
        if (ctx->state == CTX_ATTACHED) {
            /* Another rank aborted first (this one is likely reacting to
             * it): end with its code, so that the job's status is the first
             * abort's, and leave the telling to it: the launcher hears the
             * first abort, in its own words, before any peer can see the
             * abort word and end. */
            if (live_aborted(ctx, &first_rank, &first_code) && first_rank != ctx->rank) {
                if (first_code != LIVE_DIED_CODE)
                    code = first_code;
                tell = 0;
            } else {
                boot_abort(ctx->boot, code, reason);
                tell = 0;
                live_set_abort(ctx, ctx->rank, code);
                if (live_aborted(ctx, &first_rank, &first_code) && first_rank != ctx->rank &&
                    first_code != LIVE_DIED_CODE)
                    code = first_code;   /* two aborts at once: the word's wins */
            }
        }
        /* Names not yet removed would outlive the job. */
        if (ctx->segs != NULL && ctx->segs[ctx->nm.node_rank].named)
            seg_be_unlink(&ctx->segs[ctx->nm.node_rank], &ctx->cfg);
        if (ctx->region->named && ctx->region->owner)
            seg_be_unlink(ctx->region, &ctx->cfg);
        if (ctx->ranges != NULL && ctx->ranges[ctx->nm.node_rank].named)
            seg_be_unlink(&ctx->ranges[ctx->nm.node_rank], &ctx->cfg);
        if (tell)
            boot_abort(ctx->boot, code, reason);
    }
    _exit(code & 0xff);
}

int pshm_barrier(pshm_ctx_t *ctx)
{
    int rc = ctx_check(ctx, CTX_ATTACHED, "pshm_barrier"), late = 0;
    char msg[PSHM_ERRMSG_MAX];

    if (rc == 0)
        rc = amq_refuse_in_handler("pshm_barrier");
    if (rc == 0)
        rc = node_barrier_whole(ctx, &late, msg, sizeof msg);
    if (rc == 0 && ctx->nm.node_count > 1)
        rc = boot_barrier(ctx->boot);
    if (rc == 0 && late < 0)
        rc = pshm_err(late, "%s", msg);
    return rc;
}

const char *pshm_version(void)
{
    return PSHM_VERSION " (" PSHM_BACKEND_NAME " backend)";
}
