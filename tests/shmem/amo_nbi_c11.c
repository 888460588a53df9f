/*
 * amo_nbi_c11.c - the C11 generic forms of the non-blocking fetching
 * atomics (1.5): shmem_atomic_fetch_nbi, swap_nbi, compare_swap_nbi,
 * fetch_inc_nbi, fetch_add_nbi, fetch_and/or/xor_nbi, with and without a
 * context, on every C type their lists select. PE p works on its right
 * neighbour's variable alone (nobody else touches it), so every fetched
 * value and the final value are known: each is checked after a quiet.
 */
#include "check.h"

static int me, npes, right;
static shmem_ctx_t ctx;

/* The generic call OP(ARGS...), with the context first when c is set. */
#define BOTH(OP, ...)                                                            \
    do {                                                                         \
        if (c)                                                                   \
            OP(ctx, __VA_ARGS__);                                                \
        else                                                                     \
            OP(__VA_ARGS__);                                                     \
    } while (0)

/* The fetch/swap/compare_swap/inc/add sequence on x of type T; c selects
 * the context form. */
#define SEQ(T, N)                                                                \
    static T x_##N;                                                              \
    static void seq_##N(int c)                                                   \
    {                                                                            \
        T f = (T)0;                                                              \
        shmem_atomic_set(&x_##N, (T)10, right);                                  \
        shmem_barrier_all();                                                     \
        BOTH(shmem_atomic_fetch_nbi, &f, &x_##N, right);                         \
        shmem_quiet();                                                           \
        CHECK(f == (T)10, #N " fetch_nbi (ctx %d)", c);                          \
        BOTH(shmem_atomic_swap_nbi, &f, &x_##N, (T)20, right);                   \
        shmem_quiet();                                                           \
        CHECK(f == (T)10, #N " swap_nbi (ctx %d)", c);                           \
        CHECK(shmem_atomic_fetch(&x_##N, right) == (T)20, #N " after swap_nbi"); \
        shmem_barrier_all();                                                     \
    }
#define SEQ_INT(T, N)                                                            \
    SEQ(T, N)                                                                    \
    static void seq_int_##N(int c)                                               \
    {                                                                            \
        T f = (T)0;                                                              \
        seq_##N(c);                                                              \
        BOTH(shmem_atomic_compare_swap_nbi, &f, &x_##N, (T)20, (T)30, right);    \
        shmem_quiet();                                                           \
        CHECK(f == (T)20, #N " compare_swap_nbi, equal (ctx %d)", c);            \
        BOTH(shmem_atomic_compare_swap_nbi, &f, &x_##N, (T)99, (T)40, right);    \
        shmem_quiet();                                                           \
        CHECK(f == (T)30, #N " compare_swap_nbi, not equal (ctx %d)", c);        \
        BOTH(shmem_atomic_fetch_inc_nbi, &f, &x_##N, right);                     \
        shmem_quiet();                                                           \
        CHECK(f == (T)30, #N " fetch_inc_nbi (ctx %d)", c);                      \
        BOTH(shmem_atomic_fetch_add_nbi, &f, &x_##N, (T)5, right);               \
        shmem_quiet();                                                           \
        CHECK(f == (T)31, #N " fetch_add_nbi (ctx %d)", c);                      \
        CHECK(shmem_atomic_fetch(&x_##N, right) == (T)36, #N " after fetch_add_nbi"); \
        shmem_barrier_all();                                                     \
    }
#define SEQ_BIT(T, N)                                                            \
    SEQ_INT(T, N)                                                                \
    static void seq_bit_##N(int c)                                               \
    {                                                                            \
        T f = (T)0;                                                              \
        seq_int_##N(c);                                                          \
        shmem_atomic_set(&x_##N, (T)0xF0, right);                                \
        shmem_barrier_all();                                                     \
        BOTH(shmem_atomic_fetch_and_nbi, &f, &x_##N, (T)0x3C, right);            \
        shmem_quiet();                                                           \
        CHECK(f == (T)0xF0, #N " fetch_and_nbi (ctx %d)", c);                    \
        BOTH(shmem_atomic_fetch_or_nbi, &f, &x_##N, (T)0x05, right);             \
        shmem_quiet();                                                           \
        CHECK(f == (T)0x30, #N " fetch_or_nbi (ctx %d)", c);                     \
        BOTH(shmem_atomic_fetch_xor_nbi, &f, &x_##N, (T)0xFF, right);            \
        shmem_quiet();                                                           \
        CHECK(f == (T)0x35, #N " fetch_xor_nbi (ctx %d)", c);                    \
        CHECK(shmem_atomic_fetch(&x_##N, right) == (T)0xCA, #N " after fetch_xor_nbi"); \
        shmem_barrier_all();                                                     \
    }
SEQ(float, float)
SEQ(double, double)
SEQ_INT(int, int)
SEQ_INT(long, long)
SEQ_INT(long long, longlong)
SEQ_BIT(unsigned int, uint)
SEQ_BIT(unsigned long, ulong)
SEQ_BIT(unsigned long long, ulonglong)
SEQ_BIT(int32_t, int32)
SEQ_BIT(int64_t, int64)

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "shmem_ctx_create");
    for (int c = 0; c < 2; c++) {
        seq_float(c);
        seq_double(c);
        seq_int_int(c);
        seq_int_long(c);
        seq_int_longlong(c);
        seq_bit_uint(c);
        seq_bit_ulong(c);
        seq_bit_ulonglong(c);
        seq_bit_int32(c);
        seq_bit_int64(c);
    }
    shmem_ctx_destroy(ctx);
    if (me == 0)
        printf("amo_nbi_c11: every generic nbi atomic, with and without a context, on %d PEs\n",
               npes);
    shmem_finalize();
    return 0;
}
