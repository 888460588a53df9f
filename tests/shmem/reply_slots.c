/*
 * reply_slots.c - the answers of atomics shipped to another supernode
 * reach the thread that asked: every thread that ships one has its own
 * answers' tag (a slot), and a thread that ends gives its slot back, its
 * persistent receives with it, to the next one. The program counts the
 * layer's MPI_Recv_init calls (over PMPI) and the tags they name.
 *
 * Every PE: NT threads at once fetch_add ITER times on words of their own
 * at every PE of another supernode (the fetched values are exact: 0, 1,
 * ...: no thread ever took another's answer); NT persistent receives per
 * such PE, NT distinct tags. Then SEQ threads one after another, each a
 * few fetch_adds to the same PEs: they reuse the slots of the ended
 * threads, no MPI_Recv_init more (a slot per thread that ever lived would
 * make SEQ more receives, and at 16384 threads end the job).
 *
 * With the argument "one-line" the slots' tables have one line (the
 * layer's test hook shm_reply_lines): a thread's first PE takes it, the
 * answers of the others come into an MPI_Irecv each, on the same tag.
 */
#include "check.h"

#if PSHMEM_HAVE_MPI
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#define NT 4
#define ITER 200
#define SEQ 40
#define TAGS 64

static atomic_long n_init, n_irecv;
static atomic_int tags[TAGS];   /* MPI_Recv_init calls per tag (the first TAGS) */

int MPI_Recv_init(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r)
{
    atomic_fetch_add(&n_init, 1);
    if (g >= 0 && g < TAGS)
        atomic_fetch_add(&tags[g], 1);
    return PMPI_Recv_init(b, n, t, s, g, c, r);
}

int MPI_Irecv(void *b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request *r)
{
    atomic_fetch_add(&n_irecv, 1);
    return PMPI_Irecv(b, n, t, s, g, c, r);
}

extern int shm_reply_lines;

static long *words;     /* [npes * (NT + 1)]: word (src, t) of each PE */
static int me, npes;
/* The NT threads live at once from their first atomic to their last. */
static pthread_barrier_t start, end;

static void *worker(void *arg)
{
    long t = (long)arg, iter = t < NT ? ITER : 3;

    if (t >= NT)
        t = NT;         /* the sequential threads share the last word */
    else
        pthread_barrier_wait(&start);
    for (long i = 0; i < iter; i++)
        for (int pe = 0; pe < npes; pe++) {
            long *w = &words[me * (NT + 1) + t], old;
            if (test_shares_memory(pe))
                continue;
            old = shmem_long_atomic_fetch_add(w, 1, pe);
            if (t < NT)
                CHECK(old == i, "thread %ld fetched %ld from PE %d, expected %ld", t, old, pe,
                      i);
        }
    if (t < NT)
        pthread_barrier_wait(&end);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1, remote = 0, used = 0, lined;
    int one_line = argc > 1 && strcmp(argv[1], "one-line") == 0;
    pthread_t th[NT];
    long before;

    if (one_line)
        shm_reply_lines = 1;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "shmem_init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (int pe = 0; pe < npes; pe++)
        remote += !test_shares_memory(pe);
    CHECK(remote > 0 && npes <= 64, "needs PEs on other supernodes, at most 64 PEs");
    lined = one_line ? 1 : remote;  /* per thread, the PEs answered into a persistent receive */
    words = shmem_calloc((size_t)npes * (NT + 1), sizeof(long));
    CHECK(words != NULL, "shmem_calloc");
    pthread_barrier_init(&start, NULL, NT);
    pthread_barrier_init(&end, NULL, NT);
    shmem_barrier_all();
    atomic_store(&n_init, 0);   /* the receive of requests is made at init */
    atomic_store(&n_irecv, 0);
    for (int g = 0; g < TAGS; g++)
        atomic_store(&tags[g], 0);
    for (long t = 0; t < NT; t++)
        CHECK(pthread_create(&th[t], NULL, worker, (void *)t) == 0, "pthread_create");
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    for (int g = 0; g < TAGS; g++) {
        CHECK(tags[g] == 0 || tags[g] == lined, "%d persistent receives with tag %d, expected "
              "%d", tags[g], g, lined);
        used += tags[g] != 0;
    }
    CHECK(used == NT && n_init == (long)NT * lined, "%ld persistent receives on %d tags, "
          "expected %ld on %d (one tag per thread)", (long)n_init, used, (long)NT * lined, NT);
    CHECK(n_irecv == (long)NT * ITER * (remote - lined), "%ld answers into an MPI_Irecv, "
          "expected %ld", (long)n_irecv, (long)NT * ITER * (remote - lined));
    before = n_init;
    for (long s = 0; s < SEQ; s++) {
        CHECK(pthread_create(&th[0], NULL, worker, (void *)(NT + s)) == 0, "pthread_create");
        pthread_join(th[0], NULL);
    }
    CHECK(n_init == before, "%ld more persistent receives for %d threads that ran one after "
          "another, expected none (the ended threads' slots are reused)", n_init - before, SEQ);
    shmem_barrier_all();
    for (int src = 0; src < npes; src++) {
        if (test_shares_memory(src))
            continue;
        for (int t = 0; t <= NT; t++) {
            long want = t < NT ? ITER : 3L * SEQ, got = words[src * (NT + 1) + t];
            CHECK(got == want, "word (%d, %d) is %ld, expected %ld", src, t, got, want);
        }
    }
    if (me == 0)
        printf("reply_slots%s: %d threads at once on %d tags, fetched values exact; %d threads "
               "one after another reused their slots\n", one_line ? " (one line)" : "", NT,
               used, SEQ);
    shmem_finalize();
    return 0;
}
#else
int main(void)
{
    printf("reply_slots: no MPI in this build\n");
    return 77;
}
#endif
