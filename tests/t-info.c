/*
 * t-info - pshm-info reports the build, every variable pshm reads, the AM
 * network's size exactly as pshm_am_network_size() computes it, misspelt
 * variables with a suggestion, invalid values with exit 1, and valid JSON.
 */
#include "internal.h"
#include "common/misc.h"
#include "tests/helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define OUT_MAX 65536

static char cmd[2048], out[OUT_MAX];
static unsigned checks;

/* Runs "ENV pshm-info ARGS"; fails unless it exits `want`. */
static void info_run(const char *env, const char *args, int want)
{
    snprintf(cmd, sizeof cmd, "%s %s %s", env, th_tool("pshm-info"), args);
    int rc = th_run(cmd, out, sizeof out);
    if (rc != want) {
        fprintf(stderr, "FAIL: '%s' exited %d, expected %d; output:\n%s\n", cmd, rc, want, out);
        exit(T_FAIL);
    }
    checks++;
}

static void expect(const char *what)
{
    if (!strstr(out, what)) {
        fprintf(stderr, "FAIL: the output of '%s' lacks \"%s\":\n%s\n", cmd, what, out);
        exit(T_FAIL);
    }
    checks++;
}

static void expect_not(const char *what)
{
    if (strstr(out, what)) {
        fprintf(stderr, "FAIL: the output of '%s' has \"%s\":\n%s\n", cmd, what, out);
        exit(T_FAIL);
    }
    checks++;
}

/* The JSON output parses and `expr` (Python over `d`; strings in double quotes,
 * as it goes inside single quotes for the shell) is true. */
static bool have_python;
static void json_check(const char *env, const char *args, int want, const char *expr)
{
    char full[1024];
    snprintf(full, sizeof full, "--json %s", args);
    info_run(env, full, want);
    if (!have_python) return;
    snprintf(cmd, sizeof cmd,
             "%s %s --json %s 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); "
             "sys.exit(0 if (%s) else 1)'",
             env, th_tool("pshm-info"), args, expr);
    int rc = th_run(cmd, out, sizeof out);
    if (rc != 0) {
        fprintf(stderr, "FAIL: the JSON of pshm-info %s does not parse or fails %s:\n%s\n", args,
                expr, out);
        exit(T_FAIL);
    }
    checks++;
}

int main(void)
{
    char want[128];
    uint64_t am64, am64d16, am3;

    /* Start from an environment with no GASNET_ or PSHM_ variable but PSHM_BUILD,
     * so that whatever the caller set cannot change the report. */
    for (int again = 1; again;) {
        again = 0;
        for (char **e = environ; *e; e++) {
            char name[256];
            size_t n = strcspn(*e, "=");
            if (n >= sizeof name || (strncmp(*e, "GASNET_", 7) && strncmp(*e, "PSHM_", 5)))
                continue;
            memcpy(name, *e, n);
            name[n] = 0;
            if (!strcmp(name, "PSHM_BUILD")) continue;
            unsetenv(name); /* changes environ: start over */
            again = 1;
            break;
        }
    }
    have_python = th_run("python3 -c 'import json'", out, sizeof out) == 0;

    info_run("", "", 0);
    snprintf(want, sizeof want, "backend                %s", PSHM_BACKEND_NAME);
    expect(want);
    snprintf(want, sizeof want, "cache line             %d bytes", PSHM_CACHE_LINE);
    expect(want);
    expect(PSHM_VERSION);
    for (int i = 0; pshm_env_vars[i].name; i++) expect(pshm_env_vars[i].name);
    expect("/dev/shm");
    expect("RLIMIT_MEMLOCK");
    expect_not("warning");
    printf("build, machine and variables reported: ok\n");

    /* The AM network figure is the library's, for the default and a set depth. */
    /* --disable-pshm: every process is a supernode of one. */
    int n64 = PSHM_BACKEND_NONE ? 1 : 64, n3 = PSHM_BACKEND_NONE ? 1 : 3;
    CHECK_OK(pshm_am_network_size(n64, 0, 0, &am64));
    CHECK_OK(pshm_am_network_size(n64, 16, 0, &am64d16));
    CHECK_OK(pshm_am_network_size(n3, 0, 0, &am3));
    CHECK(am64 != am64d16);
    info_run("", "--procs 64", 0);
    snprintf(want, sizeof want, "(%llu bytes)", (unsigned long long)am64);
    expect(want);
    info_run("GASNET_PSHMNET_QUEUE_DEPTH=16", "--procs=64 -p 3", 0);
    snprintf(want, sizeof want, "(%llu bytes)", (unsigned long long)am64d16);
    expect(want);
    expect("queue depth 16");
    info_run("", "-p3", 0);
    snprintf(want, sizeof want, "(%llu bytes)", (unsigned long long)am3);
    expect(want);
    printf("AM network size equals pshm_am_network_size: ok\n");

    /* Its queues and pools, as pshm_am_network_parts gives them. */
    pshm_am_network_parts_t pt;
    char q[32], pl[32];
    CHECK_OK(pshm_am_network_parts(PSHM_BACKEND_NONE ? 1 : 256, 0, 0, &pt));
    info_run("", "-p 256", 0);
    snprintf(want, sizeof want, "%s + %s", fmt_size(q, sizeof q, pt.queues), fmt_size(pl, sizeof pl, pt.pools));
    expect(want);
    printf("queues and pools shown as pshm_am_network_parts gives them (%s): ok\n", want);

    /* The network a job really builds: 4 processes in supernodes of 2 have
     * two networks of 2; "/h" is shared by the 4. */
    uint64_t am2;
    CHECK_OK(pshm_am_network_size(PSHM_BACKEND_NONE ? 1 : 2, 0, 0, &am2));
    info_run("GASNET_SUPERNODE_MAXSIZE=2 GASNET_MAX_SEGSIZE=64M/h", "--procs 4", 0);
    expect(PSHM_BACKEND_NONE ? "4 x 1" : "2 x 2");
    snprintf(want, sizeof want, "(%llu bytes)", (unsigned long long)am2);
    expect(want);
    expect("16.0 MiB (16777216 bytes)");
    info_run("GASNET_MAX_SEGSIZE=64M/h", "--procs 4", 0);
    expect(PSHM_BACKEND_NONE ? "4 x 1" : "1 x 4");
    expect("16.0 MiB (16777216 bytes)");
    printf("GASNET_SUPERNODE_MAXSIZE and \"/h\" as a job builds them: ok\n");

    /* A misspelt variable: warned about, with the right suggestion. */
    info_run("GASNET_PSHMNET_QUEU_DEPTH=8", "", 0);
    expect("GASNET_PSHMNET_QUEU_DEPTH is not a variable pshm reads; did you mean "
           "GASNET_PSHMNET_QUEUE_DEPTH?");
    info_run("PSHM_SIM_HOST=2 GASNET_MAX_SEGSZE=1G", "", 0);
    expect("did you mean PSHM_SIM_HOSTS?");
    expect("did you mean GASNET_MAX_SEGSIZE?");
    /* pshmrun's own variables and other GASNet variables are not typos. */
    info_run("PSHM_RANK=0 PSHM_SIZE=1 GASNET_SPAWNFN=L GASNET_BACKTRACE=1", "", 0);
    expect_not("warning");
    printf("unknown variables warned about with a suggestion: ok\n");

    /* Invalid values: exit 1, each bad variable named with its value. */
    info_run("GASNET_PSHMNET_QUEUE_DEPTH=5abc", "", 1);
    expect("GASNET_PSHMNET_QUEUE_DEPTH=\"5abc\" is not valid");
    expect("pshm-info: GASNET_PSHMNET_QUEUE_DEPTH");
    info_run("GASNET_PSHMNET_QUEUE_DEPTH=0 GASNET_WAIT_MODE=fast", "", 1);
    expect("GASNET_PSHMNET_QUEUE_DEPTH=\"0\" is not valid");
    expect("GASNET_WAIT_MODE=\"fast\" is not valid");
    /* Only the file backend reads the temporary directory. */
    if (strstr(pshm_version(), "(file backend)") != NULL) {
        info_run("GASNET_TMPDIR=relative/dir", "", 1);
        expect("GASNET_TMPDIR=\"relative/dir\" is not valid");
    } else {
        info_run("GASNET_TMPDIR=relative/dir", "", 0);
        expect_not("is not valid");
    }
    printf("invalid variables: exit 1, each named: ok\n");

    /* Bad usage. */
    static const char *const bad[] = {"--procs 0", "--procs 5abc", "--procs 4097", "--procs ''",
                                      "--procs", "--bogus", "extra", "--procs=-1"};
    for (size_t i = 0; i < PSHM_ARRAY_LEN(bad); i++) {
        info_run("", bad[i], 2);
        expect("pshm-info: ");
    }
    info_run("", "--help", 0);
    expect("--procs");
    expect("Exit status");
    info_run("", "--version", 0);
    expect(PSHM_VERSION);
    printf("usage errors, --help, --version: ok\n");

    /* JSON: parses, and carries the same figures. */
    char expr[768];
    snprintf(expr, sizeof expr,
             "d[\"backend\"] == \"%s\" and d[\"cache_line\"] == %d and d[\"environment_valid\"] and "
             "[n[\"am_network_bytes\"] for n in d[\"network\"] if n[\"procs\"] == 64] == [%llu] and "
             "all(n[\"am_queue_bytes\"] + n[\"am_pool_bytes\"] < n[\"am_network_bytes\"] for n in "
             "d[\"network\"]) and "
             "\"GASNET_SUPERNODE_MAXSIZE\" in [v[\"name\"] for v in d[\"environment\"]]",
             PSHM_BACKEND_NAME, PSHM_CACHE_LINE, (unsigned long long)am64);
    json_check("", "--procs 64", 0, expr);
    json_check("GASNET_SUPERNODE_MAXSIZE=2", "--procs 4", 0, PSHM_BACKEND_NONE
               ? "d[\"network\"][0][\"supernodes\"] == 4 and d[\"network\"][0][\"supernode_size\"] == 1"
               : "d[\"network\"][0][\"supernodes\"] == 2 and d[\"network\"][0][\"supernode_size\"] == 2");
    json_check("GASNET_PSHMNET_QUEUE_DEPTH=5abc GASNET_PSHMNET_QUEU_DEPTH=8", "", 1,
               "not d[\"environment_valid\"] and \"GASNET_PSHMNET_QUEUE_DEPTH\" in "
               "d[\"environment_error\"] and d[\"warnings\"][0][\"did_you_mean\"] == "
               "\"GASNET_PSHMNET_QUEUE_DEPTH\"");
    printf("JSON: %s\n", have_python ? "parses and matches: ok" : "skipped (no python3)");

    printf("t-info: %u checks passed\n", checks);
    return T_PASS;
}
