/*
 * wait.c - waits woken by remote puts and atomics, on static variables and
 * on the heap: a token passed around the ring of PEs by puts (each PE
 * waits for it, checks the data put before it, passes it on), every
 * comparison of wait_until and test, the 1.5 forms over arrays
 * (wait_until_all/any/some, test_all/any/some, with a status mask), and
 * the deprecated wait.
 */
#include "check.h"

#include <string.h>

#define ROUNDS 50
#define NDATA 64

static long token;
static int data[NDATA];
static long flags[8];

/* Waits for token value `want` and checks the data put before it. */
static void await(long *tok, const int *buf, long want)
{
    shmem_long_wait_until(tok, SHMEM_CMP_GE, want);
    CHECK(*tok == want, "token %ld, expected %ld", *tok, want);
    for (int i = 0; i < NDATA; i++)
        CHECK(buf[i] == (int)(want * 1000 + i), "data [%d] = %d with token %ld", i, buf[i], want);
}

/* Round r: PE 0 sends data and token r to PE 1, each PE waits for them and
 * passes them on; PE 0 gets round r back from the last PE before round r+1. */
static void ring(int me, int npes, long *tok, int *buf)
{
    int right = (me + 1) % npes, mine[NDATA];

    for (long r = 1; r <= ROUNDS; r++) {
        if (me != 0)
            await(tok, buf, r);
        for (int i = 0; i < NDATA; i++)
            mine[i] = (int)(r * 1000 + i);
        /* data first, then quiet, then the flag: the flag never overtakes. */
        shmem_int_put(buf, mine, NDATA, right);
        shmem_quiet();
        shmem_long_p(tok, r, right);
        if (me == 0)
            await(tok, buf, r);
    }
}

int main(void)
{
    int me, npes, status[8] = {0};
    long *htok;
    int *hbuf;
    size_t idx[8];

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    htok = shmem_calloc(1, sizeof *htok);
    hbuf = shmem_calloc(NDATA, sizeof *hbuf);
    CHECK(htok && hbuf, "shmem_calloc failed");
    if (npes > 1) {
        ring(me, npes, &token, data);
        shmem_barrier_all();
        ring(me, npes, htok, hbuf);
    }
    shmem_barrier_all();

    /* test: every comparison, on a value put by the left neighbour */
    token = 0;
    shmem_barrier_all();
    shmem_long_p(&token, 10, (me + 1) % npes);
    shmem_barrier_all();
    CHECK(shmem_long_test(&token, SHMEM_CMP_EQ, 10) && !shmem_long_test(&token, SHMEM_CMP_NE, 10),
          "test EQ/NE");
    CHECK(shmem_long_test(&token, SHMEM_CMP_GT, 9) && !shmem_long_test(&token, SHMEM_CMP_GT, 10),
          "test GT");
    CHECK(shmem_long_test(&token, SHMEM_CMP_GE, 10) && !shmem_long_test(&token, SHMEM_CMP_GE, 11),
          "test GE");
    CHECK(shmem_long_test(&token, SHMEM_CMP_LT, 11) && !shmem_long_test(&token, SHMEM_CMP_LT, 10),
          "test LT");
    CHECK(shmem_long_test(&token, SHMEM_CMP_LE, 10) && !shmem_long_test(&token, SHMEM_CMP_LE, 9),
          "test LE");
    CHECK(shmem_test(&token, SHMEM_CMP_EQ, 10L), "generic test");
    shmem_wait_until(&token, SHMEM_CMP_EQ, 10L); /* generic, already true */
    shmem_long_wait(&token, 9);                  /* deprecated: waits for != 9 */
    shmem_barrier_all();

    /* arrays: PE 0 sets flags[i] on every PE, one by one */
    memset(flags, 0, sizeof flags);
    shmem_barrier_all();
    CHECK(shmem_long_test_any(flags, 8, NULL, SHMEM_CMP_NE, 0) == SIZE_MAX, "test_any none");
    CHECK(shmem_long_test_some(flags, 8, idx, NULL, SHMEM_CMP_NE, 0) == 0, "test_some none");
    CHECK(!shmem_long_test_all(flags, 8, NULL, SHMEM_CMP_NE, 0), "test_all none");
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            shmem_long_atomic_set(&flags[3], 1, pe);
    size_t any = shmem_long_wait_until_any(flags, 8, NULL, SHMEM_CMP_NE, 0);
    CHECK(any == 3, "wait_until_any returned %zu, expected 3", any);
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            shmem_long_atomic_set(&flags[5], 1, pe);
    status[3] = 1; /* masked out: only 5 can answer */
    size_t some = shmem_long_wait_until_some(flags, 8, idx, status, SHMEM_CMP_NE, 0);
    CHECK(some == 1 && idx[0] == 5, "wait_until_some: %zu (first %zu), expected 1 (5)", some,
          idx[0]);
    CHECK(shmem_long_test_some(flags, 8, idx, NULL, SHMEM_CMP_EQ, 1) == 2 && idx[0] == 3 &&
          idx[1] == 5, "test_some");
    shmem_barrier_all();
    if (me == 0)
        for (int pe = 0; pe < npes; pe++)
            for (int i = 0; i < 8; i++)
                shmem_long_p(&flags[i], 1, pe);
    shmem_long_wait_until_all(flags, 8, NULL, SHMEM_CMP_EQ, 1);
    CHECK(shmem_long_test_all(flags, 8, status, SHMEM_CMP_EQ, 1), "test_all");
    for (int i = 0; i < 8; i++)
        status[i] = 1;
    CHECK(shmem_long_wait_until_any(flags, 8, status, SHMEM_CMP_EQ, 1) == SIZE_MAX,
          "wait_until_any, all masked");
    /* the 1.5 _vector forms: one comparison value per element */
    {
        long want[8], none[8];
        shmem_barrier_all();
        for (int i = 0; i < 8; i++) {
            want[i] = 100 + i;
            none[i] = -1;
        }
        CHECK(shmem_long_test_any_vector(flags, 8, NULL, SHMEM_CMP_EQ, want) == SIZE_MAX,
              "test_any_vector before");
        shmem_barrier_all();
        if (me == 0)
            for (int pe = 0; pe < npes; pe++)
                for (int i = 0; i < 8; i++)
                    shmem_long_p(&flags[i], 100 + i, pe);
        shmem_long_wait_until_all_vector(flags, 8, NULL, SHMEM_CMP_EQ, want);
        CHECK(shmem_long_test_all_vector(flags, 8, NULL, SHMEM_CMP_EQ, want), "test_all_vector");
        CHECK(shmem_long_wait_until_any_vector(flags, 8, NULL, SHMEM_CMP_EQ, want) < 8,
              "wait_until_any_vector");
        CHECK(shmem_long_wait_until_some_vector(flags, 8, idx, NULL, SHMEM_CMP_GE, want) == 8,
              "wait_until_some_vector");
        CHECK(shmem_long_test_some_vector(flags, 8, idx, NULL, SHMEM_CMP_EQ, none) == 0,
              "test_some_vector none");
        want[2] = 0;
        CHECK(!shmem_test_all_vector(flags, 8, NULL, SHMEM_CMP_EQ, want), "generic test_all_vector");
        CHECK(shmem_long_test_any_vector(flags, 8, NULL, SHMEM_CMP_LT, want) == SIZE_MAX,
              "test_any_vector LT");
        shmem_barrier_all();
    }
    if (me == 0)
        printf("wait: ring of %d rounds on statics and heap, test and the array forms on %d "
               "PEs\n", ROUNDS, npes);
    shmem_finalize();
    return 0;
}
