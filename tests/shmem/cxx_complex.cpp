// cxx_complex.cpp - the complex reductions and scans from C++ (built with
// oshc++): shmem_complexd_sum_reduce, shmem_complexf_prod_reduce,
// shmem_complexd_sum_inscan and the active-set shmem_complexf_sum_to_all
// take the compilers' C-compatible double/float _Complex, and every
// element is compared with the same operations done serially (small
// integers: exact in either precision).
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

#define N 4

__extension__ typedef double _Complex cd;
__extension__ typedef float _Complex cf;

static cd mkd(double re, double im)
{
    cd z;
    __real__ z = re;
    __imag__ z = im;
    return z;
}

// Element i of PE k's source.
static cd src_of(int k, int i)
{
    return mkd(i == 2 ? k + 1 : i, i == 0 ? 1 : k % 3);
}

template <typename T> static void check(T got, T want, const char *what, int i)
{
    if (__real__ got != __real__ want || __imag__ got != __imag__ want) {
        std::printf("FAIL: PE %d: %s [%d]: got %g%+gi, expected %g%+gi\n", shmem_my_pe(), what, i,
                    static_cast<double>(__real__ got), static_cast<double>(__imag__ got),
                    static_cast<double>(__real__ want), static_cast<double>(__imag__ want));
        std::exit(1);
    }
}

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static cf pwrk[N / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main()
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes();
    cd *ds = static_cast<cd *>(shmem_malloc(N * sizeof(cd)));
    cd *dd = static_cast<cd *>(shmem_malloc(N * sizeof(cd)));
    cd *scan = static_cast<cd *>(shmem_malloc(N * sizeof(cd)));
    cf *fs = static_cast<cf *>(shmem_malloc(N * sizeof(cf)));
    cf *fd = static_cast<cf *>(shmem_malloc(N * sizeof(cf)));
    cf *fa = static_cast<cf *>(shmem_malloc(N * sizeof(cf)));

    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < N; i++) {
        ds[i] = src_of(me, i);
        fs[i] = static_cast<cf>(src_of(me, i));
    }
    shmem_barrier_all();
    if (shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, dd, ds, N) != 0 ||
        shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, fd, fs, N) != 0 ||
        shmem_complexd_sum_inscan(SHMEM_TEAM_WORLD, scan, ds, N) != 0) {
        std::printf("FAIL: PE %d: a team reduction or scan returned nonzero\n", me);
        return 1;
    }
    shmem_complexf_sum_to_all(fa, fs, N, 0, 0, n, pwrk, psync);

    for (int i = 0; i < N; i++) {
        cd sum = mkd(0, 0), upto = mkd(0, 0);
        cf prod = static_cast<cf>(mkd(1, 0));
        for (int k = 0; k < n; k++) {
            sum += src_of(k, i);
            prod *= static_cast<cf>(src_of(k, i));
            if (k <= me)
                upto += src_of(k, i);
        }
        check(dd[i], sum, "shmem_complexd_sum_reduce", i);
        check(fd[i], prod, "shmem_complexf_prod_reduce", i);
        check(scan[i], upto, "shmem_complexd_sum_inscan", i);
        check(fa[i], static_cast<cf>(sum), "shmem_complexf_sum_to_all", i);
    }
    shmem_barrier_all();
    shmem_free(fa);
    shmem_free(fd);
    shmem_free(fs);
    shmem_free(scan);
    shmem_free(dd);
    shmem_free(ds);
    if (me == 0)
        std::printf("cxx_complex: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
