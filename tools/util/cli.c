/*
 * cli.c - see cli.h. Numbers go through the library's strict parsers so that
 * flags and environment variables accept exactly the same spellings.
 */
#include "tools/util/cli.h"
#include "pshm.h"
#include "pshm/launch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *cli_prog = "pshm";

void cli_init(const char *prog) { cli_prog = prog; }

/*
 * Under pshmrun every rank parses the same command line. Rank 0 alone says
 * what is wrong; the others wait (at most 10 s) for pshmrun to end the job on
 * rank 0's failure: the message is printed once, and always.
 */
static void quiet_unless_rank0(void)
{
    const char *r = getenv(LAUNCH_ENV_RANK);
    /* pshmrun's own command line is not the job's, even inside a job. */
    if (r == NULL || getenv(LAUNCH_ENV_FD) == NULL || strcmp(r, "0") == 0 ||
        strcmp(cli_prog, "pshmrun") == 0)
        return;
    for (int i = 0; i < 1000; i++) {
        struct timespec ts = { 0, 10000000 };
        nanosleep(&ts, NULL);
    }
    exit(CLI_EXIT_USAGE);
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;

    quiet_unless_rank0();
    fprintf(stderr, "%s: ", cli_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", cli_prog);
    exit(CLI_EXIT_USAGE);
}

int cli_flag_value(int argc, char **argv, int *i, const char *const *names,
                   const char **value)
{
    const char *a = argv[*i];

    for (; *names != NULL; names++) {
        size_t n = strlen(*names);
        if (strncmp(a, *names, n) != 0)
            continue;
        if (a[n] == '=') {
            *value = a + n + 1;
            return 1;
        }
        if (a[n] == '\0') {
            if (*i + 1 >= argc)
                cli_usage_error("option '%s' needs a value", *names);
            *value = argv[++*i];
            return 1;
        }
        /* "-n4": only for one-letter short flags, and not a longer flag. */
        if (n == 2 && (*names)[0] == '-' && (*names)[1] != '-' && a[n] >= '0' &&
            a[n] <= '9') {
            *value = a + n;
            return 1;
        }
    }
    return 0;
}

uint64_t cli_u64(const char *flag, const char *s, uint64_t min, uint64_t max)
{
    uint64_t v;

    if (pshm_parse(PSHM_PARSE_U64, flag, s, min, max, &v) < 0)
        cli_usage_error("%s", pshm_last_error());
    return v;
}

uint32_t cli_seconds_ms(const char *flag, const char *s, uint32_t min_ms, uint32_t max_ms)
{
    uint64_t ms;

    if (pshm_parse(PSHM_PARSE_SECONDS, flag, s, min_ms, max_ms, &ms) < 0)
        cli_usage_error("%s", pshm_last_error());
    return (uint32_t)ms;
}
