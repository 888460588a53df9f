/*
 * gasnet_tools.c - the out-of-line GASNet tools (gasnet_tools.h): clock,
 * environment queries, errors and backtraces, system properties, data
 * helpers. libc and pthreads only.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "gasnet_tools.h"

#include <ctype.h>
#include <execinfo.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ timers */

gasnett_tick_t gasnett_ticks_now_(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (gasnett_tick_t)ts.tv_sec * 1000000000u + (gasnett_tick_t)ts.tv_nsec;
}

uint64_t gasnett_gettimeofday_us(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* Measured once, by the first caller. */
static pthread_once_t tick_once = PTHREAD_ONCE_INIT;
static double tick_granularity_us, tick_overhead_us;

static void tick_measure(void) {
  enum { READS = 1000 };
  uint64_t step = UINT64_MAX;
  gasnett_tick_t t0 = gasnett_ticks_now(), prev = t0;
  for (int i = 0; i < READS; i++) {
    gasnett_tick_t t = gasnett_ticks_now();
    if (t > prev && t - prev < step) step = t - prev;
    prev = t;
  }
  double overhead = (double)(prev - t0) / READS / 1000.0;
  struct timespec res;
  if (clock_getres(CLOCK_MONOTONIC, &res) == 0 && res.tv_sec == 0 && (uint64_t)res.tv_nsec > step)
    step = (uint64_t)res.tv_nsec;
  if (step == UINT64_MAX) step = 1; /* the clock never moved in READS reads */
  tick_overhead_us = overhead;
  tick_granularity_us = (double)step / 1000.0;
}

double gasnett_tick_granularityus(void) {
  pthread_once(&tick_once, tick_measure);
  return tick_granularity_us;
}

double gasnett_tick_overheadus(void) {
  pthread_once(&tick_once, tick_measure);
  return tick_overhead_us;
}

/* ------------------------------------------------------------ locks */

void gasnett_lockcall_failed_(const char *call, int err) {
  gasnett_fatalerror("%s failed: %s (error %d); the lock is uninitialized, destroyed, "
                     "already held by this thread or not held by it",
                     call, strerror(err), err);
}

int gasnett_rwlock_rdlock_(gasnett_rwlock_t *pl) {
  int err;
  while ((err = pthread_rwlock_rdlock(pl)) == EAGAIN) sched_yield();
  return err;
}

/* ------------------------------------------------------------ errors */

void gasnett_flush_streams(void) {
  fflush(NULL);
  fsync(STDOUT_FILENO);
  fsync(STDERR_FILENO);
}

void gasnett_close_streams(void) {
  fclose(stdin);
  fclose(stdout);
  fclose(stderr);
}

void gasnett_killmyprocess(int exitcode) {
  _exit(exitcode);
}

static int backtrace_enabled(void) {
  return gasnett_getenv_yesno_withdefault("GASNET_BACKTRACE", 0);
}

static int print_backtrace_ifenabled(int fd) {
  return backtrace_enabled() ? gasnett_print_backtrace(fd) : 1;
}

int (*gasnett_print_backtrace_ifenabled)(int fd) = print_backtrace_ifenabled;

void gasnett_fatalerror(const char *msg, ...) {
  char text[1024];
  va_list ap;
  va_start(ap, msg);
  vsnprintf(text, sizeof text, msg, ap);
  va_end(ap);
  fflush(stdout);
  fprintf(stderr, "*** FATAL ERROR: %s\n", text);
  fflush(stderr);
  gasnett_freezeForDebuggerErr();
  (*gasnett_print_backtrace_ifenabled)(STDERR_FILENO);
  abort();
}

gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fp;
  sigemptyset(&sa.sa_mask);
  if (sigaction(sigtocatch, &sa, &old) != 0)
    gasnett_fatalerror("gasnett_reghandler(%d): %s", sigtocatch, strerror(errno));
  return old.sa_handler;
}

/* ------------------------------------------------------------ backtraces */

/* A client that defines gasnett_backtrace_user adds its mechanism. */
extern gasnett_backtrace_type_t gasnett_backtrace_user __attribute__((__weak__));

static const char *backtrace_exename = "";

void gasnett_backtrace_init(const char *exename) {
  backtrace_exename = exename ? exename : "";
}

static int backtrace_execinfo(int fd) {
  void *frames[128];
  int n = backtrace(frames, 128);
  if (n <= 0) return 1;
  dprintf(fd, "Backtrace of process %d%s%s (%d frames):\n", (int)getpid(),
          *backtrace_exename ? " " : "", backtrace_exename, n);
  backtrace_symbols_fd(frames, n, fd);
  return 0;
}

/* GASNET_BACKTRACE_TYPE: a comma list of mechanisms to try in order, among
 * the client's (its name) and EXECINFO; default: the client's, then EXECINFO. */
int gasnett_print_backtrace(int fd) {
  const char *user = &gasnett_backtrace_user && gasnett_backtrace_user.name && gasnett_backtrace_user.fnp
                         ? gasnett_backtrace_user.name : NULL;
  const char *list = getenv("GASNET_BACKTRACE_TYPE");
  char buf[256];
  if (!list || !*list) {
    snprintf(buf, sizeof buf, "%s%sEXECINFO", user ? user : "", user ? "," : "");
    list = buf;
  }
  for (const char *p = list; *p;) {
    size_t len = strcspn(p, ",");
    if (user && len == strlen(user) && strncasecmp(p, user, len) == 0) {
      if ((*gasnett_backtrace_user.fnp)(fd) == 0) return 0;
    } else if (len == 8 && strncasecmp(p, "EXECINFO", 8) == 0) {
      if (backtrace_execinfo(fd) == 0) return 0;
    }
    p += len;
    if (*p == ',') p++;
  }
  return 1;
}

void gasnett_freezeForDebuggerNow(volatile int *flag, const char *flagsymname) {
  fprintf(stderr, "Process %d on %s frozen for debugger: attach and set %s = 0 to continue\n",
          (int)getpid(), gasnett_gethostname(), flagsymname);
  fflush(stderr);
  while (*flag) sleep(1);
}

static volatile int gasnett_frozen = 1;

void gasnett_freezeForDebuggerErr(void) {
  if (gasnett_getenv_yesno_withdefault("GASNET_FREEZE_ON_ERROR", 0))
    gasnett_freezeForDebuggerNow(&gasnett_frozen, "gasnett_frozen");
}

char *gasnett_current_loc_(const char *file, int line, const char *func) {
  char *s = NULL;
  if (asprintf(&s, "%s at %s:%d", func, file, line) < 0) return NULL;
  return s;
}

/* ------------------------------------------------------------ environment */

char *gasnett_getenv(const char *keyname) {
  return getenv(keyname);
}

void gasnett_setenv(const char *key, const char *value) {
  if (setenv(key, value, 1) != 0)
    gasnett_fatalerror("gasnett_setenv(%s): %s", key, strerror(errno));
}

void gasnett_unsetenv(const char *key) {
  if (unsetenv(key) != 0) gasnett_fatalerror("gasnett_unsetenv(%s): %s", key, strerror(errno));
}

int gasnett_verboseenv(void) {
  const char *v = getenv("GASNET_VERBOSEENV");
  return v && (!strcmp(v, "1") || !strcasecmp(v, "y") || !strcasecmp(v, "yes"));
}

/* Each key is shown once; a short table is enough for a job's settings. */
static pthread_mutex_t shown_lock = PTHREAD_MUTEX_INITIALIZER;
static char *shown[256];

static int first_showing(const char *key) {
  int first = 1;
  pthread_mutex_lock(&shown_lock);
  for (int i = 0; i < 256; i++) {
    if (!shown[i]) {
      shown[i] = strdup(key);
      break;
    }
    if (!strcmp(shown[i], key)) {
      first = 0;
      break;
    }
  }
  pthread_mutex_unlock(&shown_lock);
  return first;
}

void gasnett_envstr_display(const char *key, const char *val, int is_dflt) {
  if (!gasnett_verboseenv() || !first_showing(key)) return;
  fprintf(stderr, "ENV parameter: %s = %s%s\n", key, val ? val : "*not set*", is_dflt ? "   (default)" : "");
  fflush(stderr);
}

void gasnett_envint_display(const char *key, int64_t val, int is_dflt, int is_mem_size) {
  char buf[64];
  gasnett_envstr_display(key, gasnett_format_number(val, buf, sizeof buf, is_mem_size), is_dflt);
}

void gasnett_envdbl_display(const char *key, double val, int is_dflt) {
  char buf[64];
  snprintf(buf, sizeof buf, "%g", val);
  gasnett_envstr_display(key, buf, is_dflt);
}

char *gasnett_getenv_withdefault(const char *keyname, const char *defaultval) {
  char *v = getenv(keyname);
  gasnett_envstr_display(keyname, v ? v : defaultval, v == NULL);
  return v ? v : (char *)defaultval;
}

int gasnett_getenv_yesno_withdefault(const char *keyname, int defaultval) {
  const char *v = getenv(keyname);
  int r = defaultval != 0;
  if (v) {
    if (!strcmp(v, "1") || !strcasecmp(v, "y") || !strcasecmp(v, "yes")) r = 1;
    else if (!strcmp(v, "0") || !strcasecmp(v, "n") || !strcasecmp(v, "no")) r = 0;
    else gasnett_fatalerror("%s='%s' is not a yes/no value: use 1, y or yes, or 0, n or no", keyname, v);
  }
  gasnett_envstr_display(keyname, r ? "YES" : "NO", v == NULL);
  return r;
}

/* A size's unit: 1 for B, powers of 1024 for K M G T P E (KB, ...); none: the caller's. */
static int unit_scale(const char *s, uint64_t *scale) {
  static const char units[] = "KMGTPE";
  while (isspace((unsigned char)*s)) s++;
  if (!*s) return 0;
  const char *u = strchr(units, toupper((unsigned char)*s));
  if (u) {
    *scale = (uint64_t)1 << (10 * (u - units + 1));
    s++;
    if (toupper((unsigned char)*s) == 'B') s++;
  } else if (toupper((unsigned char)*s) == 'B') {
    *scale = 1;
    s++;
  } else {
    return -1;
  }
  while (isspace((unsigned char)*s)) s++;
  return *s ? -1 : 1;
}

/* 0 and *out set, or -1 when str is not a whole number (or a size). */
static int parse_int(const char *str, uint64_t mem_size_multiplier, int64_t *out) {
  char *end;
  errno = 0;
  if (!mem_size_multiplier) {
    long long v = strtoll(str, &end, 0);
    while (isspace((unsigned char)*end)) end++;
    if (end == str || *end || errno) return -1;
    *out = v;
    return 0;
  }
  double v = strtod(str, &end);
  if (end == str || errno || !isfinite(v)) return -1;
  uint64_t scale = mem_size_multiplier;
  if (unit_scale(end, &scale) < 0) return -1;
  double r = v * (double)scale;
  if (r > 9.2e18 || r < -9.2e18) return -1;
  *out = (int64_t)r;
  return 0;
}

int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier) {
  int64_t v;
  if (parse_int(str, mem_size_multiplier, &v) != 0)
    gasnett_fatalerror("'%s' is not %s", str,
                       mem_size_multiplier ? "a size (a number with an optional unit B, KB, MB, GB, TB, PB or EB)"
                                           : "a whole number (decimal, or hexadecimal with 0x)");
  return v;
}

int64_t gasnett_getenv_int_withdefault(const char *keyname, int64_t defaultval, uint64_t mem_size_multiplier) {
  const char *v = getenv(keyname);
  int64_t r = defaultval;
  if (v && parse_int(v, mem_size_multiplier, &r) != 0)
    gasnett_fatalerror("%s='%s' is not %s", keyname, v,
                       mem_size_multiplier ? "a size (a number with an optional unit B, KB, MB, GB, TB, PB or EB)"
                                           : "a whole number (decimal, or hexadecimal with 0x)");
  gasnett_envint_display(keyname, r, v == NULL, mem_size_multiplier != 0);
  return r;
}

double gasnett_getenv_dbl_withdefault(const char *keyname, double defaultval) {
  const char *v = getenv(keyname);
  double r = defaultval;
  if (v) {
    char *end, *end2;
    errno = 0;
    r = strtod(v, &end);
    if (*end == '/') { /* a fraction, "3/8" */
      double d = strtod(end + 1, &end2);
      if (end2 == end + 1 || d == 0) end = (char *)"bad";
      else r /= d, end = end2;
    }
    while (isspace((unsigned char)*end)) end++;
    if (end == v || *end || errno)
      gasnett_fatalerror("%s='%s' is not a number (such as 1.5, -1e4 or 3/8)", keyname, v);
  }
  gasnett_envdbl_display(keyname, r, v == NULL);
  return r;
}

char *gasnett_format_number(int64_t val, char *buf, size_t bufsz, int is_mem_size) {
  static const char *units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  int u = 0;
  if (is_mem_size) {
    /* The largest unit that keeps the value whole. */
    uint64_t mag = val < 0 ? -(uint64_t)val : (uint64_t)val;
    while (mag && mag % 1024 == 0 && u < 6) mag /= 1024, u++;
    snprintf(buf, bufsz, "%s%" PRIu64 " %s", val < 0 ? "-" : "", mag, units[u]);
  } else {
    snprintf(buf, bufsz, "%" PRId64, val);
  }
  return buf;
}

/* ------------------------------------------------------------ system */

static pthread_once_t hostname_once = PTHREAD_ONCE_INIT;
static char hostname[256];

static void hostname_read(void) {
  if (gethostname(hostname, sizeof hostname - 1) != 0) strcpy(hostname, "unknown");
}

const char *gasnett_gethostname(void) {
  pthread_once(&hostname_once, hostname_read);
  return hostname;
}

int gasnett_cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 0;
}

uint64_t gasnett_getPhysMemSz(int failureIsFatal) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && size > 0) return (uint64_t)pages * (uint64_t)size;
  if (failureIsFatal) gasnett_fatalerror("gasnett_getPhysMemSz: sysconf cannot tell the physical memory size");
  return 0;
}

void gasnett_set_affinity(int rank) {
  int n = gasnett_cpu_count();
  if (n <= 0) return;
  int cpu = ((rank % n) + n) % n;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  /* Best effort, as specified: a cgroup that excludes the CPU leaves the thread as it was. */
  (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Soft limit raised to the hard one, unless GASNET_MAXIMIZE_<lim_desc>=no. */
int gasnett_maximize_rlimit(int res, const char *lim_desc) {
  char key[128];
  snprintf(key, sizeof key, "GASNET_MAXIMIZE_%s", lim_desc);
  if (!gasnett_getenv_yesno_withdefault(key, 1)) return 1;
  struct rlimit lim;
  if (getrlimit(res, &lim) != 0) return 0;
  if (lim.rlim_cur == lim.rlim_max) return 1;
  lim.rlim_cur = lim.rlim_max;
  return setrlimit(res, &lim) == 0;
}

int gasnett_maximize_rlimits(void) {
  int ok = 1;
#define MAXIMIZE_(r) ok &= gasnett_maximize_rlimit(r, #r)
  MAXIMIZE_(RLIMIT_CPU);
  MAXIMIZE_(RLIMIT_DATA);
  MAXIMIZE_(RLIMIT_RSS);
  MAXIMIZE_(RLIMIT_STACK);
  MAXIMIZE_(RLIMIT_AS);
#undef MAXIMIZE_
  return ok;
}

void gasnett_sched_yield(void) {
  sched_yield();
}

/* ------------------------------------------------------------ data */

/* FNV-1a over the bytes: cheap, deterministic everywhere, not secure. */
uint64_t gasnett_checksum(const void *p, int numbytes) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < numbytes; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

size_t gasnett_count0s(const void *p, size_t numbytes) {
  const unsigned char *b = (const unsigned char *)p;
  size_t n = 0;
  for (size_t i = 0; i < numbytes; i++) n += b[i] == 0;
  return n;
}

size_t gasnett_count0s_copy(void *GASNETT_RESTRICT dst, const void *GASNETT_RESTRICT src, size_t numbytes) {
  memcpy(dst, src, numbytes);
  return gasnett_count0s(dst, numbytes);
}
