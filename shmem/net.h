/*
 * net.h - what the files of the MPI side (net*.c) share: the windows, the
 * atomics' service, the progress thread. Included only when PSHMEM_HAVE_MPI.
 */
#ifndef PSHMEM_NET_H
#define PSHMEM_NET_H

#include "shmem_internal.h"


/* One window per symmetric area, over my own copy: displacement unit 1, a
 * target's displacement is the offset in the area (the same in every PE).
 * Passive target, MPI_Win_lock_all once at init. */
extern MPI_Win shm_win[SHM_NAREAS] SHM_HIDDEN;
/* Marks shm_net_pending (a relaxed or: quiet reads it with a plain load). */
static inline void shm_net_mark(int what)
{
    if ((__atomic_load_n(&shm_net_pending, __ATOMIC_RELAXED) & what) == 0)
        __atomic_fetch_or(&shm_net_pending, what, __ATOMIC_RELAXED);
}

/* Every MPI call the layer makes after MPI_Init_thread is made holding
 * the MPI lock (shm_mpi_enter .. shm_mpi_leave), whichever thread makes
 * it: the progress thread, the program's threads. So a layer that
 * initialized MPI asks for no more than MPI_THREAD_SERIALIZED. No call
 * made under it waits for this process's own progress: the blocking ones
 * (MPI_Win_flush, an eager MPI_Send, the collectives of init and finalize)
 * drive MPI's engine themselves.
 *
 * The lock is a word taken by an atomic exchange (a wait turn takes it
 * once: a pthread mutex's lock and unlock cost ~60 instructions, this
 * ~5); a thread that finds it taken spins, then yields (shm_word_wait).
 * shm_mpi_mine says whether this thread holds it (a fatal error inside a
 * call aborts at once; another thread waits its turn). */
extern int shm_mpi_locked SHM_HIDDEN;
extern _Thread_local int shm_mpi_mine SHM_HIDDEN __attribute__((tls_model("initial-exec")));

/* Such a lock word: 0 free, 1 taken. The exchange's acquire pairs with the
 * release of the unlock: what the last holder did is seen by the next.
 * shm_word_wait returns once the word looks free. */
void shm_word_wait(int *word) SHM_HIDDEN;

static inline int shm_word_try(int *word)
{
    return __atomic_exchange_n(word, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void shm_word_lock(int *word)
{
    while (!shm_word_try(word))
        shm_word_wait(word);
}

static inline void shm_word_unlock(int *word)
{
    __atomic_store_n(word, 0, __ATOMIC_RELEASE);
}

/* The MPI lock if it is free (the progress thread: another thread in MPI
 * drives MPI's engine already); 1 when taken. */
static inline int shm_mpi_try(void)
{
    if (!shm_word_try(&shm_mpi_locked))
        return 0;
    shm_mpi_mine = 1;
    return 1;
}

static inline void shm_mpi_enter(void)
{
    shm_word_lock(&shm_mpi_locked);
    shm_mpi_mine = 1;
}

static inline void shm_mpi_leave(void)
{
    shm_mpi_mine = 0;
    shm_word_unlock(&shm_mpi_locked);
}

/* Test hook: when set, quiet's slow path calls it with 0 once it has
 * taken the marks and with 1 once their operations are complete (a test
 * stalls there to widen the window another thread's quiet may meet). */
extern void (*shm_quiet_hook)(int phase) SHM_HIDDEN;

/* net_rma.c: init forgets every window's operations (a new epoch); quiet
 * completes every put and get issued through the windows. */
void shm_net_rma_init(void) SHM_HIDDEN;
void shm_net_rma_quiet(void) SHM_HIDDEN;

/* net_amo.c: the atomics' own communicator, the posted receive. */
void shm_amo_init(void) SHM_HIDDEN;
void shm_amo_fini(void) SHM_HIDDEN;
/* The tags of shipped atomics on their communicator (net_amo.c): requests
 * SHM_AMO_TAG_REQ, answers SHM_AMO_TAG_REPLY + the id of the asking
 * thread's slot (net_reply.c), fewer than SHM_AMO_REPLY_IDS: the tags stay
 * within the 32767 every MPI allows. */
enum { SHM_AMO_TAG_REQ = 0, SHM_AMO_TAG_REPLY = 1, SHM_AMO_REPLY_IDS = 16384 };

/* A thread's answers (net_reply.c): a persistent receive per target in
 * line[pe & (nlines - 1)], the lines (a power of 2) taken by their first
 * PE. */
typedef struct shm_reply_line {
    int pe;                     /* whose answers recv takes; -1: none yet */
    MPI_Request recv;           /* persistent, inactive between atomics */
} shm_reply_line_t;

typedef struct shm_reply {
    uint64_t val;               /* every receive of the slot lands here */
    int id;                     /* the answers' tag is SHM_AMO_TAG_REPLY + id */
    unsigned gen;               /* the init that made it */
    int owned;                  /* a thread holds it */
    int nlines;
    struct shm_reply *next;     /* all slots of this init */
    struct shm_reply *next_free;
    shm_reply_line_t line[];
} shm_reply_t;

/* The calling thread's slot, taken at its first atomic that waits for an
 * answer (the job ends if SHM_AMO_REPLY_IDS threads hold one already). */
shm_reply_t *shm_reply_take(void) SHM_HIDDEN;
/* Posts the receive of s's answer from pe (the MPI lock held) and returns
 * the request to wait for: the answer is in s->val once it completes. A
 * persistent receive stays the slot's (shm_net_waitall hands back
 * MPI_REQUEST_NULL for it). */
MPI_Request shm_reply_post(shm_reply_t *s, int pe, MPI_Comm comm) SHM_HIDDEN;
/* At finalize, nothing in flight: frees the receives and the slots. */
void shm_reply_fini(void) SHM_HIDDEN;
/* The most lines of a slot's table (64, a power of 2). Test hook: a test
 * sets it lower before its first shipped atomic, so that PEs share a line. */
extern int shm_reply_lines SHM_HIDDEN;

/* net_thread.c: the progress thread (SHMEM_PROGRESS_INTERVAL). */
void shm_thread_start(int mpi_level) SHM_HIDDEN;
void shm_thread_stop(void) SHM_HIDDEN;

/* MPI shared with a program that uses it too (net_hybrid.c): the layer's
 * MPI_Init_thread, and its end of MPI at shmem_finalize. */
int shm_mpi_init(int level, int *provided) SHM_HIDDEN;
void shm_mpi_done(void) SHM_HIDDEN;
/* 1 while the MPI the layer started is the layer's alone (the program did
 * not join it): it outlives the last shmem_finalize, until exit. */
int shm_mpi_owned(void) SHM_HIDDEN;
/* The area and offset of [sym, sym + n) in my copy; the job ends, naming
 * `call`, if it is not symmetric (a single element's last byte past the
 * area's end, which the fast path's one-byte check lets through). */
int shm_net_area(const char *call, const void *sym, size_t n, size_t *off) SHM_HIDDEN;
/* Ends the job, naming the MPI call that failed and MPI's words for it. */
_Noreturn void shm_mpi_fail(const char *call, const char *mpi_call, int mrc) SHM_HIDDEN;

#endif /* PSHMEM_NET_H */
