/*
 * init_multi.c - 1.6's multiple initialization and finalization, and
 * shmem_query_initialized, shmem_pcontrol. Three initializations (shmem_init,
 * shmem_init_thread, shmem_init): the thread level stays the first's; the
 * first two finalizes keep the library (heap, statics, PE numbers) and act
 * as shmem_barrier_all (the puts before them are seen after them); the
 * third ends it (query 0, shmem_my_pe -1). Then the library is initialized
 * again and works: puts to the heap and statics, checked element by
 * element, a fresh allocation. shmem_query_initialized is 0 before, 1
 * inside, 0 after; shmem_pcontrol returns at any level.
 * argv[1] "forget": two initializations, one finalize, return from main:
 * the exit ends the library (the job ends with 0, nothing left behind).
 */
#include "check.h"

#include <string.h>

#define NEL 16

static long sdata[NEL];

static int initialized(void)
{
    int q = -7;
    shmem_query_initialized(&q);
    return q;
}

/* CHECK, usable outside the library's lifetime too: global exit inside it
 * (an exit would finalize, collectively, from atexit), exit outside. */
#define MUST(cond, ...)                                                          \
    do {                                                                         \
        if (!(cond)) {                                                           \
            printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond);              \
            printf(__VA_ARGS__);                                                 \
            printf("\n");                                                        \
            fflush(stdout);                                                      \
            if (initialized())                                                   \
                shmem_global_exit(1);                                            \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

/* A round of puts to the right neighbour, then `sync`, then the left
 * neighbour's values checked in the heap and the statics. */
static void round_trip(long *heap, int me, int npes, int k, void (*sync)(void), const char *what)
{
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    long src[NEL];

    for (int i = 0; i < NEL; i++)
        src[i] = (long)VAL(me, i, k) * 3 + k;
    shmem_long_put(heap, src, NEL, right);
    shmem_long_put(sdata, src, NEL, right);
    sync();
    for (int i = 0; i < NEL; i++) {
        long want = (long)VAL(left, i, k) * 3 + k;
        MUST(heap[i] == want && sdata[i] == want, "PE %d: after %s: [%d] heap %ld static %ld, "
             "expected %ld", me, what, i, heap[i], sdata[i], want);
    }
}

int main(int argc, char **argv)
{
    int me, npes, provided = -1, got = -1;
    long *heap;

    MUST(initialized() == 0, "query before shmem_init: %d", initialized());
    shmem_pcontrol(0);
    shmem_pcontrol(1);
    shmem_pcontrol(3, "library defined", 42);
    if (argc > 1 && strcmp(argv[1], "forget") == 0) {
        shmem_init();
        shmem_init();
        shmem_finalize();
        MUST(initialized() == 1, "one finalize for two inits: query %d", initialized());
        if (shmem_my_pe() == 0)
            printf("init_multi: one finalize missing, left to the exit\n");
        return 0;
    }
    shmem_init();
    MUST(initialized() == 1, "query after shmem_init: %d", initialized());
    me = shmem_my_pe();
    npes = shmem_n_pes();
    MUST(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "second initialization");
    MUST(provided == SHMEM_THREAD_SINGLE, "the second initialization changed the thread level "
         "to %d (shmem_init's is SHMEM_THREAD_SINGLE)", provided);
    shmem_query_thread(&provided);
    MUST(provided == SHMEM_THREAD_SINGLE, "query_thread %d", provided);
    shmem_init();
    heap = shmem_malloc(NEL * sizeof(long));
    MUST(heap != NULL, "shmem_malloc failed");
    shmem_barrier_all();
    round_trip(heap, me, npes, 1, shmem_finalize, "the first of three finalizes");
    MUST(initialized() == 1 && shmem_my_pe() == me && shmem_n_pes() == npes,
         "after one finalize of three: query %d, PE %d of %d", initialized(), shmem_my_pe(),
         shmem_n_pes());
    shmem_barrier_all(); /* the left PE has read heap before it is written again */
    round_trip(heap, me, npes, 2, shmem_finalize, "the second of three finalizes");
    MUST(initialized() == 1, "after two finalizes of three: query %d", initialized());
    shmem_barrier_all();
    shmem_free(heap);
    shmem_finalize();
    MUST(initialized() == 0, "after the last finalize: query %d", initialized());
    MUST(shmem_my_pe() == -1 && shmem_n_pes() == -1, "after the last finalize: PE %d of %d",
         shmem_my_pe(), shmem_n_pes());
    shmem_pcontrol(2);

    /* Anew. */
    shmem_init_thread(SHMEM_THREAD_FUNNELED, &provided);
    MUST(initialized() == 1, "query after initializing again: %d", initialized());
    MUST(shmem_my_pe() == me && shmem_n_pes() == npes, "initialized again: PE %d of %d, was %d "
         "of %d", shmem_my_pe(), shmem_n_pes(), me, npes);
    /* The level may be bound by the first initialization's (under MPI,
     * the level MPI was started at). */
    MUST(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_FUNNELED,
         "initialized again at FUNNELED: provided %d", provided);
    shmem_query_thread(&got);
    MUST(got == provided, "initialized again: query_thread %d, provided %d", got, provided);
    heap = shmem_calloc(NEL, sizeof(long));
    MUST(heap != NULL, "shmem_calloc after initializing again");
    for (int i = 0; i < NEL; i++)
        MUST(heap[i] == 0, "shmem_calloc after initializing again: [%d] = %ld", i, heap[i]);
    shmem_barrier_all(); /* checked everywhere before the puts */
    round_trip(heap, me, npes, 3, shmem_barrier_all, "initializing again");
    shmem_free(heap);
    shmem_finalize();
    MUST(initialized() == 0, "after the second last finalize: query %d", initialized());
    if (me == 0)
        printf("init_multi: 3 initializations, 3 finalizes (2 of them barriers), then again, on "
               "%d PEs\n", npes);
    return 0;
}
