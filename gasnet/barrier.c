/*
 * barrier.c - GASNet's split-phase barrier with ids, over AMs.
 *
 * gasnet_barrier_notify sends (phase, id, flags) to node 0 and returns.
 * Node 0 counts a phase's arrivals and folds their ids: the phase
 * mismatches if a node gave GASNET_BARRIERFLAG_MISMATCH or two named
 * (non-anonymous) ids differ. With every node in, it sends each one the
 * result and the phase's id. The wait polls until its phase's result is
 * there; it also mismatches if its own id or flags differ from its
 * notify's (the specification's rules for gasnet_barrier_wait). A node is
 * at most one phase ahead of node 0's count (it cannot notify phase p + 1
 * before its wait of p saw node 0's result), so node 0 keeps two phases.
 */
#include "gasnetc.h"


/* arrive() runs in whichever thread polls (PAR), and in node 0's notify:
 * its fold is under this lock, its sends outside it (a send waiting for
 * room may run handlers, this one among them). */
static pthread_mutex_t fold_lock = PTHREAD_MUTEX_INITIALIZER;

enum { BAR_IDLE, BAR_NOTIFIED };

static struct {
    int state;
    unsigned phase;          /* the phase being notified or waited */
    int id, flags;           /* this node's notify */
    /* node 0: the two phases in flight, by phase parity */
    struct {
        int count;
        int named, id, mismatch;
    } fold[2];
    /* node 0: a result to send (its phase + 1; 0: none), by parity */
    atomic_uint pend_phase[2];
    int pend_id[2], pend_result[2];
    /* the results node 0 sent, by parity: done counts phases finished */
    atomic_uint done_phase[2];
    int res_id[2], res_result[2];
    /* gasnet_barrier_result */
    int last_id, last_result;
} bar;

/* Node 0 only, from a handler (or its own notify): one arrival. */
static void arrive(unsigned phase, int id, int flags)
{
    unsigned p = phase & 1u;
    pthread_mutex_lock(&fold_lock);
    if (flags & GASNET_BARRIERFLAG_MISMATCH)
        bar.fold[p].mismatch = 1;
    else if (!(flags & GASNET_BARRIERFLAG_ANONYMOUS)) {
        if (bar.fold[p].named && bar.fold[p].id != id)
            bar.fold[p].mismatch = 1;
        bar.fold[p].named = 1;
        bar.fold[p].id = id;
    }
    if (++bar.fold[p].count < gsn.n) {
        pthread_mutex_unlock(&fold_lock);
        return;
    }
    int result = bar.fold[p].mismatch ? GASNET_BARRIERFLAG_MISMATCH
               : bar.fold[p].named ? 0 : GASNET_BARRIERFLAG_ANONYMOUS;
    bar.pend_id[p] = bar.fold[p].id;
    bar.pend_result[p] = result;
    bar.fold[p].count = bar.fold[p].named = bar.fold[p].mismatch = 0;
    bar.fold[p].id = 0;
    /* release: the result is written before the phase says it is due */
    atomic_store_explicit(&bar.pend_phase[p], phase + 1u, memory_order_release);
    pthread_mutex_unlock(&fold_lock);
    gsn_bar_progress();
}

/* Node 0, outside handlers (a handler may not send a request): sends the
 * results of the phases whose last node came in. */
void gsn_bar_progress(void)
{
    if (gsn.me != 0 || gsn_in_handler)
        return;
    for (unsigned p = 0; p < 2; p++) {
        unsigned due = atomic_load_explicit(&bar.pend_phase[p], memory_order_acquire);
        if (due == 0 || !atomic_compare_exchange_strong(&bar.pend_phase[p], &due, 0u))
            continue;
        uint32_t a[3] = {due - 1u, (uint32_t)bar.pend_id[p], (uint32_t)bar.pend_result[p]};
        for (int r = 1; r < gsn.n; r++) {
            int rc = pshm_am_request_short(gsn.ctx, r, GSN_H_BAR_DONE, 0, 3, a);
            if (rc < 0)
                gsn_pshm_fail("gasnet_barrier_wait", rc);
        }
        gsn_bar_done(NULL, (gasnet_handlerarg_t)a[0], (gasnet_handlerarg_t)a[1],
                     (gasnet_handlerarg_t)a[2]);
    }
}

void gsn_bar_arrive(gasnet_token_t t, gasnet_handlerarg_t phase, gasnet_handlerarg_t id,
                    gasnet_handlerarg_t flags)
{
    (void)t;
    arrive((unsigned)phase, id, flags);
}

void gsn_bar_done(gasnet_token_t t, gasnet_handlerarg_t phase, gasnet_handlerarg_t id,
                  gasnet_handlerarg_t result)
{
    unsigned p = (unsigned)phase & 1u;
    (void)t;
    bar.res_id[p] = id;
    bar.res_result[p] = result;
    /* release: the result is written before the phase says it is there */
    atomic_store_explicit(&bar.done_phase[p], (unsigned)phase + 1u, memory_order_release);
}

void gasnet_barrier_notify(int id, int flags)
{
    gsn_need_attach("gasnet_barrier_notify");
    if (bar.state != BAR_IDLE)
        gsn_fatal("gasnet_barrier_notify", "called twice without a gasnet_barrier_wait "
                  "between (phase %u)", bar.phase);
    if (gsn_in_handler)
        gsn_fatal("gasnet_barrier_notify", "called from inside a handler");
    bar.state = BAR_NOTIFIED;
    bar.id = id;
    bar.flags = flags;
    if (gsn.me == 0) {
        arrive(bar.phase, id, flags);
    } else {
        uint32_t a[3] = {bar.phase, (uint32_t)id, (uint32_t)flags};
        int rc = pshm_am_request_short(gsn.ctx, 0, GSN_H_BAR_ARRIVE, 0, 3, a);
        if (rc < 0)
            gsn_pshm_fail("gasnet_barrier_notify", rc);
    }
}

static int phase_done(void)
{
    unsigned p = bar.phase & 1u;
    return atomic_load_explicit(&bar.done_phase[p], memory_order_acquire) == bar.phase + 1u;
}

/* The phase is over: this node's result. */
static int finish(const char *call, int id, int flags)
{
    unsigned p = bar.phase & 1u;
    int result = bar.res_result[p];
    int mism = result == GASNET_BARRIERFLAG_MISMATCH || flags != bar.flags ||
               (flags == 0 && id != bar.id) ||
               /* named here, named elsewhere with another id */
               (!(bar.flags & (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH)) &&
                result == 0 && bar.res_id[p] != bar.id);
    (void)call;
    bar.last_id = result == GASNET_BARRIERFLAG_ANONYMOUS ? bar.id : bar.res_id[p];
    bar.last_result = mism ? GASNET_BARRIERFLAG_MISMATCH : result;
    bar.state = BAR_IDLE;
    bar.phase++;
    return mism ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
}

int gasnet_barrier_wait(int id, int flags)
{
    static const char call[] = "gasnet_barrier_wait";
    gsn_need_attach(call);
    if (bar.state != BAR_NOTIFIED)
        gsn_fatal(call, "called without a gasnet_barrier_notify before it (phase %u)", bar.phase);
    if (gsn_in_handler)
        gsn_fatal(call, "called from inside a handler");
    while (!phase_done())
        gsn_wait_poll(call);
    return finish(call, id, flags);
}

int gasnet_barrier_try(int id, int flags)
{
    static const char call[] = "gasnet_barrier_try";
    gsn_need_attach(call);
    if (bar.state != BAR_NOTIFIED)
        gsn_fatal(call, "called without a gasnet_barrier_notify before it (phase %u)", bar.phase);
    if (!phase_done())
        gsn_poll(call);
    if (!phase_done())
        return GASNET_ERR_NOT_READY;
    return finish(call, id, flags);
}

int gasnet_barrier(int id, int flags)
{
    gasnet_barrier_notify(id, flags);
    return gasnet_barrier_wait(id, flags);
}

int gasnet_barrier_result(int *id)
{
    if (id != NULL)
        *id = bar.last_id;
    return bar.last_result;
}
