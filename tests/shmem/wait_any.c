/*
 * wait_any.c - a series of calls of the "any" and "some" forms returns every
 * index that satisfies the condition (OpenSHMEM 1.5): with every flag of
 * the set set, shmem_TYPE_test_any, _wait_until_any and their _vector
 * forms each return every index of the set within 64 calls per index (a
 * program that loops until it has seen them all would never end if the
 * lowest came back each time), never an excluded or unsatisfied one;
 * _test_some and _wait_until_some return every satisfying index in one
 * call, each once. The flags are set by the other PEs' puts (PE p sets
 * flag p of every PE), and the two forms' calls are interleaved with calls
 * on another set, so that the rotation is not the call site's.
 */
#include "check.h"

#include <stdint.h>
#include <string.h>

#define MAXPES 64
static long flags[MAXPES];
static int other[4] = {1, 1, 1, 1};

/* Which of the four forms of "any" a call uses. */
static size_t any(int form, size_t n, const int *status, const long *vals)
{
    switch (form) {
    case 0: return shmem_long_test_any(flags, n, status, SHMEM_CMP_EQ, 1);
    case 1: return shmem_long_wait_until_any(flags, n, status, SHMEM_CMP_EQ, 1);
    case 2: return shmem_long_test_any_vector(flags, n, status, SHMEM_CMP_EQ, vals);
    default: return shmem_long_wait_until_any_vector(flags, n, status, SHMEM_CMP_EQ, vals);
    }
}

static const char *form_name[] = {"shmem_long_test_any", "shmem_long_wait_until_any",
                                  "shmem_long_test_any_vector",
                                  "shmem_long_wait_until_any_vector"};

int main(void)
{
    int me, npes, status[MAXPES];
    long vals[MAXPES];
    size_t idx[MAXPES];

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= MAXPES, "at most %d PEs", MAXPES);
    for (int pe = 0; pe < npes; pe++)
        shmem_long_p(&flags[me], 1, pe);
    shmem_barrier_all();
    for (int i = 0; i < npes; i++)
        vals[i] = 1;
    /* Every other index excluded (or none with one PE), then none. */
    for (int masked = 0; masked < 2; masked++) {
        size_t want = 0;
        for (int i = 0; i < npes; i++) {
            status[i] = masked && npes > 1 && i % 2 == 1;
            want += !status[i];
        }
        for (int form = 0; form < 4; form++) {
            int seen[MAXPES] = {0};
            size_t got = 0;
            /* Every index within 64 calls per index (a start chosen at
             * random misses one that often with odds below e^-64), each
             * call checked. */
            for (int call = 0; call < 64 * npes && got < want; call++) {
                size_t i = any(form, (size_t)npes, status, vals);
                CHECK(i < (size_t)npes && !status[i], "%s returned %zu (status %d)",
                      form_name[form], i, i < (size_t)npes ? status[i] : -1);
                got += !seen[i];
                seen[i] = 1;
                /* A call on another set between two of this one. */
                CHECK(shmem_int_test_any(other, 1 + (size_t)call % 4, NULL, SHMEM_CMP_EQ, 1) <
                      4, "shmem_int_test_any on the other set");
            }
            for (int i = 0; i < npes; i++)
                CHECK(seen[i] || status[i], "%s never returned index %d of %d set flags in "
                      "%d calls", form_name[form], i, (int)want, 64 * npes);
        }
        /* some: every satisfying index in one call, each once. */
        for (int form = 0; form < 4; form++) {
            int seen[MAXPES] = {0};
            size_t n;
            memset(idx, 0xff, sizeof idx);
            switch (form) {
            case 0: n = shmem_long_test_some(flags, (size_t)npes, idx, status, SHMEM_CMP_EQ, 1); break;
            case 1: n = shmem_long_wait_until_some(flags, (size_t)npes, idx, status, SHMEM_CMP_EQ, 1); break;
            case 2: n = shmem_long_test_some_vector(flags, (size_t)npes, idx, status, SHMEM_CMP_EQ, vals); break;
            default: n = shmem_long_wait_until_some_vector(flags, (size_t)npes, idx, status, SHMEM_CMP_EQ, vals); break;
            }
            CHECK(n == want, "some (form %d) returned %zu indices, expected %zu", form, n, want);
            for (size_t k = 0; k < n; k++) {
                CHECK(idx[k] < (size_t)npes && !status[idx[k]] && !seen[idx[k]],
                      "some (form %d): indices[%zu] is %zu", form, k, idx[k]);
                seen[idx[k]] = 1;
            }
        }
    }
    /* Unsatisfied entries are never returned: only flag me is 2 here. */
    flags[me] = 2;
    for (int call = 0; call < 4 * npes; call++) {
        size_t i = shmem_long_test_any(flags, (size_t)npes, NULL, SHMEM_CMP_EQ, 2);
        CHECK(i == (size_t)me, "shmem_long_test_any(== 2) returned %zu, expected %d", i, me);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("wait_any: every index returned by the any and some forms on %d PEs\n", npes);
    shmem_finalize();
    return 0;
}
