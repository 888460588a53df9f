/*
 * barrier.c - the supernode barrier, over shared memory.
 *
 * Dissemination barrier: in round k process r signals (r + 2^k) mod P and
 * waits for the signal of (r - 2^k) mod P; after ceil(log2 P) rounds every
 * process has heard, transitively, from all. A signal is the barrier's epoch
 * (1, 2, ...) stored in flag (receiver, k), a line that only the sender of
 * that round writes. Epochs only grow, so "flag >= epoch" needs no reset and
 * no sense reversal: a fast peer already in the next barrier stores a larger
 * epoch, which still satisfies the slower waiter, and it cannot get two
 * barriers ahead because it would need this process's signal first.
 */
#include "amq_internal.h"

#include <errno.h>
#include <stdio.h>

int amq_refuse_in_handler(const char *fn)
{
    if (PSHM_UNLIKELY(amq_in_handler))
        return pshm_err(-EINVAL, "%s: cannot be called from inside a handler (a collective "
                        "there would wait for peers that wait for this handler); call it "
                        "after the poll returns", fn);
    return 0;
}

int pshm_node_barrier(pshm_ctx_t *ctx)
{
    struct amq *q;
    uint64_t epoch;
    int msg_rc = 0;             /* the first message-level error met on the way */
    char msg[PSHM_ERRMSG_MAX];
    int rc = ctx_check(ctx, CTX_ATTACHED, "pshm_node_barrier");

    if (rc < 0)
        return rc;
    if ((rc = amq_refuse_in_handler("pshm_node_barrier")) < 0)
        return rc;
    q = ctx->amq;
    epoch = ++q->bar_epoch;
    for (unsigned k = 0; k < q->l.rounds; k++) {
        unsigned to = (unsigned)q->me + (1u << k);
        uint32_t spins = 0;
        amq_word_line_t *mine = &q->bar[(unsigned)q->me * q->l.rounds + k];

        if (to >= (unsigned)q->P)
            to -= (unsigned)q->P;
        /* Release: everything this process did before the barrier (and
         * everything it learned in earlier rounds) is visible to whoever
         * acquires this flag. */
        atomic_store_explicit(&q->bar[to * q->l.rounds + k].v, epoch, memory_order_release);
        /* Acquire: pairs with the sender's release above. */
        while (atomic_load_explicit(&mine->v, memory_order_acquire) < epoch) {
            /* The first barrier is the one in pshm_attach: nobody can have
             * sent before it, and polling there would run messages of peers
             * that finished attaching before this process registered its
             * handlers (registration may follow attach). Later barriers poll
             * so that a peer blocked on a full queue to us can go on; but
             * when a message is pending, the flag is read again first
             * (amq_pending acquires), so a message the awaited peer sent
             * after its signal is left to the caller's own polls. */
            rc = 0;
            if (epoch > 1 && amq_pending(ctx)) {
                if (atomic_load_explicit(&mine->v, memory_order_acquire) >= epoch)
                    break;
                rc = amq_poll(ctx, 3u);
            }
            /* A bad message (-EPROTO) is the sender's fault, not the
             * barrier's: leaving now would strand the peers of the later
             * rounds and make the epochs disagree, so that a retry or the
             * finalize deadlocks. Finish, then report it. */
            if (rc < 0 && msg_rc == 0) {
                msg_rc = rc;
                snprintf(msg, sizeof msg, "%s", pshm_last_error());
            }
            if (rc > 0)
                spins = 0; /* messages ran: an idle stretch starts again */
            else if ((rc = ctx_wait_step(ctx, &spins)) < 0)
                return pshm_err_prefix(rc, "pshm_node_barrier");
        }
    }
    if (msg_rc < 0)
        return pshm_err(msg_rc, "pshm_node_barrier: completed, but a message failed on the "
                        "way: %s", msg);
    return 0;
}
