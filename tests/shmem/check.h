/*
 * check.h - what the OpenSHMEM test programs share: a failed check prints
 * the PE, the place, what was expected and what was got, then ends the job
 * with status 1 (shmem_global_exit, so that no PE waits for the failed one).
 */
#ifndef SHMEM_TEST_CHECK_H
#define SHMEM_TEST_CHECK_H

#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            printf("FAIL: PE %d: %s:%d: %s: ", shmem_my_pe(), __FILE__, __LINE__, #cond); \
            printf(__VA_ARGS__);                                                 \
            printf("\n");                                                        \
            fflush(stdout);                                                      \
            shmem_global_exit(1);                                                \
        }                                                                        \
    } while (0)

/* Whether this PE shares memory with PE pe (shmem_ptr gives a pointer), as
 * the driver's layout says in SHMEM_TEST_SUPERNODES: unset, every PE (one
 * host); "hosts=K", the PEs of this PE's simulated host (r % K);
 * "maxsize=M", one host cut into supernodes of M ranks in order (r / M);
 * "alone", this PE only (supernodes of one, or no shared memory at all). */
static inline int test_shares_memory(int pe)
{
    const char *how = getenv("SHMEM_TEST_SUPERNODES");
    int me = shmem_my_pe(), k;

    if (how == NULL || *how == 0)
        return 1;
    if (sscanf(how, "hosts=%d", &k) == 1 && k > 0)
        return pe % k == me % k;
    if (sscanf(how, "maxsize=%d", &k) == 1 && k > 0)
        return pe / k == me / k;
    return pe == me;
}

/* A value for element i of PE pe's data in test round k, exact in every
 * standard type (0..99). */
#define VAL(pe, i, k) (((pe) * 31 + (i) * 7 + (k) * 13) % 100)

#endif
