/*
 * t-gasnet-tools: gasnet/gasnet_tools.h, every group, against what
 * README-tools specifies. Timers: monotonic, ns/us conversions agree, a
 * 20 ms sleep measures 20 ms or more (and gettimeofday_us too), granularity
 * and overhead sane. Atomics (default, 32, 64 and strong): each operation's
 * result (add/subtract the new value, swap the old, compare_and_swap and
 * decrement_and_test true/false), wrap-around at GASNETT_ATOMIC_MAX, the
 * signed view, natural storage; under 4 threads exact totals for increment,
 * add/subtract and a CAS loop, swap passing every token exactly once,
 * decrement_and_test seen at zero by exactly one thread, and a
 * flag/data hand-off with REL/ACQ flags and with the explicit fences.
 * Mutexes: exact count under contention, trylock EBUSY while another thread
 * holds it; condition variables: a hand-off by signal, broadcast waking every
 * waiter; rwlock readers together. Macros: an inline function's address, an
 * ident string present in the executable. Environment: sizes, hex, yes/no,
 * fractions, defaults, and a bad value's fatal error words. Errors:
 * gasnett_fatalerror's words and SIGABRT, gasnett_killmyprocess's code with
 * atexit bypassed, a backtrace written to a pipe. System: cpu count, host
 * name, affinity. Needs only libc and pthreads: the tools' implementation is
 * compiled into the test.
 */
#include "gasnet/gasnet_tools.h"
#include "gasnet/gasnet_tools.c"
#include "tests/helpers.h"

#include <sys/wait.h>

#define NTHREADS 4
#define ROUNDS 100000

/* ------------------------------------------------------------ timers */

static void test_timers(void)
{
    CHECK(GASNETT_TICK_MIN == 0 && GASNETT_TICK_MAX == UINT64_MAX);
    gasnett_tick_t t0 = gasnett_ticks_now();
    uint64_t g0 = gasnett_gettimeofday_us();
    struct timespec d = { 0, 20 * 1000 * 1000 };
    nanosleep(&d, NULL);
    gasnett_tick_t t1 = gasnett_ticks_now();
    uint64_t g1 = gasnett_gettimeofday_us();
    CHECK(t1 > t0);
    CHECK(gasnett_ticks_to_ns(t1 - t0) >= 20 * 1000 * 1000);
    CHECK(gasnett_ticks_to_us(t1 - t0) == gasnett_ticks_to_ns(t1 - t0) / 1000);
    CHECK(gasnett_ticks_to_ns(t1 - t0) < 10ull * 1000 * 1000 * 1000);
    CHECK(g1 - g0 >= 19000); /* gettimeofday may step: 1 ms of slack */
    double gran = gasnett_tick_granularityus(), over = gasnett_tick_overheadus();
    CHECK(gran > 0 && gran <= 1000);
    CHECK(over >= 0 && over < 1000);
    CHECK(gasnett_tick_granularityus() == gran); /* measured once */
    gasnett_tick_t prev = gasnett_ticks_now();
    for (int i = 0; i < 10000; i++) {
        gasnett_tick_t t = gasnett_ticks_now();
        CHECK(t >= prev);
        prev = t;
    }
}

/* ------------------------------------------------------------ atomics, one thread */

/* The same checks for each family; V is its value type. */
#define SEQ_CHECKS(P, T, V, INIT)                                                  \
    do {                                                                           \
        T a = INIT(5);                                                             \
        CHECK(P##_read(&a, 0) == 5);                                               \
        P##_set(&a, 10, GASNETT_ATOMIC_REL);                                       \
        CHECK(P##_read(&a, GASNETT_ATOMIC_ACQ) == 10);                             \
        P##_increment(&a, GASNETT_ATOMIC_MB_PRE);                                  \
        CHECK(P##_read(&a, 0) == 11);                                              \
        P##_decrement(&a, GASNETT_ATOMIC_MB_POST);                                 \
        CHECK(P##_read(&a, 0) == 10);                                              \
        CHECK(P##_add(&a, 7, 0) == 17);                                            \
        CHECK(P##_subtract(&a, 16, 0) == 1);                                       \
        CHECK(P##_decrement_and_test(&a, GASNETT_ATOMIC_ACQ_IF_TRUE) != 0);        \
        CHECK(P##_read(&a, 0) == 0);                                               \
        CHECK(P##_decrement_and_test(&a, GASNETT_ATOMIC_ACQ_IF_FALSE) == 0);       \
        CHECK(P##_read(&a, 0) == (V)-1); /* wraps below 0 */                       \
        CHECK(P##_add(&a, 2, 0) == 1);   /* and above the maximum */               \
        CHECK(P##_compare_and_swap(&a, 2, 9, GASNETT_ATOMIC_MB_PRE) == 0);         \
        CHECK(P##_read(&a, 0) == 1);                                               \
        CHECK(P##_compare_and_swap(&a, 1, 9, GASNETT_ATOMIC_MB_POST) != 0);        \
        CHECK(P##_read(&a, 0) == 9);                                               \
        CHECK(P##_swap(&a, 4, 0) == 9);                                            \
        CHECK(P##_read(&a, 0) == 4);                                               \
        CHECK(sizeof(T) == sizeof(V));                                             \
    } while (0)

static void test_atomics_seq(void)
{
    SEQ_CHECKS(gasnett_atomic, gasnett_atomic_t, gasnett_atomic_val_t, gasnett_atomic_init);
    SEQ_CHECKS(gasnett_atomic32, gasnett_atomic32_t, uint32_t, gasnett_atomic32_init);
    SEQ_CHECKS(gasnett_atomic64, gasnett_atomic64_t, uint64_t, gasnett_atomic64_init);
    SEQ_CHECKS(gasnett_strongatomic, gasnett_strongatomic_t, gasnett_strongatomic_val_t,
               gasnett_strongatomic_init);
    SEQ_CHECKS(gasnett_strongatomic64, gasnett_strongatomic64_t, uint64_t, gasnett_strongatomic64_init);
    CHECK(GASNETT_HAVE_ATOMIC_CAS && GASNETT_HAVE_ATOMIC_ADD_SUB);

    gasnett_atomic_t a = gasnett_atomic_init(GASNETT_ATOMIC_MAX);
    CHECK(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)) == -1);
    gasnett_atomic_set(&a, (gasnett_atomic_val_t)GASNETT_ATOMIC_SIGNED_MIN, 0);
    CHECK(gasnett_atomic_signed(gasnett_atomic_read(&a, 0)) == GASNETT_ATOMIC_SIGNED_MIN);
    CHECK(gasnett_atomic_add(&a, GASNETT_ATOMIC_MAX, 0) == (gasnett_atomic_val_t)GASNETT_ATOMIC_SIGNED_MAX);

    /* 64 bits kept whole; natural storage reached through a cast (README-tools' EX4). */
    union { uint64_t u64; double d; } y = { 0 };
    gasnett_atomic64_set((gasnett_atomic64_t *)&y, 0x123456789abcdef0ull, 0);
    CHECK(y.u64 == 0x123456789abcdef0ull);
    CHECK(gasnett_atomic64_add((gasnett_atomic64_t *)&y, 0x10, 0) == 0x123456789abcdf00ull);
    int32_t x = -7;
    CHECK(gasnett_atomic32_read((gasnett_atomic32_t *)&x, 0) == (uint32_t)-7);
}

/* ------------------------------------------------------------ atomics, threads */

static gasnett_atomic_t counter = gasnett_atomic_init(0);
static gasnett_atomic64_t sum64 = gasnett_atomic64_init(0);
static gasnett_atomic32_t cas32 = gasnett_atomic32_init(0);
static gasnett_atomic_t token = gasnett_atomic_init(0);
static gasnett_atomic_t dect = gasnett_atomic_init(NTHREADS * ROUNDS);
static gasnett_atomic_t zero_seen = gasnett_atomic_init(0);
static unsigned char token_seen[NTHREADS * ROUNDS + 1];
static gasnett_atomic_t token_seen_count = gasnett_atomic_init(0);

static void *atomic_worker(void *arg)
{
    uintptr_t id = (uintptr_t)arg;
    for (int i = 0; i < ROUNDS; i++) {
        gasnett_atomic_increment(&counter, 0);
        gasnett_atomic64_add(&sum64, (uint64_t)1 << 33, 0);
        gasnett_atomic64_subtract(&sum64, ((uint64_t)1 << 33) - 1, 0);
        uint32_t old;
        do old = gasnett_atomic32_read(&cas32, 0);
        while (!gasnett_atomic32_compare_and_swap(&cas32, old, old + 3, 0));
        /* Each thread swaps in a fresh token and keeps what it took out:
         * every token but the last is taken out exactly once. */
        gasnett_atomic_val_t mine = (gasnett_atomic_val_t)(id * ROUNDS + i + 1);
        gasnett_atomic_val_t got = gasnett_atomic_swap(&token, mine, 0);
        if (got) {
            __atomic_add_fetch(&token_seen[got], 1, __ATOMIC_RELAXED);
            gasnett_atomic_increment(&token_seen_count, 0);
        }
        if (gasnett_atomic_decrement_and_test(&dect, 0)) gasnett_atomic_increment(&zero_seen, 0);
    }
    return NULL;
}

static void run_threads(void *(*fn)(void *), int n)
{
    pthread_t th[16];
    for (int i = 0; i < n; i++) CHECK(pthread_create(&th[i], NULL, fn, (void *)(uintptr_t)i) == 0);
    for (int i = 0; i < n; i++) CHECK(pthread_join(th[i], NULL) == 0);
}

/* Message passing: the data written before the flag is seen after it. */
static gasnett_atomic_t flag = gasnett_atomic_init(0);
static volatile uint64_t data[4];
/* Each hand-off waits for the other thread: yield, so that on a loaded machine
 * (both threads on one CPU) a wait is a time slice, not a spin of one. */
#define HANDOFFS 5000

static void *handoff_reader(void *arg)
{
    int fences = (int)(uintptr_t)arg;
    for (uint64_t r = 1; r <= HANDOFFS; r++) {
        if (fences) {
            while (gasnett_atomic_read(&flag, 0) != r) gasnett_sched_yield();
            gasnett_local_rmb();
        } else {
            while (gasnett_atomic_read(&flag, GASNETT_ATOMIC_ACQ) != r) gasnett_sched_yield();
        }
        for (int k = 0; k < 4; k++)
            if (data[k] != r * 4 + k) {
                fprintf(stderr, "t-gasnet-tools: hand-off %llu: data[%d] = %llu\n", (unsigned long long)r, k,
                        (unsigned long long)data[k]);
                exit(T_FAIL);
            }
        gasnett_atomic_set(&flag, 0, GASNETT_ATOMIC_REL);
    }
    return NULL;
}

static void handoff(int fences)
{
    pthread_t th;
    gasnett_atomic_set(&flag, 0, 0);
    CHECK(pthread_create(&th, NULL, handoff_reader, (void *)(uintptr_t)fences) == 0);
    for (uint64_t r = 1; r <= HANDOFFS; r++) {
        while (gasnett_atomic_read(&flag, GASNETT_ATOMIC_ACQ) != 0) gasnett_sched_yield();
        for (int k = 0; k < 4; k++) data[k] = r * 4 + k;
        if (fences) {
            gasnett_local_wmb();
            gasnett_atomic_set(&flag, (gasnett_atomic_val_t)r, 0);
        } else {
            gasnett_atomic_set(&flag, (gasnett_atomic_val_t)r, GASNETT_ATOMIC_REL);
        }
    }
    CHECK(pthread_join(th, NULL) == 0);
}

static void test_atomics_threads(void)
{
    run_threads(atomic_worker, NTHREADS);
    CHECK(gasnett_atomic_read(&counter, 0) == NTHREADS * ROUNDS);
    CHECK(gasnett_atomic64_read(&sum64, 0) == (uint64_t)NTHREADS * ROUNDS);
    CHECK(gasnett_atomic32_read(&cas32, 0) == 3u * NTHREADS * ROUNDS);
    CHECK(gasnett_atomic_read(&dect, 0) == 0);
    CHECK(gasnett_atomic_read(&zero_seen, 0) == 1);
    /* NTHREADS*ROUNDS tokens went in, all but the one left in `token` came out, once each. */
    gasnett_atomic_val_t last = gasnett_atomic_read(&token, 0);
    CHECK(gasnett_atomic_read(&token_seen_count, 0) == NTHREADS * ROUNDS - 1);
    for (int t = 1; t <= NTHREADS * ROUNDS; t++) CHECK(token_seen[t] == (t == (int)last ? 0 : 1));
    handoff(0);
    handoff(1);
    gasnett_local_mb();
    gasnett_weak_mb();
    gasnett_weak_rmb();
    gasnett_weak_wmb();
    gasnett_compiler_fence();
    gasnett_spinloop_hint();
}

/* ------------------------------------------------------------ locks */

static gasnett_mutex_t mtx = GASNETT_MUTEX_INITIALIZER;
static gasnett_cond_t cond = GASNETT_COND_INITIALIZER;
static uint64_t plain_count;

static void *mutex_worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < ROUNDS; i++) {
        gasnett_mutex_lock(&mtx);
        gasnett_mutex_assertlocked(&mtx);
        plain_count++;
        gasnett_mutex_unlock(&mtx);
    }
    return NULL;
}

static int trylock_result = -1;

static void *trylock_worker(void *arg)
{
    (void)arg;
    trylock_result = gasnett_mutex_trylock(&mtx);
    if (trylock_result == 0) gasnett_mutex_unlock(&mtx);
    return NULL;
}

/* A hand-off: the consumer waits for each item, the producer for it to be taken. */
static int item, waiting, woken, go;

static void *consumer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= 1000; i++) {
        gasnett_mutex_lock(&mtx);
        while (item != i) gasnett_cond_wait(&cond, &mtx);
        item = -i;
        gasnett_cond_signal(&cond);
        gasnett_mutex_unlock(&mtx);
    }
    return NULL;
}

static void *bcast_waiter(void *arg)
{
    (void)arg;
    gasnett_mutex_lock(&mtx);
    waiting++;
    gasnett_cond_broadcast(&cond); /* main waits on the same variable as the other waiters */
    while (!go) gasnett_cond_wait(&cond, &mtx);
    woken++;
    gasnett_mutex_unlock(&mtx);
    return NULL;
}

#ifdef PTHREAD_RWLOCK_INITIALIZER
static gasnett_rwlock_t rw = GASNETT_RWLOCK_INITIALIZER;
static gasnett_atomic_t readers_in = gasnett_atomic_init(0);

static void *reader(void *arg)
{
    (void)arg;
    gasnett_rwlock_rdlock(&rw);
    gasnett_atomic_increment(&readers_in, 0);
    /* Every reader holds the lock at once, or this never ends (the test's timeout). */
    while (gasnett_atomic_read(&readers_in, 0) < NTHREADS) gasnett_sched_yield();
    gasnett_rwlock_unlock(&rw);
    return NULL;
}
#endif

static void test_locks(void)
{
    run_threads(mutex_worker, NTHREADS);
    CHECK(plain_count == (uint64_t)NTHREADS * ROUNDS);

    gasnett_mutex_lock(&mtx);
    run_threads(trylock_worker, 1);
    CHECK(trylock_result == EBUSY);
    gasnett_mutex_unlock(&mtx);
    run_threads(trylock_worker, 1);
    CHECK(trylock_result == 0);

    pthread_t th;
    CHECK(pthread_create(&th, NULL, consumer, NULL) == 0);
    for (int i = 1; i <= 1000; i++) {
        gasnett_mutex_lock(&mtx);
        item = i;
        gasnett_cond_signal(&cond);
        while (item != -i) gasnett_cond_wait(&cond, &mtx);
        gasnett_mutex_unlock(&mtx);
    }
    CHECK(pthread_join(th, NULL) == 0);

    pthread_t ths[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) CHECK(pthread_create(&ths[i], NULL, bcast_waiter, NULL) == 0);
    gasnett_mutex_lock(&mtx);
    while (waiting < NTHREADS) gasnett_cond_wait(&cond, &mtx);
    go = 1;
    gasnett_cond_broadcast(&cond);
    gasnett_mutex_unlock(&mtx);
    for (int i = 0; i < NTHREADS; i++) CHECK(pthread_join(ths[i], NULL) == 0);
    CHECK(woken == NTHREADS);

    gasnett_mutex_t m2;
    gasnett_mutex_init(&m2);
    gasnett_mutex_lock(&m2);
    gasnett_mutex_unlock(&m2);
    gasnett_mutex_destroy(&m2);
    gasnett_cond_t c2;
    gasnett_cond_init(&c2);
    gasnett_cond_destroy(&c2);

#ifdef PTHREAD_RWLOCK_INITIALIZER
    run_threads(reader, NTHREADS);
    gasnett_rwlock_wrlock(&rw);
    CHECK(gasnett_rwlock_tryrdlock(&rw) != 0);
    gasnett_rwlock_unlock(&rw);
#endif
}

/* ------------------------------------------------------------ macros, thread keys */

GASNETT_INLINE(twice) int twice(int x) { return 2 * x; }
GASNETT_NEVER_INLINE(thrice, static int thrice(int x)) { return 3 * x; }
GASNETT_IDENT(t_gasnet_tools_ident, "$GASNetToolsTest: ident-string-kept $");
GASNETT_THREADKEY_DEFINE(tkey);
static GASNETT_UNUSED int unused_ok;

static void *threadkey_worker(void *arg)
{
    CHECK(gasnett_threadkey_get(tkey) == NULL); /* each thread starts with its own NULL */
    gasnett_threadkey_set(tkey, arg);
    sched_yield();
    CHECK(gasnett_threadkey_get(tkey) == arg);
    return NULL;
}

static void test_macros(void)
{
    int (*f)(int) = twice;
    CHECK(f(21) == 42 && twice(2) == 4 && thrice(3) == 9);
    CHECK(GASNETT_PREDICT_TRUE(f(1) == 2) && !GASNETT_PREDICT_FALSE(f(1) == 3));
    char *GASNETT_RESTRICT p = (char *)malloc(1);
    CHECK(p != NULL);
    free(p);

    /* The ident text is in the executable's bytes. */
    FILE *exe = fopen("/proc/self/exe", "rb");
    CHECK(exe != NULL);
    static char buf[1 << 16];
    const char *want = "$GASNetToolsTest: ident-string-kept $";
    size_t wl = strlen(want), n, keep = 0;
    int found = 0;
    while (!found && (n = fread(buf + keep, 1, sizeof buf - keep, exe)) > 0) {
        n += keep;
        for (size_t i = 0; i + wl <= n; i++)
            if (!memcmp(buf + i, want, wl)) found = 1;
        keep = wl - 1;
        memmove(buf, buf + n - keep, keep);
    }
    fclose(exe);
    CHECK(found);

    gasnett_threadkey_init(tkey);
    gasnett_threadkey_set(tkey, &unused_ok);
    run_threads(threadkey_worker, NTHREADS);
    CHECK(gasnett_threadkey_get_noinit(tkey) == &unused_ok);
    CHECK(gasnett_count0s_uint32_t(0x00ff0000u) == 3);
    CHECK(gasnett_count0s_uint64_t(0xff000000000000ffull) == 6);
    CHECK(gasnett_count0s("a\0b\0\0", 5) == 3);
    char dst[5];
    CHECK(gasnett_count0s_copy(dst, "a\0b\0\0", 5) == 3 && !memcmp(dst, "a\0b\0\0", 5));
    CHECK(gasnett_checksum("abc", 3) == gasnett_checksum("abc", 3));
    CHECK(gasnett_checksum("abc", 3) != gasnett_checksum("abd", 3));
}

/* ------------------------------------------------------------ children */

/* Runs fn in a child; returns its wait status, its stderr in out. */
static int in_child(void (*fn)(void), char *out, size_t outsz)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        fn();
        _exit(99);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < outsz && (r = read(fds[0], out + got, outsz - 1 - got)) > 0) got += (size_t)r;
    out[got] = '\0';
    close(fds[0]);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    return st;
}

static void child_badsize(void)
{
    setenv("T_GT_SIZE", "12 parsecs", 1);
    (void)gasnett_getenv_int_withdefault("T_GT_SIZE", 1, 1024);
}
static void child_badyesno(void)
{
    setenv("T_GT_YN", "maybe", 1);
    (void)gasnett_getenv_yesno_withdefault("T_GT_YN", 1);
}
static void child_fatal(void) { gasnett_fatalerror("disk %d is %s", 3, "on fire"); }
static void at_exit_says(void) { fputs("atexit ran\n", stderr); }
static void child_kill(void)
{
    atexit(at_exit_says);
    gasnett_killmyprocess(7);
}
static void child_backtrace(void) { _exit(gasnett_print_backtrace(STDERR_FILENO) == 0 ? 0 : 5); }
static void child_verbose(void)
{
    setenv("GASNET_VERBOSEENV", "1", 1);
    setenv("T_GT_V", "2MB", 1);
    (void)gasnett_getenv_int_withdefault("T_GT_V", 0, 1);
    (void)gasnett_getenv_int_withdefault("T_GT_V", 0, 1); /* shown once */
    (void)gasnett_getenv_withdefault("T_GT_UNSET", "dflt");
    _exit(0);
}

static void expect_abort(void (*fn)(void), const char *const *words)
{
    char out[4096];
    int st = in_child(fn, out, sizeof out);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGABRT) {
        fprintf(stderr, "t-gasnet-tools: expected SIGABRT, got status %#x, output:\n%s\n", st, out);
        exit(T_FAIL);
    }
    for (; *words; words++)
        if (!strstr(out, *words)) {
            fprintf(stderr, "t-gasnet-tools: '%s' missing from:\n%s\n", *words, out);
            exit(T_FAIL);
        }
}

/* ------------------------------------------------------------ environment, errors, system */

static void test_env(void)
{
    setenv("T_GT_A", "64KB", 1);
    CHECK(gasnett_getenv_int_withdefault("T_GT_A", 1, 1024) == 65536);
    setenv("T_GT_A", "3", 1); /* no unit: the caller's multiplier */
    CHECK(gasnett_getenv_int_withdefault("T_GT_A", 1, 1024) == 3072);
    setenv("T_GT_A", "1.5M", 1);
    CHECK(gasnett_getenv_int_withdefault("T_GT_A", 1, 1) == 1572864);
    setenv("T_GT_A", "0x10", 1);
    CHECK(gasnett_getenv_int_withdefault("T_GT_A", 1, 0) == 16);
    setenv("T_GT_A", "-12", 1);
    CHECK(gasnett_getenv_int_withdefault("T_GT_A", 1, 0) == -12);
    unsetenv("T_GT_A");
    CHECK(gasnett_getenv_int_withdefault("T_GT_A", 77, 0) == 77);
    CHECK(gasnett_getenv_yesno_withdefault("T_GT_A", 1) == 1);
    setenv("T_GT_A", "no", 1);
    CHECK(gasnett_getenv_yesno_withdefault("T_GT_A", 1) == 0);
    setenv("T_GT_A", "Y", 1);
    CHECK(gasnett_getenv_yesno_withdefault("T_GT_A", 0) == 1);
    setenv("T_GT_A", "3/8", 1);
    CHECK(gasnett_getenv_dbl_withdefault("T_GT_A", 0) == 0.375);
    setenv("T_GT_A", "-1e4", 1);
    CHECK(gasnett_getenv_dbl_withdefault("T_GT_A", 0) == -1e4);
    CHECK(!strcmp(gasnett_getenv_withdefault("T_GT_A", "x"), "-1e4"));
    CHECK(!strcmp(gasnett_getenv_withdefault("T_GT_NONE", "x"), "x"));
    CHECK(gasnett_getenv("T_GT_NONE") == NULL);
    gasnett_setenv("T_GT_B", "v");
    CHECK(!strcmp(gasnett_getenv("T_GT_B"), "v"));
    gasnett_unsetenv("T_GT_B");
    CHECK(gasnett_getenv("T_GT_B") == NULL);

    /* format_number and parse_int round-trip every power of two. */
    char s[64];
    for (int i = 0; i < 62; i++) {
        int64_t x = (int64_t)1 << i;
        CHECK(gasnett_parse_int(gasnett_format_number(x, s, sizeof s, 1), 1) == x);
        CHECK(gasnett_parse_int(gasnett_format_number(x, s, sizeof s, 0), 0) == x);
    }
    CHECK(!strcmp(gasnett_format_number(3 << 20, s, sizeof s, 1), "3 MB"));

    char out[4096];
    CHECK(in_child(child_verbose, out, sizeof out) == 0);
    CHECK(strstr(out, "T_GT_V = 2 MB") != NULL);
    CHECK(strstr(out, "T_GT_UNSET = dflt   (default)") != NULL);
    CHECK(strstr(strstr(out, "T_GT_V") + 1, "T_GT_V") == NULL);

    static const char *const size_words[] = { "FATAL ERROR", "T_GT_SIZE='12 parsecs'", "not a size", NULL };
    expect_abort(child_badsize, size_words);
    static const char *const yn_words[] = { "T_GT_YN='maybe'", "yes/no", NULL };
    expect_abort(child_badyesno, yn_words);
}

static void test_errors_system(void)
{
    static const char *const fatal_words[] = { "*** FATAL ERROR: disk 3 is on fire", NULL };
    expect_abort(child_fatal, fatal_words);

    char out[8192];
    int st = in_child(child_kill, out, sizeof out);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7);
    CHECK(strstr(out, "atexit ran") == NULL);

    gasnett_backtrace_init("t-gasnet-tools");
    st = in_child(child_backtrace, out, sizeof out);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(strstr(out, "Backtrace of process") != NULL && strstr(out, "t-gasnet-tools") != NULL);

    CHECK(gasnett_cpu_count() == (int)sysconf(_SC_NPROCESSORS_ONLN));
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    CHECK(!strcmp(gasnett_gethostname(), host));
    CHECK(gasnett_getPhysMemSz(1) > ((uint64_t)1 << 20));
    CHECK(gasnett_isLittleEndian() == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__));

    /* Affinity: only where this process may run on the chosen CPU. */
    cpu_set_t before, now;
    CHECK(sched_getaffinity(0, sizeof before, &before) == 0);
    int n = gasnett_cpu_count(), cpu = (n + 1) % n; /* rank n+1 is CPU 1 mod n */
    if (CPU_ISSET(cpu, &before)) {
        gasnett_set_affinity(n + 1);
        CHECK(sched_getaffinity(0, sizeof now, &now) == 0);
        CHECK(CPU_COUNT(&now) == 1 && CPU_ISSET(cpu, &now));
        CHECK(sched_setaffinity(0, sizeof before, &before) == 0);
    }
    gasnett_sched_yield();
    gasnett_flush_streams();
    CHECK(gasnett_reghandler(SIGUSR2, SIG_IGN) == SIG_DFL);
    CHECK(gasnett_reghandler(SIGUSR2, SIG_DFL) == SIG_IGN);
    char *loc = gasnett_current_loc;
    CHECK(loc && strstr(loc, "test_errors_system at ") && strstr(loc, "t-gasnet-tools.c:"));
    free(loc);
}

int main(void)
{
    test_timers();
    test_atomics_seq();
    test_atomics_threads();
    test_locks();
    test_macros();
    test_env();
    test_errors_system();
    printf("t-gasnet-tools: all groups passed\n");
    return T_PASS;
}
