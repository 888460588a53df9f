/*
 * amcount - fixed AM workloads for counting instructions (callgrind) over the
 * public calls only. Run under pshmrun -n 2, with
 *   valgrind --tool=callgrind --collect-atstart=no \
 *     --toggle-collect=pshm_am_request_short --toggle-collect=pshm_poll
 * (see tests/progs/amcount.sh). Modes:
 *   rt N     rank 0 queues N Short requests of 2 args, then rank 1 serves
 *            them (each handler replies a Short of 2 args), then rank 0
 *            receives the N replies: no poll of either rank finds nothing.
 *            Needs GASNET_PSHMNET_QUEUE_DEPTH >= N.
 *   idle N   rank 0 calls pshm_poll N times with nothing to receive.
 *   pp N     N ping-pong round trips, every poll finding its one message.
 * The ranks hand over through a flag in the waiting rank's segment, outside
 * any pshm call, so that only the counted work is collected.
 */
#include "pshm.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { H_REQ = 1, H_REP = 2 };

static long nreq, nrep;

/* The least a handler does: count, and reply with the request's args. */
static void on_req(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)buf, (void)n, (void)na;
    nreq++;
    if (pshm_am_reply_short(t, H_REP, 0, 2, a) < 0)
        abort();
}

static void on_rep(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)na, (void)a;
    nrep++;
}

static _Atomic long *flag_of(pshm_ctx_t *ctx, int rank)
{
    pshm_seginfo_t si;
    if (pshm_segment_info(ctx, rank, &si) < 0)
        abort();
    return (_Atomic long *)si.local_base;
}

static void await(_Atomic long *f, long v)
{
    while (atomic_load_explicit(f, memory_order_acquire) < v)
        sched_yield();
}

#define DIE(what) \
    do { fprintf(stderr, "amcount: %s: %s\n", what, pshm_last_error()); return 1; } while (0)

int main(int argc, char **argv)
{
    static const pshm_handler_entry_t tab[] = {{H_REQ, on_req, 2}, {H_REP, on_rep, 2}};
    long n = argc > 2 ? atol(argv[2]) : 1000;
    pshm_ctx_t *ctx;
    int me;

    if (argc < 2 || (strcmp(argv[1], "rt") && strcmp(argv[1], "idle") && strcmp(argv[1], "pp")) ||
        n < 1) {
        fprintf(stderr, "usage: pshmrun -n 2 amcount rt|idle|pp [N]\n");
        return 2;
    }
    if (pshm_init(&ctx, NULL) < 0 || pshm_attach(ctx, 1 << 16) < 0)
        DIE("init/attach");
    if (pshm_am_register(ctx, tab, 2) < 0)
        DIE("register");
    if (pshm_node_size(ctx) != 2) {
        fprintf(stderr, "amcount: needs a supernode of 2 processes\n");
        return 2;
    }
    me = pshm_rank(ctx);
    if (pshm_barrier(ctx) < 0)
        DIE("barrier");
    if (strcmp(argv[1], "rt") == 0) {
        if (me == 0) {
            for (long i = 0; i < n; i++) {
                uint32_t a[2] = {(uint32_t)i, 7};
                if (pshm_am_request_short(ctx, 1, H_REQ, PSHM_IMMEDIATE, 2, a) < 0)
                    DIE("request");
            }
            atomic_store_explicit(flag_of(ctx, 1), 1, memory_order_release);
            await(flag_of(ctx, 0), 1);
            while (nrep < n)
                if (pshm_poll(ctx) <= 0)
                    DIE("poll found nothing");
        } else {
            await(flag_of(ctx, 1), 1);
            while (nreq < n)
                if (pshm_poll(ctx) <= 0)
                    DIE("poll found nothing");
            atomic_store_explicit(flag_of(ctx, 0), 1, memory_order_release);
        }
    } else if (strcmp(argv[1], "pp") == 0) {
        for (long i = 1; i <= n; i++) {
            if (me == 0) {
                uint32_t a[2] = {(uint32_t)i, 7};
                if (pshm_am_request_short(ctx, 1, H_REQ, 0, 2, a) < 0)
                    DIE("request");
                atomic_store_explicit(flag_of(ctx, 1), i, memory_order_release);
                await(flag_of(ctx, 0), i);
                while (nrep < i)
                    if (pshm_poll(ctx) <= 0)
                        DIE("poll found nothing");
            } else {
                await(flag_of(ctx, 1), i);
                while (nreq < i)
                    if (pshm_poll(ctx) <= 0)
                        DIE("poll found nothing");
                atomic_store_explicit(flag_of(ctx, 0), i, memory_order_release);
            }
        }
    } else if (me == 0) {
        for (long i = 0; i < n; i++)
            if (pshm_poll(ctx) != 0)
                DIE("idle poll");
    }
    if (pshm_barrier(ctx) < 0)
        DIE("barrier");
    printf("amcount: rank %d: %s %ld done (%ld requests, %ld replies handled)\n", me, argv[1], n,
           nreq, nrep);
    return pshm_finalize(ctx) < 0;
}
