/*
 * shmem_cxx.h - the generic forms of OpenSHMEM for C++: overloads that do
 * what shmem.h's C11 _Generic macros do in C (shmem_put(dest, src, n, pe)
 * picks shmem_long_put for long *), with and without a context: every
 * generic name of that section (as SOS's shmem.h gives C++ overloads).
 * Included by shmem.h when compiled as C++; not to be included by itself.
 * A deprecated C routine of the same name and parameters (shmem_wait_until
 * (long *, int, long), shmem_wait, shmem_swap on long) is that type's form.
 *
 * Each overload is on one of the distinct C++ types: the fixed-width and
 * size_t/ptrdiff_t names are the same types on Linux (int32_t is int,
 * size_t is unsigned long), so they are reached through these.
 */
#ifndef PSHMEM_SHMEM_CXX_H
#define PSHMEM_SHMEM_CXX_H

#ifndef PSHMEM_SHMEM_H
#error "include <shmem.h>, not shmem_cxx.h"
#endif

#define SHMEM_CXX_RMA_(X)                                                         \
    X(float, float) X(double, double) X(longdouble, long double) X(char, char)    \
    X(schar, signed char) X(short, short) X(int, int) X(long, long)               \
    X(longlong, long long) X(uchar, unsigned char) X(ushort, unsigned short)      \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long)
#define SHMEM_CXX_AMO_(X)                                                         \
    X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int)        \
    X(ulong, unsigned long) X(ulonglong, unsigned long long)
#define SHMEM_CXX_AMO_EXT_(X) SHMEM_CXX_AMO_(X) X(float, float) X(double, double)
/* The bitwise types: the unsigned ones, and int32_t/int64_t (int, long). */
#define SHMEM_CXX_BIT_(X)                                                         \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long) \
    X(int32, int) X(int64, long)
/* The bitwise team reductions' types: the unsigned ones and int8_t to
 * int64_t (signed char, short, int, long). */
#define SHMEM_CXX_TEAM_BIT_(X)                                                    \
    X(uchar, unsigned char) X(ushort, unsigned short) X(uint, unsigned int)       \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int8, signed char) \
    X(int16, short) X(int32, int) X(int64, long)
#define SHMEM_CXX_SYNC_(X)                                                        \
    X(short, short) X(int, int) X(long, long) X(longlong, long long)              \
    X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)       \
    X(ulonglong, unsigned long long)

#define SHMEM_CXX_DEF_RMA_(N, T)                                                  \
    inline void shmem_put(T *d, const T *s, size_t n, int pe) { shmem_##N##_put(d, s, n, pe); } \
    inline void shmem_get(T *d, const T *s, size_t n, int pe) { shmem_##N##_get(d, s, n, pe); } \
    inline void shmem_put_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_put_nbi(d, s, n, pe); } \
    inline void shmem_get_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_get_nbi(d, s, n, pe); } \
    inline void shmem_p(T *d, T v, int pe) { shmem_##N##_p(d, v, pe); }         \
    inline T shmem_g(const T *s, int pe) { return shmem_##N##_g(s, pe); }        \
    inline void shmem_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    { shmem_##N##_iput(d, s, dst, sst, n, pe); }                                 \
    inline void shmem_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) \
    { shmem_##N##_iget(d, s, dst, sst, n, pe); }                                 \
    inline void shmem_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sg, \
                                 int op, int pe)                                  \
    { shmem_##N##_put_signal(d, s, n, sa, sg, op, pe); }                         \
    inline void shmem_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sg, \
                                     int op, int pe)                              \
    { shmem_##N##_put_signal_nbi(d, s, n, sa, sg, op, pe); }                     \
    inline void shmem_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)     \
    { shmem_ctx_##N##_put(c, d, s, n, pe); }                                     \
    inline void shmem_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe)     \
    { shmem_ctx_##N##_get(c, d, s, n, pe); }                                     \
    inline void shmem_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
    { shmem_ctx_##N##_put_nbi(c, d, s, n, pe); }                                 \
    inline void shmem_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) \
    { shmem_ctx_##N##_get_nbi(c, d, s, n, pe); }                                 \
    inline void shmem_p(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_p(c, d, v, pe); } \
    inline T shmem_g(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_g(c, s, pe); } \
    inline void shmem_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t n, int pe)                                      \
    { shmem_ctx_##N##_iput(c, d, s, dst, sst, n, pe); }                          \
    inline void shmem_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                           size_t n, int pe)                                      \
    { shmem_ctx_##N##_iget(c, d, s, dst, sst, n, pe); }                          \
    inline void shmem_put_signal(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sa, \
                                 uint64_t sg, int op, int pe)                     \
    { shmem_ctx_##N##_put_signal(c, d, s, n, sa, sg, op, pe); }                  \
    inline void shmem_put_signal_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sa, \
                                     uint64_t sg, int op, int pe)                 \
    { shmem_ctx_##N##_put_signal_nbi(c, d, s, n, sa, sg, op, pe); }
SHMEM_CXX_RMA_(SHMEM_CXX_DEF_RMA_)

/* fetch, set and swap: the AMO types and float, double. */
#define SHMEM_CXX_DEF_AMO_EXT_(N, T)                                              \
    inline T shmem_atomic_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); } \
    inline void shmem_atomic_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); } \
    inline T shmem_atomic_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); } \
    inline T shmem_atomic_fetch(shmem_ctx_t c, const T *s, int pe)               \
    { return shmem_ctx_##N##_atomic_fetch(c, s, pe); }                           \
    inline void shmem_atomic_set(shmem_ctx_t c, T *d, T v, int pe)               \
    { shmem_ctx_##N##_atomic_set(c, d, v, pe); }                                 \
    inline T shmem_atomic_swap(shmem_ctx_t c, T *d, T v, int pe)                 \
    { return shmem_ctx_##N##_atomic_swap(c, d, v, pe); }
SHMEM_CXX_AMO_EXT_(SHMEM_CXX_DEF_AMO_EXT_)

#define SHMEM_CXX_DEF_AMO_(N, T)                                                  \
    inline T shmem_atomic_compare_swap(T *d, T cond, T v, int pe)                \
    { return shmem_##N##_atomic_compare_swap(d, cond, v, pe); }                  \
    inline T shmem_atomic_fetch_inc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); } \
    inline void shmem_atomic_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); } \
    inline T shmem_atomic_fetch_add(T *d, T v, int pe)                           \
    { return shmem_##N##_atomic_fetch_add(d, v, pe); }                           \
    inline void shmem_atomic_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); } \
    inline T shmem_atomic_compare_swap(shmem_ctx_t c, T *d, T cond, T v, int pe) \
    { return shmem_ctx_##N##_atomic_compare_swap(c, d, cond, v, pe); }           \
    inline T shmem_atomic_fetch_inc(shmem_ctx_t c, T *d, int pe)                 \
    { return shmem_ctx_##N##_atomic_fetch_inc(c, d, pe); }                       \
    inline void shmem_atomic_inc(shmem_ctx_t c, T *d, int pe) { shmem_ctx_##N##_atomic_inc(c, d, pe); } \
    inline T shmem_atomic_fetch_add(shmem_ctx_t c, T *d, T v, int pe)            \
    { return shmem_ctx_##N##_atomic_fetch_add(c, d, v, pe); }                    \
    inline void shmem_atomic_add(shmem_ctx_t c, T *d, T v, int pe)               \
    { shmem_ctx_##N##_atomic_add(c, d, v, pe); }
SHMEM_CXX_AMO_(SHMEM_CXX_DEF_AMO_)

#define SHMEM_CXX_DEF_BIT_OP_(N, T, OP)                                           \
    inline T shmem_atomic_fetch_##OP(T *d, T v, int pe)                          \
    { return shmem_##N##_atomic_fetch_##OP(d, v, pe); }                          \
    inline void shmem_atomic_##OP(T *d, T v, int pe) { shmem_##N##_atomic_##OP(d, v, pe); } \
    inline T shmem_atomic_fetch_##OP(shmem_ctx_t c, T *d, T v, int pe)           \
    { return shmem_ctx_##N##_atomic_fetch_##OP(c, d, v, pe); }                   \
    inline void shmem_atomic_##OP(shmem_ctx_t c, T *d, T v, int pe)              \
    { shmem_ctx_##N##_atomic_##OP(c, d, v, pe); }
#define SHMEM_CXX_DEF_BIT_(N, T)                                                  \
    SHMEM_CXX_DEF_BIT_OP_(N, T, and) SHMEM_CXX_DEF_BIT_OP_(N, T, or)             \
    SHMEM_CXX_DEF_BIT_OP_(N, T, xor)
SHMEM_CXX_BIT_(SHMEM_CXX_DEF_BIT_)

/* shmem_wait_until(long *, int, long) is the deprecated C routine itself:
 * the other types overload it. */
#define SHMEM_CXX_WAIT_(N, T)                                                     \
    inline void shmem_wait_until(T *v, int cmp, T x) { shmem_##N##_wait_until(v, cmp, x); }
#define SHMEM_CXX_DEF_SYNC_(N, T)                                                 \
    inline int shmem_test(T *v, int cmp, T x) { return shmem_##N##_test(v, cmp, x); } \
    inline void shmem_wait_until_all(T *v, size_t n, const int *st, int cmp, T x) \
    { shmem_##N##_wait_until_all(v, n, st, cmp, x); }                            \
    inline size_t shmem_wait_until_any(T *v, size_t n, const int *st, int cmp, T x) \
    { return shmem_##N##_wait_until_any(v, n, st, cmp, x); }                     \
    inline size_t shmem_wait_until_some(T *v, size_t n, size_t *idx, const int *st, int cmp, \
                                        T x)                                      \
    { return shmem_##N##_wait_until_some(v, n, idx, st, cmp, x); }               \
    inline int shmem_test_all(T *v, size_t n, const int *st, int cmp, T x)       \
    { return shmem_##N##_test_all(v, n, st, cmp, x); }                           \
    inline size_t shmem_test_any(T *v, size_t n, const int *st, int cmp, T x)    \
    { return shmem_##N##_test_any(v, n, st, cmp, x); }                           \
    inline size_t shmem_test_some(T *v, size_t n, size_t *idx, const int *st, int cmp, T x) \
    { return shmem_##N##_test_some(v, n, idx, st, cmp, x); }                     \
    inline void shmem_wait_until_all_vector(T *v, size_t n, const int *st, int cmp,  \
                                            const T *x)                           \
    { shmem_##N##_wait_until_all_vector(v, n, st, cmp, x); }                     \
    inline size_t shmem_wait_until_any_vector(T *v, size_t n, const int *st, int cmp, \
                                              const T *x)                         \
    { return shmem_##N##_wait_until_any_vector(v, n, st, cmp, x); }              \
    inline size_t shmem_wait_until_some_vector(T *v, size_t n, size_t *idx, const int *st, \
                                               int cmp, const T *x)               \
    { return shmem_##N##_wait_until_some_vector(v, n, idx, st, cmp, x); }        \
    inline int shmem_test_all_vector(T *v, size_t n, const int *st, int cmp, const T *x) \
    { return shmem_##N##_test_all_vector(v, n, st, cmp, x); }                    \
    inline size_t shmem_test_any_vector(T *v, size_t n, const int *st, int cmp, const T *x) \
    { return shmem_##N##_test_any_vector(v, n, st, cmp, x); }                    \
    inline size_t shmem_test_some_vector(T *v, size_t n, size_t *idx, const int *st, int cmp, \
                                         const T *x)                              \
    { return shmem_##N##_test_some_vector(v, n, idx, st, cmp, x); }
SHMEM_CXX_SYNC_(SHMEM_CXX_DEF_SYNC_)
SHMEM_CXX_WAIT_(short, short) SHMEM_CXX_WAIT_(int, int) SHMEM_CXX_WAIT_(longlong, long long)
SHMEM_CXX_WAIT_(ushort, unsigned short) SHMEM_CXX_WAIT_(uint, unsigned int)
SHMEM_CXX_WAIT_(ulong, unsigned long) SHMEM_CXX_WAIT_(ulonglong, unsigned long long)

/* The rest of 1.5 and 1.6 (the C11 section of shmem.h has the same). */

/* Interleaved blocks, and the team collectives that move data (the
 * standard RMA types). */
#define SHMEM_CXX_DEF_IB_COLL_(N, T)                                              \
    inline void shmem_ibput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                            size_t n, int pe)                                     \
    { shmem_##N##_ibput(d, s, dst, sst, b, n, pe); }                             \
    inline void shmem_ibget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, \
                            size_t n, int pe)                                     \
    { shmem_##N##_ibget(d, s, dst, sst, b, n, pe); }                             \
    inline void shmem_ibput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t b, size_t n, int pe)                           \
    { shmem_ctx_##N##_ibput(c, d, s, dst, sst, b, n, pe); }                      \
    inline void shmem_ibget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t b, size_t n, int pe)                           \
    { shmem_ctx_##N##_ibget(c, d, s, dst, sst, b, n, pe); }                      \
    inline int shmem_broadcast(shmem_team_t t, T *d, const T *s, size_t n, int root) \
    { return shmem_##N##_broadcast(t, d, s, n, root); }                          \
    inline int shmem_collect(shmem_team_t t, T *d, const T *s, size_t n)         \
    { return shmem_##N##_collect(t, d, s, n); }                                  \
    inline int shmem_fcollect(shmem_team_t t, T *d, const T *s, size_t n)        \
    { return shmem_##N##_fcollect(t, d, s, n); }                                 \
    inline int shmem_alltoall(shmem_team_t t, T *d, const T *s, size_t n)        \
    { return shmem_##N##_alltoall(t, d, s, n); }                                 \
    inline int shmem_alltoalls(shmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, \
                               size_t n)                                          \
    { return shmem_##N##_alltoalls(t, d, s, dst, sst, n); }
SHMEM_CXX_RMA_(SHMEM_CXX_DEF_IB_COLL_)

/* MAX, MIN, SUM, PROD and the scans: the same fourteen types; SUM, PROD
 * and the scans also on the complex ones (C's _Complex, see shmem.h). */
#define SHMEM_CXX_DEF_TEAM_OP_(N, T, OP)                                          \
    inline int shmem_##OP(shmem_team_t t, T *d, const T *s, size_t n)            \
    { return shmem_##N##_##OP(t, d, s, n); }
#define SHMEM_CXX_DEF_TEAM_ARITH_(N, T)                                           \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, max_reduce) SHMEM_CXX_DEF_TEAM_OP_(N, T, min_reduce) \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, sum_reduce) SHMEM_CXX_DEF_TEAM_OP_(N, T, prod_reduce) \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, sum_inscan) SHMEM_CXX_DEF_TEAM_OP_(N, T, sum_exscan)
SHMEM_CXX_RMA_(SHMEM_CXX_DEF_TEAM_ARITH_)
#ifdef SHMEM_HAVE_COMPLEX_
#define SHMEM_CXX_DEF_TEAM_COMPLEX_(N, T)                                         \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, sum_reduce) SHMEM_CXX_DEF_TEAM_OP_(N, T, prod_reduce) \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, sum_inscan) SHMEM_CXX_DEF_TEAM_OP_(N, T, sum_exscan)
SHMEM_TEAM_REDUCE_COMPLEX_TYPES(SHMEM_CXX_DEF_TEAM_COMPLEX_)
#endif
#define SHMEM_CXX_DEF_TEAM_BIT_(N, T)                                             \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, and_reduce) SHMEM_CXX_DEF_TEAM_OP_(N, T, or_reduce) \
    SHMEM_CXX_DEF_TEAM_OP_(N, T, xor_reduce)
SHMEM_CXX_TEAM_BIT_(SHMEM_CXX_DEF_TEAM_BIT_)

/* shmem_sync(team) is shmem_team_sync; the active-set shmem_sync keeps
 * its four parameters. */
inline int shmem_sync(shmem_team_t t) { return shmem_team_sync(t); }

/* The nonblocking fetching atomics, on the type of the fetch pointer. */
#define SHMEM_CXX_DEF_AMO_NBI_EXT_(N, T)                                          \
    inline void shmem_atomic_fetch_nbi(T *f, const T *s, int pe)                 \
    { shmem_##N##_atomic_fetch_nbi(f, s, pe); }                                  \
    inline void shmem_atomic_swap_nbi(T *f, T *d, T v, int pe)                   \
    { shmem_##N##_atomic_swap_nbi(f, d, v, pe); }                                \
    inline void shmem_atomic_fetch_nbi(shmem_ctx_t c, T *f, const T *s, int pe)  \
    { shmem_ctx_##N##_atomic_fetch_nbi(c, f, s, pe); }                           \
    inline void shmem_atomic_swap_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe)    \
    { shmem_ctx_##N##_atomic_swap_nbi(c, f, d, v, pe); }
SHMEM_CXX_AMO_EXT_(SHMEM_CXX_DEF_AMO_NBI_EXT_)
#define SHMEM_CXX_DEF_AMO_NBI_(N, T)                                              \
    inline void shmem_atomic_compare_swap_nbi(T *f, T *d, T cond, T v, int pe)   \
    { shmem_##N##_atomic_compare_swap_nbi(f, d, cond, v, pe); }                  \
    inline void shmem_atomic_fetch_inc_nbi(T *f, T *d, int pe)                   \
    { shmem_##N##_atomic_fetch_inc_nbi(f, d, pe); }                              \
    inline void shmem_atomic_fetch_add_nbi(T *f, T *d, T v, int pe)              \
    { shmem_##N##_atomic_fetch_add_nbi(f, d, v, pe); }                           \
    inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t c, T *f, T *d, T cond, T v, int pe) \
    { shmem_ctx_##N##_atomic_compare_swap_nbi(c, f, d, cond, v, pe); }           \
    inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t c, T *f, T *d, int pe)    \
    { shmem_ctx_##N##_atomic_fetch_inc_nbi(c, f, d, pe); }                       \
    inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) \
    { shmem_ctx_##N##_atomic_fetch_add_nbi(c, f, d, v, pe); }
SHMEM_CXX_AMO_(SHMEM_CXX_DEF_AMO_NBI_)
#define SHMEM_CXX_DEF_BIT_NBI_OP_(N, T, OP)                                       \
    inline void shmem_atomic_fetch_##OP##_nbi(T *f, T *d, T v, int pe)           \
    { shmem_##N##_atomic_fetch_##OP##_nbi(f, d, v, pe); }                        \
    inline void shmem_atomic_fetch_##OP##_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) \
    { shmem_ctx_##N##_atomic_fetch_##OP##_nbi(c, f, d, v, pe); }
#define SHMEM_CXX_DEF_BIT_NBI_(N, T)                                              \
    SHMEM_CXX_DEF_BIT_NBI_OP_(N, T, and) SHMEM_CXX_DEF_BIT_NBI_OP_(N, T, or)     \
    SHMEM_CXX_DEF_BIT_NBI_OP_(N, T, xor)
SHMEM_CXX_BIT_(SHMEM_CXX_DEF_BIT_NBI_)

/* The signal updates without a context are the C routines themselves. */
inline void shmem_signal_add(shmem_ctx_t c, uint64_t *a, uint64_t s, int pe)
{ shmem_ctx_signal_add(c, a, s, pe); }
inline void shmem_signal_set(shmem_ctx_t c, uint64_t *a, uint64_t s, int pe)
{ shmem_ctx_signal_set(c, a, s, pe); }

/* The deprecated generic names of 1.3 (int, long, long long; fetch, set,
 * swap float and double too). shmem_swap(long *, long, int) and
 * shmem_wait(long *, long) are C routines: the other types overload them. */
#define SHMEM_CXX_DEPR_(X) X(int, int) X(long, long) X(longlong, long long)
#define SHMEM_CXX_DEF_DEPR_(N, T)                                                 \
    inline T shmem_cswap(T *d, T cond, T v, int pe) { return shmem_##N##_cswap(d, cond, v, pe); } \
    inline T shmem_finc(T *d, int pe) { return shmem_##N##_finc(d, pe); }        \
    inline void shmem_inc(T *d, int pe) { shmem_##N##_inc(d, pe); }              \
    inline T shmem_fadd(T *d, T v, int pe) { return shmem_##N##_fadd(d, v, pe); } \
    inline void shmem_add(T *d, T v, int pe) { shmem_##N##_add(d, v, pe); }
SHMEM_CXX_DEPR_(SHMEM_CXX_DEF_DEPR_)
#define SHMEM_CXX_DEF_DEPR_EXT_(N, T)                                             \
    inline T shmem_fetch(const T *s, int pe) { return shmem_##N##_fetch(s, pe); } \
    inline void shmem_set(T *d, T v, int pe) { shmem_##N##_set(d, v, pe); }
SHMEM_CXX_DEPR_(SHMEM_CXX_DEF_DEPR_EXT_)
SHMEM_CXX_DEF_DEPR_EXT_(float, float) SHMEM_CXX_DEF_DEPR_EXT_(double, double)
#define SHMEM_CXX_SWAP_(N, T)                                                     \
    inline T shmem_swap(T *d, T v, int pe) { return shmem_##N##_swap(d, v, pe); }
SHMEM_CXX_SWAP_(int, int) SHMEM_CXX_SWAP_(longlong, long long)
SHMEM_CXX_SWAP_(float, float) SHMEM_CXX_SWAP_(double, double)
#define SHMEM_CXX_WAIT_DEPR_(N, T)                                                \
    inline void shmem_wait(T *v, T x) { shmem_##N##_wait(v, x); }
SHMEM_CXX_WAIT_DEPR_(short, short) SHMEM_CXX_WAIT_DEPR_(int, int)
SHMEM_CXX_WAIT_DEPR_(longlong, long long) SHMEM_CXX_WAIT_DEPR_(ushort, unsigned short)
SHMEM_CXX_WAIT_DEPR_(uint, unsigned int) SHMEM_CXX_WAIT_DEPR_(ulong, unsigned long)
SHMEM_CXX_WAIT_DEPR_(ulonglong, unsigned long long)

#endif /* PSHMEM_SHMEM_CXX_H */
