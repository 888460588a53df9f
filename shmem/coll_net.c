/*
 * coll_net.c - the collectives' messages between supernodes: MPI point to
 * point among one leader per supernode of a set.
 *
 * The messages travel on a private duplicate of shm_comm, so that they never
 * match the layer's other traffic or the program's own. No communicator is
 * made per set: a set's leaders talk point to point, and a message's tag is
 * (the set's sequence number, the step within the collective). Two leaders
 * that exchange messages for two sets are members of both, so they enter
 * those collectives in the same order; MPI keeps the order of the messages
 * of one pair and tag, and the sequence keeps a late message of an earlier
 * call from meeting a receive of a later one with the same step.
 *
 * Every MPI call is made holding the MPI lock (net.h); every wait goes
 * through shm_net_waitall: it serves other PEs' atomics and
 * polls this supernode meanwhile, and yields the CPU when this host runs
 * more PEs than it has CPUs; a PE that dies elsewhere ends the job through
 * MPI.
 */
#include "coll.h"
#include "team.h"

/* shmem_init's and shmem_finalize's hooks (weak references there). They
 * live here because every collective uses this file: a statically linked
 * program gets them with whichever collective it calls first, and so sets
 * up what that one needs. */
void shm_coll_init(void)
{
    if (shm.multi)
        coll_net_init();
    coll_bar_init();
    coll_sync_init();
    team_init();
}

void shm_coll_fini(void)
{
    team_fini();
    coll_bar_fini();
    coll_sync_fini();
    coll_span_fini();
    if (shm.multi)
        coll_net_fini();
}

#if PSHMEM_HAVE_MPI

#include "net.h"

#include <stdlib.h>

int *coll_node_id;

static MPI_Comm net_comm = MPI_COMM_NULL;     /* the messages of the sets' leaders */
static MPI_Comm leaders_comm = MPI_COMM_NULL; /* one rank per supernode (barrier_all) */
static unsigned seq_mask;                     /* the sequence bits a tag has room for */

static struct {
    MPI_Request *r;
    int n, cap;
} reqs;

#define NET_CHECK(call, what, expr)                                             \
    do {                                                                        \
        int rc_ = (expr);                                                       \
        if (rc_ != MPI_SUCCESS)                                                 \
            shm_mpi_fail(call, what, rc_);                                      \
    } while (0)

void coll_net_init(void)
{
    static const char call[] = "shmem_init";
    int id = shm.node_leader, flag = 0, *ub = NULL;
    long tag_ub;

    coll_node_id = calloc((size_t)shm.npes, sizeof(int));
    if (coll_node_id == NULL)
        shm_fatal(call, "out of memory for the supernode table of %d PEs", shm.npes);
    /* The progress thread may run already. Collectives, blocking: every
     * PE is here, none sends it atomics before init's final barrier. */
    shm_mpi_enter();
    NET_CHECK(call, "MPI_Comm_dup", MPI_Comm_dup(shm_comm, &net_comm));
    NET_CHECK(call, "MPI_Comm_set_errhandler",
              MPI_Comm_set_errhandler(net_comm, MPI_ERRORS_RETURN));
    /* A supernode is named by its lowest PE, which is also its leader. */
    NET_CHECK(call, "MPI_Allgather",
              MPI_Allgather(&id, 1, MPI_INT, coll_node_id, 1, MPI_INT, net_comm));
    NET_CHECK(call, "MPI_Comm_split",
              MPI_Comm_split(net_comm, id == shm.me ? 0 : MPI_UNDEFINED, shm.me, &leaders_comm));
    /* MPI keeps the tag bound on MPI_COMM_WORLD. */
    NET_CHECK(call, "MPI_Comm_get_attr",
              MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
    shm_mpi_leave();
    tag_ub = flag && ub != NULL ? *ub : 32767; /* the least the standard allows */
    seq_mask = 1;
    while (((long)seq_mask * 2 + 1) * COLL_STEPS + COLL_STEPS - 1 <= tag_ub && seq_mask < (1u << 24))
        seq_mask = seq_mask * 2 + 1;
}

void coll_net_fini(void)
{
    shm_mpi_enter();
    if (leaders_comm != MPI_COMM_NULL)
        MPI_Comm_free(&leaders_comm);
    if (net_comm != MPI_COMM_NULL)
        MPI_Comm_free(&net_comm);
    shm_mpi_leave();
    free(reqs.r);
    reqs.r = NULL;
    reqs.n = reqs.cap = 0;
    free(coll_node_id);
    coll_node_id = NULL;
}

static int net_tag(const coll_span_t *sp, int step)
{
    return (int)((sp->seq & seq_mask) * COLL_STEPS + (unsigned)step);
}

static MPI_Request *req_next(const char *call)
{
    if (reqs.n == reqs.cap) {
        int cap = reqs.cap ? 2 * reqs.cap : 16;
        MPI_Request *r = realloc(reqs.r, (size_t)cap * sizeof *r);

        if (r == NULL)
            shm_fatal(call, "out of memory for %d MPI requests", cap);
        reqs.r = r;
        reqs.cap = cap;
    }
    return &reqs.r[reqs.n++];
}

/* A message larger than an int can count goes as several, in order. */
#define NET_CHUNK ((size_t)1 << 30)

static void post(const char *call, int is_send, void *buf, size_t n, int pe, int tag)
{
    static char none;
    char *p = n > 0 ? buf : &none;

    shm_mpi_enter();
    do {
        size_t c = n < NET_CHUNK ? n : NET_CHUNK;

        if (is_send)
            NET_CHECK(call, "MPI_Isend",
                      MPI_Isend(p, (int)c, MPI_BYTE, pe, tag, net_comm, req_next(call)));
        else
            NET_CHECK(call, "MPI_Irecv",
                      MPI_Irecv(p, (int)c, MPI_BYTE, pe, tag, net_comm, req_next(call)));
        p += c;
        n -= c;
    } while (n > 0);
    shm_mpi_leave();
}

/* Completes every posted request, serving other PEs meanwhile. */
static void net_wait(const char *call)
{
    (void)call;
    if (reqs.n > 0)
        shm_net_waitall(reqs.n, reqs.r);
    reqs.n = 0;
}

void coll_net_barrier_all(void)
{
    static const char call[] = "shmem_barrier_all";

    MPI_Request *r = req_next(call);

    shm_mpi_enter();
    NET_CHECK(call, "MPI_Ibarrier", MPI_Ibarrier(leaders_comm, r));
    shm_mpi_leave();
    net_wait(call);
}

void coll_net_sync(const char *call, coll_span_t *sp)
{
    int n = sp->nnodes, me = sp->node;

    /* Round k: hear from the leader 2^k before, tell the one 2^k after. */
    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        int tag = net_tag(sp, COLL_STEP_SYNC + k);

        post(call, 0, NULL, 0, sp->leader[(me - d + n) % n], tag);
        post(call, 1, NULL, 0, sp->leader[(me + d) % n], tag);
        net_wait(call);
    }
}

void coll_net_bcast(const char *call, coll_span_t *sp, void *buf, size_t n, int root_node,
                    int root_pe)
{
    int nn = sp->nnodes, p = (sp->node - root_node + nn) % nn, mask = 1;
    int tag = net_tag(sp, COLL_STEP_BCAST);

    /* Position p in the tree counts from the root's supernode; p's parent
     * is p less its lowest set bit, its children p + 2^j below that bit. */
#define REP(q) ((q) == 0 ? root_pe : sp->leader[((q) + root_node) % nn])
    for (; mask < nn; mask <<= 1) {
        if (p & mask) {
            post(call, 0, buf, n, REP(p - mask), tag);
            net_wait(call);
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (p + mask < nn)
            post(call, 1, buf, n, REP(p + mask), tag);
#undef REP
    net_wait(call);
}

void coll_net_exchange(const char *call, coll_span_t *sp, int step, void *const *send,
                       const size_t *slen, void *const *recv, const size_t *rlen)
{
    int nn = sp->nnodes, tag = net_tag(sp, step);

    /* Each leader starts with the supernode after its own: the sends spread. */
    for (int k = 1; k < nn; k++) {
        int g = (sp->node + k) % nn;

        post(call, 0, recv[g], rlen[g], sp->leader[g], tag);
    }
    for (int k = 1; k < nn; k++) {
        int g = (sp->node + k) % nn;

        post(call, 1, send[g], slen[g], sp->leader[g], tag);
    }
    net_wait(call);
}

#else /* !PSHMEM_HAVE_MPI: a job is one supernode, and none of this is reached. */

int *coll_node_id;

static _Noreturn void net_none(const char *call)
{
    shm_fatal(call, "this library was built without MPI: a job must be one supernode");
}

void coll_net_init(void) { net_none("shmem_init"); }
void coll_net_fini(void) {}
void coll_net_barrier_all(void) { net_none("shmem_barrier_all"); }
void coll_net_sync(const char *call, coll_span_t *sp) { (void)sp; net_none(call); }
void coll_net_bcast(const char *call, coll_span_t *sp, void *buf, size_t n, int root_node,
                    int root_pe)
{
    (void)sp, (void)buf, (void)n, (void)root_node, (void)root_pe;
    net_none(call);
}
void coll_net_exchange(const char *call, coll_span_t *sp, int step, void *const *send,
                       const size_t *slen, void *const *recv, const size_t *rlen)
{
    (void)sp, (void)step, (void)send, (void)slen, (void)recv, (void)rlen;
    net_none(call);
}

#endif
