/*
 * mpi_core.c - the paths between supernodes (run under mpirun with the PEs
 * split into supernodes: tests/t-shmem-mpi-core-*.sh). argv[1] chooses:
 *   rma      every put and get form to every PE, heap and statics, each
 *            element checked; put with signal; shmem_ptr NULL exactly for
 *            the PEs of other supernodes, every PE and address accessible.
 *   amo      atomics on PE 0's objects from every PE, both paths at once,
 *            counted exactly: unique fetch_inc tickets, totals, bitwise,
 *            compare_swap, swap, the extended types; a remote atomic_set
 *            wakes a wait_until; atomics on a PE waiting in a barrier.
 *   compute [S]  PE 0 computes without calling the library (S seconds at
 *            most, default 60) while the others send it atomics: the
 *            progress thread answers.
 *   idle S   (a measurement, not a check) PE 0 sleeps S seconds without
 *            calling the library while PE 1 sends it fetch_adds: prints
 *            PE 0's CPU time per second (the progress thread's cost) and
 *            the median fetch_add time (how soon a busy PE answers).
 *   exit N   the last PE calls shmem_global_exit(N) while the others wait
 *            in a barrier.
 *   die      the last PE is killed while the others wait for it.
 * Prints "ok: MODE on N PEs (L local)" on PE 0 when every check held.
 */
#include "check.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define BIG ((1 << 20) + 5)     /* beyond any eager limit */

static char st_buf[BIG + 64];   /* statics: a big one */
static long st_long[64];
static uint64_t st_sig;
static long st_ctr[4];
static int st_int[4];

static unsigned char pat(int from, int to, size_t i) { return (unsigned char)(from * 37 + to * 11 + i * 7 + i / 251); }

static int local_count(int me, int npes, char *heap)
{
    int n = 0;
    for (int pe = 0; pe < npes; pe++) {
        int mapped = shmem_ptr(heap, pe) != NULL;
        CHECK(shmem_pe_accessible(pe), "PE %d not accessible", pe);
        CHECK(shmem_addr_accessible(heap, pe) && shmem_addr_accessible(st_long, pe),
              "symmetric addresses of PE %d not accessible", pe);
        CHECK((shmem_ptr(st_long, pe) != NULL) == mapped, "shmem_ptr of heap and statics "
              "disagree for PE %d", pe);
        n += mapped;
    }
    CHECK(shmem_ptr(heap, me) == heap, "shmem_ptr(heap, me) is not heap");
    return n;
}

/* Each PE writes a block into every PE's heap and statics at its own slot,
 * through each put form, then every PE reads back what it wrote. */
static void test_rma(int me, int npes)
{
    size_t slot = BIG / (size_t)npes, sizes[] = {1, 8, 3 * 1024 + 3, slot};
    char *heap = shmem_malloc((size_t)BIG), *src = malloc(slot), *back = malloc(slot);
    long *hl = shmem_calloc(64 * (size_t)npes, sizeof(long));
    uint64_t *hsig = shmem_calloc(1, sizeof(uint64_t));

    CHECK(heap && src && back && hl && hsig, "out of memory");
    if (me == 0)
        printf("local PEs of PE 0: %d\n", local_count(me, npes, heap));
    local_count(me, npes, heap);
    for (int d = 0; d < npes; d++) {
        int pe = (me + d) % npes;
        for (int w = 0; w < 2; w++) {
            char *dst = (w ? st_buf : heap) + (size_t)me * slot;
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                size_t n = sizes[k];
                for (size_t i = 0; i < n; i++)
                    src[i] = (char)pat(me, pe, i + k);
                if (k % 2)
                    shmem_putmem(dst, src, n, pe);
                else
                    shmem_putmem_nbi(dst, src, n, pe);
                shmem_quiet();
                memset(back, 0, n);
                if (k % 2)
                    shmem_getmem_nbi(back, dst, n, pe);
                else
                    shmem_getmem(back, dst, n, pe);
                shmem_quiet();
                for (size_t i = 0; i < n; i++)
                    CHECK(back[i] == src[i], "%s of %zu bytes to PE %d: byte %zu is %d, "
                          "expected %d", w ? "statics" : "heap", n, pe, i, back[i], src[i]);
            }
        }
        /* Single elements, sized and strided forms, on my slot of 64 longs. */
        long *hs = hl + 64 * me, *ss = st_long + (64 / npes) * me, v[16], r[16];
        for (int i = 0; i < 16; i++)
            v[i] = (long)pat(me, pe, (size_t)i) * 1000003L + i;
        shmem_long_p(&hs[0], v[0], pe);
        shmem_long_p(&ss[0], v[1], pe);
        shmem_quiet();
        CHECK(shmem_long_g(&hs[0], pe) == v[0], "long_p/g heap to PE %d", pe);
        CHECK(shmem_long_g(&ss[0], pe) == v[1], "long_p/g statics to PE %d", pe);
        shmem_long_iput(&hs[1], v, 3, 1, 8, pe);           /* hs[1], hs[4], ... hs[22] */
        shmem_quiet();
        memset(r, 0, sizeof r);
        shmem_long_iget(r, &hs[1], 2, 3, 8, pe);           /* into r[0], r[2], ... */
        for (int i = 0; i < 8; i++)
            CHECK(r[2 * i] == v[i] && (i == 7 || r[2 * i + 1] == 0),
                  "iput/iget to PE %d: element %d is %ld, expected %ld", pe, i, r[2 * i], v[i]);
        shmem_put64(&hs[30], v, 4, pe);
        shmem_quiet();
        shmem_get64(r, &hs[30], 4, pe);
        CHECK(memcmp(r, v, 4 * sizeof(long)) == 0, "put64/get64 to PE %d", pe);
    }
    /* Put with signal: every PE sends PE `to` 8 longs and adds 1 to its
     * signal; `to` waits for npes signals and then checks every block. */
    shmem_barrier_all();
    int to = (me + 1) % npes;
    long blk[8];
    for (int i = 0; i < 8; i++)
        blk[i] = me * 100 + i;
    for (int pe = 0; pe < npes; pe++)
        shmem_long_put_signal(hl + 64 * me + 32, blk, 8, hsig, 1, SHMEM_SIGNAL_ADD, pe);
    shmem_long_put_signal(st_long + (64 / npes) * me, blk, 1, &st_sig, (uint64_t)me + 1,
                          SHMEM_SIGNAL_SET, to);
    shmem_signal_wait_until(hsig, SHMEM_CMP_EQ, (uint64_t)npes);
    for (int pe = 0; pe < npes; pe++)
        for (int i = 0; i < 8; i++)
            CHECK(hl[64 * pe + 32 + i] == pe * 100 + i, "put_signal block of PE %d, element %d "
                  "is %ld", pe, i, hl[64 * pe + 32 + i]);
    int from = (me + npes - 1) % npes;
    shmem_uint64_wait_until(&st_sig, SHMEM_CMP_EQ, (uint64_t)from + 1);
    CHECK(st_long[(64 / npes) * from] == from * 100, "put_signal SET from PE %d", from);
    shmem_barrier_all();
    free(src);
    free(back);
}

static void test_amo(int me, int npes)
{
    enum { K = 200 };
    long *h = shmem_calloc(8, sizeof(long));
    long *tickets = shmem_calloc((size_t)npes * K, sizeof(long));
    long mine[K];
    float *hf = shmem_calloc(2, sizeof(float));
    double *hd = shmem_calloc(2, sizeof(double));

    CHECK(h && tickets && hf && hd, "out of memory");
    shmem_barrier_all();
    for (int i = 0; i < K; i++) {
        mine[i] = shmem_long_atomic_fetch_inc(&h[0], 0);
        shmem_long_atomic_add(&st_ctr[0], 3, 0);
        shmem_int_atomic_inc(&st_int[0], 0);
        (void)shmem_long_atomic_fetch_add(&h[1], 2, 0);
        int seen = shmem_int_atomic_fetch(&st_int[1], 0), prev;
        while ((prev = shmem_int_atomic_compare_swap(&st_int[1], seen, seen + 1, 0)) != seen)
            seen = prev;
        (void)shmem_long_atomic_swap(&st_ctr[1], me, 0);
    }
    shmem_ulong_atomic_or((unsigned long *)&h[2], 1UL << (me % 64), 0);
    (void)shmem_ulong_atomic_fetch_xor((unsigned long *)&h[3], 1UL << (me % 64), 0);
    shmem_ulong_atomic_and((unsigned long *)&h[4], ~(1UL << (me % 64)), 0);
    shmem_float_atomic_set(&hf[0], 1.5f, 0);
    shmem_double_atomic_set(&hd[0], 2.25, 0);
    shmem_putmem(&tickets[me * K], mine, sizeof mine, 0);
    shmem_barrier_all();
    if (me == 0) {
        long n = (long)npes * K, *seen = calloc((size_t)n, sizeof(long)), full = 0;
        CHECK(seen != NULL, "out of memory");
        for (long i = 0; i < n; i++) {
            CHECK(tickets[i] >= 0 && tickets[i] < n && !seen[tickets[i]], "ticket %ld "
                  "(from PE %ld) is out of range or given twice", tickets[i], i / K);
            seen[tickets[i]] = 1;
        }
        free(seen);
        CHECK(h[0] == n, "fetch_inc counter %ld, expected %ld", h[0], n);
        CHECK(st_ctr[0] == 3 * n, "static add counter %ld, expected %ld", st_ctr[0], 3 * n);
        CHECK(st_int[0] == n, "static int inc counter %d, expected %ld", st_int[0], n);
        CHECK(h[1] == 2 * n, "fetch_add counter %ld, expected %ld", h[1], 2 * n);
        CHECK(st_int[1] == n, "compare_swap counter %d, expected %ld", st_int[1], n);
        CHECK(st_ctr[1] >= 0 && st_ctr[1] < npes, "swap left %ld", st_ctr[1]);
        for (int pe = 0; pe < npes && pe < 64; pe++)
            full |= 1L << pe;
        CHECK(h[2] == full && h[3] == full, "or/xor words 0x%lx 0x%lx, expected 0x%lx", h[2],
              h[3], full);
        CHECK(h[4] == 0, "and word 0x%lx", h[4]);
        CHECK(hf[0] == 1.5f && hd[0] == 2.25, "float/double set %g %g", hf[0], hd[0]);
    }
    CHECK(shmem_float_atomic_fetch(&hf[0], 0) == 1.5f, "float fetch");
    CHECK(shmem_double_atomic_swap(&hd[1], 1.0 + me, (me + 1) % npes) == 0.0 ||
              npes == 1, "double swap on a fresh word");
    shmem_barrier_all();
    /* A remote atomic_set wakes a wait_until; the waiter serves meanwhile. */
    int to = (me + 1) % npes;
    shmem_long_atomic_set(&st_ctr[2], me + 1, to);
    shmem_long_wait_until(&st_ctr[2], SHMEM_CMP_EQ, (me + npes - 1) % npes + 1);
    /* Atomics on a PE that waits in a barrier (it must answer them). */
    if (me != 0)
        for (int i = 0; i < K; i++)
            (void)shmem_long_atomic_fetch_add(&h[5], 1, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(h[5] == (long)(npes - 1) * K, "counter of the waiting PE %ld, expected %ld",
              h[5], (long)(npes - 1) * K);
    shmem_barrier_all();
}

/* PE 0 spins on a flag without calling the library: only the progress
 * thread answers the others' atomics and lets their put land. */
static void test_compute(int me, int npes, int secs)
{
    static long flag, ctr;
    shmem_barrier_all();
    if (me == 0) {
        time_t end = time(NULL) + secs;
        while (__atomic_load_n(&flag, __ATOMIC_ACQUIRE) < npes - 1)
            CHECK(time(NULL) < end, "%d s without the others' atomics: flag %ld, counter %ld",
                  secs, flag, ctr);
        CHECK(ctr == 10L * (npes - 1), "counter %ld", ctr);
    } else {
        for (int i = 0; i < 10; i++)
            (void)shmem_long_atomic_fetch_add(&ctr, 1, 0);
        shmem_long_atomic_add(&flag, 1, 0);
        shmem_quiet();
    }
    shmem_barrier_all();
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void measure_idle(int me, int secs)
{
    static long ctr;
    shmem_barrier_all();
    if (me == 0) {
        struct rusage r0, r1;
        double t0 = now_s();
        getrusage(RUSAGE_SELF, &r0);
        sleep((unsigned)secs);
        getrusage(RUSAGE_SELF, &r1);
        double cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) +
                     (double)(r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) +
                     (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) * 1e-6 +
                     (double)(r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) * 1e-6;
        printf("idle PE: %.3f ms of CPU per second asleep\n", cpu / (now_s() - t0) * 1e3);
    } else if (me == 1) {
        enum { MAX = 100000 };
        static double lat[MAX];
        int n = 0;
        double end = now_s() + secs - 1;
        while (n < MAX && now_s() < end) {
            double t = now_s();
            (void)shmem_long_atomic_fetch_add(&ctr, 1, 0);
            lat[n++] = now_s() - t;
        }
        qsort(lat, (size_t)n, sizeof lat[0], cmp_double);
        printf("fetch_add to the idle PE: median %.1f us over %d calls\n",
               n ? lat[n / 2] * 1e6 : 0.0, n);
    }
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (strcmp(mode, "rma") == 0) {
        test_rma(me, npes);
    } else if (strcmp(mode, "amo") == 0) {
        test_amo(me, npes);
    } else if (strcmp(mode, "compute") == 0) {
        test_compute(me, npes, argc > 2 ? atoi(argv[2]) : 60);
    } else if (strcmp(mode, "idle") == 0 && argc > 2) {
        measure_idle(me, atoi(argv[2]));
    } else if (strcmp(mode, "exit") == 0 && argc > 2) {
        shmem_barrier_all();
        if (me == npes - 1) {
            sleep(1);
            shmem_global_exit(atoi(argv[2]));
        }
        shmem_barrier_all();
        CHECK(0, "passed a barrier the last PE never entered");
    } else if (strcmp(mode, "die") == 0) {
        static long never;
        shmem_barrier_all();
        if (me == npes - 1)
            raise(SIGKILL);
        shmem_long_wait_until(&never, SHMEM_CMP_NE, 0);
        CHECK(0, "woke without a put");
    } else {
        CHECK(0, "unknown mode '%s' (rma, amo, compute [S], idle S, exit N, die)", mode);
    }
    if (me == 0) {
        int local = 0;
        for (int pe = 0; pe < npes; pe++)
            local += shmem_ptr(st_long, pe) != NULL;
        printf("ok: %s on %d PEs (%d local)\n", mode, npes, local);
    }
    shmem_finalize();
    return 0;
}
