/*
 * prof: the profiling interface (OpenSHMEM 1.6, "Profiling Interface"), a
 * tool and a program in one file, in the style of the specification's
 * pshmem_example.c. The tool defines shmem_long_put, shmem_barrier_all,
 * shmem_malloc and shmem_quiet, counts the calls and forwards each to its
 * pshmem_ name; shmem_pcontrol(3, counts) hands the counts to the program
 * (a level above 2 is the tool's to define).
 *
 *   -DPROF_TOOL_ONLY  the tool alone (an archive or an LD_PRELOAD library)
 *   -DPROF_NO_TOOL    the program alone
 *
 *   prof        the program expects the tool: every call it made itself
 *               counted once, none that the library makes inside another
 *               routine (shmem_malloc_with_hints, shmalloc, shmem_realloc
 *               call shmem_malloc; shmem_barrier_all calls shmem_quiet; the
 *               collectives synchronize), and the data of every put there
 *   prof notool the library's own shmem_pcontrol: it returns and changes
 *               nothing; the data is there all the same
 */
#include <pshmem.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_PUT, C_BARRIER, C_MALLOC, C_QUIET, C_N };

#ifndef PROF_NO_TOOL
static long counts[C_N];

void shmem_long_put(long *dest, const long *source, size_t nelems, int pe)
{
    counts[C_PUT]++;
    pshmem_long_put(dest, source, nelems, pe);
}

void shmem_barrier_all(void)
{
    counts[C_BARRIER]++;
    pshmem_barrier_all();
}

void *shmem_malloc(size_t size)
{
    counts[C_MALLOC]++;
    return pshmem_malloc(size);
}

void shmem_quiet(void)
{
    counts[C_QUIET]++;
    pshmem_quiet();
}

/* Level 3: the next argument is a long[C_N] that receives the counts. */
void shmem_pcontrol(int level, ...)
{
    if (level == 3) {
        va_list ap;
        va_start(ap, level);
        memcpy(va_arg(ap, long *), counts, sizeof counts);
        va_end(ap);
    }
    pshmem_pcontrol(level);
}
#endif

#ifndef PROF_TOOL_ONLY
#include "check.h"

enum { K = 8, M = 16 };
static long src[K * M], statics[K * M];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE], psync[SHMEM_REDUCE_SYNC_SIZE];

int main(int argc, char **argv)
{
    int tool = !(argc > 1 && strcmp(argv[1], "notool") == 0);
    long want[C_N] = {0}, got[C_N];

    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
    int left = (me + npes - 1) % npes;
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;

    long *heap = shmem_malloc(K * M * sizeof(long));
    want[C_MALLOC]++;
    /* Each of these three makes its block with shmem_malloc inside. */
    long *hinted = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE);
    long *legacy = shmalloc(64);
    long *grown = shmem_realloc(NULL, 64);
    CHECK(heap && hinted && legacy && grown, "a heap block is missing");
    /* The profiling names of the legacy routines are there too. */
    CHECK(p_my_pe() == me && p_num_pes() == npes, "p_my_pe %d p_num_pes %d", p_my_pe(), p_num_pes());

    for (int i = 0; i < K * M; i++)
        src[i] = (long)me * 100000 + i;
    shmem_barrier_all();
    want[C_BARRIER]++;

    /* K typed puts and one through the C11 generic form (shmem_long_put):
     * all counted; a put under the profiling name is not. */
    for (int k = 0; k < K; k++)
        shmem_long_put(heap + k * M, src + k * M, M, right);
    want[C_PUT] += K;
    shmem_put(statics, src, K * M / 2, right);
    want[C_PUT]++;
    pshmem_long_put(statics + K * M / 2, src + K * M / 2, K * M / 2, right);
    shmem_quiet();
    want[C_QUIET]++;
    shmem_barrier_all(); /* its own quiet is the library's: not counted */
    want[C_BARRIER]++;
    for (int i = 0; i < K * M; i++) {
        long v = (long)left * 100000 + i;
        CHECK(heap[i] == v, "heap[%d] = %ld, expected %ld", i, heap[i], v);
        CHECK(statics[i] == v, "statics[%d] = %ld, expected %ld", i, statics[i], v);
    }

    /* Collectives synchronize inside: none of it is the program's call. */
    static long sum[M];
    shmem_long_sum_to_all(sum, src, M, 0, 0, npes, pwrk, psync);
    for (int i = 0; i < M; i++) {
        long v = (long)npes * (npes - 1) / 2 * 100000 + (long)npes * i;
        CHECK(sum[i] == v, "sum[%d] = %ld, expected %ld", i, sum[i], v);
    }
    shmem_sync_all();
    pshmem_barrier_all();

    for (int i = 0; i < C_N; i++)
        got[i] = -1;
    shmem_pcontrol(3, got);
    if (tool) {
        static const char *name[C_N] = {"shmem_long_put", "shmem_barrier_all", "shmem_malloc",
                                        "shmem_quiet"};
        for (int i = 0; i < C_N; i++)
            CHECK(got[i] == want[i], "the tool counted %ld calls of %s, the program made %ld",
                  got[i], name[i], want[i]);
    } else {
        for (int i = 0; i < C_N; i++)
            CHECK(got[i] == -1, "the library's shmem_pcontrol wrote counts[%d] = %ld", i, got[i]);
    }

    shmem_free(grown);
    shfree(legacy);
    shmem_free(hinted);
    shmem_free(heap);
    if (me == 0) {
        if (tool)
            printf("prof: %d PEs: put %ld, barrier_all %ld, malloc %ld, quiet %ld: the program's "
                   "calls, each counted once; data as put\n",
                   npes, got[C_PUT], got[C_BARRIER], got[C_MALLOC], got[C_QUIET]);
        else
            printf("prof: %d PEs: no tool, shmem_pcontrol a no-op; data as put\n", npes);
    }
    shmem_finalize();
    return 0;
}
#endif
