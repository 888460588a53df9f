// cxx_generic.cpp - an OpenSHMEM program in C++ (built with oshc++): the
// generic forms resolve to the typed routines through shmem.h's overloads,
// and their results are checked element by element.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

static long heap_check(long got, long want, const char *what)
{
    if (got != want) {
        std::printf("FAIL: %s: got %ld, expected %ld\n", what, got, want);
        std::exit(1);
    }
    return got;
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
    shmem_free(flag);
    shmem_free(u);
    shmem_free(d);
    shmem_free(l);
    if (me == 0)
        std::printf("cxx_generic: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
