/*
 * t-env-warnings: pshm_env_warnings() reports each misspelt or unknown
 * PSHM_* / GASNET_PSHM* variable, and other GASNET_* near misses, one line
 * each with the nearest name; leaves GASNet's own variables, correct names
 * and pshmrun's variables alone; counts what does not fit; never prints.
 */
#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static void expect_line(const char *text, const char *line)
{
    if (strstr(text, line) == NULL) {
        printf("FAIL: the warnings lack \"%s\"; they are:\n%s", line, text);
        exit(T_FAIL);
    }
}

int main(void)
{
    char buf[4096], small[40];
    int n;

    /* A known environment: nothing else of pshm's or GASNet's. */
    for (char **e = environ; *e != NULL;) {
        if (!strncmp(*e, "PSHM_", 5) || !strncmp(*e, "GASNET_", 7)) {
            char name[256];
            size_t len = strcspn(*e, "=");
            snprintf(name, sizeof name, "%.*s", (int)len, *e);
            unsetenv(name);
        } else {
            e++;
        }
    }
    CHECK(pshm_env_warnings(buf, sizeof buf) == 0 && buf[0] == 0);

    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "8", 1); /* correct */
    setenv("GASNET_BACKTRACE", "1", 1);           /* GASNet's */
    setenv("PSHM_RANK", "0", 1);                  /* pshmrun's */
    CHECK(pshm_env_warnings(buf, sizeof buf) == 0 && buf[0] == 0);

    setenv("GASNET_PSHMNET_QUEU_DEPTH", "8", 1);
    setenv("PSHM_SIM_HOST", "2", 1);
    setenv("GASNET_MAX_SEGSZE", "1G", 1);
    setenv("PSHM_SOMETHING_ELSE", "1", 1);
    n = pshm_env_warnings(buf, sizeof buf);
    if (n != 4) {
        printf("FAIL: %d warnings, expected 4:\n%s", n, buf);
        return T_FAIL;
    }
    expect_line(buf, "GASNET_PSHMNET_QUEU_DEPTH is not a variable pshm reads; did you mean "
                     "GASNET_PSHMNET_QUEUE_DEPTH?\n");
    expect_line(buf, "PSHM_SIM_HOST is not a variable pshm reads; did you mean "
                     "PSHM_SIM_HOSTS?\n");
    expect_line(buf, "GASNET_MAX_SEGSZE is not a variable pshm reads; did you mean "
                     "GASNET_MAX_SEGSIZE?\n");
    expect_line(buf, "PSHM_SOMETHING_ELSE is not a variable pshm reads\n");
    printf("%s", buf);

    /* GASNet's own names of the same knobs: what pshm reads instead. */
    setenv("GASNET_PSHM_NODES", "4", 1);
    setenv("GASNET_PSHM_NETWORK_DEPTH", "32", 1);
    n = pshm_env_warnings(buf, sizeof buf);
    if (n != 6) {
        printf("FAIL: %d warnings, expected 6:\n%s", n, buf);
        return T_FAIL;
    }
    expect_line(buf, "GASNET_PSHM_NODES is not a variable pshm reads: GASNet's smp conduit "
                     "sizes its job with it; give pshm's launcher the size instead (pshmrun -n "
                     "N, oshrun -n N)\n");
    expect_line(buf, "GASNET_PSHM_NETWORK_DEPTH is not a variable pshm reads: it is GASNet's old "
                     "name of GASNET_PSHMNET_QUEUE_DEPTH, which pshm reads\n");
    unsetenv("GASNET_PSHM_NODES");
    unsetenv("GASNET_PSHM_NETWORK_DEPTH");

    /* Counting only, and a buffer too small: cut, NUL-terminated, all counted. */
    CHECK(pshm_env_warnings(NULL, 0) == 4);
    memset(small, 'x', sizeof small);
    CHECK(pshm_env_warnings(small, sizeof small) == 4);
    CHECK(strlen(small) == sizeof small - 1);
    CHECK_ERR(pshm_env_warnings(NULL, 10), -EINVAL);
    printf("4 warnings, each with its suggestion; counting and cutting: ok\n");
    return T_PASS;
}
