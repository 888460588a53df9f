// cxx_team.cpp - the generic team collectives, reductions (the complex
// ones included), scans, vector waits and shmem_sync(team) in C++ (built
// with oshc++): each overload reaches the typed routine of its data type,
// and every element is compared with the same operation done serially.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

#define N 3


static void check(long got, long want, const char *what, int i)
{
    if (got != want) {
        std::printf("FAIL: PE %d: %s [%d]: got %ld, expected %ld\n", shmem_my_pe(), what, i, got,
                    want);
        std::fflush(stdout);
        shmem_global_exit(1); // the others may wait in a collective
    }
}

// Symmetric space of one type: source and destination, npes blocks each
// (alltoall sends one block to each PE).
template <typename T> struct buf {
    T *s, *d;
    buf(int npes)
        : s(static_cast<T *>(shmem_malloc(N * npes * sizeof(T)))),
          d(static_cast<T *>(shmem_malloc(N * npes * sizeof(T)))) {}
    void free() { shmem_free(d); shmem_free(s); }
};

int main()
{
    shmem_init();
    shmem_team_t w = SHMEM_TEAM_WORLD;
    int me = shmem_my_pe(), n = shmem_n_pes(), bad = 0;
    buf<int> bi(n);
    buf<double> bd(n);
    buf<short> bs(n);
    buf<long> bl(n);
    buf<unsigned> bu(n);
    buf<float> bf(n);
    buf<char> bc(n);
    buf<long long> bll(n);
    buf<unsigned char> buc(n);
    buf<signed char> bsc(n);
    buf<unsigned long> bul(n);
    long *flags = static_cast<long *>(shmem_calloc(static_cast<size_t>(n), sizeof(long)));

    // Element i of PE k: v(k, i) = 10 k + i + 1 (bitwise: 1 << (k % 7) | i).
    auto v = [](int k, int i) { return 10 * k + i + 1; };
    auto b = [](int k, int i) { return (1 << (k % 7)) | i; };
    for (int i = 0; i < N * n; i++) {
        bl.s[i] = v(me, i);
        bu.s[i] = static_cast<unsigned>(v(me, i));
    }
    for (int i = 0; i < N; i++) {
        bi.s[i] = v(me, i); bd.s[i] = v(me, i); bs.s[i] = static_cast<short>(v(me, i));
        bf.s[i] = static_cast<float>(v(me, i));
        bc.s[i] = static_cast<char>(v(me, i)); bll.s[i] = v(me, i);
        buc.s[i] = static_cast<unsigned char>(b(me, i));
        bsc.s[i] = static_cast<signed char>(b(me, i));
        bul.s[i] = static_cast<unsigned long>(b(me, i));
    }
    shmem_barrier_all();
    bad |= shmem_broadcast(w, bi.d, bi.s, N, n - 1);
    bad |= shmem_collect(w, bd.d, bd.s, N);
    bad |= shmem_fcollect(w, bs.d, bs.s, N);
    // alltoall(s): element j of each source goes to PE j.
    bad |= shmem_alltoall(w, bl.d, bl.s, 1);
    bad |= shmem_alltoalls(w, bu.d, bu.s, 1, 1, 1);
    bad |= shmem_max_reduce(w, bf.d, bf.s, N);
    bad |= shmem_min_reduce(w, bc.d, bc.s, N);
    bad |= shmem_sum_reduce(w, bll.d, bll.s, N);
    bad |= shmem_and_reduce(w, buc.d, buc.s, N);
    bad |= shmem_or_reduce(w, bsc.d, bsc.s, N);
    bad |= shmem_xor_reduce(w, bul.d, bul.s, N);
    bad |= shmem_sync(w);
    check(bad, 0, "a team collective's return", 0);

    for (int i = 0; i < N; i++) {
        long sum = 0, mn = v(0, i), mx = v(0, i), andv = -1, orv = 0, xorv = 0;
        for (int k = 0; k < n; k++) {
            sum += v(k, i);
            mn = v(k, i) < mn ? v(k, i) : mn;
            mx = v(k, i) > mx ? v(k, i) : mx;
            andv &= b(k, i);
            orv |= b(k, i);
            xorv ^= b(k, i);
        }
        check(bi.d[i], v(n - 1, i), "shmem_broadcast(int)", i);
        for (int k = 0; k < n; k++) {
            check(static_cast<long>(bd.d[k * N + i]), v(k, i), "shmem_collect(double)", k * N + i);
            check(bs.d[k * N + i], v(k, i), "shmem_fcollect(short)", k * N + i);
        }
        check(static_cast<long>(bf.d[i]), mx, "shmem_max_reduce(float)", i);
        check(bc.d[i], mn, "shmem_min_reduce(char)", i);
        check(bll.d[i], sum, "shmem_sum_reduce(long long)", i);
        check(buc.d[i], andv & 0xff, "shmem_and_reduce(unsigned char)", i);
        check(bsc.d[i], orv, "shmem_or_reduce(signed char)", i);
        check(static_cast<long>(bul.d[i]), xorv, "shmem_xor_reduce(unsigned long)", i);
    }
    for (int k = 0; k < n; k++) {
        check(bl.d[k], v(k, me), "shmem_alltoall(long)", k);
        check(bu.d[k], v(k, me), "shmem_alltoalls(unsigned)", k);
    }
    shmem_barrier_all();

    // Scans: the overloads on int (inscan) and long (exscan), in place of
    // the collectives' sources.
    bad |= shmem_sum_inscan(w, bi.d, bi.s, N);
    bad |= shmem_sum_exscan(w, bl.d, bl.s, N);
    check(bad, 0, "a scan's return", 0);
    for (int i = 0; i < N; i++) {
        long in = 0;
        for (int k = 0; k < me; k++)
            in += v(k, i);
        check(bl.d[i], in, "shmem_sum_exscan(long)", i);
        check(bi.d[i], in + v(me, i), "shmem_sum_inscan(int)", i);
    }

    // Complex numbers (C's _Complex, as the C++ header declares them): the
    // SUM overload on double _Complex, PROD on float _Complex and the typed
    // scan, each element against the serial result. Element i of PE k is
    // (v(k, i), k + 1) for SUM; for PROD, i + 1 on an even PE and (i + 1) * I
    // on an odd one, so the products are exact.
    {
        double _Complex *zs = static_cast<double _Complex *>(shmem_malloc(2 * N * sizeof *zs));
        float _Complex *fs = static_cast<float _Complex *>(shmem_malloc(2 * N * sizeof *fs));
        double _Complex *zd = zs + N;
        float _Complex *fd = fs + N;
        for (int i = 0; i < N; i++) {
            __real__ zs[i] = v(me, i);
            __imag__ zs[i] = me + 1;
            __real__ fs[i] = me % 2 ? 0.0f : static_cast<float>(i + 1);
            __imag__ fs[i] = me % 2 ? static_cast<float>(i + 1) : 0.0f;
        }
        shmem_barrier_all();
        bad |= shmem_sum_reduce(w, zd, zs, N);
        bad |= shmem_prod_reduce(w, fd, fs, N);
        check(bad, 0, "a complex reduction's return", 0);
        for (int i = 0; i < N; i++) {
            double _Complex zsum = 0;
            float _Complex fprod = 1;
            for (int k = 0; k < n; k++) {
                double _Complex z = 0;
                float _Complex f = 0;
                __real__ z = v(k, i);
                __imag__ z = k + 1;
                __real__ f = k % 2 ? 0.0f : static_cast<float>(i + 1);
                __imag__ f = k % 2 ? static_cast<float>(i + 1) : 0.0f;
                zsum += z;
                fprod *= f;
            }
            check(static_cast<long>(__real__ zd[i]), static_cast<long>(__real__ zsum),
                  "shmem_sum_reduce(double _Complex) real", i);
            check(static_cast<long>(__imag__ zd[i]), static_cast<long>(__imag__ zsum),
                  "shmem_sum_reduce(double _Complex) imaginary", i);
            check(static_cast<long>(__real__ fd[i]), static_cast<long>(__real__ fprod),
                  "shmem_prod_reduce(float _Complex) real", i);
            check(static_cast<long>(__imag__ fd[i]), static_cast<long>(__imag__ fprod),
                  "shmem_prod_reduce(float _Complex) imaginary", i);
        }
        shmem_barrier_all();
        bad |= shmem_complexd_sum_inscan(w, zd, zs, N);
        check(bad, 0, "shmem_complexd_sum_inscan's return", 0);
        for (int i = 0; i < N; i++) {
            long re = 0, im = 0;
            for (int k = 0; k <= me; k++) {
                re += v(k, i);
                im += k + 1;
            }
            check(static_cast<long>(__real__ zd[i]), re, "shmem_complexd_sum_inscan real", i);
            check(static_cast<long>(__imag__ zd[i]), im, "shmem_complexd_sum_inscan imaginary", i);
        }
        shmem_barrier_all();
        shmem_free(fs);
        shmem_free(zs);
    }

    // Vector waits: every PE sets its flag on every PE to its number + 1.
    shmem_barrier_all();
    for (int pe = 0; pe < n; pe++)
        shmem_atomic_set(flags + me, static_cast<long>(me + 1), pe);
    long *want = new long[n];
    for (int k = 0; k < n; k++)
        want[k] = k + 1;
    shmem_wait_until_all_vector(flags, static_cast<size_t>(n), nullptr, SHMEM_CMP_EQ, want);
    check(shmem_test_all_vector(flags, static_cast<size_t>(n), nullptr, SHMEM_CMP_EQ, want), 1,
          "shmem_test_all_vector(long)", 0);
    check(static_cast<long>(shmem_test_any_vector(flags, static_cast<size_t>(n), nullptr,
                                                  SHMEM_CMP_GT, want)),
          static_cast<long>(SIZE_MAX), "shmem_test_any_vector(long) with none greater", 0);
    delete[] want;
    shmem_barrier_all();

    shmem_free(flags);
    bul.free(); bsc.free(); buc.free(); bll.free(); bc.free();
    bf.free(); bu.free(); bl.free(); bs.free(); bd.free(); bi.free();
    if (me == 0)
        std::printf("cxx_team: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
