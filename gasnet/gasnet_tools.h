/*
 * gasnet_tools.h - the GASNet tools (specification 1.9, README-tools) that
 * GASNet clients and GASNet's own test programs use: timers, atomics, memory
 * fences, mutexes, condition variables, reader/writer locks, thread keys,
 * compiler annotations, environment queries and system properties.
 *
 * Needs only libc and pthreads. The hot operations are inline here; the rest
 * is gasnet/gasnet_tools.c, which the GASNet layer's libraries carry.
 * Included after gasnet.h, or alone (a tools-only client).
 */
#ifndef GASNET_TOOLS_H
#define GASNET_TOOLS_H

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#define GASNETT_BEGIN_EXTERNC extern "C" {
#define GASNETT_END_EXTERNC }
#define GASNETT_EXTERNC extern "C"
#else
#define GASNETT_BEGIN_EXTERNC
#define GASNETT_END_EXTERNC
#define GASNETT_EXTERNC extern
#endif

GASNETT_BEGIN_EXTERNC

#define GASNETT_API_ __attribute__((__visibility__("default")))

/* ------------------------------------------------------------ versions */

#define GASNETT_SPEC_VERSION_MAJOR 1
#define GASNETT_SPEC_VERSION_MINOR 9
/* The release the GASNet layer claims (its gasnet_config.h), else GASNet-1's last. */
#ifdef GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MAJOR GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MINOR GASNET_RELEASE_VERSION_MINOR
#define GASNETT_RELEASE_VERSION_PATCH GASNET_RELEASE_VERSION_PATCH
#else
#define GASNETT_RELEASE_VERSION_MAJOR 1
#define GASNETT_RELEASE_VERSION_MINOR 32
#define GASNETT_RELEASE_VERSION_PATCH 0
#endif

/* A PAR client (gasnet.h's GASNET_PAR) is a thread-safe tools client. */
#if defined(GASNET_PAR) || defined(GASNET_PARSYNC)
#ifndef GASNETT_THREAD_SAFE
#define GASNETT_THREAD_SAFE 1
#endif
#endif
#ifndef GASNETT_MAX_THREADS
#define GASNETT_MAX_THREADS 256
#endif

#ifndef _STRINGIFY_HELPER
#define _STRINGIFY_HELPER(x) #x
#endif
#ifndef _STRINGIFY
#define _STRINGIFY(x) _STRINGIFY_HELPER(x)
#endif

/* ------------------------------------------------------------ platform */

/* The PLATFORM_* names of GASNet's portable_platform.h that clients test;
 * an unknown one is 0 in #if, as there. */
#ifndef PLATFORM_OS_LINUX
#define PLATFORM_OS_LINUX 1
#define PLATFORM_OS_FAMILYNAME LINUX
#endif
#if !defined(PLATFORM_COMPILER_FAMILYNAME)
#if defined(__clang__)
#define PLATFORM_COMPILER_CLANG 1
#define PLATFORM_COMPILER_FAMILYNAME CLANG
#define PLATFORM_COMPILER_VERSION_STR __clang_version__
#elif defined(__GNUC__)
#define PLATFORM_COMPILER_GNU 1
#define PLATFORM_COMPILER_FAMILYNAME GNU
#define PLATFORM_COMPILER_VERSION_STR __VERSION__
#else
#define PLATFORM_COMPILER_UNKNOWN 1
#define PLATFORM_COMPILER_FAMILYNAME UNKNOWN
#define PLATFORM_COMPILER_VERSION_STR "unknown"
#endif
#ifdef __cplusplus
#define PLATFORM_COMPILER_CXX 1
#else
#define PLATFORM_COMPILER_C 1
#endif
#endif
#if !defined(PLATFORM_ARCH_FAMILYNAME)
#if defined(__x86_64__)
#define PLATFORM_ARCH_X86_64 1
#define PLATFORM_ARCH_FAMILYNAME X86_64
#elif defined(__aarch64__)
#define PLATFORM_ARCH_AARCH64 1
#define PLATFORM_ARCH_FAMILYNAME AARCH64
#elif defined(__i386__)
#define PLATFORM_ARCH_X86 1
#define PLATFORM_ARCH_FAMILYNAME X86
#else
#define PLATFORM_ARCH_UNKNOWN 1
#define PLATFORM_ARCH_FAMILYNAME UNKNOWN
#endif
#if UINTPTR_MAX > 0xffffffffu
#define PLATFORM_ARCH_64 1
#else
#define PLATFORM_ARCH_32 1
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PLATFORM_ARCH_LITTLE_ENDIAN 1
#else
#define PLATFORM_ARCH_BIG_ENDIAN 1
#endif
#endif

#define GASNETT_SYSTEM_TUPLE _STRINGIFY(PLATFORM_ARCH_FAMILYNAME) "-unknown-linux-gnu"
#define GASNETT_CACHE_LINE_BYTES 64
#define GASNETT_PAGESIZE 4096
#define GASNETT_PAGESHIFT 12
#define GASNETT_CONFIG_STRING \
  "RELEASE=" _STRINGIFY(GASNETT_RELEASE_VERSION_MAJOR) "." _STRINGIFY(GASNETT_RELEASE_VERSION_MINOR) "." \
  _STRINGIFY(GASNETT_RELEASE_VERSION_PATCH) ",SPEC=1.9,PTR=" _STRINGIFY(__SIZEOF_POINTER__) "x8bit,nodebug,notrace,nostats"

/* ------------------------------------------------------------ compiler annotations */

#define GASNETT_INLINE(fnname) static inline __attribute__((__always_inline__))
#define GASNETT_PLEASE_INLINE(fnname) static inline
#define GASNETT_NEVER_INLINE(fnname, definition) __attribute__((__noinline__)) definition
#define GASNETT_RESTRICT __restrict__
#define GASNETT_FORMAT_PRINTF(fnname, fmtarg, firstvararg, declarator) \
  __attribute__((__format__(__printf__, fmtarg, firstvararg))) declarator
#define GASNETT_FORMAT_PRINTF_FUNCPTR(fnname, fmtarg, firstvararg, declarator) \
  __attribute__((__format__(__printf__, fmtarg, firstvararg))) declarator
#define GASNETT_NORETURN __attribute__((__noreturn__))
#define GASNETT_NORETURNP(fnname)
#define GASNETT_MALLOC __attribute__((__malloc__))
#define GASNETT_MALLOCP(fnname)
#define GASNETT_PURE __attribute__((__pure__))
#define GASNETT_PUREP(fnname)
#define GASNETT_CONST __attribute__((__const__))
#define GASNETT_CONSTP(fnname)
#define GASNETT_HOT __attribute__((__hot__))
#define GASNETT_COLD __attribute__((__cold__))
#define GASNETT_DEPRECATED __attribute__((__deprecated__))
#define GASNETT_WARN_UNUSED_RESULT __attribute__((__warn_unused_result__))
#define GASNETT_USED __attribute__((__used__))
#define GASNETT_UNUSED __attribute__((__unused__))
#define GASNETT_MAY_ALIAS __attribute__((__may_alias__))
#define GASNETT_PREDICT_TRUE(expr) __builtin_expect(!!(expr), 1)
#define GASNETT_PREDICT_FALSE(expr) __builtin_expect(!!(expr), 0)
#ifndef if_pf
#define if_pf(cond) if (GASNETT_PREDICT_FALSE(cond))
#endif
#ifndef if_pt
#define if_pt(cond) if (GASNETT_PREDICT_TRUE(cond))
#endif
#define gasnett_constant_p(expr) __builtin_constant_p(expr)
#define GASNETT_CURRENT_FUNCTION __func__
/* Global scope; the text stays in the executable for ident(1). */
#define GASNETT_IDENT(identName, identText) \
  extern const char identName[];            \
  GASNETT_USED const char identName[] = identText

/* ------------------------------------------------------------ fences */

/* Every fence is also a compiler fence. wmb orders earlier stores before
 * later ones, rmb earlier loads before later ones: a release and an acquire
 * fence give those orders; mb also orders stores before later loads, which
 * only a sequentially consistent fence does. Processes of one job share
 * memory, so the weak fences stay real fences in a SEQ build too. */
#define gasnett_compiler_fence() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#define gasnett_local_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define gasnett_local_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define gasnett_local_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define gasnett_weak_wmb() gasnett_local_wmb()
#define gasnett_weak_rmb() gasnett_local_rmb()
#define gasnett_weak_mb() gasnett_local_mb()
#if defined(__x86_64__) || defined(__i386__)
#define gasnett_spinloop_hint() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define gasnett_spinloop_hint() __asm__ __volatile__("yield" ::: "memory")
#else
#define gasnett_spinloop_hint() gasnett_compiler_fence()
#endif

/* ------------------------------------------------------------ atomics */

/* Fence flags; a full fence is both halves, so MB = RMB | WMB. */
#define GASNETT_ATOMIC_NONE 0x00
#define GASNETT_ATOMIC_RMB_PRE 0x01
#define GASNETT_ATOMIC_WMB_PRE 0x02
#define GASNETT_ATOMIC_RMB_POST 0x04
#define GASNETT_ATOMIC_WMB_POST 0x08
#define GASNETT_ATOMIC_RMB_POST_IF_TRUE 0x10
#define GASNETT_ATOMIC_RMB_POST_IF_FALSE 0x20
#define GASNETT_ATOMIC_MB_PRE (GASNETT_ATOMIC_RMB_PRE | GASNETT_ATOMIC_WMB_PRE)
#define GASNETT_ATOMIC_MB_POST (GASNETT_ATOMIC_RMB_POST | GASNETT_ATOMIC_WMB_POST)
#define GASNETT_ATOMIC_REL GASNETT_ATOMIC_WMB_PRE
#define GASNETT_ATOMIC_ACQ GASNETT_ATOMIC_RMB_POST
#define GASNETT_ATOMIC_ACQ_IF_TRUE GASNETT_ATOMIC_RMB_POST_IF_TRUE
#define GASNETT_ATOMIC_ACQ_IF_FALSE GASNETT_ATOMIC_RMB_POST_IF_FALSE

/* The flags are constants at nearly every call, so these fold to the one
 * fence asked for, or to nothing. */
static inline void gasnett_atomic_fence_(int flags, int rmb, int wmb) {
  if ((flags & (rmb | wmb)) == (rmb | wmb)) gasnett_local_mb();
  else if (flags & wmb) gasnett_local_wmb();
  else if (flags & rmb) gasnett_local_rmb();
}
#define GASNETT_ATOMIC_PRE_(f) gasnett_atomic_fence_((f), GASNETT_ATOMIC_RMB_PRE, GASNETT_ATOMIC_WMB_PRE)
#define GASNETT_ATOMIC_POST_(f) gasnett_atomic_fence_((f), GASNETT_ATOMIC_RMB_POST, GASNETT_ATOMIC_WMB_POST)
static inline int gasnett_atomic_post_bool_(int flags, int result) {
  GASNETT_ATOMIC_POST_(flags);
  if (flags & (result ? GASNETT_ATOMIC_RMB_POST_IF_TRUE : GASNETT_ATOMIC_RMB_POST_IF_FALSE))
    gasnett_local_rmb();
  return result;
}

/* One family of operations per width, on the natural storage (the
 * specification lets a client cast an (int32_t *) to (gasnett_atomic32_t *)),
 * so no _Atomic type: the __atomic builtins (the C11 memory model, usable
 * from C++ too) on a plain integer. Relaxed order: the fences are the
 * flags'. Lock-free on every supported CPU, hence signal-safe, so the
 * "strong" atomics are these same operations, in SEQ builds too. */
/* add and subtract return the new value, swap the old one. */
#define GASNETT_ATOMIC_RMW_(NAME, T, V, BUILTIN)                    \
  static inline V NAME(T *p, V v, int f) {                          \
    GASNETT_ATOMIC_PRE_(f);                                         \
    V r = BUILTIN(&p->gasnett_ctr_, v, __ATOMIC_RELAXED);           \
    GASNETT_ATOMIC_POST_(f);                                        \
    return r;                                                       \
  }
#define GASNETT_ATOMIC_FAMILY_(P, T, V)                                                             \
  typedef struct { V gasnett_ctr_; } T;                                                             \
  static inline V P##_read(T *p, int f) {                                                           \
    GASNETT_ATOMIC_PRE_(f);                                                                         \
    V v = __atomic_load_n(&p->gasnett_ctr_, __ATOMIC_RELAXED);                                      \
    GASNETT_ATOMIC_POST_(f);                                                                        \
    return v;                                                                                       \
  }                                                                                                 \
  static inline void P##_set(T *p, V v, int f) {                                                    \
    GASNETT_ATOMIC_PRE_(f);                                                                         \
    __atomic_store_n(&p->gasnett_ctr_, v, __ATOMIC_RELAXED);                                        \
    GASNETT_ATOMIC_POST_(f);                                                                        \
  }                                                                                                 \
  GASNETT_ATOMIC_RMW_(P##_add, T, V, __atomic_add_fetch)                                           \
  GASNETT_ATOMIC_RMW_(P##_subtract, T, V, __atomic_sub_fetch)                                      \
  GASNETT_ATOMIC_RMW_(P##_swap, T, V, __atomic_exchange_n)                                         \
  static inline void P##_increment(T *p, int f) { (void)P##_add(p, 1, f); }                         \
  static inline void P##_decrement(T *p, int f) { (void)P##_subtract(p, 1, f); }                    \
  static inline int P##_decrement_and_test(T *p, int f) {                                           \
    GASNETT_ATOMIC_PRE_(f);                                                                         \
    int z = __atomic_sub_fetch(&p->gasnett_ctr_, 1, __ATOMIC_RELAXED) == 0;                         \
    return gasnett_atomic_post_bool_(f, z);                                                         \
  }                                                                                                 \
  static inline int P##_compare_and_swap(T *p, V oldval, V newval, int f) {                         \
    GASNETT_ATOMIC_PRE_(f);                                                                         \
    int ok = __atomic_compare_exchange_n(&p->gasnett_ctr_, &oldval, newval, 0, __ATOMIC_RELAXED,    \
                                         __ATOMIC_RELAXED);                                         \
    return gasnett_atomic_post_bool_(f, ok);                                                        \
  }

GASNETT_ATOMIC_FAMILY_(gasnett_atomic, gasnett_atomic_t, uint32_t)
GASNETT_ATOMIC_FAMILY_(gasnett_atomic32, gasnett_atomic32_t, uint32_t)
GASNETT_ATOMIC_FAMILY_(gasnett_atomic64, gasnett_atomic64_t, uint64_t)
GASNETT_ATOMIC_FAMILY_(gasnett_strongatomic, gasnett_strongatomic_t, uint32_t)
GASNETT_ATOMIC_FAMILY_(gasnett_strongatomic32, gasnett_strongatomic32_t, uint32_t)
GASNETT_ATOMIC_FAMILY_(gasnett_strongatomic64, gasnett_strongatomic64_t, uint64_t)

typedef uint32_t gasnett_atomic_val_t;
typedef int32_t gasnett_atomic_sval_t;
typedef uint32_t gasnett_strongatomic_val_t;
typedef int32_t gasnett_strongatomic_sval_t;
#define gasnett_atomic_init(v) { (gasnett_atomic_val_t)(v) }
#define gasnett_atomic32_init(v) { (uint32_t)(v) }
#define gasnett_atomic64_init(v) { (uint64_t)(v) }
#define gasnett_strongatomic_init(v) { (gasnett_strongatomic_val_t)(v) }
#define gasnett_strongatomic32_init(v) { (uint32_t)(v) }
#define gasnett_strongatomic64_init(v) { (uint64_t)(v) }
#define gasnett_atomic_signed(v) ((gasnett_atomic_sval_t)(v))
#define gasnett_strongatomic_signed(v) ((gasnett_strongatomic_sval_t)(v))
#define GASNETT_ATOMIC_MAX ((gasnett_atomic_val_t)UINT32_MAX)
#define GASNETT_ATOMIC_SIGNED_MIN ((gasnett_atomic_sval_t)INT32_MIN)
#define GASNETT_ATOMIC_SIGNED_MAX ((gasnett_atomic_sval_t)INT32_MAX)
#define GASNETT_STRONGATOMIC_MAX GASNETT_ATOMIC_MAX
#define GASNETT_STRONGATOMIC_SIGNED_MIN GASNETT_ATOMIC_SIGNED_MIN
#define GASNETT_STRONGATOMIC_SIGNED_MAX GASNETT_ATOMIC_SIGNED_MAX
#define GASNETT_HAVE_ATOMIC_CAS 1
#define GASNETT_HAVE_ATOMIC_ADD_SUB 1
#define GASNETT_HAVE_STRONGATOMIC_CAS 1
#define GASNETT_HAVE_STRONGATOMIC_ADD_SUB 1

/* ------------------------------------------------------------ timers */

/* Ticks are nanoseconds of CLOCK_MONOTONIC (the vDSO reads it without a
 * system call), so every conversion is exact and ticks of different threads
 * and processes of one host compare. */
typedef uint64_t gasnett_tick_t;
#define GASNETT_TICK_MIN ((gasnett_tick_t)0)
#define GASNETT_TICK_MAX ((gasnett_tick_t)UINT64_MAX)
GASNETT_API_ gasnett_tick_t gasnett_ticks_now_(void);
#define gasnett_ticks_now() gasnett_ticks_now_()
#define gasnett_ticks_to_ns(ticks) ((uint64_t)(ticks))
#define gasnett_ticks_to_us(ticks) ((uint64_t)(ticks) / 1000u)
#define gasnett_ticks_to_sec(ticks) ((double)(ticks) * 1e-9)
/* Measured once: the smallest step the clock shows, and the cost of a read. */
GASNETT_API_ double gasnett_tick_granularityus(void);
GASNETT_API_ double gasnett_tick_overheadus(void);
GASNETT_API_ uint64_t gasnett_gettimeofday_us(void);

/* ------------------------------------------------------------ mutexes, condition variables */

/* Always real pthread locks (as GASNETT_USE_TRUE_MUTEXES=1 gives), so a SEQ
 * client's helper threads are safe too. A failing call is a usage error
 * (recursive lock of an error-checking mutex, unlock by a non-owner, a
 * destroyed lock): fatal, naming the call and the error. */
GASNETT_API_ GASNETT_NORETURN void gasnett_lockcall_failed_(const char *call, int err);
#define GASNETT_LOCKCALL_(call, expr)                         \
  do {                                                        \
    int gasnett_err_ = (expr);                                \
    if (__builtin_expect(gasnett_err_ != 0, 0)) gasnett_lockcall_failed_(call, gasnett_err_); \
  } while (0)

typedef pthread_mutex_t gasnett_mutex_t;
#define GASNETT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
#define gasnett_mutex_init(pl) GASNETT_LOCKCALL_("gasnett_mutex_init", pthread_mutex_init((pl), NULL))
#define gasnett_mutex_destroy(pl) GASNETT_LOCKCALL_("gasnett_mutex_destroy", pthread_mutex_destroy(pl))
#define gasnett_mutex_destroy_ignoreerr(pl) pthread_mutex_destroy(pl)
#define gasnett_mutex_lock(pl) GASNETT_LOCKCALL_("gasnett_mutex_lock", pthread_mutex_lock(pl))
#define gasnett_mutex_unlock(pl) GASNETT_LOCKCALL_("gasnett_mutex_unlock", pthread_mutex_unlock(pl))
/* 0 when taken, EBUSY when another thread holds it. */
static inline int gasnett_mutex_trylock(gasnett_mutex_t *pl) {
  int err = pthread_mutex_trylock(pl);
  if (__builtin_expect(err != 0 && err != EBUSY, 0)) gasnett_lockcall_failed_("gasnett_mutex_trylock", err);
  return err;
}
/* Checked only in debug builds: no-ops here, as in a non-debug GASNet. */
#define gasnett_mutex_assertlocked(pl) ((void)(pl))
#define gasnett_mutex_assertunlocked(pl) ((void)(pl))

typedef pthread_cond_t gasnett_cond_t;
#define GASNETT_COND_INITIALIZER PTHREAD_COND_INITIALIZER
#define gasnett_cond_init(pc) GASNETT_LOCKCALL_("gasnett_cond_init", pthread_cond_init((pc), NULL))
#define gasnett_cond_destroy(pc) GASNETT_LOCKCALL_("gasnett_cond_destroy", pthread_cond_destroy(pc))
#define gasnett_cond_signal(pc) GASNETT_LOCKCALL_("gasnett_cond_signal", pthread_cond_signal(pc))
#define gasnett_cond_broadcast(pc) GASNETT_LOCKCALL_("gasnett_cond_broadcast", pthread_cond_broadcast(pc))
#define gasnett_cond_wait(pc, pl) GASNETT_LOCKCALL_("gasnett_cond_wait", pthread_cond_wait((pc), (pl)))

/* pthread.h has rwlocks only with POSIX 2001 visible (not under a bare -std=c11). */
#ifdef PTHREAD_RWLOCK_INITIALIZER
typedef pthread_rwlock_t gasnett_rwlock_t;
#define GASNETT_RWLOCK_INITIALIZER PTHREAD_RWLOCK_INITIALIZER
#define gasnett_rwlock_init(pl) GASNETT_LOCKCALL_("gasnett_rwlock_init", pthread_rwlock_init((pl), NULL))
#define gasnett_rwlock_destroy(pl) GASNETT_LOCKCALL_("gasnett_rwlock_destroy", pthread_rwlock_destroy(pl))
#define gasnett_rwlock_rdlock(pl) GASNETT_LOCKCALL_("gasnett_rwlock_rdlock", gasnett_rwlock_rdlock_(pl))
#define gasnett_rwlock_wrlock(pl) GASNETT_LOCKCALL_("gasnett_rwlock_wrlock", pthread_rwlock_wrlock(pl))
#define gasnett_rwlock_unlock(pl) GASNETT_LOCKCALL_("gasnett_rwlock_unlock", pthread_rwlock_unlock(pl))
#define gasnett_rwlock_tryrdlock(pl) pthread_rwlock_tryrdlock(pl)
#define gasnett_rwlock_trywrlock(pl) pthread_rwlock_trywrlock(pl)
#define gasnett_rwlock_assertrdlocked(pl) ((void)(pl))
#define gasnett_rwlock_assertwrlocked(pl) ((void)(pl))
#define gasnett_rwlock_assertlocked(pl) ((void)(pl))
#define gasnett_rwlock_assertunlocked(pl) ((void)(pl))
/* The reader limit's EAGAIN blocks instead, as the specification asks. */
GASNETT_API_ int gasnett_rwlock_rdlock_(gasnett_rwlock_t *pl);
#endif

/* ------------------------------------------------------------ thread-specific data */

#define GASNETT_THREADKEY_DEFINE(key) __thread void *gasnett_threadkey_##key = NULL
#define GASNETT_THREADKEY_DECLARE(key) extern __thread void *gasnett_threadkey_##key
#define gasnett_threadkey_get(key) (gasnett_threadkey_##key)
#define gasnett_threadkey_set(key, val) ((void)(gasnett_threadkey_##key = (val)))
#define gasnett_threadkey_get_noinit(key) gasnett_threadkey_get(key)
#define gasnett_threadkey_set_noinit(key, val) gasnett_threadkey_set(key, val)
#define gasnett_threadkey_init(key) ((void)0)

/* ------------------------------------------------------------ environment */

/* Strict: a value that is not a number, a size or yes/no is a fatal error
 * naming the variable, its value and what it accepts. GASNET_VERBOSEENV=1
 * prints every setting asked for, once, to stderr. */
GASNETT_API_ char *gasnett_getenv(const char *keyname);
GASNETT_API_ char *gasnett_getenv_withdefault(const char *keyname, const char *defaultval);
GASNETT_API_ int gasnett_getenv_yesno_withdefault(const char *keyname, int defaultval);
GASNETT_API_ int64_t gasnett_getenv_int_withdefault(const char *keyname, int64_t defaultval,
                                                    uint64_t mem_size_multiplier);
GASNETT_API_ double gasnett_getenv_dbl_withdefault(const char *keyname, double defaultval);
GASNETT_API_ void gasnett_setenv(const char *key, const char *value);
GASNETT_API_ void gasnett_unsetenv(const char *key);
GASNETT_API_ int gasnett_verboseenv(void);
GASNETT_API_ void gasnett_envint_display(const char *key, int64_t val, int is_dflt, int is_mem_size);
GASNETT_API_ void gasnett_envstr_display(const char *key, const char *val, int is_dflt);
GASNETT_API_ void gasnett_envdbl_display(const char *key, double val, int is_dflt);
GASNETT_API_ char *gasnett_format_number(int64_t val, char *buf, size_t bufsz, int is_mem_size);
GASNETT_API_ int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier);

/* ------------------------------------------------------------ errors, backtraces */

GASNETT_API_ GASNETT_NORETURN __attribute__((__format__(__printf__, 1, 2)))
void gasnett_fatalerror(const char *msg, ...);
GASNETT_API_ GASNETT_NORETURN void gasnett_killmyprocess(int exitcode);
GASNETT_API_ void gasnett_flush_streams(void);
GASNETT_API_ void gasnett_close_streams(void);
typedef void (*gasnett_sighandlerfn_t)(int);
GASNETT_API_ gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp);

/* A client's own mechanism: define gasnett_backtrace_user (GASNET_BACKTRACE_TYPE
 * names it, or it is tried first). */
typedef struct {
  const char *name;
  int (*fnp)(int fd);
  int threadsupport;
} gasnett_backtrace_type_t;
GASNETT_API_ void gasnett_backtrace_init(const char *exename);
/* 0 when a backtrace was written to fd. */
GASNETT_API_ int gasnett_print_backtrace(int fd);
/* gasnett_print_backtrace when GASNET_BACKTRACE=1, else nothing (returns 1). */
GASNETT_API_ extern int (*gasnett_print_backtrace_ifenabled)(int fd);
GASNETT_API_ void gasnett_freezeForDebuggerNow(volatile int *flag, const char *flagsymname);
GASNETT_API_ void gasnett_freezeForDebuggerErr(void);
GASNETT_API_ char *gasnett_current_loc_(const char *file, int line, const char *func);
#define gasnett_current_loc gasnett_current_loc_(__FILE__, __LINE__, __func__)
/* The build's features that slow it down: none. */
#define gasnett_performance_warning_str() ""

/* Tracing and statistics are not built in: their macros compile away, as in
 * a GASNet configured without --enable-trace and --enable-stats. */
#define GASNETT_TRACE_ENABLED 0
#define GASNETT_STATS_ENABLED 0
#define GASNETT_TRACE_SETSOURCELINE(file, line) ((void)0)
#define GASNETT_TRACE_GETSOURCELINE(pfile, pline) ((void)(*(pfile) = NULL), (void)(*(pline) = 0))
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_PRINTF(...) ((void)0)
#define GASNETT_TRACE_PRINTF_FORCE(...) ((void)0)
#define GASNETT_TRACE_GETMASK() ""
#define GASNETT_TRACE_SETMASK(mask) ((void)0)
#define GASNETT_TRACE_GET_TRACELOCAL() 0
#define GASNETT_TRACE_SET_TRACELOCAL(val) ((void)0)
#define GASNETT_STATS_GETMASK() ""
#define GASNETT_STATS_SETMASK(mask) ((void)0)

/* ------------------------------------------------------------ system */

GASNETT_API_ const char *gasnett_gethostname(void);
GASNETT_API_ int gasnett_cpu_count(void);
GASNETT_API_ uint64_t gasnett_getPhysMemSz(int failureIsFatal);
GASNETT_API_ void gasnett_set_affinity(int rank);
GASNETT_API_ void gasnett_sched_yield(void);
/* Non-zero on success (sys/resource.h's RLIMIT_* for res). */
GASNETT_API_ int gasnett_maximize_rlimit(int res, const char *lim_desc);
GASNETT_API_ int gasnett_maximize_rlimits(void);
#define gasnett_isLittleEndian() (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/* ------------------------------------------------------------ data */

GASNETT_API_ uint64_t gasnett_checksum(const void *p, int numbytes);
GASNETT_API_ size_t gasnett_count0s(const void *p, size_t numbytes);
GASNETT_API_ size_t gasnett_count0s_copy(void *GASNETT_RESTRICT dst, const void *GASNETT_RESTRICT src,
                                         size_t numbytes);
static inline int gasnett_count0s_uint64_t(uint64_t x) {
  int n = 0, i;
  for (i = 0; i < 8; i++, x >>= 8) n += (x & 0xff) == 0;
  return n;
}
static inline int gasnett_count0s_uint32_t(uint32_t x) { return gasnett_count0s_uint64_t(x) - 4; }
#define gasnett_count0s_uintptr_t(x) \
  (sizeof(uintptr_t) == 8 ? gasnett_count0s_uint64_t((uint64_t)(x)) : gasnett_count0s_uint32_t((uint32_t)(x)))

GASNETT_END_EXTERNC

#endif /* GASNET_TOOLS_H */
