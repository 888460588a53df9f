/*
 * quiet_threads.c - shmem_quiet from two threads toward a PE of another
 * supernode: a quiet returns only once every operation issued before it
 * is complete, even when another thread's quiet took the marks of those
 * operations and is still completing them.
 *
 * PE 0 runs two threads; PE 1 (another supernode) waits in a barrier.
 * Thread B issues an operation to PE 1 (argv[1]: "put", a put_nbi; "add",
 * a non-fetching atomic add). Thread A then calls shmem_quiet, which takes
 * the marks of what is pending and, through the layer's test hook
 * (shm_quiet_hook), stalls 300 ms before completing them. B calls
 * shmem_quiet meanwhile: when it returns, A's completion must be over.
 * PE 1 finally finds the value B's operation left. The hook exists in a
 * build over MPI only.
 */
#include "check.h"

#if PSHMEM_HAVE_MPI
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The layer's test hook (shmem/net.h): called by quiet's slow path with 0
 * once it has taken the marks, with 1 once their operations are complete. */
extern void (*shm_quiet_hook)(int phase);

enum { START, ISSUED, A_COMPLETING, A_COMPLETE };
static atomic_int stage = START;
static _Thread_local int is_a;
static long word;           /* PE 1's copy is B's target */
static int add;

static void hook(int phase)
{
    if (!is_a)
        return;
    if (phase == 0) {
        atomic_store(&stage, A_COMPLETING);
        usleep(300000);
    } else {
        atomic_store(&stage, A_COMPLETE);
    }
}

/* Waits (at most 30 s) until stage reaches s. */
static void await(int s)
{
    for (int i = 0; atomic_load(&stage) < s; i++) {
        CHECK(i < 30000, "stage %d after 30 s, expected %d", atomic_load(&stage), s);
        usleep(1000);
    }
}

static void *thread_a(void *arg)
{
    (void)arg;
    is_a = 1;
    await(ISSUED);
    shmem_quiet();
    return NULL;
}

static void *thread_b(void *arg)
{
    long v = 4242;
    int seen;

    (void)arg;
    if (add)
        shmem_long_atomic_add(&word, v, 1);
    else
        shmem_long_put_nbi(&word, &v, 1, 1);
    atomic_store(&stage, ISSUED);
    await(A_COMPLETING);
    shmem_quiet();
    seen = atomic_load(&stage);
    CHECK(seen == A_COMPLETE, "shmem_quiet returned while another thread's quiet was still "
          "completing the %s it was ordered after (stage %d, expected %d)",
          add ? "atomic add" : "put", seen, A_COMPLETE);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;

    add = argc > 1 && strcmp(argv[1], "add") == 0;
    CHECK(argc > 1 && (add || strcmp(argv[1], "put") == 0), "usage: quiet_threads put|add");
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "shmem_init_thread");
    CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d, expected MULTIPLE", provided);
    CHECK(shmem_n_pes() == 2 && !test_shares_memory(1 - shmem_my_pe()),
          "needs 2 PEs on two supernodes");
    shm_quiet_hook = hook;
    if (shmem_my_pe() == 0) {
        pthread_t a, b;
        CHECK(pthread_create(&a, NULL, thread_a, NULL) == 0, "pthread_create");
        CHECK(pthread_create(&b, NULL, thread_b, NULL) == 0, "pthread_create");
        pthread_join(a, NULL);
        pthread_join(b, NULL);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        CHECK(word == 4242, "PE 1 holds %ld after the %s, expected 4242", word, argv[1]);
    if (shmem_my_pe() == 0)
        printf("quiet_threads: %s: the second quiet returned after the first completed\n",
               argv[1]);
    shmem_finalize();
    return 0;
}
#else
int main(void)
{
    printf("quiet_threads: no MPI in this build\n");
    return 77;
}
#endif
