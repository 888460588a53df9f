/*
 * helpers.h - shared by the C tests (see docs/HACKING.md, "Test contract").
 */
#ifndef PSHM_TEST_HELPERS_H
#define PSHM_TEST_HELPERS_H

#include <stdio.h>
#include <stdlib.h>

#define T_PASS 0
#define T_FAIL 1
#define T_SKIP 77

/* Fails the test (exit 1) with file:line, the expression and pshm_last_error(). */
#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) th_fail(__FILE__, __LINE__, #cond, 0);                      \
    } while (0)
/* Expects a pshm call to return 0 (or >= 0); prints the code and message if not. */
#define CHECK_OK(expr)                                                           \
    do {                                                                         \
        int th_rc_ = (expr);                                                     \
        if (th_rc_ < 0) th_fail(__FILE__, __LINE__, #expr, th_rc_);              \
    } while (0)
/* Expects exactly the negative code `err`. */
#define CHECK_ERR(expr, err)                                                     \
    do {                                                                         \
        int th_rc_ = (expr);                                                     \
        if (th_rc_ != (err)) th_fail_err(__FILE__, __LINE__, #expr, th_rc_, (err)); \
    } while (0)

__attribute__((noreturn)) void th_fail(const char *file, int line, const char *what, int rc);
__attribute__((noreturn)) void th_fail_err(const char *file, int line, const char *what,
                                           int got, int want);

/* Outside a job: runs this program under pshmrun -n nprocs (extra pshmrun
 * flags may be given in the PSHM_TEST_LAUNCH_FLAGS variable) and returns the
 * job's exit status. Inside a job (PSHM_RANK set): returns -1. */
int th_launch(int argc, char **argv, int nprocs);

/* Path of a built tool: "$PSHM_BUILD/tools/<name>" (static buffer). */
const char *th_tool(const char *name);

/* Runs a shell command, captures up to outsz-1 bytes of its stdout+stderr;
 * returns its exit status (128+N if killed by signal N), or -1. */
int th_run(const char *cmd, char *out, size_t outsz);

/* Number of pshm objects now in /dev/shm, SysV (ipcs) and the temporary
 * directory whose name or header carries `tag` (any pshm object if NULL).
 * Objects whose header was never written count too: files by their name,
 * SysV segments by their key (with a tag) or as any header-less segment of
 * ours that nobody has attached (without). */
int th_count_objects(const char *tag);

/* 1 if running as root with the right to unshare namespaces, else 0. */
int th_can_unshare(void);

#endif
