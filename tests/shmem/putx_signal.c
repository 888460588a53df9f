/*
 * putx_signal: Cray's put with signal (shmemx.h) around a ring: every PE
 * puts to the next one with each form (typed, sized, mem, and each's _nb
 * form with a quiet), one signal word per form, set beforehand to 100 so
 * that a signal that adds instead of setting is seen. The receiver waits
 * for each signal to be exactly its value, then checks that form's data
 * element by element; a zero-length put still sets its signal. Statics as
 * targets, so that the data and the signal may be in either area.
 */
#include <shmemx.h>

#include "check.h"

enum { N = 37, FORMS = 9 };

static long lrecv[N];
static int irecv[N];
static double drecv[N];
static uint32_t r32[N];
static uint64_t r64[N], rnb[N];
static char mrecv[N], mnb[N];
static uint64_t sig[FORMS + 1];

int main(void)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), to = (me + 1) % npes;
    int from = (me + npes - 1) % npes;
    long ls[N];
    int is[N];
    double ds[N];
    uint32_t s32[N];
    uint64_t s64[N];
    char ms[N];

    for (int i = 0; i < N; i++) {
        ls[i] = me * 1000L + i;
        is[i] = me * 100 + i;
        ds[i] = me + i / 4.0;
        s32[i] = (uint32_t)(me * 7 + i);
        s64[i] = (uint64_t)me << 40 | (uint64_t)i;
        ms[i] = (char)('a' + (me + i) % 26);
    }
    for (int k = 0; k <= FORMS; k++)
        sig[k] = 100;
    shmem_barrier_all();

    shmemx_long_put_signal(lrecv, ls, N, &sig[0], 1, to);
    shmemx_int_put_signal(irecv, is, N, &sig[1], 2, to);
    shmemx_double_put_signal(drecv, ds, N, &sig[2], 3, to);
    shmemx_put32_signal(r32, s32, N, &sig[3], 4, to);
    shmemx_put64_signal(r64, s64, N, &sig[4], 5, to);
    shmemx_putmem_signal(mrecv, ms, N, &sig[5], 6, to);
    shmemx_putmem_signal_nb(mnb, ms, N, &sig[6], 7, to);
    shmemx_put64_signal_nb(rnb, s64, N, &sig[7], 8, to);
    shmemx_putmem_signal(mrecv, ms, 0, &sig[8], 9, to); /* the signal alone */
    shmem_quiet();

    for (int k = 0; k < FORMS; k++) {
        uint64_t got = shmem_signal_wait_until(&sig[k], SHMEM_CMP_NE, 100);
        CHECK(got == (uint64_t)k + 1, "signal %d is %llu, expected %d (set, not added)", k,
              (unsigned long long)got, k + 1);
    }
    for (int i = 0; i < N; i++) {
        CHECK(lrecv[i] == from * 1000L + i, "long[%d] = %ld", i, lrecv[i]);
        CHECK(irecv[i] == from * 100 + i, "int[%d] = %d", i, irecv[i]);
        CHECK(drecv[i] == from + i / 4.0, "double[%d] = %g", i, drecv[i]);
        CHECK(r32[i] == (uint32_t)(from * 7 + i), "put32[%d] = %u", i, (unsigned)r32[i]);
        CHECK(r64[i] == ((uint64_t)from << 40 | (uint64_t)i), "put64[%d]", i);
        CHECK(rnb[i] == ((uint64_t)from << 40 | (uint64_t)i), "put64_nb[%d]", i);
        CHECK(mrecv[i] == (char)('a' + (from + i) % 26), "putmem[%d] = %c", i, mrecv[i]);
        CHECK(mnb[i] == (char)('a' + (from + i) % 26), "putmem_nb[%d] = %c", i, mnb[i]);
    }
    CHECK(sig[FORMS] == 100, "the spare signal word changed: %llu", (unsigned long long)sig[FORMS]);
    shmem_barrier_all();
    if (me == 0)
        printf("putx_signal: %d PEs: %d forms, every element and signal as put\n", npes, FORMS);
    shmem_finalize();
    return 0;
}
