/*
 * cli.h - command-line helpers shared by the tools: flag matching, strict
 * numbers, and the usage-error convention (message + hint on stderr, exit 2).
 */
#ifndef PSHM_TOOLS_CLI_H
#define PSHM_TOOLS_CLI_H

#include <stdint.h>

#define CLI_EXIT_USAGE 2

/* The program's name for messages ("pshmrun"); set once by cli_init(). */
extern const char *cli_prog;
void cli_init(const char *prog);

/* Prints "prog: <message>" and "Try 'prog --help' ..." on stderr, exits 2. */
__attribute__((noreturn, format(printf, 1, 2))) void cli_usage_error(const char *fmt, ...);

/*
 * Matches argv[*i] against a flag that takes a value, spelled any of the
 * NULL-terminated `names` ("-n", "--np"), as "NAME VALUE" or "NAME=VALUE";
 * a one-letter short name also matches "-nVALUE". Returns 1 and sets *value
 * (advancing *i past a separate value), 0 if argv[*i] is not this flag; a
 * missing value is a usage error.
 */
int cli_flag_value(int argc, char **argv, int *i, const char *const *names,
                   const char **value);

/* Strict numbers for flag `flag`: "5abc", "-1", "", overflow and out-of-range
 * values are usage errors (the message says what is accepted). */
uint64_t cli_u64(const char *flag, const char *s, uint64_t min, uint64_t max);
/* Seconds, fractional allowed ("2", "0.5"), into milliseconds within
 * [min_ms, max_ms]. */
uint32_t cli_seconds_ms(const char *flag, const char *s, uint32_t min_ms, uint32_t max_ms);

#endif
