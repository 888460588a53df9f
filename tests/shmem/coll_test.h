/*
 * coll_test.h - what the collective and lock test programs share: the active
 * sets they cover and a failure counter. Every PE runs the same list, so all
 * agree on the order of the collectives.
 */
#ifndef COLL_TEST_H
#define COLL_TEST_H

#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>

static int ct_failures;

#define CT_CHECK(cond, ...)                                                      \
    do {                                                                         \
        if (!(cond)) {                                                           \
            if (ct_failures++ < 20) {                                            \
                printf("FAIL: PE %d: %s:%d: ", shmem_my_pe(), __FILE__, __LINE__); \
                printf(__VA_ARGS__);                                             \
                printf("\n");                                                    \
            }                                                                    \
        }                                                                        \
    } while (0)

typedef struct ct_set {
    int start, log, size;
} ct_set_t;

#define CT_MAX_SETS 32

/* Sets with strides 1, 2 and 4, starting at PEs 0 to last_start, of as
 * many PEs as fit and of a and b PEs, without duplicates; returns how many. */
static inline int ct_sets_of(int npes, ct_set_t *sets, int last_start, int a, int b)
{
    int n = 0;

    for (int log = 0; log <= 2; log++)
        for (int start = 0; start <= last_start && start < npes; start++) {
            int most = (npes - 1 - start) / (1 << log) + 1;
            int sizes[3] = {most, a, b};

            for (int k = 0; k < 3; k++) {
                int dup = sizes[k] > most;

                for (int j = 0; j < n && !dup; j++)
                    dup = sets[j].start == start && sets[j].size == sizes[k] &&
                          (sets[j].log == log || sizes[k] == 1);
                if (!dup && n < CT_MAX_SETS)
                    sets[n++] = (ct_set_t){start, log, sizes[k]};
            }
        }
    return n;
}

/* Sets with strides 1, 2 and 4, starting at PEs 0, 1 and 2, of 1 PE, of 2
 * and of as many as fit: the whole job, sets that leave PEs out on either
 * side, and single-PE sets. Returns how many, without duplicates. */
static inline int ct_sets(int npes, ct_set_t *sets)
{
    return ct_sets_of(npes, sets, 2, 1, 2);
}

/* Element i of an array of w-byte (4 or 8) elements. */
static inline uint64_t ct_getv(const void *a, int w, size_t i)
{
    return w == 4 ? ((const uint32_t *)a)[i] : ((const uint64_t *)a)[i];
}

static inline void ct_setv(void *a, int w, size_t i, uint64_t v)
{
    if (w == 4)
        ((uint32_t *)a)[i] = (uint32_t)v;
    else
        ((uint64_t *)a)[i] = v;
}

/* My index in the set, or -1 if I am not in it. */
static inline int ct_index(const ct_set_t *s, int pe)
{
    int d = pe - s->start, stride = 1 << s->log;

    if (d < 0 || d % stride != 0 || d / stride >= s->size)
        return -1;
    return d / stride;
}

static inline int ct_pe(const ct_set_t *s, int i)
{
    return s->start + (i << s->log);
}

/* A few microseconds of nothing, for about one call in four per PE. */
static inline void ct_maybe_delay(long call, int me)
{
    uint32_t h = (uint32_t)call * 2654435761u ^ (uint32_t)me * 40503u;

    h ^= h >> 15;
    if (h % 4 != 0)
        return;
    for (uint32_t i = 0; i < (h >> 8) % 2000; i++)
        atomic_signal_fence(memory_order_seq_cst);
}

/* Every element of pSync is SHMEM_SYNC_VALUE again (call after a barrier). */
static inline void ct_check_psync(const long *pSync, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        CT_CHECK(pSync[i] == SHMEM_SYNC_VALUE, "%s: pSync[%d] is %ld, expected %ld", what, i,
                 pSync[i], (long)SHMEM_SYNC_VALUE);
}

static inline long *ct_psync(int n)
{
    long *p = shmem_malloc((size_t)n * sizeof(long));

    for (int i = 0; i < n; i++)
        p[i] = SHMEM_SYNC_VALUE;
    return p;
}

/* Ends the program: every PE reports, exit status 1 if any check failed. */
static inline int ct_finish(const char *name)
{
    int npes = shmem_n_pes(), total = 0;
    int *each = shmem_calloc((size_t)npes, sizeof(int));

    shmem_int_p(&each[shmem_my_pe()], ct_failures, 0);
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++)
        total += each[pe];
    if (shmem_my_pe() == 0)
        printf("%s with %d PEs: %s (%d failed checks)\n", name, npes,
               total == 0 ? "passed" : "FAILED", total);
    shmem_free(each);
    shmem_finalize();
    return ct_failures ? 1 : 0;
}

#endif /* COLL_TEST_H */
