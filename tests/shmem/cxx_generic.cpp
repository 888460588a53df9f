// cxx_generic.cpp - an OpenSHMEM program in C++ (built with oshc++): the
// generic forms resolve to the typed routines through shmem.h's overloads,
// and their results are checked element by element: RMA, atomics (blocking,
// nonblocking, deprecated names), interleaved blocks, signals, the waits
// and tests (vector forms too) and the team collectives.
#include <shmem.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

static long heap_check(long got, long want, const char *what)
{
    if (got != want) {
        std::printf("FAIL: PE %d: %s: got %ld, expected %ld\n", shmem_my_pe(), what, got, want);
        std::fflush(stdout);
        shmem_global_exit(1); // the other PEs must not wait for this one
    }
    return got;
}

// The 1.5/1.6 generic families, each on two types at least; n PEs.
static long A[16], B[16 * 16];
static int I[16], vec[4];
static unsigned int U[2];
static unsigned long UL;
static long long LL;
static double D;
static short SH[8];
static uint64_t sig[2];

static void rest_of_16(int me, int n)
{
    int right = (me + 1) % n, left = (me + n - 1) % n;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    shmem_team_t w = SHMEM_TEAM_WORLD;

    // Nonblocking fetching atomics on my right neighbour's words.
    long lf = -1;
    double df = -1;
    int ifc = -1;
    unsigned long ulf = 0;
    long long llf = 0;
    unsigned int uf[3] = {0, 0, 0};
    int i32f = 0;
    A[0] = 100 + me;
    D = me + 0.5;
    I[0] = me;
    UL = 7;
    LL = 40;
    U[0] = 0xF0;
    I[1] = 0x0F;
    shmem_barrier_all();
    shmem_atomic_fetch_nbi(&lf, A, right);                 // long
    shmem_atomic_swap_nbi(ctx, &df, &D, 2.25, right);      // ctx, double
    shmem_atomic_compare_swap_nbi(&ifc, I, right, -5, right); // int
    shmem_atomic_fetch_inc_nbi(&ulf, &UL, right);          // unsigned long
    shmem_atomic_fetch_add_nbi(ctx, &llf, &LL, 2LL, right); // ctx, long long
    shmem_atomic_fetch_and_nbi(&uf[0], &U[0], 0x3Cu, right); // unsigned int
    shmem_atomic_fetch_or_nbi(ctx, &i32f, &I[1], 0x30, right); // ctx, int32_t
    shmem_quiet();
    shmem_barrier_all();
    heap_check(lf, 100 + right, "shmem_atomic_fetch_nbi(long)");
    heap_check(static_cast<long>(df * 2), 2 * right + 1, "shmem_atomic_swap_nbi(ctx, double)");
    heap_check(static_cast<long>(D * 4), 9, "swapped double");
    heap_check(ifc, right, "shmem_atomic_compare_swap_nbi(int)");
    heap_check(I[0], -5, "compare-swapped int");
    heap_check(static_cast<long>(ulf), 7, "shmem_atomic_fetch_inc_nbi(unsigned long)");
    heap_check(static_cast<long>(UL), 8, "incremented unsigned long");
    heap_check(static_cast<long>(llf), 40, "shmem_atomic_fetch_add_nbi(ctx, long long)");
    heap_check(static_cast<long>(LL), 42, "added long long");
    heap_check(static_cast<long>(uf[0]), 0xF0, "shmem_atomic_fetch_and_nbi(unsigned int)");
    heap_check(static_cast<long>(U[0]), 0x30, "and-ed unsigned int");
    heap_check(i32f, 0x0F, "shmem_atomic_fetch_or_nbi(ctx, int32_t)");
    heap_check(I[1], 0x3F, "or-ed int32_t");
    shmem_barrier_all();

    // Deprecated generic names (1.3).
    I[2] = 10;
    LL = 5;
    D = 1.5;
    shmem_barrier_all();
    heap_check(shmem_cswap(&I[2], 10, 20 + me, right), 10, "shmem_cswap(int)");
    shmem_barrier_all();
    heap_check(I[2], 20 + left, "shmem_cswap's new value");
    shmem_barrier_all(); // read before my left neighbour swaps it
    heap_check(static_cast<long>(shmem_fadd(&LL, 3LL, right)), 5, "shmem_fadd(long long)");
    heap_check(static_cast<long>(shmem_fetch(&D, right) * 2), 3, "shmem_fetch(double)");
    heap_check(shmem_swap(&I[2], me, right), 20 + me, "shmem_swap(int)");
    shmem_barrier_all();
    heap_check(static_cast<long>(LL), 8, "shmem_fadd's sum");
    heap_check(I[2], left, "shmem_swap's new value");
    shmem_barrier_all();

    // Interleaved blocks: 3 blocks of 2, source stride 3, dest stride 4.
    long lsrc[9];
    short ssrc[9];
    for (int k = 0; k < 9; k++) {
        lsrc[k] = 1000L * me + k;
        ssrc[k] = static_cast<short>(10 * me + k);
    }
    for (int k = 0; k < 12; k++)
        A[k] = -1;
    for (int k = 0; k < 8; k++)
        SH[k] = -1;
    shmem_barrier_all();
    shmem_ibput(A, lsrc, 4, 3, 2, 3, right);           // long
    shmem_ibput(ctx, SH, ssrc, 3, 3, 2, 2, right);     // ctx, short
    shmem_barrier_all();
    for (int k = 0; k < 12; k++)
        heap_check(A[k], k % 4 < 2 ? 1000L * left + (k / 4) * 3 + k % 4 : -1, "shmem_ibput(long)");
    for (int k = 0; k < 6; k++)
        heap_check(SH[k], k % 3 < 2 ? 10 * left + (k / 3) * 3 + k % 3 : -1, "shmem_ibput(ctx, short)");
    long lg[4];
    short sg[4];
    shmem_ibget(lg, A, 2, 4, 2, 2, right);             // long: right's A, from me
    shmem_ibget(ctx, sg, SH, 2, 3, 2, 2, right);       // ctx, short
    for (int k = 0; k < 4; k++) {
        heap_check(lg[k], 1000L * me + (k / 2) * 3 + k % 2, "shmem_ibget(long)");
        heap_check(sg[k], 10 * me + (k / 2) * 3 + k % 2, "shmem_ibget(ctx, short)");
    }
    shmem_barrier_all();

    // Signals, then the vector waits and tests on them.
    sig[0] = sig[1] = 0;
    for (int k = 0; k < 4; k++)
        vec[k] = 0;
    shmem_barrier_all();
    shmem_signal_add(&sig[0], 5, right);
    shmem_signal_add(ctx, &sig[0], 6, right);
    shmem_signal_set(ctx, &sig[1], 77, right);
    for (int k = 0; k < 4; k++)
        shmem_p(&vec[k], 10 * me + k, right); // what my right neighbour waits for
    shmem_quiet();
    const int want[4] = {10 * left, 10 * left + 1, 10 * left + 2, 10 * left + 3};
    shmem_wait_until(&sig[0], SHMEM_CMP_EQ, static_cast<uint64_t>(11)); // uint64_t = ulong
    shmem_wait_until_all_vector(vec, 4, nullptr, SHMEM_CMP_EQ, want);
    shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 77); // the puts are not ordered after it
    heap_check(static_cast<long>(sig[0]), 11, "shmem_signal_add (+ctx)");
    heap_check(static_cast<long>(shmem_signal_fetch(&sig[1])), 77, "shmem_signal_set(ctx)");
    for (int k = 0; k < 4; k++)
        heap_check(vec[k], 10 * left + k, "shmem_wait_until_all_vector(int)");
    const int status[4] = {0, 1, 0, 0};
    heap_check(static_cast<long>(shmem_wait_until_any_vector(vec, 4, status, SHMEM_CMP_EQ, want)) != 1,
               1, "shmem_wait_until_any_vector skips an excluded index");
    size_t idx[4];
    heap_check(static_cast<long>(shmem_test_some_vector(vec, 4, idx, nullptr, SHMEM_CMP_EQ, want)),
               4, "shmem_test_some_vector(int)");
    heap_check(shmem_test_all_vector(vec, 4, nullptr, SHMEM_CMP_NE, want), 0,
               "shmem_test_all_vector(NE) on equal values");
    const unsigned long uw[1] = {8};
    heap_check(static_cast<long>(shmem_test_any_vector(&UL, 1, nullptr, SHMEM_CMP_EQ, uw)), 0,
               "shmem_test_any_vector(unsigned long)");
    shmem_wait_until_some_vector(&UL, 1, idx, nullptr, SHMEM_CMP_GE, uw);
    shmem_wait(&I[2], left + 1); // deprecated, int: waits while equal, and it is not
    shmem_sync(w);
    shmem_barrier_all();

    // Team collectives on WORLD, checked against a serial computation; the
    // sources are symmetric, as the specification asks.
    static long lsrc2[16];
    static int isrc;
    static double dsrc, dd;
    static unsigned int ubits;
    for (int k = 0; k < 16; k++)
        lsrc2[k] = 100L * me + k;
    heap_check(shmem_broadcast(w, A, lsrc2, 4, n - 1), 0, "shmem_broadcast(long)");
    for (int k = 0; k < 4; k++)
        heap_check(A[k], 100L * (n - 1) + k, "shmem_broadcast's data");
    heap_check(shmem_fcollect(w, B, lsrc2, 2), 0, "shmem_fcollect(long)");
    for (int p = 0; p < n; p++)
        for (int k = 0; k < 2; k++)
            heap_check(B[2 * p + k], 100L * p + k, "shmem_fcollect's data");
    heap_check(shmem_collect(w, B, lsrc2, 1), 0, "shmem_collect(long)");
    for (int p = 0; p < n; p++)
        heap_check(B[p], 100L * p, "shmem_collect's data");
    heap_check(shmem_alltoall(w, B, lsrc2, 1), 0, "shmem_alltoall(long)");
    for (int p = 0; p < n; p++)
        heap_check(B[p], 100L * p + me, "shmem_alltoall's data");
    heap_check(shmem_alltoalls(w, B, lsrc2, 2, 1, 1), 0, "shmem_alltoalls(long)");
    for (int p = 0; p < n; p++)
        heap_check(B[2 * p], 100L * p + me, "shmem_alltoalls's data");
    isrc = me + 1;
    heap_check(shmem_sum_reduce(w, &I[3], &isrc, 1), 0, "shmem_sum_reduce(int)");
    heap_check(I[3], n * (n + 1) / 2, "sum");
    heap_check(shmem_prod_reduce(w, &I[3], &isrc, 1), 0, "shmem_prod_reduce(int)");
    long fact = 1;
    for (int p = 1; p <= n; p++)
        fact *= p;
    heap_check(I[3], fact, "prod");
    dsrc = me * 0.5;
    heap_check(shmem_max_reduce(w, &dd, &dsrc, 1), 0, "shmem_max_reduce(double)");
    heap_check(static_cast<long>(dd * 2), n - 1, "max");
    heap_check(shmem_min_reduce(w, &I[3], &isrc, 1), 0, "shmem_min_reduce(int)");
    heap_check(I[3], 1, "min");
    ubits = 1u << me;
    heap_check(shmem_or_reduce(w, &U[1], &ubits, 1), 0, "shmem_or_reduce(unsigned int)");
    heap_check(static_cast<long>(U[1]), (1L << n) - 1, "or");
    heap_check(shmem_and_reduce(w, &U[1], &ubits, 1), 0, "shmem_and_reduce(unsigned int)");
    heap_check(static_cast<long>(U[1]), n == 1 ? 1 : 0, "and");
    heap_check(shmem_xor_reduce(w, &I[3], &isrc, 1), 0, "shmem_xor_reduce(int32_t)");
    long x = 0;
    for (int p = 1; p <= n; p++)
        x ^= p;
    heap_check(I[3], x, "xor");
    heap_check(shmem_sum_inscan(w, &I[3], &isrc, 1), 0, "shmem_sum_inscan(int)");
    heap_check(I[3], (me + 1) * (me + 2) / 2, "inscan");
    heap_check(shmem_sum_exscan(w, &I[3], &isrc, 1), 0, "shmem_sum_exscan(int)");
    heap_check(I[3], me * (me + 1) / 2, "exscan");
    shmem_barrier_all();
}

int main()
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n;
    long *l = static_cast<long *>(shmem_malloc(8 * sizeof(long)));
    double *d = static_cast<double *>(shmem_malloc(4 * sizeof(double)));
    unsigned int *u = static_cast<unsigned int *>(shmem_calloc(1, sizeof(unsigned int)));
    int *flag = static_cast<int *>(shmem_calloc(1, sizeof(int)));
    long src[8];
    double dsrc[4];

    for (int i = 0; i < 8; i++)
        src[i] = 1000L * me + i;
    for (int i = 0; i < 4; i++)
        dsrc[i] = me + i / 4.0;
    shmem_barrier_all();
    shmem_put(l, src, 8, right);              // shmem_long_put
    shmem_put(SHMEM_CTX_DEFAULT, d, dsrc, 4, right); // shmem_ctx_double_put
    shmem_atomic_add(u, 3u, right);           // shmem_uint_atomic_add
    shmem_atomic_fetch_or(u, 0x100u, right);  // shmem_uint_atomic_fetch_or
    shmem_barrier_all();
    int left = (me + n - 1) % n;
    for (int i = 0; i < 8; i++)
        heap_check(l[i], 1000L * left + i, "shmem_put(long)");
    for (int i = 0; i < 4; i++)
        heap_check(static_cast<long>(d[i] * 4), static_cast<long>((left + i / 4.0) * 4),
                   "shmem_put(ctx, double)");
    heap_check(static_cast<long>(*u), 3 + 0x100, "shmem_atomic_add/fetch_or(unsigned)");
    heap_check(shmem_g(l + 2, right), 1000L * me + 2, "shmem_g(long)");
    heap_check(static_cast<long>(shmem_atomic_fetch(d, right) * 4), me * 4L, "shmem_atomic_fetch(double)");
    shmem_barrier_all();
    shmem_p(flag, 1, right);                  // shmem_int_p
    shmem_wait_until(flag, SHMEM_CMP_EQ, 1);  // shmem_int_wait_until
    heap_check(shmem_test(flag, SHMEM_CMP_EQ, 1), 1, "shmem_test(int)");
    shmem_barrier_all();
    rest_of_16(me, n);
    shmem_free(flag);
    shmem_free(u);
    shmem_free(d);
    shmem_free(l);
    if (me == 0)
        std::printf("cxx_generic: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
