/*
 * shmem.h - OpenSHMEM 1.6 over pshm.
 *
 * Every typed name of the specification is declared through the type lists
 * below (SHMEM_*_TYPES), so that each family is one line per operation and no
 * type can be forgotten in one family but not another. The C11 type-generic
 * forms follow at the end; deprecated names are declared too, as programs
 * written against OpenSHMEM 1.0-1.3 still use them.
 */
#ifndef PSHMEM_SHMEM_H
#define PSHMEM_SHMEM_H

#include <stddef.h>
#include <stdint.h>
/* The complex types: C's, and C++'s where the compiler takes C's _Complex
 * (g++ and clang++ do; Sandia OpenSHMEM's C++ header declares them so too). */
#if !defined(__cplusplus) && !defined(__STDC_NO_COMPLEX__)
#include <complex.h>
#define SHMEM_HAVE_COMPLEX_ 1
#elif defined(__cplusplus) && defined(__GNUC__)
#define SHMEM_HAVE_COMPLEX_ 1
#endif
#if defined(__cplusplus) && defined(__clang__)
/* clang++ -pedantic calls _Complex an extension; the header means it. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc99-extensions"
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SHMEM_API_ __attribute__((visibility("default")))
#define SHMEM_NORETURN_ __attribute__((noreturn))
#define SHMEM_DEPRECATED_
#else
#define SHMEM_API_
#define SHMEM_NORETURN_
#define SHMEM_DEPRECATED_
#endif

/* ------------------------------------------------------------ constants */

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 6
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "pshm OpenSHMEM"
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* pSync arrays: SHMEM_SYNC_SIZE longs is enough for any collective. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
/* The comparison's type, as other implementations name it; the routines
 * take an int (1.4), so int keeps the two interchangeable. */
typedef int shmem_cmp_t;

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* -------------------------------------------------------------- type lists */

/* X(NAME, TYPE) for each standard RMA type (OpenSHMEM 1.4, table 5). */
#define SHMEM_RMA_TYPES(X)                                                        \
    X(float, float) X(double, double) X(longdouble, long double) X(char, char)    \
    X(schar, signed char) X(short, short) X(int, int) X(long, long)               \
    X(longlong, long long) X(uchar, unsigned char) X(ushort, unsigned short)      \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long) \
    X(int8, int8_t) X(int16, int16_t) X(int32, int32_t) X(int64, int64_t)         \
    X(uint8, uint8_t) X(uint16, uint16_t) X(uint32, uint32_t) X(uint64, uint64_t) \
    X(size, size_t) X(ptrdiff, ptrdiff_t)

/* Standard AMO types (table 6): every atomic. */
#define SHMEM_AMO_TYPES(X)                                                        \
    X(int, int) X(long, long) X(longlong, long long) X(uint, unsigned int)        \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int32, int32_t)    \
    X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)     \
    X(ptrdiff, ptrdiff_t)
/* Extended AMO types: fetch, set, swap also on these. */
#define SHMEM_EXTENDED_AMO_TYPES(X) X(float, float) X(double, double)
/* Bitwise AMO types (table 7). */
#define SHMEM_BITWISE_AMO_TYPES(X)                                                \
    X(uint, unsigned int) X(ulong, unsigned long) X(ulonglong, unsigned long long) \
    X(int32, int32_t) X(int64, int64_t) X(uint32, uint32_t) X(uint64, uint64_t)
/* Point-to-point synchronization types (table 9). */
#define SHMEM_SYNC_TYPES(X)                                                       \
    X(short, short) X(int, int) X(long, long) X(longlong, long long)              \
    X(ushort, unsigned short) X(uint, unsigned int) X(ulong, unsigned long)       \
    X(ulonglong, unsigned long long) X(int32, int32_t) X(int64, int64_t)          \
    X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t) X(ptrdiff, ptrdiff_t)
/* Types of the deprecated (1.0-1.3) atomic names. */
#define SHMEM_DEPR_AMO_TYPES(X) X(int, int) X(long, long) X(longlong, long long)
#define SHMEM_DEPR_EXT_AMO_TYPES(X) X(float, float) X(double, double)
/* Sized RMA (bits). */
#define SHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Reduction types (table 11). */
#define SHMEM_REDUCE_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(longlong, long long)
#define SHMEM_REDUCE_MINMAX_TYPES(X)                                              \
    SHMEM_REDUCE_BITWISE_TYPES(X) X(float, float) X(double, double)              \
    X(longdouble, long double)
#ifdef SHMEM_HAVE_COMPLEX_
#define SHMEM_REDUCE_ARITH_TYPES(X)                                               \
    SHMEM_REDUCE_MINMAX_TYPES(X) X(complexf, float _Complex) X(complexd, double _Complex)
#else
#define SHMEM_REDUCE_ARITH_TYPES(X) SHMEM_REDUCE_MINMAX_TYPES(X)
#endif

/* ------------------------------------------------------- setup and query */

SHMEM_API_ void shmem_init(void);
SHMEM_API_ int shmem_init_thread(int requested, int *provided);
SHMEM_API_ void shmem_query_thread(int *provided);
SHMEM_API_ void shmem_finalize(void);
SHMEM_API_ SHMEM_NORETURN_ void shmem_global_exit(int status);
SHMEM_API_ int shmem_my_pe(void);
SHMEM_API_ int shmem_n_pes(void);
SHMEM_API_ int shmem_pe_accessible(int pe);
SHMEM_API_ int shmem_addr_accessible(const void *addr, int pe);
SHMEM_API_ void *shmem_ptr(const void *dest, int pe);
SHMEM_API_ void shmem_info_get_version(int *major, int *minor);
SHMEM_API_ void shmem_info_get_name(char *name);
/* Legacy names. */
SHMEM_API_ void start_pes(int npes) SHMEM_DEPRECATED_;
SHMEM_API_ int _my_pe(void) SHMEM_DEPRECATED_;
SHMEM_API_ int _num_pes(void) SHMEM_DEPRECATED_;

/* ---------------------------------------------------------------- memory */

SHMEM_API_ void *shmem_malloc(size_t size);
SHMEM_API_ void *shmem_calloc(size_t count, size_t size);
SHMEM_API_ void *shmem_align(size_t alignment, size_t size);
SHMEM_API_ void *shmem_realloc(void *ptr, size_t size);
/* OpenSHMEM 1.5: hints on how the memory will be used (all memory suits
 * every use here). */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)
SHMEM_API_ void *shmem_malloc_with_hints(size_t size, long hints);
SHMEM_API_ void shmem_free(void *ptr);
SHMEM_API_ void *shmalloc(size_t size) SHMEM_DEPRECATED_;
SHMEM_API_ void *shmemalign(size_t alignment, size_t size) SHMEM_DEPRECATED_;
SHMEM_API_ void *shrealloc(void *ptr, size_t size) SHMEM_DEPRECATED_;
SHMEM_API_ void shfree(void *ptr) SHMEM_DEPRECATED_;

/* ------------------------------------------------------------------- RMA */

#define SHMEM_DECL_RMA_(N, T)                                                     \
    SHMEM_API_ void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_##N##_p(T *dest, T value, int pe);                     \
    SHMEM_API_ T shmem_##N##_g(const T *source, int pe);                          \
    SHMEM_API_ void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst,     \
                                     ptrdiff_t sst, size_t nelems, int pe);       \
    SHMEM_API_ void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst,     \
                                     ptrdiff_t sst, size_t nelems, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_RMA_)

#define SHMEM_DECL_RMA_SIZE_(S)                                                   \
    SHMEM_API_ void shmem_put##S(void *dest, const void *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_get##S(void *dest, const void *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_put##S##_nbi(void *dest, const void *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_get##S##_nbi(void *dest, const void *source, size_t nelems, int pe); \
    SHMEM_API_ void shmem_iput##S(void *dest, const void *source, ptrdiff_t dst,  \
                                  ptrdiff_t sst, size_t nelems, int pe);          \
    SHMEM_API_ void shmem_iget##S(void *dest, const void *source, ptrdiff_t dst,  \
                                  ptrdiff_t sst, size_t nelems, int pe);
SHMEM_RMA_SIZES(SHMEM_DECL_RMA_SIZE_)

SHMEM_API_ void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
SHMEM_API_ void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
SHMEM_API_ void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
SHMEM_API_ void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

/* --------------------------------------------------------------- atomics */

#define SHMEM_DECL_AMO_EXT_(N, T)                                                 \
    SHMEM_API_ T shmem_##N##_atomic_fetch(const T *source, int pe);               \
    SHMEM_API_ void shmem_##N##_atomic_set(T *dest, T value, int pe);             \
    SHMEM_API_ T shmem_##N##_atomic_swap(T *dest, T value, int pe);
#define SHMEM_DECL_AMO_(N, T)                                                     \
    SHMEM_DECL_AMO_EXT_(N, T)                                                     \
    SHMEM_API_ T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe); \
    SHMEM_API_ T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                   \
    SHMEM_API_ void shmem_##N##_atomic_inc(T *dest, int pe);                      \
    SHMEM_API_ T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);          \
    SHMEM_API_ void shmem_##N##_atomic_add(T *dest, T value, int pe);
#define SHMEM_DECL_AMO_BIT_(N, T)                                                 \
    SHMEM_API_ T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe);          \
    SHMEM_API_ T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe);           \
    SHMEM_API_ T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);          \
    SHMEM_API_ void shmem_##N##_atomic_and(T *dest, T value, int pe);             \
    SHMEM_API_ void shmem_##N##_atomic_or(T *dest, T value, int pe);              \
    SHMEM_API_ void shmem_##N##_atomic_xor(T *dest, T value, int pe);
SHMEM_AMO_TYPES(SHMEM_DECL_AMO_)
SHMEM_EXTENDED_AMO_TYPES(SHMEM_DECL_AMO_EXT_)
SHMEM_BITWISE_AMO_TYPES(SHMEM_DECL_AMO_BIT_)

/* Deprecated atomic names (OpenSHMEM 1.0-1.3). */
#define SHMEM_DECL_DEPR_EXT_(N, T)                                                \
    SHMEM_API_ T shmem_##N##_fetch(const T *source, int pe) SHMEM_DEPRECATED_;    \
    SHMEM_API_ void shmem_##N##_set(T *dest, T value, int pe) SHMEM_DEPRECATED_;  \
    SHMEM_API_ T shmem_##N##_swap(T *dest, T value, int pe) SHMEM_DEPRECATED_;
#define SHMEM_DECL_DEPR_(N, T)                                                    \
    SHMEM_DECL_DEPR_EXT_(N, T)                                                    \
    SHMEM_API_ T shmem_##N##_cswap(T *dest, T cond, T value, int pe) SHMEM_DEPRECATED_; \
    SHMEM_API_ T shmem_##N##_finc(T *dest, int pe) SHMEM_DEPRECATED_;             \
    SHMEM_API_ void shmem_##N##_inc(T *dest, int pe) SHMEM_DEPRECATED_;           \
    SHMEM_API_ T shmem_##N##_fadd(T *dest, T value, int pe) SHMEM_DEPRECATED_;    \
    SHMEM_API_ void shmem_##N##_add(T *dest, T value, int pe) SHMEM_DEPRECATED_;
SHMEM_DEPR_AMO_TYPES(SHMEM_DECL_DEPR_)
SHMEM_DEPR_EXT_AMO_TYPES(SHMEM_DECL_DEPR_EXT_)
SHMEM_API_ long shmem_swap(long *dest, long value, int pe) SHMEM_DEPRECATED_;

/* ------------------------------------------------- communication contexts */

/* Every context of this implementation reaches the same mapped memory, and
 * every operation completes before it returns: a context only names an
 * ordering scope, so the ctx forms do what the forms without it do. */
typedef struct shmem_ctx_s *shmem_ctx_t;
#define SHMEM_CTX_PRIVATE (1L << 0)
#define SHMEM_CTX_SERIALIZED (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)
SHMEM_API_ extern shmem_ctx_t SHMEM_CTX_DEFAULT;
SHMEM_API_ int shmem_ctx_create(long options, shmem_ctx_t *ctx);
SHMEM_API_ void shmem_ctx_destroy(shmem_ctx_t ctx);
SHMEM_API_ void shmem_ctx_fence(shmem_ctx_t ctx);
SHMEM_API_ void shmem_ctx_quiet(shmem_ctx_t ctx);

#define SHMEM_DECL_CTX_RMA_(N, T)                                                 \
    SHMEM_API_ void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, \
                                        size_t nelems, int pe);                   \
    SHMEM_API_ void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, \
                                        size_t nelems, int pe);                   \
    SHMEM_API_ void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, \
                                            size_t nelems, int pe);               \
    SHMEM_API_ void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, \
                                            size_t nelems, int pe);               \
    SHMEM_API_ void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe);     \
    SHMEM_API_ void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, \
                                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, \
                                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_CTX_RMA_)

#define SHMEM_DECL_CTX_RMA_SIZE_(S)                                               \
    SHMEM_API_ void shmem_ctx_put##S(shmem_ctx_t ctx, void *dest, const void *source, \
                                     size_t nelems, int pe);                      \
    SHMEM_API_ void shmem_ctx_get##S(shmem_ctx_t ctx, void *dest, const void *source, \
                                     size_t nelems, int pe);                      \
    SHMEM_API_ void shmem_ctx_put##S##_nbi(shmem_ctx_t ctx, void *dest, const void *source, \
                                           size_t nelems, int pe);                \
    SHMEM_API_ void shmem_ctx_get##S##_nbi(shmem_ctx_t ctx, void *dest, const void *source, \
                                           size_t nelems, int pe);                \
    SHMEM_API_ void shmem_ctx_iput##S(shmem_ctx_t ctx, void *dest, const void *source, \
                                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe); \
    SHMEM_API_ void shmem_ctx_iget##S(shmem_ctx_t ctx, void *dest, const void *source, \
                                      ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
SHMEM_RMA_SIZES(SHMEM_DECL_CTX_RMA_SIZE_)
SHMEM_API_ void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t nelems, int pe);
SHMEM_API_ void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source,
                                 size_t nelems, int pe);
SHMEM_API_ void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                     size_t nelems, int pe);
SHMEM_API_ void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                                     size_t nelems, int pe);

#define SHMEM_DECL_CTX_AMO_EXT_(N, T)                                             \
    SHMEM_API_ T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe);
#define SHMEM_DECL_CTX_AMO_(N, T)                                                 \
    SHMEM_DECL_CTX_AMO_EXT_(N, T)                                                 \
    SHMEM_API_ T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, \
                                                     T value, int pe);            \
    SHMEM_API_ T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe); \
    SHMEM_API_ T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, int pe);
#define SHMEM_DECL_CTX_AMO_BIT_(N, T)                                             \
    SHMEM_API_ T shmem_ctx_##N##_atomic_fetch_and(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ T shmem_ctx_##N##_atomic_fetch_or(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ T shmem_ctx_##N##_atomic_fetch_xor(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_and(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_or(shmem_ctx_t ctx, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_xor(shmem_ctx_t ctx, T *dest, T value, int pe);
SHMEM_AMO_TYPES(SHMEM_DECL_CTX_AMO_)
SHMEM_EXTENDED_AMO_TYPES(SHMEM_DECL_CTX_AMO_EXT_)
SHMEM_BITWISE_AMO_TYPES(SHMEM_DECL_CTX_AMO_BIT_)

/* OpenSHMEM 1.5 non-blocking fetching atomics: the old value goes to *fetch
 * (here before the call returns), with and without a context. */
#define SHMEM_DECL_AMO_NBI_EXT_(N, T)                                             \
    SHMEM_API_ void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe); \
    SHMEM_API_ void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch,   \
                                                     const T *source, int pe);    \
    SHMEM_API_ void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                                    T value, int pe);
#define SHMEM_DECL_AMO_NBI_(N, T)                                                 \
    SHMEM_DECL_AMO_NBI_EXT_(N, T)                                                 \
    SHMEM_API_ void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, \
                                                        T value, int pe);         \
    SHMEM_API_ void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);  \
    SHMEM_API_ void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, \
                                                            T *dest, T cond, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                                         int pe);                 \
    SHMEM_API_ void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                                         T value, int pe);
#define SHMEM_DECL_AMO_NBI_BIT_(N, T)                                             \
    SHMEM_API_ void shmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_atomic_fetch_and_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                                         T value, int pe);        \
    SHMEM_API_ void shmem_ctx_##N##_atomic_fetch_or_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                                        T value, int pe);         \
    SHMEM_API_ void shmem_ctx_##N##_atomic_fetch_xor_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                                         T value, int pe);
SHMEM_AMO_TYPES(SHMEM_DECL_AMO_NBI_)
SHMEM_EXTENDED_AMO_TYPES(SHMEM_DECL_AMO_NBI_EXT_)
SHMEM_BITWISE_AMO_TYPES(SHMEM_DECL_AMO_NBI_BIT_)

/* ----------------------------------------- put with signal (OpenSHMEM 1.5) */

#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1
#define SHMEM_DECL_PUT_SIGNAL_(N, T)                                              \
    SHMEM_API_ void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, \
                                           uint64_t *sig_addr, uint64_t signal,   \
                                           int sig_op, int pe);                   \
    SHMEM_API_ void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, \
                                               uint64_t *sig_addr, uint64_t signal, \
                                               int sig_op, int pe);               \
    SHMEM_API_ void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, \
                                               size_t nelems, uint64_t *sig_addr, \
                                               uint64_t signal, int sig_op, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest,      \
                                                   const T *source, size_t nelems, \
                                                   uint64_t *sig_addr, uint64_t signal, \
                                                   int sig_op, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_PUT_SIGNAL_)
#define SHMEM_DECL_PUT_SIGNAL_SIZE_(S)                                            \
    SHMEM_API_ void shmem_put##S##_signal(void *dest, const void *source, size_t nelems, \
                                          uint64_t *sig_addr, uint64_t signal,    \
                                          int sig_op, int pe);                    \
    SHMEM_API_ void shmem_put##S##_signal_nbi(void *dest, const void *source,     \
                                              size_t nelems, uint64_t *sig_addr,  \
                                              uint64_t signal, int sig_op, int pe); \
    SHMEM_API_ void shmem_ctx_put##S##_signal(shmem_ctx_t ctx, void *dest,        \
                                              const void *source, size_t nelems,  \
                                              uint64_t *sig_addr, uint64_t signal, \
                                              int sig_op, int pe);                \
    SHMEM_API_ void shmem_ctx_put##S##_signal_nbi(shmem_ctx_t ctx, void *dest,    \
                                                  const void *source, size_t nelems, \
                                                  uint64_t *sig_addr, uint64_t signal, \
                                                  int sig_op, int pe);
SHMEM_DECL_PUT_SIGNAL_SIZE_(8)
SHMEM_DECL_PUT_SIGNAL_SIZE_(16)
SHMEM_DECL_PUT_SIGNAL_SIZE_(32)
SHMEM_DECL_PUT_SIGNAL_SIZE_(64)
SHMEM_DECL_PUT_SIGNAL_SIZE_(128)
SHMEM_DECL_PUT_SIGNAL_SIZE_(mem)
SHMEM_API_ uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
SHMEM_API_ uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ------------------------------------------------------ teams (1.5, 1.6) */

/* A team handle; SHMEM_TEAM_INVALID is NULL, as SHMEM_CTX_INVALID is. */
typedef struct shmem_team_s *shmem_team_t;
typedef struct {
    int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)
SHMEM_API_ extern shmem_team_t SHMEM_TEAM_WORLD;
SHMEM_API_ extern shmem_team_t SHMEM_TEAM_SHARED;

/* Team management (team.c): queries, splits, destroy, team contexts,
 * team pointers.
 */
SHMEM_API_ int shmem_team_my_pe(shmem_team_t team);
SHMEM_API_ int shmem_team_n_pes(shmem_team_t team);
SHMEM_API_ int shmem_team_get_config(shmem_team_t team, long config_mask,
                                     shmem_team_config_t *config);
SHMEM_API_ int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                       shmem_team_t dest_team);
SHMEM_API_ int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride,
                                        int size, const shmem_team_config_t *config,
                                        long config_mask, shmem_team_t *new_team);
SHMEM_API_ int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                                   const shmem_team_config_t *xaxis_config, long xaxis_mask,
                                   shmem_team_t *xaxis_team,
                                   const shmem_team_config_t *yaxis_config, long yaxis_mask,
                                   shmem_team_t *yaxis_team);
SHMEM_API_ void shmem_team_destroy(shmem_team_t team);
SHMEM_API_ int shmem_team_sync(shmem_team_t team);
SHMEM_API_ void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
SHMEM_API_ int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
SHMEM_API_ int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* -------------------------------------------------- team collectives */

/* Team-based collectives (coll_team*.c): sync, broadcast, collect,
 * fcollect, alltoall(s), reductions and scans, typed and mem forms.
 */

/* Types of the team-based reductions and scans (1.6, table
 * "teamreducetypes"): AND, OR, XOR on the unsigned and the fixed-size
 * integers; MAX, MIN on every integer and real type; SUM, PROD and the
 * scans on those and the complex types. */
#define SHMEM_TEAM_REDUCE_BITWISE_TYPES(X)                                        \
    X(uchar, unsigned char) X(ushort, unsigned short) X(uint, unsigned int)       \
    X(ulong, unsigned long) X(ulonglong, unsigned long long) X(int8, int8_t)      \
    X(int16, int16_t) X(int32, int32_t) X(int64, int64_t) X(uint8, uint8_t)       \
    X(uint16, uint16_t) X(uint32, uint32_t) X(uint64, uint64_t) X(size, size_t)
#define SHMEM_TEAM_REDUCE_INT_TYPES(X)                                            \
    X(char, char) X(schar, signed char) X(short, short) X(int, int) X(long, long) \
    X(longlong, long long) X(ptrdiff, ptrdiff_t) SHMEM_TEAM_REDUCE_BITWISE_TYPES(X)
#define SHMEM_TEAM_REDUCE_REAL_TYPES(X)                                           \
    X(float, float) X(double, double) X(longdouble, long double)
#define SHMEM_TEAM_REDUCE_MINMAX_TYPES(X)                                         \
    SHMEM_TEAM_REDUCE_INT_TYPES(X) SHMEM_TEAM_REDUCE_REAL_TYPES(X)
#ifdef SHMEM_HAVE_COMPLEX_
#define SHMEM_TEAM_REDUCE_COMPLEX_TYPES(X) X(complexd, double _Complex) X(complexf, float _Complex)
#else
#define SHMEM_TEAM_REDUCE_COMPLEX_TYPES(X)
#endif
#define SHMEM_TEAM_REDUCE_ARITH_TYPES(X)                                          \
    SHMEM_TEAM_REDUCE_MINMAX_TYPES(X) SHMEM_TEAM_REDUCE_COMPLEX_TYPES(X)

/* Broadcast, collect, fcollect, alltoall(s) on the standard RMA types
 * (1.6, table "stdrmatypes", the same as SHMEM_RMA_TYPES); 0 on success. */
#define SHMEM_DECL_TEAM_COLL_(N, T)                                               \
    SHMEM_API_ int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, \
                                         size_t nelems, int PE_root);             \
    SHMEM_API_ int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, \
                                       size_t nelems);                            \
    SHMEM_API_ int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, \
                                        size_t nelems);                           \
    SHMEM_API_ int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, \
                                        size_t nelems);                           \
    SHMEM_API_ int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, \
                                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems);
SHMEM_RMA_TYPES(SHMEM_DECL_TEAM_COLL_)
SHMEM_API_ int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
                                  size_t nelems, int PE_root);
SHMEM_API_ int shmem_collectmem(shmem_team_t team, void *dest, const void *source,
                                size_t nelems);
SHMEM_API_ int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems);
SHMEM_API_ int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
                                 size_t nelems);
SHMEM_API_ int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source,
                                  ptrdiff_t dst, ptrdiff_t sst, size_t nelems);

#define SHMEM_DECL_TEAM_REDUCE_(OP, N, T)                                         \
    SHMEM_API_ int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, \
                                             size_t nreduce);
#define SHMEM_DECL_TEAM_REDUCE_AND_(N, T) SHMEM_DECL_TEAM_REDUCE_(and, N, T)
#define SHMEM_DECL_TEAM_REDUCE_OR_(N, T) SHMEM_DECL_TEAM_REDUCE_(or, N, T)
#define SHMEM_DECL_TEAM_REDUCE_XOR_(N, T) SHMEM_DECL_TEAM_REDUCE_(xor, N, T)
#define SHMEM_DECL_TEAM_REDUCE_MAX_(N, T) SHMEM_DECL_TEAM_REDUCE_(max, N, T)
#define SHMEM_DECL_TEAM_REDUCE_MIN_(N, T) SHMEM_DECL_TEAM_REDUCE_(min, N, T)
#define SHMEM_DECL_TEAM_REDUCE_SUM_(N, T) SHMEM_DECL_TEAM_REDUCE_(sum, N, T)
#define SHMEM_DECL_TEAM_REDUCE_PROD_(N, T) SHMEM_DECL_TEAM_REDUCE_(prod, N, T)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(SHMEM_DECL_TEAM_REDUCE_AND_)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(SHMEM_DECL_TEAM_REDUCE_OR_)
SHMEM_TEAM_REDUCE_BITWISE_TYPES(SHMEM_DECL_TEAM_REDUCE_XOR_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(SHMEM_DECL_TEAM_REDUCE_MAX_)
SHMEM_TEAM_REDUCE_MINMAX_TYPES(SHMEM_DECL_TEAM_REDUCE_MIN_)
SHMEM_TEAM_REDUCE_ARITH_TYPES(SHMEM_DECL_TEAM_REDUCE_SUM_)
SHMEM_TEAM_REDUCE_ARITH_TYPES(SHMEM_DECL_TEAM_REDUCE_PROD_)

/* Prefix sums (1.6): dest on team member i holds the sum of the sources of
 * members 0..i (inscan) or 0..i-1 (exscan; zero on member 0). */
#define SHMEM_DECL_TEAM_SCAN_(N, T)                                               \
    SHMEM_API_ int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, \
                                          size_t nelems);                         \
    SHMEM_API_ int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, \
                                          size_t nelems);
SHMEM_TEAM_REDUCE_ARITH_TYPES(SHMEM_DECL_TEAM_SCAN_)

/* ---------------------------------------------- the rest of 1.5 and 1.6 */

/* Queries, completion, interleaved blocks, signals and sessions that 1.5
 * and 1.6 add (init.c, order.c, rma_ib.c, signal_op.c, session.c).
 */

/* 1.6: nonzero between an initialization and its last finalize; callable
 * at any time (query.c). */
SHMEM_API_ void shmem_query_initialized(int *initialized);
/* 1.6: quiet toward the listed PEs only (pe_quiet.c). */
SHMEM_API_ void shmem_pe_quiet(const int *target_pes, size_t npes);
SHMEM_API_ void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int *target_pes, size_t npes);

/* 1.6: interleaved blocks: nblocks blocks of bsize elements, block i at
 * dest + i * dst and source + i * sst (strides >= bsize) (rma_ib.c). */
#define SHMEM_DECL_IB_(N, T)                                                      \
    SHMEM_API_ void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst,    \
                                      ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
    SHMEM_API_ void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst,    \
                                      ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
    SHMEM_API_ void shmem_ctx_##N##_ibput(shmem_ctx_t ctx, T *dest, const T *source, \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                                          size_t nblocks, int pe);                \
    SHMEM_API_ void shmem_ctx_##N##_ibget(shmem_ctx_t ctx, T *dest, const T *source, \
                                          ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                                          size_t nblocks, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_IB_)
#define SHMEM_DECL_IB_SIZE_(S)                                                    \
    SHMEM_API_ void shmem_ibput##S(void *dest, const void *source, ptrdiff_t dst, \
                                   ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
    SHMEM_API_ void shmem_ibget##S(void *dest, const void *source, ptrdiff_t dst, \
                                   ptrdiff_t sst, size_t bsize, size_t nblocks, int pe); \
    SHMEM_API_ void shmem_ctx_ibput##S(shmem_ctx_t ctx, void *dest, const void *source, \
                                       ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                                       size_t nblocks, int pe);                   \
    SHMEM_API_ void shmem_ctx_ibget##S(shmem_ctx_t ctx, void *dest, const void *source, \
                                       ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                                       size_t nblocks, int pe);
SHMEM_RMA_SIZES(SHMEM_DECL_IB_SIZE_)

/* 1.6: a signal update without data, atomic as put-with-signal's
 * (signal_op.c). */
SHMEM_API_ void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
SHMEM_API_ void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
SHMEM_API_ void shmem_ctx_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                     int pe);
SHMEM_API_ void shmem_ctx_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr, uint64_t signal,
                                     int pe);

/* 1.6: sessions, hints on a context's coming operations (session.c). The
 * options and the configuration mask are separate sets of bits. */
typedef struct {
    size_t total_ops;
} shmem_ctx_session_config_t;
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
SHMEM_API_ void shmem_ctx_session_start(shmem_ctx_t ctx, long options,
                                        const shmem_ctx_session_config_t *config,
                                        long config_mask);
SHMEM_API_ void shmem_ctx_session_stop(shmem_ctx_t ctx);

/* ------------------------------------------------- ordering and completion */

SHMEM_API_ void shmem_fence(void);
SHMEM_API_ void shmem_quiet(void);

/* ------------------------------------------------ point-to-point sync */

#define SHMEM_DECL_SYNC_(N, T)                                                    \
    SHMEM_API_ void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);        \
    SHMEM_API_ int shmem_##N##_test(T *ivar, int cmp, T cmp_value);               \
    SHMEM_API_ void shmem_##N##_wait_until_all(T *ivars, size_t nelems,           \
                                               const int *status, int cmp, T cmp_value); \
    SHMEM_API_ size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems,         \
                                                 const int *status, int cmp, T cmp_value); \
    SHMEM_API_ size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems,        \
                                                  size_t *indices, const int *status, \
                                                  int cmp, T cmp_value);          \
    SHMEM_API_ int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, \
                                        int cmp, T cmp_value);                    \
    SHMEM_API_ size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, \
                                           int cmp, T cmp_value);                 \
    SHMEM_API_ size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, \
                                            const int *status, int cmp, T cmp_value); \
    SHMEM_API_ void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems,    \
                                                      const int *status, int cmp, \
                                                      const T *cmp_values);       \
    SHMEM_API_ size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems,  \
                                                        const int *status, int cmp, \
                                                        const T *cmp_values);     \
    SHMEM_API_ size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, \
                                                         size_t *indices,         \
                                                         const int *status, int cmp, \
                                                         const T *cmp_values);    \
    SHMEM_API_ int shmem_##N##_test_all_vector(T *ivars, size_t nelems,           \
                                               const int *status, int cmp, const T *cmp_values); \
    SHMEM_API_ size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems,        \
                                                  const int *status, int cmp,     \
                                                  const T *cmp_values);           \
    SHMEM_API_ size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems,       \
                                                   size_t *indices, const int *status, \
                                                   int cmp, const T *cmp_values); \
    SHMEM_API_ void shmem_##N##_wait(T *ivar, T cmp_value) SHMEM_DEPRECATED_;
SHMEM_SYNC_TYPES(SHMEM_DECL_SYNC_)
/* Deprecated untyped (long) forms; the C11 macros below take their names. */
SHMEM_API_ void shmem_wait_until(long *ivar, int cmp, long cmp_value) SHMEM_DEPRECATED_;
SHMEM_API_ void shmem_wait(long *ivar, long cmp_value) SHMEM_DEPRECATED_;

/* ----------------------------------------------------------- collectives */

SHMEM_API_ void shmem_barrier_all(void);
SHMEM_API_ void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
SHMEM_API_ void shmem_sync_all(void);
SHMEM_API_ void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define SHMEM_DECL_COLL_SIZE_(S)                                                  \
    SHMEM_API_ void shmem_broadcast##S(void *dest, const void *source, size_t nelems, \
                                       int PE_root, int PE_start, int logPE_stride, \
                                       int PE_size, long *pSync);                 \
    SHMEM_API_ void shmem_collect##S(void *dest, const void *source, size_t nelems, \
                                     int PE_start, int logPE_stride, int PE_size, long *pSync); \
    SHMEM_API_ void shmem_fcollect##S(void *dest, const void *source, size_t nelems, \
                                      int PE_start, int logPE_stride, int PE_size, long *pSync); \
    SHMEM_API_ void shmem_alltoall##S(void *dest, const void *source, size_t nelems, \
                                      int PE_start, int logPE_stride, int PE_size, long *pSync); \
    SHMEM_API_ void shmem_alltoalls##S(void *dest, const void *source, ptrdiff_t dst, \
                                       ptrdiff_t sst, size_t nelems, int PE_start, \
                                       int logPE_stride, int PE_size, long *pSync);
SHMEM_DECL_COLL_SIZE_(32)
SHMEM_DECL_COLL_SIZE_(64)

#define SHMEM_DECL_REDUCE_(OP, N, T)                                              \
    SHMEM_API_ void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, \
                                              int PE_start, int logPE_stride, int PE_size, \
                                              T *pWrk, long *pSync);
#define SHMEM_DECL_REDUCE_AND_(N, T) SHMEM_DECL_REDUCE_(and, N, T)
#define SHMEM_DECL_REDUCE_OR_(N, T) SHMEM_DECL_REDUCE_(or, N, T)
#define SHMEM_DECL_REDUCE_XOR_(N, T) SHMEM_DECL_REDUCE_(xor, N, T)
#define SHMEM_DECL_REDUCE_MIN_(N, T) SHMEM_DECL_REDUCE_(min, N, T)
#define SHMEM_DECL_REDUCE_MAX_(N, T) SHMEM_DECL_REDUCE_(max, N, T)
#define SHMEM_DECL_REDUCE_SUM_(N, T) SHMEM_DECL_REDUCE_(sum, N, T)
#define SHMEM_DECL_REDUCE_PROD_(N, T) SHMEM_DECL_REDUCE_(prod, N, T)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECL_REDUCE_AND_)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECL_REDUCE_OR_)
SHMEM_REDUCE_BITWISE_TYPES(SHMEM_DECL_REDUCE_XOR_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DECL_REDUCE_MIN_)
SHMEM_REDUCE_MINMAX_TYPES(SHMEM_DECL_REDUCE_MAX_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECL_REDUCE_SUM_)
SHMEM_REDUCE_ARITH_TYPES(SHMEM_DECL_REDUCE_PROD_)

/* ----------------------------------------------------------------- locks */

SHMEM_API_ void shmem_set_lock(long *lock);
SHMEM_API_ void shmem_clear_lock(long *lock);
SHMEM_API_ int shmem_test_lock(long *lock);

/* ------------------------------------- profiling interface (1.5, 1.6) */

/* Every routine here is also pshmem_X (pshmem.h, written at build time);
 * shmem_pcontrol is for a profiling tool to define: the library's own does
 * nothing (pcontrol.c). */
SHMEM_API_ void shmem_pcontrol(int level, ...);

/* ------------------------------------------- cache management (no-ops) */

SHMEM_API_ void shmem_clear_cache_inv(void) SHMEM_DEPRECATED_;
SHMEM_API_ void shmem_set_cache_inv(void) SHMEM_DEPRECATED_;
SHMEM_API_ void shmem_clear_cache_line_inv(void *dest) SHMEM_DEPRECATED_;
SHMEM_API_ void shmem_set_cache_line_inv(void *dest) SHMEM_DEPRECATED_;
SHMEM_API_ void shmem_udcflush(void) SHMEM_DEPRECATED_;
SHMEM_API_ void shmem_udcflush_line(void *dest) SHMEM_DEPRECATED_;

#ifdef __cplusplus
}
/* The generic forms, as C++ overloads. */
#include "shmem_cxx.h"
#ifdef __clang__
#pragma clang diagnostic pop
#endif
#endif

/* ------------------------------------------------- C11 type-generic forms */

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

/* One _Generic branch per type of a list, selected on the pointer type; P is
 * the name prefix: shmem_ or, for the forms with a context, shmem_ctx_. */
#define SHMEM_GEN_RMA_(P, op, dest)                                               \
    _Generic((dest),                                                              \
        float *: P##float_##op, double *: P##double_##op,                         \
        long double *: P##longdouble_##op, char *: P##char_##op,                  \
        signed char *: P##schar_##op, short *: P##short_##op,                     \
        int *: P##int_##op, long *: P##long_##op,                                 \
        long long *: P##longlong_##op, unsigned char *: P##uchar_##op,            \
        unsigned short *: P##ushort_##op, unsigned int *: P##uint_##op,           \
        unsigned long *: P##ulong_##op, unsigned long long *: P##ulonglong_##op)
/* Source-typed variant (g, atomic_fetch take a const pointer). */
#define SHMEM_GEN_RMA_C_(P, op, src)                                              \
    _Generic((src),                                                               \
        const float *: P##float_##op, float *: P##float_##op,                     \
        const double *: P##double_##op, double *: P##double_##op,                 \
        const long double *: P##longdouble_##op, long double *: P##longdouble_##op, \
        const char *: P##char_##op, char *: P##char_##op,                         \
        const signed char *: P##schar_##op, signed char *: P##schar_##op,         \
        const short *: P##short_##op, short *: P##short_##op,                     \
        const int *: P##int_##op, int *: P##int_##op,                             \
        const long *: P##long_##op, long *: P##long_##op,                         \
        const long long *: P##longlong_##op, long long *: P##longlong_##op,       \
        const unsigned char *: P##uchar_##op, unsigned char *: P##uchar_##op,     \
        const unsigned short *: P##ushort_##op, unsigned short *: P##ushort_##op, \
        const unsigned int *: P##uint_##op, unsigned int *: P##uint_##op,         \
        const unsigned long *: P##ulong_##op, unsigned long *: P##ulong_##op,     \
        const unsigned long long *: P##ulonglong_##op,                            \
        unsigned long long *: P##ulonglong_##op)
/* AMO types: int, long, long long and their unsigned forms (the fixed-size
 * and size_t/ptrdiff_t names are the same C types on Linux). */
#define SHMEM_GEN_AMO_(P, op, dest)                                               \
    _Generic((dest),                                                              \
        int *: P##int_##op, long *: P##long_##op,                                 \
        long long *: P##longlong_##op, unsigned int *: P##uint_##op,              \
        unsigned long *: P##ulong_##op, unsigned long long *: P##ulonglong_##op)
#define SHMEM_GEN_AMO_EXT_(P, op, dest)                                           \
    _Generic((dest),                                                              \
        float *: P##float_##op, double *: P##double_##op,                         \
        const float *: P##float_##op, const double *: P##double_##op,             \
        int *: P##int_##op, long *: P##long_##op,                                 \
        long long *: P##longlong_##op, unsigned int *: P##uint_##op,              \
        unsigned long *: P##ulong_##op, unsigned long long *: P##ulonglong_##op,  \
        const int *: P##int_##op, const long *: P##long_##op,                     \
        const long long *: P##longlong_##op, const unsigned int *: P##uint_##op,  \
        const unsigned long *: P##ulong_##op,                                     \
        const unsigned long long *: P##ulonglong_##op)
#define SHMEM_GEN_BIT_(P, op, dest)                                               \
    _Generic((dest),                                                              \
        unsigned int *: P##uint_##op, unsigned long *: P##ulong_##op,             \
        unsigned long long *: P##ulonglong_##op, int32_t *: P##int32_##op,        \
        int64_t *: P##int64_##op)
#define SHMEM_GEN_SYNC_(op, ivar)                                                 \
    _Generic((ivar),                                                              \
        short *: shmem_short_##op, int *: shmem_int_##op, long *: shmem_long_##op, \
        long long *: shmem_longlong_##op, unsigned short *: shmem_ushort_##op,    \
        unsigned int *: shmem_uint_##op, unsigned long *: shmem_ulong_##op,       \
        unsigned long long *: shmem_ulonglong_##op)

/* The forms with a context take one argument more: the argument count picks
 * SHMEM_C11_<op>_<count>_, which selects on the data pointer's type. */
#define SHMEM_NARG_(...) SHMEM_NARG_I_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SHMEM_NARG_I_(_1, _2, _3, _4, _5, _6, _7, _8, N, ...) N
#define SHMEM_CAT_(a, b) SHMEM_CAT_I_(a, b)
#define SHMEM_CAT_I_(a, b) a##b
#define SHMEM_C11_(op, ...) SHMEM_CAT_(SHMEM_C11_##op##_, SHMEM_NARG_(__VA_ARGS__))(__VA_ARGS__)

#define SHMEM_C11_put_4(d, s, n, pe) SHMEM_GEN_RMA_(shmem_, put, d)(d, s, n, pe)
#define SHMEM_C11_put_5(c, d, s, n, pe) SHMEM_GEN_RMA_(shmem_ctx_, put, d)(c, d, s, n, pe)
#define SHMEM_C11_get_4(d, s, n, pe) SHMEM_GEN_RMA_(shmem_, get, d)(d, s, n, pe)
#define SHMEM_C11_get_5(c, d, s, n, pe) SHMEM_GEN_RMA_(shmem_ctx_, get, d)(c, d, s, n, pe)
#define SHMEM_C11_put_nbi_4(d, s, n, pe) SHMEM_GEN_RMA_(shmem_, put_nbi, d)(d, s, n, pe)
#define SHMEM_C11_put_nbi_5(c, d, s, n, pe) SHMEM_GEN_RMA_(shmem_ctx_, put_nbi, d)(c, d, s, n, pe)
#define SHMEM_C11_get_nbi_4(d, s, n, pe) SHMEM_GEN_RMA_(shmem_, get_nbi, d)(d, s, n, pe)
#define SHMEM_C11_get_nbi_5(c, d, s, n, pe) SHMEM_GEN_RMA_(shmem_ctx_, get_nbi, d)(c, d, s, n, pe)
#define SHMEM_C11_p_3(d, v, pe) SHMEM_GEN_RMA_(shmem_, p, d)(d, v, pe)
#define SHMEM_C11_p_4(c, d, v, pe) SHMEM_GEN_RMA_(shmem_ctx_, p, d)(c, d, v, pe)
#define SHMEM_C11_g_2(s, pe) SHMEM_GEN_RMA_C_(shmem_, g, s)(s, pe)
#define SHMEM_C11_g_3(c, s, pe) SHMEM_GEN_RMA_C_(shmem_ctx_, g, s)(c, s, pe)
#define SHMEM_C11_iput_6(d, s, dst, sst, n, pe) SHMEM_GEN_RMA_(shmem_, iput, d)(d, s, dst, sst, n, pe)
#define SHMEM_C11_iput_7(c, d, s, dst, sst, n, pe) \
    SHMEM_GEN_RMA_(shmem_ctx_, iput, d)(c, d, s, dst, sst, n, pe)
#define SHMEM_C11_iget_6(d, s, dst, sst, n, pe) SHMEM_GEN_RMA_(shmem_, iget, d)(d, s, dst, sst, n, pe)
#define SHMEM_C11_iget_7(c, d, s, dst, sst, n, pe) \
    SHMEM_GEN_RMA_(shmem_ctx_, iget, d)(c, d, s, dst, sst, n, pe)

#define SHMEM_C11_put_signal_7(d, s, n, sa, sg, op, pe) \
    SHMEM_GEN_RMA_(shmem_, put_signal, d)(d, s, n, sa, sg, op, pe)
#define SHMEM_C11_put_signal_8(c, d, s, n, sa, sg, op, pe) \
    SHMEM_GEN_RMA_(shmem_ctx_, put_signal, d)(c, d, s, n, sa, sg, op, pe)
#define SHMEM_C11_put_signal_nbi_7(d, s, n, sa, sg, op, pe) \
    SHMEM_GEN_RMA_(shmem_, put_signal_nbi, d)(d, s, n, sa, sg, op, pe)
#define SHMEM_C11_put_signal_nbi_8(c, d, s, n, sa, sg, op, pe) \
    SHMEM_GEN_RMA_(shmem_ctx_, put_signal_nbi, d)(c, d, s, n, sa, sg, op, pe)
#define shmem_put_signal(...) SHMEM_C11_(put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SHMEM_C11_(put_signal_nbi, __VA_ARGS__)
#define shmem_put(...) SHMEM_C11_(put, __VA_ARGS__)
#define shmem_get(...) SHMEM_C11_(get, __VA_ARGS__)
#define shmem_put_nbi(...) SHMEM_C11_(put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SHMEM_C11_(get_nbi, __VA_ARGS__)
#define shmem_p(...) SHMEM_C11_(p, __VA_ARGS__)
#define shmem_g(...) SHMEM_C11_(g, __VA_ARGS__)
#define shmem_iput(...) SHMEM_C11_(iput, __VA_ARGS__)
#define shmem_iget(...) SHMEM_C11_(iget, __VA_ARGS__)

/* Atomics: G is the selector of the op's type list, N the count without a
 * context. */
#define SHMEM_C11_AMO1_(G, op, d, ...) G(shmem_, op, d)(d, __VA_ARGS__)
#define SHMEM_C11_AMO1C_(G, op, c, d, ...) G(shmem_ctx_, op, d)(c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_2(s, pe) SHMEM_GEN_AMO_EXT_(shmem_, atomic_fetch, s)(s, pe)
#define SHMEM_C11_atomic_fetch_3(c, s, pe) SHMEM_GEN_AMO_EXT_(shmem_ctx_, atomic_fetch, s)(c, s, pe)
#define SHMEM_C11_atomic_set_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_EXT_, atomic_set, d, __VA_ARGS__)
#define SHMEM_C11_atomic_set_4(c, d, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_EXT_, atomic_set, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_swap_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_EXT_, atomic_swap, d, __VA_ARGS__)
#define SHMEM_C11_atomic_swap_4(c, d, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_EXT_, atomic_swap, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_compare_swap_4(d, ...) \
    SHMEM_C11_AMO1_(SHMEM_GEN_AMO_, atomic_compare_swap, d, __VA_ARGS__)
#define SHMEM_C11_atomic_compare_swap_5(c, d, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_, atomic_compare_swap, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_inc_2(d, pe) SHMEM_GEN_AMO_(shmem_, atomic_fetch_inc, d)(d, pe)
#define SHMEM_C11_atomic_fetch_inc_3(c, d, pe) SHMEM_GEN_AMO_(shmem_ctx_, atomic_fetch_inc, d)(c, d, pe)
#define SHMEM_C11_atomic_inc_2(d, pe) SHMEM_GEN_AMO_(shmem_, atomic_inc, d)(d, pe)
#define SHMEM_C11_atomic_inc_3(c, d, pe) SHMEM_GEN_AMO_(shmem_ctx_, atomic_inc, d)(c, d, pe)
#define SHMEM_C11_atomic_fetch_add_3(d, ...) \
    SHMEM_C11_AMO1_(SHMEM_GEN_AMO_, atomic_fetch_add, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_add_4(c, d, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_, atomic_fetch_add, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_add_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_, atomic_add, d, __VA_ARGS__)
#define SHMEM_C11_atomic_add_4(c, d, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_, atomic_add, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_and_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_fetch_and, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_and_4(c, d, ...) SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_fetch_and, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_or_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_fetch_or, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_or_4(c, d, ...) SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_fetch_or, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_xor_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_fetch_xor, d, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_xor_4(c, d, ...) SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_fetch_xor, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_and_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_and, d, __VA_ARGS__)
#define SHMEM_C11_atomic_and_4(c, d, ...) SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_and, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_or_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_or, d, __VA_ARGS__)
#define SHMEM_C11_atomic_or_4(c, d, ...) SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_or, c, d, __VA_ARGS__)
#define SHMEM_C11_atomic_xor_3(d, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_xor, d, __VA_ARGS__)
#define SHMEM_C11_atomic_xor_4(c, d, ...) SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_xor, c, d, __VA_ARGS__)

#define shmem_atomic_fetch(...) SHMEM_C11_(atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEM_C11_(atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEM_C11_(atomic_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SHMEM_C11_(atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEM_C11_(atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEM_C11_(atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEM_C11_(atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEM_C11_(atomic_add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEM_C11_(atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEM_C11_(atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEM_C11_(atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEM_C11_(atomic_and, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEM_C11_(atomic_or, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEM_C11_(atomic_xor, __VA_ARGS__)

/* The rest of 1.5 and 1.6: the nonblocking fetching atomics (selected on
 * the fetch pointer, the old value's type), the interleaved blocks, the
 * signal updates (the C functions of the same names are the forms without
 * a context: parenthesized, the name is not expanded again). */
#define SHMEM_C11_atomic_fetch_nbi_3(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_EXT_, atomic_fetch_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_nbi_4(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_EXT_, atomic_fetch_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_swap_nbi_4(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_EXT_, atomic_swap_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_swap_nbi_5(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_EXT_, atomic_swap_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_compare_swap_nbi_5(f, ...) \
    SHMEM_C11_AMO1_(SHMEM_GEN_AMO_, atomic_compare_swap_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_compare_swap_nbi_6(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_, atomic_compare_swap_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_inc_nbi_3(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_, atomic_fetch_inc_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_inc_nbi_4(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_, atomic_fetch_inc_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_add_nbi_4(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_AMO_, atomic_fetch_add_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_add_nbi_5(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_AMO_, atomic_fetch_add_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_and_nbi_4(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_fetch_and_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_and_nbi_5(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_fetch_and_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_or_nbi_4(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_fetch_or_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_or_nbi_5(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_fetch_or_nbi, c, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_xor_nbi_4(f, ...) SHMEM_C11_AMO1_(SHMEM_GEN_BIT_, atomic_fetch_xor_nbi, f, __VA_ARGS__)
#define SHMEM_C11_atomic_fetch_xor_nbi_5(c, f, ...) \
    SHMEM_C11_AMO1C_(SHMEM_GEN_BIT_, atomic_fetch_xor_nbi, c, f, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SHMEM_C11_(atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEM_C11_(atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) SHMEM_C11_(atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SHMEM_C11_(atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SHMEM_C11_(atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SHMEM_C11_(atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SHMEM_C11_(atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SHMEM_C11_(atomic_fetch_xor_nbi, __VA_ARGS__)

#define SHMEM_C11_ibput_7(d, s, dst, sst, b, n, pe) \
    SHMEM_GEN_RMA_(shmem_, ibput, d)(d, s, dst, sst, b, n, pe)
#define SHMEM_C11_ibput_8(c, d, s, dst, sst, b, n, pe) \
    SHMEM_GEN_RMA_(shmem_ctx_, ibput, d)(c, d, s, dst, sst, b, n, pe)
#define SHMEM_C11_ibget_7(d, s, dst, sst, b, n, pe) \
    SHMEM_GEN_RMA_(shmem_, ibget, d)(d, s, dst, sst, b, n, pe)
#define SHMEM_C11_ibget_8(c, d, s, dst, sst, b, n, pe) \
    SHMEM_GEN_RMA_(shmem_ctx_, ibget, d)(c, d, s, dst, sst, b, n, pe)
#define shmem_ibput(...) SHMEM_C11_(ibput, __VA_ARGS__)
#define shmem_ibget(...) SHMEM_C11_(ibget, __VA_ARGS__)

#define SHMEM_C11_signal_add_3(a, s, pe) (shmem_signal_add)(a, s, pe)
#define SHMEM_C11_signal_add_4(c, a, s, pe) shmem_ctx_signal_add(c, a, s, pe)
#define SHMEM_C11_signal_set_3(a, s, pe) (shmem_signal_set)(a, s, pe)
#define SHMEM_C11_signal_set_4(c, a, s, pe) shmem_ctx_signal_set(c, a, s, pe)
#define shmem_signal_add(...) SHMEM_C11_(signal_add, __VA_ARGS__)
#define shmem_signal_set(...) SHMEM_C11_(signal_set, __VA_ARGS__)

/* Deprecated generic atomics (1.3 names). */
#define SHMEM_GEN_DEPR_(op, dest) \
    _Generic((dest), int *: shmem_int_##op, long *: shmem_long_##op, long long *: shmem_longlong_##op)
#define SHMEM_GEN_DEPR_EXT_(op, dest)                                             \
    _Generic((dest), int *: shmem_int_##op, long *: shmem_long_##op,              \
             long long *: shmem_longlong_##op, float *: shmem_float_##op,         \
             double *: shmem_double_##op, const int *: shmem_int_##op,            \
             const long *: shmem_long_##op, const long long *: shmem_longlong_##op, \
             const float *: shmem_float_##op, const double *: shmem_double_##op)
#define shmem_cswap(dest, cond, value, pe) SHMEM_GEN_DEPR_(cswap, dest)(dest, cond, value, pe)
#define shmem_swap(dest, value, pe) SHMEM_GEN_DEPR_EXT_(swap, dest)(dest, value, pe)
#define shmem_finc(dest, pe) SHMEM_GEN_DEPR_(finc, dest)(dest, pe)
#define shmem_inc(dest, pe) SHMEM_GEN_DEPR_(inc, dest)(dest, pe)
#define shmem_fadd(dest, value, pe) SHMEM_GEN_DEPR_(fadd, dest)(dest, value, pe)
#define shmem_add(dest, value, pe) SHMEM_GEN_DEPR_(add, dest)(dest, value, pe)
#define shmem_fetch(source, pe) SHMEM_GEN_DEPR_EXT_(fetch, source)(source, pe)
#define shmem_set(dest, value, pe) SHMEM_GEN_DEPR_EXT_(set, dest)(dest, value, pe)

#define shmem_wait_until(ivar, cmp, value) SHMEM_GEN_SYNC_(wait_until, ivar)(ivar, cmp, value)
#define shmem_wait(ivar, value) SHMEM_GEN_SYNC_(wait, ivar)(ivar, value)
#define shmem_test(ivar, cmp, value) SHMEM_GEN_SYNC_(test, ivar)(ivar, cmp, value)
#define shmem_wait_until_all(ivars, nelems, status, cmp, value) \
    SHMEM_GEN_SYNC_(wait_until_all, ivars)(ivars, nelems, status, cmp, value)
#define shmem_wait_until_any(ivars, nelems, status, cmp, value) \
    SHMEM_GEN_SYNC_(wait_until_any, ivars)(ivars, nelems, status, cmp, value)
#define shmem_wait_until_some(ivars, nelems, indices, status, cmp, value) \
    SHMEM_GEN_SYNC_(wait_until_some, ivars)(ivars, nelems, indices, status, cmp, value)
#define shmem_test_all(ivars, nelems, status, cmp, value) \
    SHMEM_GEN_SYNC_(test_all, ivars)(ivars, nelems, status, cmp, value)
#define shmem_test_any(ivars, nelems, status, cmp, value) \
    SHMEM_GEN_SYNC_(test_any, ivars)(ivars, nelems, status, cmp, value)
#define shmem_test_some(ivars, nelems, indices, status, cmp, value) \
    SHMEM_GEN_SYNC_(test_some, ivars)(ivars, nelems, indices, status, cmp, value)
#define shmem_wait_until_all_vector(ivars, nelems, status, cmp, values) \
    SHMEM_GEN_SYNC_(wait_until_all_vector, ivars)(ivars, nelems, status, cmp, values)
#define shmem_wait_until_any_vector(ivars, nelems, status, cmp, values) \
    SHMEM_GEN_SYNC_(wait_until_any_vector, ivars)(ivars, nelems, status, cmp, values)
#define shmem_wait_until_some_vector(ivars, nelems, indices, status, cmp, values) \
    SHMEM_GEN_SYNC_(wait_until_some_vector, ivars)(ivars, nelems, indices, status, cmp, values)
#define shmem_test_all_vector(ivars, nelems, status, cmp, values) \
    SHMEM_GEN_SYNC_(test_all_vector, ivars)(ivars, nelems, status, cmp, values)
#define shmem_test_any_vector(ivars, nelems, status, cmp, values) \
    SHMEM_GEN_SYNC_(test_any_vector, ivars)(ivars, nelems, status, cmp, values)
#define shmem_test_some_vector(ivars, nelems, indices, status, cmp, values) \
    SHMEM_GEN_SYNC_(test_some_vector, ivars)(ivars, nelems, indices, status, cmp, values)

/* shmem_sync(team) is shmem_team_sync (1.5's C11 form); with four
 * arguments it stays the active-set routine (the macro does not expand
 * its own name again). */
#define SHMEM_C11_sync_1(team) shmem_team_sync(team)
#define SHMEM_C11_sync_4(start, log, size, psync) shmem_sync(start, log, size, psync)
#define shmem_sync(...) SHMEM_C11_(sync, __VA_ARGS__)

/* Team collectives (1.5, 1.6): the data pointer, the second argument,
 * picks the typed routine. The fixed-size and size_t/ptrdiff_t names are
 * these C types, so a pointer to them selects the same routine. */
#define shmem_broadcast(team, dest, ...) SHMEM_GEN_RMA_(shmem_, broadcast, dest)(team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...) SHMEM_GEN_RMA_(shmem_, collect, dest)(team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...) SHMEM_GEN_RMA_(shmem_, fcollect, dest)(team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...) SHMEM_GEN_RMA_(shmem_, alltoall, dest)(team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...) SHMEM_GEN_RMA_(shmem_, alltoalls, dest)(team, dest, __VA_ARGS__)
/* AND, OR, XOR: the unsigned types and int8_t..int64_t (long long is not
 * one of them on LP64, and has no bitwise team reduction). */
#define SHMEM_GEN_TEAM_BIT_(op, dest)                                             \
    _Generic((dest),                                                              \
        unsigned char *: shmem_uchar_##op, unsigned short *: shmem_ushort_##op,   \
        unsigned int *: shmem_uint_##op, unsigned long *: shmem_ulong_##op,       \
        unsigned long long *: shmem_ulonglong_##op, int8_t *: shmem_int8_##op,    \
        int16_t *: shmem_int16_##op, int32_t *: shmem_int32_##op,                 \
        int64_t *: shmem_int64_##op)
/* MAX, MIN: every integer and real type; SUM, PROD, the scans: and the
 * complex ones. */
#define SHMEM_GEN_TEAM_MINMAX_LIST_(op)                                           \
    char *: shmem_char_##op, signed char *: shmem_schar_##op,                     \
    short *: shmem_short_##op, int *: shmem_int_##op, long *: shmem_long_##op,    \
    long long *: shmem_longlong_##op, unsigned char *: shmem_uchar_##op,          \
    unsigned short *: shmem_ushort_##op, unsigned int *: shmem_uint_##op,         \
    unsigned long *: shmem_ulong_##op, unsigned long long *: shmem_ulonglong_##op, \
    float *: shmem_float_##op, double *: shmem_double_##op,                       \
    long double *: shmem_longdouble_##op
#define SHMEM_GEN_TEAM_MINMAX_(op, dest) _Generic((dest), SHMEM_GEN_TEAM_MINMAX_LIST_(op))
#if !defined(__STDC_NO_COMPLEX__)
#define SHMEM_GEN_TEAM_ARITH_(op, dest)                                           \
    _Generic((dest), SHMEM_GEN_TEAM_MINMAX_LIST_(op),                             \
             double _Complex *: shmem_complexd_##op, float _Complex *: shmem_complexf_##op)
#else
#define SHMEM_GEN_TEAM_ARITH_(op, dest) SHMEM_GEN_TEAM_MINMAX_(op, dest)
#endif
#define shmem_and_reduce(team, dest, ...) SHMEM_GEN_TEAM_BIT_(and_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...) SHMEM_GEN_TEAM_BIT_(or_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...) SHMEM_GEN_TEAM_BIT_(xor_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...) SHMEM_GEN_TEAM_MINMAX_(max_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...) SHMEM_GEN_TEAM_MINMAX_(min_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...) SHMEM_GEN_TEAM_ARITH_(sum_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...) SHMEM_GEN_TEAM_ARITH_(prod_reduce, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_inscan(team, dest, ...) SHMEM_GEN_TEAM_ARITH_(sum_inscan, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...) SHMEM_GEN_TEAM_ARITH_(sum_exscan, dest)(team, dest, __VA_ARGS__)

#endif /* C11 */

#endif /* PSHMEM_SHMEM_H */
