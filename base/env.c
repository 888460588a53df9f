/*
 * env.c - the environment variables pshm reads, parsed strictly.
 *
 * Every parser uses the whole string (no sign, no blanks, no trailing bytes),
 * detects overflow, checks the range and, on failure, returns -EINVAL with a
 * sentence naming the variable, the value given and what it accepts.
 * env_load() fills the configuration only when every variable is good.
 */
#include "base/base.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The queue memory must hold at least one largest Medium payload plus its
 * slot bookkeeping: 64 KiB + 4 KiB, rounded to a comfortable 128 KiB. */
#define PSHM_QUEUE_MEMORY_MIN (128ull << 10)
#define PSHM_SEGSIZE_MIN 4096ull            /* an absolute GASNET_MAX_SEGSIZE */
#define PSHM_SUPERNODE_MAX 4096u
#define PSHM_SIM_HOSTS_MAX 4096u

const env_desc_t pshm_env_vars[] = {
    {"GASNET_MAX_SEGSIZE", "0.85/h",
     "size (4K..; K/M/G/T) or fraction 0<f<=1 of physical memory, optional /p or /h",
     "largest segment a process may create; /h divides it among the processes of the host"},
    {"GASNET_PSHMNET_QUEUE_DEPTH", "64 below 8 processes, 256 / (P - 1) from there (1..64)",
     "1..65536", "lines of the queue of each ordered pair of processes, per network"},
    {"GASNET_PSHMNET_QUEUE_MEMORY", "1M", "128K..physical memory (K/M/G suffixes)",
     "payload pool of each process for Medium and Long messages"},
    {"GASNET_SUPERNODE_MAXSIZE", "0", "0 (no limit) or 1..4096",
     "most processes of one host that share memory; a host is split beyond it"},
    {"GASNET_HOST_DETECT", "boot_id", "boot_id, hostname, gethostid",
     "how processes tell they share a host (boot_id: kernel boot id and hostname)"},
    {"GASNET_WAIT_MODE", "auto", "SPIN, BLOCK, SPINBLOCK, AUTO",
     "how waits spend the CPU (auto: spin unless processes outnumber usable CPUs)"},
    {"GASNET_EXITTIMEOUT", "2.0", "0.1..600 seconds, fractions allowed",
     "how long exit waits for the other processes before giving up on them"},
    {"PSHM_BOOT_TIMEOUT", "120", "0 (no limit) or seconds up to 4e6, fractions allowed",
     "pshmrun: how long processes that called pshm_init wait for the others to call it"},
    {"PSHM_SIM_HOSTS", "0", "0 (off) or 1..4096",
     "testing: splits this host into N simulated hosts by rank % N"},
    {"PSHM_HOST_ID", "(unset)", "1..63 printable characters",
     "explicit host identity; processes with equal values share memory"},
    {"GASNET_TMPDIR", "$TMPDIR, else /tmp", "absolute path of a writable directory",
     "where the file backend creates its objects"},
    {"TMPDIR", "/tmp", "absolute path of a writable directory",
     "temporary directory, used when GASNET_TMPDIR is unset"},
    {"PSHM_HUGEPAGES", "no", "no, auto, yes",
     "back segments and the AM region with huge pages: auto when the system offers them, "
     "yes or fail"},
    {"PSHM_SYNERGY_MIN", "256K", "0 (off) or 4K..1T (K/M/G/T suffixes)",
     "smallest Long, pshm_put or pshm_get whose copy a polling receiver or target shares"},
    {"PSHM_SYNERGY_CHUNK", "64K", "4K..1G (K/M/G suffixes)",
     "bytes each side claims at a time in a shared copy"},
    {NULL, NULL, NULL, NULL},
};

static int bad(const char *var, const char *s, const char *accepts)
{
    return pshm_err(-EINVAL, "%s=\"%s\" is not valid: expected %s", var ? var : "value",
                    s ? s : "(null)", accepts);
}

/* Leading decimal digits of s into *v; returns the count, or -1 on overflow. */
static int digits(const char *s, uint64_t *v)
{
    int n = 0;
    *v = 0;
    for (; s[n] >= '0' && s[n] <= '9'; n++) {
        uint64_t d = (uint64_t)(s[n] - '0');
        if (*v > (UINT64_MAX - d) / 10) return -1;
        *v = *v * 10 + d;
    }
    return n;
}

static int range_bad(const char *var, const char *s, uint64_t min, uint64_t max, bool size)
{
    char what[160], a[32], b[32];
    if (size) {
        pshm_fmt_size(a, sizeof a, min);
        pshm_fmt_size(b, sizeof b, max);
        snprintf(what, sizeof what, "a size from %s to %s (digits, then K, M, G or T)", a, b);
    } else {
        snprintf(what, sizeof what, "a whole number from %llu to %llu",
                 (unsigned long long)min, (unsigned long long)max);
    }
    return bad(var, s, what);
}

int env_parse_u64(const char *var, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v;
    int n;
    if (!s || !*s || (n = digits(s, &v)) <= 0 || s[n] || v < min || v > max)
        return range_bad(var, s, min, max, false);
    *out = v;
    return 0;
}

/* Multiplier of a size suffix ("", B, K, KB, KiB, M, ... case-insensitive), 0 if unknown. */
static uint64_t size_suffix(const char *s)
{
    static const char units[] = "KMGT";
    const char *u;
    if (!*s || !strcasecmp(s, "B")) return 1;
    if (!(u = memchr(units, s[0] >= 'a' && s[0] <= 'z' ? s[0] - 'a' + 'A' : s[0], 4))) return 0;
    if (s[1] && strcasecmp(s + 1, "B") && strcasecmp(s + 1, "iB")) return 0;
    return 1ull << (10 * (u - units + 1));
}

/* Parses "<digits>[suffix]" without a range check; -1 if malformed or too large. */
static int size_value(const char *s, uint64_t *out)
{
    uint64_t v, m;
    int n;
    if (!s || (n = digits(s, &v)) <= 0) return -1;
    if (!(m = size_suffix(s + n))) return -1;
    if (v > UINT64_MAX / m) return -1;
    *out = v * m;
    return 0;
}

int env_parse_size(const char *var, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v;
    if (size_value(s, &v) < 0 || v < min || v > max) return range_bad(var, s, min, max, true);
    *out = v;
    return 0;
}

/*
 * "<int>[.<frac>]" as a decimal, without locale dependence: into *whole and
 * *frac (0 <= frac < 1). Returns the bytes used, or -1.
 */
static int decimal(const char *s, uint64_t *whole, double *frac)
{
    int n = digits(s, whole), k = 0;
    double f = 0, scale = 0.1;
    if (n < 0) return -1;
    if (s[n] == '.') {
        for (k = 1; s[n + k] >= '0' && s[n + k] <= '9'; k++, scale /= 10)
            f += (s[n + k] - '0') * scale;
        if (k == 1) return -1;  /* "5." */
    }
    if (n == 0 && k == 0) return -1;
    *frac = f;
    return n + k;
}

int env_parse_segsize(const char *var, const char *s, segsize_spec_t *out)
{
    static const char accepts[] =
        "a size of at least 4K (digits, then K, M, G or T) or a fraction of physical memory "
        "0 < f <= 1 (\"0.5\"), optionally followed by /p (per process) or /h (per host)";
    char buf[64];
    segsize_spec_t spec = {0, 0, 'p'};
    size_t len;
    if (!s || !*s || (len = strlen(s)) >= sizeof buf) return bad(var, s, accepts);
    memcpy(buf, s, len + 1);
    if (len > 2 && buf[len - 2] == '/') {
        char p = (char)(buf[len - 1] | 0x20);
        if (p != 'p' && p != 'h') return bad(var, s, accepts);
        spec.per = p;
        buf[len - 2] = 0;
    }
    uint64_t whole;
    double frac;
    int n = decimal(buf, &whole, &frac);
    if (n > 0 && !buf[n] && (strchr(buf, '.') || whole <= 1)) {
        /* A fraction: "0.85", "1", "1.0" (values up to 1, as GASNet reads them). */
        double f = (double)whole + frac;
        if (!(f > 0 && f <= 1)) return bad(var, s, accepts);
        spec.fraction = f;
    } else if (size_value(buf, &spec.bytes) < 0 || spec.bytes < PSHM_SEGSIZE_MIN) {
        return bad(var, s, accepts);
    }
    *out = spec;
    return 0;
}

int env_parse_ms(const char *var, const char *s, uint32_t min_ms, uint32_t max_ms,
                 uint32_t *out_ms)
{
    char what[128];
    uint64_t whole;
    double frac;
    int n = s ? decimal(s, &whole, &frac) : -1;
    if (n > 0 && !s[n] && whole <= max_ms / 1000 + 1) {
        uint64_t ms = whole * 1000 + (uint64_t)(frac * 1000 + 0.5);
        if (ms >= min_ms && ms <= max_ms) {
            *out_ms = (uint32_t)ms;
            return 0;
        }
    }
    snprintf(what, sizeof what, "seconds from %g to %g (fractions allowed, e.g. \"0.5\")",
             min_ms / 1000.0, max_ms / 1000.0);
    return bad(var, s, what);
}

int env_parse_seconds(const char *var, const char *s, uint32_t max_ms, uint32_t *out_ms)
{
    return env_parse_ms(var, s, 0, max_ms, out_ms);
}

int env_parse_exit_timeout(const char *var, const char *s, uint32_t *out_ms)
{
    return env_parse_ms(var, s, PSHM_EXIT_TIMEOUT_MIN_MS, PSHM_EXIT_TIMEOUT_MAX_MS, out_ms);
}

/* One of `names` (case-insensitive) -> its index in `values`. */
static int parse_choice(const char *var, const char *s, const char *const *names,
                        const int *values, int count, const char *accepts, int *out)
{
    for (int i = 0; s && i < count; i++) {
        if (!strcasecmp(s, names[i])) {
            *out = values[i];
            return 0;
        }
    }
    return bad(var, s, accepts);
}

static int parse_host_id(const char *var, const char *s, char *out, size_t outsz)
{
    size_t n = s ? strlen(s) : 0;
    bool ok = n >= 1 && n < outsz;
    for (size_t i = 0; ok && i < n; i++) ok = s[i] >= 0x20 && s[i] < 0x7f;
    if (!ok) return bad(var, s, "1 to 63 printable ASCII characters");
    memcpy(out, s, n + 1);
    return 0;
}

/*
 * The temporary directory: absolute, an existing writable directory. Links are
 * resolved once here so that later opens inside it never follow one; a
 * directory others can write must be sticky, else they could replace our files.
 */
static int parse_tmpdir(const char *var, const char *s, char *out, size_t outsz)
{
    static const char accepts[] = "the absolute path of an existing writable directory";
    char real[PSHM_PATH_MAX];
    struct stat st;
    if (!s || s[0] != '/' || strlen(s) >= outsz) return bad(var, s, accepts);
    if (!realpath(s, real) || strlen(real) >= outsz)
        return pshm_err(-EINVAL, "%s=\"%s\" is not valid: %s; expected %s", var, s,
                        strerror(errno), accepts);
    if (lstat(real, &st) < 0 || !S_ISDIR(st.st_mode))
        return pshm_err(-EINVAL, "%s=\"%s\" is not valid: not a directory; expected %s", var, s,
                        accepts);
    if (access(real, W_OK | X_OK) < 0)
        return pshm_err(-EINVAL, "%s=\"%s\" is not valid: %s; expected %s", var, s,
                        strerror(errno), accepts);
    if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
        return pshm_err(-EINVAL,
                        "%s=\"%s\" is not valid: anyone may write it and it is not sticky "
                        "(chmod +t), so others could replace pshm's files; choose a private "
                        "directory",
                        var, s);
    memcpy(out, real, strlen(real) + 1);
    return 0;
}

int env_load(pshm_cfg_t *out)
{
    static const char *const detect_names[] = {"boot_id", "hostname", "gethostid"};
    static const int detect_values[] = {HOST_DETECT_BOOTID, HOST_DETECT_HOSTNAME,
                                        HOST_DETECT_GETHOSTID};
    static const char *const wait_names[] = {"SPIN", "BLOCK", "SPINBLOCK", "AUTO"};
    static const int wait_values[] = {WAIT_SPIN, WAIT_BLOCK, WAIT_SPINBLOCK, WAIT_AUTO};
    static const char *const huge_names[] = {"no", "auto", "yes"};
    static const int huge_values[] = {HUGE_NO, HUGE_AUTO, HUGE_YES};
    pshm_cfg_t c;
    const char *v;
    uint64_t u;
    int rc;

    memset(&c, 0, sizeof c);
    c.max_segsize = (segsize_spec_t){0, 0.85, 'h'};
    c.queue_depth = 0; /* not set: pshm_queue_depth gives the default for P */
    c.queue_memory = PSHM_QUEUE_MEMORY_DEFAULT;
    c.exit_timeout_ms = PSHM_EXIT_TIMEOUT_DEFAULT_MS;
    c.boot_timeout_ms = PSHM_BOOT_TIMEOUT_DEFAULT_MS;
    c.host_detect = HOST_DETECT_BOOTID;
    c.wait_mode = WAIT_AUTO;
    c.synergy_min = PSHM_SYNERGY_MIN_DEFAULT;
    c.synergy_chunk = PSHM_SYNERGY_CHUNK_DEFAULT;

#define GET(name) ((v = getenv(name)) != NULL)
    if (GET("GASNET_MAX_SEGSIZE") &&
        (rc = env_parse_segsize("GASNET_MAX_SEGSIZE", v, &c.max_segsize)) < 0)
        return rc;
    if (GET("GASNET_PSHMNET_QUEUE_DEPTH")) {
        if ((rc = env_parse_u64("GASNET_PSHMNET_QUEUE_DEPTH", v, PSHM_QUEUE_DEPTH_MIN,
                                PSHM_QUEUE_DEPTH_MAX, &u)) < 0)
            return rc;
        c.queue_depth = (uint32_t)u;
    }
    if (GET("GASNET_PSHMNET_QUEUE_MEMORY") &&
        (rc = env_parse_size("GASNET_PSHMNET_QUEUE_MEMORY", v, PSHM_QUEUE_MEMORY_MIN,
                             sys_phys_mem(), &c.queue_memory)) < 0)
        return rc;
    if (GET("GASNET_SUPERNODE_MAXSIZE")) {
        if ((rc = env_parse_u64("GASNET_SUPERNODE_MAXSIZE", v, 0, PSHM_SUPERNODE_MAX, &u)) < 0)
            return rc;
        c.supernode_max = (uint32_t)u;
    }
    if (GET("GASNET_HOST_DETECT") &&
        (rc = parse_choice("GASNET_HOST_DETECT", v, detect_names, detect_values, 3,
                           "boot_id, hostname or gethostid", &c.host_detect)) < 0)
        return rc;
    if (GET("GASNET_WAIT_MODE") &&
        (rc = parse_choice("GASNET_WAIT_MODE", v, wait_names, wait_values, 4,
                           "SPIN, BLOCK, SPINBLOCK or AUTO", &c.wait_mode)) < 0)
        return rc;
    if (GET("PSHM_HUGEPAGES") &&
        (rc = parse_choice("PSHM_HUGEPAGES", v, huge_names, huge_values, 3, "no, auto or yes",
                           &c.hugepages)) < 0)
        return rc;
    if (GET("GASNET_EXITTIMEOUT") &&
        (rc = env_parse_exit_timeout("GASNET_EXITTIMEOUT", v, &c.exit_timeout_ms)) < 0)
        return rc;
    if (GET("PSHM_BOOT_TIMEOUT") &&
        (rc = env_parse_ms("PSHM_BOOT_TIMEOUT", v, 0, PSHM_BOOT_TIMEOUT_MAX_MS,
                       &c.boot_timeout_ms)) < 0)
        return rc;
    if (GET("PSHM_SIM_HOSTS")) {
        if ((rc = env_parse_u64("PSHM_SIM_HOSTS", v, 0, PSHM_SIM_HOSTS_MAX, &u)) < 0) return rc;
        c.sim_hosts = (uint32_t)u;
    }
    if (GET("PSHM_SYNERGY_MIN")) {
        if (!strcmp(v, "0"))
            c.synergy_min = UINT64_MAX;
        else if (size_value(v, &u) < 0 || u < PSHM_SYNERGY_CHUNK_MIN || u > PSHM_SYNERGY_MIN_MAX)
            return bad("PSHM_SYNERGY_MIN", v,
                       "0 (off) or a size from 4 KiB to 1 TiB (digits, then K, M, G or T)");
        else
            c.synergy_min = u;
    }
    if (GET("PSHM_SYNERGY_CHUNK") &&
        (rc = env_parse_size("PSHM_SYNERGY_CHUNK", v, PSHM_SYNERGY_CHUNK_MIN,
                             PSHM_SYNERGY_CHUNK_MAX, &c.synergy_chunk)) < 0)
        return rc;
    if (GET("PSHM_HOST_ID") &&
        (rc = parse_host_id("PSHM_HOST_ID", v, c.host_id, sizeof c.host_id)) < 0)
        return rc;
    /* Only the file backend keeps objects there: a stale TMPDIR (common on
     * batch nodes) must not stop a job of another backend; "" = not used. */
    if (!PSHM_BACKEND_FILE)
        rc = 0;
    else if (GET("GASNET_TMPDIR"))
        rc = parse_tmpdir("GASNET_TMPDIR", v, c.tmpdir, sizeof c.tmpdir);
    else if (GET("TMPDIR"))
        rc = parse_tmpdir("TMPDIR", v, c.tmpdir, sizeof c.tmpdir);
    else
        rc = parse_tmpdir("default temporary directory", "/tmp", c.tmpdir, sizeof c.tmpdir);
    if (rc < 0) return rc;
#undef GET

    *out = c;
    return 0;
}
