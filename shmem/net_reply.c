/*
 * net_reply.c - where a thread's shipped atomics get their answers.
 *
 * A thread has at most one fetching atomic (or quiet's NOP) in flight: it
 * waits for the answer before it returns. So each thread that ships one
 * takes a slot of its own, whose id makes the answers' tag (TAG_REPLY +
 * id): no thread's receive matches another's answer, and any message
 * with its tag from the target is the answer it waits for. A slot keeps
 * persistent receives (MPI_Recv_init) of its answers, one per target in a
 * small table indexed by PE: restarting one (MPI_Start) costs less than
 * an MPI_Irecv, and completing it frees nothing. A target whose line of
 * the table holds another PE is answered into an MPI_Irecv of its own.
 * The receives name their source: Open MPI's
 * MPI_ANY_SOURCE receive looks at every process's queue when posted.
 *
 * A thread that ends gives its slot back (a pthread key's destructor),
 * receives and all, for the next thread that ships an atomic: the ids in
 * use stay as few as the threads that live at once. The slots go at
 * shmem_finalize; a slot whose thread outlives it is freed by that
 * thread's destructor, or when the thread takes a slot of a later init.
 */
#include "shmem_internal.h"

#if PSHMEM_HAVE_MPI
#include "net.h"

#include <pthread.h>
#include <stdlib.h>

int shm_reply_lines = 64;   /* the most lines of a slot's table */

static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t slot_key;
static int key_ok;
static shm_reply_t *all_slots, *free_slots;
static int nslots;
static unsigned slot_gen = 1;   /* bumped at every finalize */
static _Thread_local shm_reply_t *my_slot __attribute__((tls_model("initial-exec")));

/* The thread ends (slot_lock orders it against finalize). */
static void slot_release(void *p)
{
    shm_reply_t *s = p;

    pthread_mutex_lock(&slot_lock);
    if (s->gen == slot_gen) {
        s->owned = 0;
        s->next_free = free_slots;
        free_slots = s;
    } else {
        free(s);        /* finalize left it to its thread */
    }
    pthread_mutex_unlock(&slot_lock);
}

static void make_key(void)
{
    key_ok = pthread_key_create(&slot_key, slot_release) == 0;
}

static shm_reply_t *slot_new(void)
{
    shm_reply_t *s;
    int nlines = 1;

    /* A power of 2: the line of a PE is a mask away. */
    while (nlines < shm.npes && nlines * 2 <= shm_reply_lines)
        nlines *= 2;
    if (nslots >= SHM_AMO_REPLY_IDS)
        return NULL;
    s = malloc(sizeof *s + (size_t)nlines * sizeof s->line[0]);
    if (s == NULL)
        return NULL;
    s->id = nslots++;
    s->nlines = nlines;
    for (int i = 0; i < nlines; i++) {
        s->line[i].pe = -1;
        s->line[i].recv = MPI_REQUEST_NULL;
    }
    s->next = all_slots;
    all_slots = s;
    return s;
}

/* A slot for this thread: a free one, or a new one. */
static __attribute__((noinline, cold)) shm_reply_t *take_slow(void)
{
    shm_reply_t *s;
    int full;

    pthread_once(&key_once, make_key);
    pthread_mutex_lock(&slot_lock);
    if (my_slot != NULL)    /* of an earlier init, left to this thread */
        free(my_slot);
    s = free_slots;
    if (s != NULL)
        free_slots = s->next_free;
    else
        s = slot_new();
    if (s != NULL) {
        s->gen = slot_gen;
        s->owned = 1;
    }
    full = nslots >= SHM_AMO_REPLY_IDS;
    pthread_mutex_unlock(&slot_lock);
    my_slot = s;
    if (s == NULL && full)
        shm_fatal("atomic", "more than %d threads at once ship atomics to PEs of other "
                  "supernodes, the most the layer tells apart: use fewer threads",
                  SHM_AMO_REPLY_IDS);
    if (s == NULL)
        shm_fatal("atomic", "out of memory for a thread's receives of atomics' answers");
    if (key_ok)
        pthread_setspecific(slot_key, s);
    return s;
}

shm_reply_t *shm_reply_take(void)
{
    shm_reply_t *s = my_slot;

    /* Relaxed: finalize, which bumps it, runs while no thread ships atomics. */
    if (SHM_LIKELY(s != NULL && s->gen == __atomic_load_n(&slot_gen, __ATOMIC_RELAXED)))
        return s;
    return take_slow();
}

/* The line of pe is another PE's, or nobody's yet. */
static __attribute__((noinline, cold)) MPI_Request post_slow(shm_reply_t *s, int pe,
                                                              MPI_Comm comm)
{
    shm_reply_line_t *l = &s->line[pe & (s->nlines - 1)];
    MPI_Request r = MPI_REQUEST_NULL;
    int mrc, tag = SHM_AMO_TAG_REPLY + s->id;

    if (l->pe >= 0) {
        mrc = MPI_Irecv(&s->val, sizeof s->val, MPI_BYTE, pe, tag, comm, &r);
        if (mrc != MPI_SUCCESS)
            shm_mpi_fail("atomic", "MPI_Irecv", mrc);
        return r;
    }
    mrc = MPI_Recv_init(&s->val, sizeof s->val, MPI_BYTE, pe, tag, comm, &l->recv);
    if (mrc != MPI_SUCCESS)
        shm_mpi_fail("atomic", "MPI_Recv_init", mrc);
    l->pe = pe;
    return shm_reply_post(s, pe, comm);
}

MPI_Request shm_reply_post(shm_reply_t *s, int pe, MPI_Comm comm)
{
    shm_reply_line_t *l = &s->line[pe & (s->nlines - 1)];
    int mrc;

    if (SHM_UNLIKELY(l->pe != pe))
        return post_slow(s, pe, comm);
    mrc = MPI_Start(&l->recv);
    if (SHM_UNLIKELY(mrc != MPI_SUCCESS))
        shm_mpi_fail("atomic", "MPI_Start", mrc);
    return l->recv;
}

/* Nothing is in flight (after the final barrier): every receive is
 * inactive, and freeing it ends it at once. */
void shm_reply_fini(void)
{
    shm_reply_t *s, *next;

    pthread_mutex_lock(&slot_lock);
    for (s = all_slots; s != NULL; s = next) {
        next = s->next;
        for (int i = 0; i < s->nlines; i++)
            if (s->line[i].pe >= 0)
                MPI_Request_free(&s->line[i].recv);
        if (s == my_slot || !s->owned) {
            if (s == my_slot && key_ok)
                pthread_setspecific(slot_key, NULL);
            free(s);
        }
    }
    my_slot = NULL;
    all_slots = free_slots = NULL;
    nslots = 0;
    __atomic_store_n(&slot_gen, slot_gen + 1, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&slot_lock);
}
#else
typedef int shm_net_none; /* ISO C wants a declaration in every file */
#endif /* PSHMEM_HAVE_MPI */
