/*
 * t-env - every environment parser: good values (suffixes, fractions,
 * boundaries) and every class of bad value, each with its exact error code
 * and a message that names the variable and the value; env_load() fails on a
 * bad variable, names it, and leaves the configuration untouched.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int checks;

/* The last message names `var` and quotes `value`. */
static void expect_msg(const char *var, const char *value, int line)
{
    const char *m = pshm_last_error();
    char quoted[128];
    snprintf(quoted, sizeof quoted, "\"%s\"", value);
    if (!strstr(m, var) || !strstr(m, quoted)) {
        fprintf(stderr, "FAIL line %d: message should name %s and %s: \"%s\"\n", line, var,
                quoted, m);
        exit(T_FAIL);
    }
}

#define BAD(call, var, value)                                                    \
    do {                                                                         \
        pshm_err_clear();                                                        \
        CHECK_ERR(call, -EINVAL);                                                \
        expect_msg(var, value, __LINE__);                                        \
        checks++;                                                                \
    } while (0)

static void test_u64(void)
{
    static const char *const bad[] = {"", "5abc", "-1", "abc", " 5", "5 ", "+5", "0x10",
                                      "18446744073709551616", "99999999999999999999999", "0",
                                      "65537", "1.5"};
    uint64_t v = 7;
    CHECK_OK(env_parse_u64("V", "1", 1, 65536, &v));
    CHECK(v == 1);
    CHECK_OK(env_parse_u64("V", "65536", 1, 65536, &v));
    CHECK(v == 65536);
    CHECK_OK(env_parse_u64("V", "0", 0, 4096, &v));
    CHECK(v == 0);
    CHECK_OK(env_parse_u64("V", "007", 0, 10, &v));
    CHECK(v == 7);
    CHECK_OK(env_parse_u64("V", "18446744073709551615", 0, UINT64_MAX, &v));
    CHECK(v == UINT64_MAX);
    for (size_t i = 0; i < PSHM_ARRAY_LEN(bad); i++) {
        v = 42;
        BAD(env_parse_u64("TEST_VAR", bad[i], 1, 65536, &v), "TEST_VAR", bad[i]);
        CHECK(v == 42); /* untouched */
    }
    CHECK_ERR(env_parse_u64("TEST_VAR", NULL, 0, 1, &v), -EINVAL);
    checks += 6;
}

static void test_size(void)
{
    static const struct { const char *s; uint64_t v; } good[] = {
        {"4096", 4096}, {"64K", 64 << 10}, {"64k", 64 << 10}, {"64KB", 64 << 10},
        {"64KiB", 64 << 10}, {"64kib", 64 << 10}, {"512M", 512ull << 20}, {"2G", 2ull << 30},
        {"2gb", 2ull << 30}, {"1T", 1ull << 40}, {"1TiB", 1ull << 40}, {"100B", 100},
        {"0", 0}, {"16777215T", 16777215ull << 40}};
    static const char *const bad[] = {"", "5abc", "-1", "abc", " 5", "5 ", "K", "1.5M",
                                      "1KX", "1 K", "1KK", "1Ki", "16777216T",
                                      "18446744073709551616", "1P", "+1K"};
    uint64_t v;
    for (size_t i = 0; i < PSHM_ARRAY_LEN(good); i++) {
        v = 1;
        CHECK_OK(env_parse_size("S", good[i].s, 0, UINT64_MAX, &v));
        if (v != good[i].v) {
            fprintf(stderr, "FAIL: size \"%s\" gave %llu, expected %llu\n", good[i].s,
                    (unsigned long long)v, (unsigned long long)good[i].v);
            exit(T_FAIL);
        }
        checks++;
    }
    for (size_t i = 0; i < PSHM_ARRAY_LEN(bad); i++)
        BAD(env_parse_size("SIZE_VAR", bad[i], 0, UINT64_MAX, &v), "SIZE_VAR", bad[i]);
    /* Boundaries, inclusive. */
    CHECK_OK(env_parse_size("S", "128K", 128 << 10, 1 << 20, &v));
    CHECK_OK(env_parse_size("S", "1M", 128 << 10, 1 << 20, &v));
    BAD(env_parse_size("SIZE_VAR", "127K", 128 << 10, 1 << 20, &v), "SIZE_VAR", "127K");
    BAD(env_parse_size("SIZE_VAR", "1025K", 128 << 10, 1 << 20, &v), "SIZE_VAR", "1025K");
}

static void test_segsize(void)
{
    static const struct { const char *s; uint64_t bytes; double f; char per; } good[] = {
        {"0.5", 0, 0.5, 'p'},      {"0.85/h", 0, 0.85, 'h'}, {"1", 0, 1.0, 'p'},
        {"1.0/p", 0, 1.0, 'p'},    {".25/H", 0, 0.25, 'h'},  {"2G/p", 2ull << 30, 0, 'p'},
        {"4K", 4096, 0, 'p'},      {"64M/h", 64ull << 20, 0, 'h'}, {"4096", 4096, 0, 'p'},
        {"1gib/P", 1ull << 30, 0, 'p'}};
    static const char *const bad[] = {"", "0", "0.0", "1.5", "1.0001", "2", "4095", "5abc",
                                      "-0.5", "0.5/x", "/h", "4K/", "0.5/", ".", "5.", "abc",
                                      " 0.5", "0.5 ", "0.5/hh", "1e3", "99999999999999999999"};
    segsize_spec_t s;
    for (size_t i = 0; i < PSHM_ARRAY_LEN(good); i++) {
        memset(&s, 0x55, sizeof s);
        CHECK_OK(env_parse_segsize("GASNET_MAX_SEGSIZE", good[i].s, &s));
        if (s.bytes != good[i].bytes || s.per != good[i].per ||
            (s.fraction - good[i].f) > 1e-9 || (good[i].f - s.fraction) > 1e-9) {
            fprintf(stderr, "FAIL: segsize \"%s\" gave bytes=%llu fraction=%g per=%c\n",
                    good[i].s, (unsigned long long)s.bytes, s.fraction, s.per);
            exit(T_FAIL);
        }
        checks++;
    }
    for (size_t i = 0; i < PSHM_ARRAY_LEN(bad); i++)
        BAD(env_parse_segsize("GASNET_MAX_SEGSIZE", bad[i], &s), "GASNET_MAX_SEGSIZE", bad[i]);
}

static void test_seconds(void)
{
    static const struct { const char *s; uint32_t ms; } good[] = {
        {"2", 2000}, {"0.5", 500}, {"0.1", 100}, {"600", 600000}, {"600.0", 600000},
        {"0", 0}, {"1.2345", 1235}, {"02.50", 2500}};
    static const char *const bad[] = {"", "-1", "abc", "1.", "1e3", "600.001", "601", " 2",
                                      "2s", "99999999999999999999", "0x1"};
    uint32_t ms;
    for (size_t i = 0; i < PSHM_ARRAY_LEN(good); i++) {
        CHECK_OK(env_parse_seconds("T", good[i].s, 600000, &ms));
        if (ms != good[i].ms) {
            fprintf(stderr, "FAIL: seconds \"%s\" gave %u ms, expected %u\n", good[i].s, ms,
                    good[i].ms);
            exit(T_FAIL);
        }
        checks++;
    }
    for (size_t i = 0; i < PSHM_ARRAY_LEN(bad); i++)
        BAD(env_parse_seconds("SECS", bad[i], 600000, &ms), "SECS", bad[i]);
}

static const char *const all_vars[] = {
    "GASNET_MAX_SEGSIZE", "GASNET_PSHMNET_QUEUE_DEPTH", "GASNET_PSHMNET_QUEUE_MEMORY",
    "GASNET_SUPERNODE_MAXSIZE", "GASNET_HOST_DETECT", "GASNET_WAIT_MODE", "GASNET_EXITTIMEOUT",
    "PSHM_SIM_HOSTS", "PSHM_HOST_ID", "GASNET_TMPDIR", "TMPDIR", "PSHM_SYNERGY_MIN",
    "PSHM_SYNERGY_CHUNK"};

static void clear_env(void)
{
    for (size_t i = 0; i < PSHM_ARRAY_LEN(all_vars); i++) unsetenv(all_vars[i]);
}

/* env_load with var=value fails with -EINVAL, names both, changes nothing. */
static void load_bad(const char *var, const char *value)
{
    pshm_cfg_t c, before;
    clear_env();
    setenv(var, value, 1);
    memset(&c, 0xab, sizeof c);
    before = c;
    pshm_err_clear();
    int rc = env_load(&c);
    if (rc != -EINVAL) {
        fprintf(stderr, "FAIL: env_load with %s=\"%s\" returned %d, expected %d\n", var, value,
                rc, -EINVAL);
        exit(T_FAIL);
    }
    expect_msg(var, value, __LINE__);
    CHECK(memcmp(&c, &before, sizeof c) == 0);
    checks++;
}

static pshm_cfg_t load_good(const char *var, const char *value)
{
    pshm_cfg_t c;
    clear_env();
    if (var) setenv(var, value, 1);
    int rc = env_load(&c);
    if (rc != 0) {
        fprintf(stderr, "FAIL: env_load with %s=\"%s\" returned %d: %s\n", var ? var : "-",
                value ? value : "", rc, pshm_last_error());
        exit(T_FAIL);
    }
    checks++;
    return c;
}

static void test_load(void)
{
    pshm_cfg_t c = load_good(NULL, NULL);
    CHECK(c.max_segsize.bytes == 0 && c.max_segsize.fraction == 0.85 && c.max_segsize.per == 'h');
    CHECK(c.queue_depth == 0); /* not set: pshm_queue_depth's default for P */
    CHECK(pshm_queue_depth(2, 0) == PSHM_QUEUE_DEPTH_DEFAULT && pshm_queue_depth(3, 0) == 64 &&
          pshm_queue_depth(7, 0) == 64 && pshm_queue_depth(8, 0) == 36 &&
          pshm_queue_depth(16, 0) == 17 &&
          pshm_queue_depth(64, 0) == 4 && pshm_queue_depth(256, 0) == 1 &&
          pshm_queue_depth(256, 7) == 7);
    CHECK(c.queue_memory == PSHM_QUEUE_MEMORY_DEFAULT);
    CHECK(c.supernode_max == 0 && c.sim_hosts == 0 && c.host_id[0] == 0);
    CHECK(c.host_detect == HOST_DETECT_BOOTID && c.wait_mode == WAIT_AUTO);
    CHECK(c.exit_timeout_ms == 2000);
    CHECK(c.synergy_min == PSHM_SYNERGY_MIN_DEFAULT);
    CHECK(c.synergy_chunk == PSHM_SYNERGY_CHUNK_DEFAULT);
    CHECK(strcmp(c.tmpdir, PSHM_BACKEND_FILE ? "/tmp" : "") == 0);

    CHECK(load_good("GASNET_MAX_SEGSIZE", "256M/p").max_segsize.bytes == 256ull << 20);
    CHECK(load_good("GASNET_PSHMNET_QUEUE_DEPTH", "65536").queue_depth == 65536);
    CHECK(load_good("GASNET_PSHMNET_QUEUE_DEPTH", "1").queue_depth == 1);
    CHECK(load_good("GASNET_PSHMNET_QUEUE_MEMORY", "128K").queue_memory == 128 << 10);
    CHECK(load_good("GASNET_PSHMNET_QUEUE_MEMORY", "4m").queue_memory == 4 << 20);
    CHECK(load_good("GASNET_SUPERNODE_MAXSIZE", "0").supernode_max == 0);
    CHECK(load_good("GASNET_SUPERNODE_MAXSIZE", "4096").supernode_max == 4096);
    CHECK(load_good("GASNET_HOST_DETECT", "hostname").host_detect == HOST_DETECT_HOSTNAME);
    CHECK(load_good("GASNET_HOST_DETECT", "GETHOSTID").host_detect == HOST_DETECT_GETHOSTID);
    CHECK(load_good("GASNET_HOST_DETECT", "boot_id").host_detect == HOST_DETECT_BOOTID);
    CHECK(load_good("GASNET_WAIT_MODE", "spin").wait_mode == WAIT_SPIN);
    CHECK(load_good("GASNET_WAIT_MODE", "Block").wait_mode == WAIT_BLOCK);
    CHECK(load_good("GASNET_WAIT_MODE", "SPINBLOCK").wait_mode == WAIT_SPINBLOCK);
    CHECK(load_good("GASNET_WAIT_MODE", "auto").wait_mode == WAIT_AUTO);
    CHECK(load_good("GASNET_EXITTIMEOUT", "0.1").exit_timeout_ms == 100);
    CHECK(load_good("GASNET_EXITTIMEOUT", "600").exit_timeout_ms == 600000);
    CHECK(load_good("PSHM_SIM_HOSTS", "4096").sim_hosts == 4096);
    CHECK(load_good("PSHM_SIM_HOSTS", "0").sim_hosts == 0);
    CHECK(load_good("PSHM_SYNERGY_MIN", "0").synergy_min == UINT64_MAX); /* off */
    CHECK(load_good("PSHM_SYNERGY_MIN", "4K").synergy_min == 4096);
    CHECK(load_good("PSHM_SYNERGY_MIN", "1T").synergy_min == 1ull << 40);
    CHECK(load_good("PSHM_SYNERGY_CHUNK", "4k").synergy_chunk == 4096);
    CHECK(load_good("PSHM_SYNERGY_CHUNK", "1G").synergy_chunk == 1ull << 30);
    CHECK(strcmp(load_good("PSHM_HOST_ID", "node-7 a").host_id, "node-7 a") == 0);
    char id63[64];
    memset(id63, 'x', 63);
    id63[63] = 0;
    CHECK(strcmp(load_good("PSHM_HOST_ID", id63).host_id, id63) == 0);
    if (PSHM_BACKEND_FILE) {
        CHECK(strcmp(load_good("TMPDIR", "/tmp/.").tmpdir, "/tmp") == 0);
        CHECK(strcmp(load_good("GASNET_TMPDIR", "/tmp/").tmpdir, "/tmp") == 0);
        /* GASNET_TMPDIR wins over TMPDIR. */
        clear_env();
        setenv("TMPDIR", "/nonexistent-pshm", 1);
        setenv("GASNET_TMPDIR", "/tmp", 1);
        CHECK_OK(env_load(&c));
        CHECK(strcmp(c.tmpdir, "/tmp") == 0);
    } else {
        /* Only the file backend uses the temporary directory: a stale one
         * (a batch node's removed TMPDIR) stops nothing else. */
        static const char *const stale[] = {"", "relative/dir", "/nonexistent-pshm-dir",
                                            "/etc/passwd"};
        for (size_t i = 0; i < PSHM_ARRAY_LEN(stale); i++) {
            CHECK(load_good("GASNET_TMPDIR", stale[i]).tmpdir[0] == 0);
            CHECK(load_good("TMPDIR", stale[i]).tmpdir[0] == 0);
        }
        printf("a stale TMPDIR is not read by the %s backend: ok\n", PSHM_BACKEND_NAME);
    }

    load_bad("GASNET_MAX_SEGSIZE", "0");
    load_bad("GASNET_MAX_SEGSIZE", "1.5/h");
    load_bad("GASNET_PSHMNET_QUEUE_DEPTH", "0");
    load_bad("GASNET_PSHMNET_QUEUE_DEPTH", "65537");
    load_bad("GASNET_PSHMNET_QUEUE_DEPTH", "5abc");
    load_bad("GASNET_PSHMNET_QUEUE_DEPTH", "");
    load_bad("GASNET_PSHMNET_QUEUE_MEMORY", "64K");
    load_bad("GASNET_PSHMNET_QUEUE_MEMORY", "1000T");
    load_bad("GASNET_PSHMNET_QUEUE_MEMORY", "-1");
    load_bad("GASNET_SUPERNODE_MAXSIZE", "4097");
    load_bad("GASNET_SUPERNODE_MAXSIZE", " 5");
    load_bad("GASNET_HOST_DETECT", "mac");
    load_bad("GASNET_HOST_DETECT", "");
    load_bad("GASNET_WAIT_MODE", "spinning");
    /* The message lists every accepted value, the default's too. */
    CHECK(strstr(pshm_last_error(), "SPINBLOCK") != NULL);
    CHECK(strstr(pshm_last_error(), "AUTO") != NULL);
    load_bad("GASNET_WAIT_MODE", "");
    load_bad("GASNET_EXITTIMEOUT", "0.05");
    load_bad("GASNET_EXITTIMEOUT", "601");
    load_bad("GASNET_EXITTIMEOUT", "abc");
    load_bad("PSHM_SIM_HOSTS", "4097");
    load_bad("PSHM_SIM_HOSTS", "-1");
    load_bad("PSHM_SYNERGY_MIN", "4095");
    load_bad("PSHM_SYNERGY_MIN", "2T");
    load_bad("PSHM_SYNERGY_MIN", "256Kx");
    load_bad("PSHM_SYNERGY_MIN", "00");
    load_bad("PSHM_SYNERGY_MIN", "");
    CHECK(strstr(pshm_last_error(), "0 (off)") != NULL);
    load_bad("PSHM_SYNERGY_CHUNK", "0");
    load_bad("PSHM_SYNERGY_CHUNK", "2G");
    load_bad("PSHM_SYNERGY_CHUNK", "-64K");
    load_bad("PSHM_HOST_ID", "");
    load_bad("PSHM_HOST_ID", "tab\there");
    char id64[65];
    memset(id64, 'x', 64);
    id64[64] = 0;
    load_bad("PSHM_HOST_ID", id64);
    if (!PSHM_BACKEND_FILE) {
        clear_env();
        return;
    }
    load_bad("GASNET_TMPDIR", "");
    load_bad("GASNET_TMPDIR", "relative/dir");
    load_bad("GASNET_TMPDIR", "/nonexistent-pshm-dir");
    load_bad("GASNET_TMPDIR", "/etc/passwd");
    load_bad("TMPDIR", "tmp");

    /* A directory anyone may write without the sticky bit is refused; a
     * link to a good directory is resolved. */
    char dir[64], link[64];
    snprintf(dir, sizeof dir, "/tmp/t-env-%d", (int)getpid());
    snprintf(link, sizeof link, "/tmp/t-env-%d.lnk", (int)getpid());
    CHECK(mkdir(dir, 0700) == 0);
    CHECK(chmod(dir, 0777) == 0);
    load_bad("GASNET_TMPDIR", dir);
    CHECK(chmod(dir, 0700) == 0);
    CHECK(symlink(dir, link) == 0);
    c = load_good("GASNET_TMPDIR", link);
    int same = strcmp(c.tmpdir, dir) == 0;
    unlink(link);
    rmdir(dir);
    CHECK(same);
    clear_env();
}

static void test_table(void)
{
    for (size_t i = 0; i < PSHM_ARRAY_LEN(all_vars); i++) {
        const env_desc_t *d = pshm_env_vars;
        while (d->name && strcmp(d->name, all_vars[i])) d++;
        if (!d->name || !d->deflt || !d->range || !d->doc || !*d->doc) {
            fprintf(stderr, "FAIL: %s missing or incomplete in pshm_env_vars[]\n", all_vars[i]);
            exit(T_FAIL);
        }
        checks++;
    }
}

int main(void)
{
    test_u64();
    test_size();
    test_segsize();
    test_seconds();
    test_load();
    test_table();
    printf("t-env: %d checks passed\n", checks);
    return T_PASS;
}
