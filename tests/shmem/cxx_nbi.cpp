// cxx_nbi.cpp - the generic forms that OpenSHMEM 1.5 and 1.6 add, in C++
// (built with oshc++): the nonblocking fetching atomics, the interleaved
// blocks and the signal updates with a context resolve through shmem.h's
// overloads; every fetched value and every element is checked.
#include <shmem.h>

#include <cstdio>
#include <cstdlib>

static void check(long got, long want, const char *what)
{
    if (got != want) {
        std::printf("FAIL: PE %d: %s: got %ld, expected %ld\n", shmem_my_pe(), what, got, want);
        std::exit(1);
    }
}

int main()
{
    shmem_init();
    int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
    // One word per operation: nonblocking atomics on one address are not
    // ordered among themselves before the quiet.
    long *l = static_cast<long *>(shmem_malloc(4 * sizeof(long)));
    unsigned int *u = static_cast<unsigned int *>(shmem_malloc(3 * sizeof(unsigned int)));
    double *d = static_cast<double *>(shmem_malloc(2 * sizeof(double)));
    long *blk = static_cast<long *>(shmem_malloc(12 * sizeof(long)));
    long *sym = static_cast<long *>(shmem_malloc(12 * sizeof(long)));
    uint64_t *sig = static_cast<uint64_t *>(shmem_calloc(2, sizeof(uint64_t)));
    long src[12], got[8];

    for (int i = 0; i < 4; i++)
        l[i] = 100L * me + i;
    for (int i = 0; i < 3; i++)
        u[i] = 0xf0u + static_cast<unsigned int>(me);
    d[0] = me + 0.5;
    d[1] = 0;
    for (int i = 0; i < 12; i++) {
        src[i] = 1000L * me + i;
        sym[i] = 2000L * me + i;
        blk[i] = -1;
    }
    for (int i = 0; i < 8; i++)
        got[i] = -1;
    shmem_barrier_all();

    long fl[4];
    unsigned int fu[3];
    double fd[2];
    shmem_atomic_fetch_nbi(&fd[0], d, right);                          // double
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &fd[1], d + 1, 2.25, right); // ctx double
    shmem_atomic_fetch_add_nbi(&fl[0], l, 5L, right);                  // long
    shmem_atomic_fetch_inc_nbi(SHMEM_CTX_DEFAULT, &fl[1], l + 1, right); // ctx long
    shmem_atomic_compare_swap_nbi(&fl[2], l + 2, 100L * right + 2, 77L, right);
    shmem_atomic_swap_nbi(&fl[3], l + 3, -3L, right);                  // long
    shmem_atomic_fetch_and_nbi(&fu[0], u, 0x3cu, right);               // unsigned int
    shmem_atomic_fetch_or_nbi(&fu[1], u + 1, 0x100u, right);
    shmem_atomic_fetch_xor_nbi(SHMEM_CTX_DEFAULT, &fu[2], u + 2, 0xffu, right);
    // Blocks of 2 from every 4th source element to every 3rd of the
    // target; then 4 blocks of 1 from every 3rd of the right PE's sym to
    // every 2nd of got, with a context.
    shmem_ibput(blk, src, 3, 4, 2, 3, right);
    shmem_ibget(SHMEM_CTX_DEFAULT, got, sym, 2, 3, 1, 4, right);
    shmem_signal_add(sig, 2, right);                                    // the C routine
    shmem_signal_add(SHMEM_CTX_DEFAULT, sig, 3, right);
    shmem_signal_set(SHMEM_CTX_DEFAULT, sig + 1, static_cast<uint64_t>(40 + me), right);
    shmem_quiet();
    shmem_barrier_all();

    check(static_cast<long>(fd[0] * 2), 2L * right + 1, "atomic_fetch_nbi(double)");
    check(static_cast<long>(fd[1]), 0, "atomic_swap_nbi(ctx, double) old");
    check(static_cast<long>(d[1] * 4), 9, "atomic_swap_nbi(ctx, double) new");
    check(fl[0], 100L * right, "atomic_fetch_add_nbi(long) old");
    check(l[0], 100L * me + 5, "atomic_fetch_add_nbi(long) new");
    check(fl[1], 100L * right + 1, "atomic_fetch_inc_nbi(ctx, long) old");
    check(l[1], 100L * me + 2, "atomic_fetch_inc_nbi(ctx, long) new");
    check(fl[2], 100L * right + 2, "atomic_compare_swap_nbi(long) old");
    check(l[2], 77, "atomic_compare_swap_nbi(long) new");
    check(fl[3], 100L * right + 3, "atomic_swap_nbi(long) old");
    check(l[3], -3, "atomic_swap_nbi(long) new");
    for (int i = 0; i < 3; i++)
        check(fu[i], 0xf0 + right, "atomic_fetch_{and,or,xor}_nbi(unsigned) old");
    check(u[0], (0xf0 + me) & 0x3c, "atomic_fetch_and_nbi(unsigned) new");
    check(u[1], (0xf0 + me) | 0x100, "atomic_fetch_or_nbi(unsigned) new");
    check(u[2], (0xf0 + me) ^ 0xff, "atomic_fetch_xor_nbi(ctx, unsigned) new");
    for (int i = 0; i < 12; i++) {
        long want = (i % 3 < 2 && i / 3 < 3) ? 1000L * left + 4 * (i / 3) + i % 3 : -1;
        check(blk[i], want, "ibput(long) element");
    }
    for (int i = 0; i < 8; i++)
        check(got[i], i % 2 ? -1 : 2000L * right + 3 * (i / 2), "ibget(ctx, long) element");
    check(static_cast<long>(sig[0]), 5, "signal_add(ctx) + signal_add");
    check(static_cast<long>(sig[1]), 40 + left, "signal_set(ctx)");
    shmem_barrier_all();
    shmem_free(sig);
    shmem_free(sym);
    shmem_free(blk);
    shmem_free(d);
    shmem_free(u);
    shmem_free(l);
    if (me == 0)
        std::printf("cxx_nbi: %d PEs ok\n", n);
    shmem_finalize();
    return 0;
}
