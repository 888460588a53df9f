/*
 * net_amo.c - atomics on a PE of another supernode: shipped to the target,
 * which applies them with the CPU atomic a PE of its own supernode uses.
 *
 * Why not MPI's atomics: MPI does not promise that MPI_Fetch_and_op and a
 * CPU's atomic instructions on the same memory are atomic with respect to
 * each other (a NIC's are not), and the target's own PE and its supernode
 * peers update the same words with CPU atomics. Executing every atomic in
 * the target's supernode with the same instruction makes them all atomic
 * with respect to each other, whichever path they came by (GASNet-EX's
 * AM-based atomics, Open MPI's osc/pt2pt do the same).
 *
 * The protocol, on a communicator of its own (a duplicate of the world):
 *   request  PE -> target, tag REQ: shm_amreq_t (32 bytes).
 *   reply    target -> PE, tag REPLY + id, id the asking thread's
 *            (net_reply.c): the old value (8 bytes), for a
 *            fetching operation and for NOP, which quiet sends to every
 *            target that got non-fetching ones since the last quiet: MPI
 *            keeps the order of messages between two processes on one
 *            communicator and tag, and the target serves in arrival order,
 *            so NOP's answer means all of them were applied.
 * The request goes with a blocking MPI_Send (32 bytes, eager: it returns
 * once copied out, through the point-to-point layer's fast path that makes
 * no request object); the requester starts the reply's persistent receive
 * right after (an 8-byte reply is sent eagerly: the target never waits on
 * the requester). Every MPI call is made holding the MPI lock (net.h). The
 * target serves whenever it makes progress (every wait of the layer,
 * shm_net_waitall, shm_progress) and from the progress thread; a wait
 * tests its own requests and the receive of requests by turns (wait_turn).
 */
#include "shmem_internal.h"

#if PSHMEM_HAVE_MPI
#include "amo_apply.h"
#include "net.h"

#include <sched.h>
#include <stdlib.h>

enum { TAG_REQ = SHM_AMO_TAG_REQ, TAG_REPLY = SHM_AMO_TAG_REPLY };

/* Travels as MPI_BYTE between processes of one executable and byte order
 * (pshm compares the byte order at init). */
typedef struct shm_amreq {
    uint64_t val, cond;     /* operands, in the low `size` bytes */
    uint64_t off;           /* offset of the object in the area */
    uint32_t id;            /* the reply's tag is TAG_REPLY + id */
    uint8_t op, size, area, reply;
} shm_amreq_t;
_Static_assert(sizeof(shm_amreq_t) == 32, "the request is 32 bytes");

static MPI_Comm amo_comm = MPI_COMM_NULL;
/* The receive of requests, persistent: restarted after each one. */
static MPI_Request rreq = MPI_REQUEST_NULL;
static shm_amreq_t rbuf;
static int serving;
/* Targets sent non-fetching atomics since the last quiet. */
static unsigned char *dirty;
static int ndirty;

static void start_recv(void)
{
    int mrc = MPI_Start(&rreq);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("progress", "MPI_Start", mrc);
}

void shm_amo_init(void)
{
    int mrc = MPI_Comm_dup(shm_comm, &amo_comm);

    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("shmem_init", "MPI_Comm_dup", mrc);
    MPI_Comm_set_errhandler(amo_comm, MPI_ERRORS_RETURN);
    dirty = calloc((size_t)shm.npes, 1);
    if (dirty == NULL)
        shm_fatal("shmem_init", "out of memory for %d PEs", shm.npes);
    ndirty = 0;
    mrc = MPI_Recv_init(&rbuf, sizeof rbuf, MPI_BYTE, MPI_ANY_SOURCE, TAG_REQ, amo_comm, &rreq);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("shmem_init", "MPI_Recv_init", mrc);
    start_recv();
    __atomic_store_n(&serving, 1, __ATOMIC_RELEASE);
}

void shm_amo_fini(void)
{
    shm_mpi_enter();
    __atomic_store_n(&serving, 0, __ATOMIC_RELEASE);
    /* Nothing is in flight after the final barrier: the receive is
     * cancelled, and a cancelled receive completes at once. */
    MPI_Cancel(&rreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
    MPI_Request_free(&rreq);
    shm_reply_fini();
    shm_mpi_leave();
    MPI_Comm_free(&amo_comm);
    free(dirty);
    dirty = NULL;
}

static uint64_t apply(const shm_amreq_t *q, int src)
{
    char *p;

    /* The sender checked its address against its own copy; a request that
     * does not fit here means a broken job, never a write out of bounds. */
    if (q->op >= SHM_AOP_COUNT || q->area >= SHM_NAREAS || (q->size != 4 && q->size != 8) ||
        q->off > shm_sym.size[q->area] || q->size > shm_sym.size[q->area] - q->off ||
        q->off % q->size != 0)
        shm_fatal("progress", "PE %d sent a malformed atomic request (op %u, area %u, %u "
                  "bytes at offset %llu)", src, q->op, q->area, q->size,
                  (unsigned long long)q->off);
    if (q->op == SHM_AOP_NOP)
        return 0;
    p = (char *)shm_sym.mine[q->area] + q->off;
    return shm_amo_apply(p, q->size, q->op, q->val, q->cond);
}

/* The request in rbuf, from src, has arrived (the MPI lock held: one
 * server at a time, requests applied in arrival order): applied
 * and answered first, the receive restarted after, so that the requester
 * waits for no more than the atomic and one send (a request arriving
 * meanwhile waits in MPI's unexpected queue: rbuf is only read here). */
static void serve_one(int src)
{
    uint64_t old = apply(&rbuf, src);
    int mrc;

    if (rbuf.reply) {
        mrc = MPI_Send(&old, sizeof old, MPI_BYTE, src, TAG_REPLY + (int)rbuf.id, amo_comm);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("progress", "MPI_Send", mrc);
    }
    start_recv();
}

/* At most this many requests per call: a flood from others does not keep
 * a PE from its own work. */
#define SERVE_BATCH 64

void shm_net_serve(void)
{
    if (!__atomic_load_n(&serving, __ATOMIC_ACQUIRE) || !shm_mpi_try())
        return;
    for (int i = 0; i < SERVE_BATCH && serving; i++) {
        MPI_Status st;
        int done = 0, mrc = MPI_Test(&rreq, &done, &st);

        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("progress", "MPI_Test", mrc);
        if (!done)
            break;
        serve_one(st.MPI_SOURCE);
    }
    shm_mpi_leave();
}

/* One turn of a wait: up to TURN_TESTS engine runs over the caller's
 * requests and the receive of requests, what arrived served, the lock
 * taken once for them all. Returns 1 when the caller's requests are all
 * complete; a completed one comes back MPI_REQUEST_NULL (a persistent one
 * stays allocated, inactive: its owner keeps it).
 *
 * One request (an atomic's answer, a barrier): MPI_Test of the receive of
 * requests and MPI_Test of it, in turn. Open MPI's MPI_Test looks at its
 * request again after driving the engine, so the call whose engine run
 * brings a message returns it: an answer, or a request to serve, is seen
 * by that call, and the other request, tested next, costs a look without
 * an engine run. (MPI_Testsome of both drives the engine only when nothing
 * is complete and returns without looking again: each message cost one
 * more call.)
 *
 * Up to WAIT_MAX requests: one MPI_Testsome of them and the receive of
 * requests (turn[0]) per engine run, back to back; more are tested apart
 * (the collectives' large exchanges: a turn is short beside their
 * messages). */
#define WAIT_MAX 4
#define TURN_TESTS 8

static MPI_Request turn[WAIT_MAX + 1];

static int wait_one(MPI_Request *req)
{
    MPI_Status st;
    int done = 0, got, mrc;

    /* The receive of requests first: every wait looks at it, so a PE whose
     * answers come at once still serves the requests sent to it (testing
     * the answer first saves a call then, ~60 instructions, and leaves
     * them to the progress thread, which finds the lock taken). When PEs
     * outnumber CPUs the caller yields after every pair. */
    for (int t = shm.crowded ? TURN_TESTS - 2 : 0; t < TURN_TESTS && !done; t += 2) {
        mrc = MPI_Test(&rreq, &got, &st);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("wait", "MPI_Test", mrc);
        if (got)
            serve_one(st.MPI_SOURCE);
        mrc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("wait", "MPI_Test", mrc);
    }
    if (done)
        *req = MPI_REQUEST_NULL;
    return done;
}

static int wait_some(int n, MPI_Request *reqs)
{
    MPI_Status st[WAIT_MAX + 1];
    int idx[WAIT_MAX + 1], cnt = 0, mrc, done;

    turn[0] = rreq;
    for (int i = 0; i < n; i++)
        turn[i + 1] = reqs[i];
    /* When PEs outnumber CPUs the caller yields after every call. */
    for (int t = shm.crowded ? TURN_TESTS - 1 : 0; t < TURN_TESTS && cnt == 0; t++) {
        mrc = MPI_Testsome(n + 1, turn, &cnt, idx, st);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("wait", "MPI_Testsome", mrc);
    }
    for (int k = 0; k < cnt && cnt != MPI_UNDEFINED; k++)
        if (idx[k] > 0)
            turn[idx[k]] = MPI_REQUEST_NULL;
    done = 1;
    for (int i = 0; i < n; i++) {
        reqs[i] = turn[i + 1];
        done &= reqs[i] == MPI_REQUEST_NULL;
    }
    for (int k = 0; k < cnt && cnt != MPI_UNDEFINED; k++)
        if (idx[k] == 0)
            serve_one(st[k].MPI_SOURCE);
    return done;
}

static int wait_turn(int n, MPI_Request *reqs)
{
    int mrc, done = 0;

    shm_mpi_enter();
    if (SHM_UNLIKELY(n > WAIT_MAX || !serving)) {
        mrc = MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE);
        shm_mpi_leave();
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("wait", "MPI_Testall", mrc);
        if (!done)
            shm_net_serve();
        return done;
    }
    done = n == 1 ? wait_one(reqs) : wait_some(n, reqs);
    shm_mpi_leave();
    return done;
}

/* pshm (peer deaths) is polled every so many turns only, or at every turn
 * when PEs outnumber CPUs (a turn then includes a yield and lasts long). */
#define WAIT_POLL_EVERY 8

void shm_net_waitall(int n, MPI_Request *reqs)
{
    for (unsigned i = 1;; i++) {
        if (wait_turn(n, reqs))
            return;
        if (shm.crowded || i % WAIT_POLL_EVERY == 0)
            shm_poll();
        if (shm.crowded)
            sched_yield();
    }
}

uint64_t shm_net_amo(const void *sym, int pe, int op, size_t size, uint64_t val, uint64_t cond,
                     int fetching)
{
    shm_amreq_t q = {.val = val, .cond = cond, .op = (uint8_t)op, .size = (uint8_t)size,
                     .reply = (uint8_t)(fetching != 0)};
    MPI_Request r = MPI_REQUEST_NULL;
    shm_reply_t *s = NULL;
    size_t off;
    int mrc;

    q.area = (uint8_t)shm_net_area("atomic", sym, size, &off);
    q.off = off;
    if (fetching) {
        s = shm_reply_take();
        q.id = (uint32_t)s->id;
    }
    /* The request leaves first; the reply's receive is posted while it
     * travels: under the lock no thread of this process drives MPI's
     * engine before the receive is posted, so the answer never waits in
     * MPI's unexpected queue. */
    shm_mpi_enter();
    mrc = MPI_Send(&q, sizeof q, MPI_BYTE, pe, TAG_REQ, amo_comm);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("atomic", "MPI_Send", mrc);
    if (fetching)
        r = shm_reply_post(s, pe, amo_comm);
    shm_mpi_leave();
    if (fetching) {
        shm_net_waitall(1, &r);
        return s->val;
    }
    if (__atomic_exchange_n(&dirty[pe], 1, __ATOMIC_RELAXED) == 0)
        __atomic_fetch_add(&ndirty, 1, __ATOMIC_RELAXED);
    shm_net_mark(SHM_NET_AMO);
    return 0;
}

void (*shm_quiet_hook)(int phase);

/* Quiet's slow path runs one thread at a time (a lock word: a pthread
 * mutex's lock and unlock cost ~130 instructions in every quiet). */
static int quiet_lock;

void shm_net_quiet(void)
{
    int what;

    shm_word_lock(&quiet_lock);
    /* The marks taken whole, SHM_NET_BUSY left in their place until the
     * operations they stand for are complete: meanwhile another thread's
     * quiet, which may have been ordered after some of them, sees a word
     * that is not 0 and waits here for this one to end, instead of taking
     * the empty marks for "all complete" and returning early. A mark set
     * meanwhile belongs to the next quiet (its operation came after this
     * one took the marks); the release of the final and publishes the
     * completion to a quiet that then reads 0 on its fast path. */
    what = __atomic_exchange_n(&shm_net_pending, SHM_NET_BUSY, __ATOMIC_ACQ_REL);
    if (shm_quiet_hook)
        shm_quiet_hook(0);
    if (what & SHM_NET_RMA)
        shm_net_rma_quiet();
    for (int pe = 0; __atomic_load_n(&ndirty, __ATOMIC_RELAXED) > 0 && pe < shm.npes; pe++) {
        if (__atomic_exchange_n(&dirty[pe], 0, __ATOMIC_RELAXED) == 0)
            continue;
        __atomic_fetch_sub(&ndirty, 1, __ATOMIC_RELAXED);
        shm_net_amo(shm_scratch, pe, SHM_AOP_NOP, 8, 0, 0, 1);
    }
    if (shm_quiet_hook)
        shm_quiet_hook(1);
    __atomic_fetch_and(&shm_net_pending, ~SHM_NET_BUSY, __ATOMIC_RELEASE);
    shm_word_unlock(&quiet_lock);
}

/* Quiet toward pe alone: its puts and gets flushed, and if it got
 * non-fetching atomics since the last quiet, NOP's answer waited for (see
 * above). Under the quiet lock: a quiet of another thread that finds
 * dirty[pe] already cleared here waits for this NOP's answer instead of
 * returning before it. The marks stay: a later quiet may do again what
 * was done here, never less. */
void shm_net_quiet_pe(int pe)
{
    shm_word_lock(&quiet_lock);
    shm_net_flush_pe(pe);
    if (__atomic_exchange_n(&dirty[pe], 0, __ATOMIC_RELAXED) != 0) {
        __atomic_fetch_sub(&ndirty, 1, __ATOMIC_RELAXED);
        shm_net_amo(shm_scratch, pe, SHM_AOP_NOP, 8, 0, 0, 1);
    }
    shm_word_unlock(&quiet_lock);
}
#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
