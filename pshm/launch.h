/*
 * launch.h - the protocol between pshmrun and the processes it starts.
 *
 * pshmrun gives every process a connected AF_UNIX stream socket and sets:
 *   PSHM_RANK, PSHM_SIZE   rank and job size
 *   PSHM_JOB_TAG           the job tag (names of every object of the job)
 *   PSHM_BOOT_FD           the socket's descriptor number
 * Messages are a launch_msg_t header followed by `len` bytes.
 * PSHM_BOOT_TIMEOUT (pshmrun's environment) bounds the start-up: when some
 * rank has not said HELLO that long after the first one did, the job fails
 * (LAUNCH_FAIL_NOJOIN) naming the ranks that never joined.
 *   process -> pshmrun: HELLO (pid), EXCHANGE (its contribution; all ranks
 *       must give the same length), FINISH (clean finalize), ABORT (int32 code,
 *       then optionally what ended the job in the caller's words, NUL-terminated),
 *       INITFAIL (pshm_init failed after HELLO: its message, NUL-terminated)
 *   pshmrun -> process: EXCHANGE (size * len bytes, rank order),
 *       FAILED (launch_failed_t: the job is over because `rank` failed)
 * A barrier is an EXCHANGE of 0 bytes.
 */
#ifndef PSHM_LAUNCH_H
#define PSHM_LAUNCH_H

#include <stdint.h>

#define LAUNCH_ENV_RANK "PSHM_RANK"
#define LAUNCH_ENV_SIZE "PSHM_SIZE"
#define LAUNCH_ENV_TAG "PSHM_JOB_TAG"
#define LAUNCH_ENV_FD "PSHM_BOOT_FD"
#define LAUNCH_MAX_PROCS 4096
#define LAUNCH_MAX_EXCHANGE (1u << 20)   /* bytes one rank may contribute */
/* How long the ranks that called pshm_init wait for the others to call it
 * (seconds, fractional; 0: no limit). Read by pshmrun. */
#define LAUNCH_ENV_BOOT_TIMEOUT "PSHM_BOOT_TIMEOUT"
#define PSHM_BOOT_TIMEOUT_DEFAULT_MS 120000u
#define PSHM_BOOT_TIMEOUT_MAX_MS 4000000000u   /* about 46 days */
/* GASNET_EXITTIMEOUT (the processes) and --exit-timeout (pshmrun): how long
 * the others may take to end after one rank failed. One range for both. */
#define PSHM_EXIT_TIMEOUT_DEFAULT_MS 2000u
#define PSHM_EXIT_TIMEOUT_MIN_MS 100u
#define PSHM_EXIT_TIMEOUT_MAX_MS 600000u
#define PSHM_TAG_MAX 16       /* job tag: 1..16 chars of [a-z0-9] */

enum { LAUNCH_HELLO = 1, LAUNCH_EXCHANGE, LAUNCH_FINISH, LAUNCH_ABORT, LAUNCH_FAILED,
       LAUNCH_INITFAIL };

typedef struct launch_msg {
    uint32_t type;
    uint32_t len;
} launch_msg_t;

/* Why the job failed (launch_failed_t.how). */
enum {
    LAUNCH_FAIL_EXIT = 1,   /* the rank exited with status `detail` != 0 */
    LAUNCH_FAIL_SIGNAL,     /* the rank was killed by signal `detail` */
    LAUNCH_FAIL_ABORT,      /* the rank called pshm_abort(`detail`) */
    LAUNCH_FAIL_NOFINISH,   /* the rank exited 0 after HELLO without finalizing */
    LAUNCH_FAIL_STRANDED,   /* the rank ended while others wait in an exchange */
    LAUNCH_FAIL_PROTOCOL,   /* the rank broke the protocol (e.g. unequal lengths) */
    LAUNCH_FAIL_LAUNCHER,   /* pshmrun ended the job: signal `detail`, timeout (0),
                               or could not start every process (-1) */
    LAUNCH_FAIL_EXEC,       /* the program could not be started (errno `detail`) */
    LAUNCH_FAIL_NOJOIN,     /* `detail` ranks, `rank` the first, never called
                               pshm_init within PSHM_BOOT_TIMEOUT */
    LAUNCH_FAIL_INIT,       /* the rank's pshm_init failed (INITFAIL) */
};

/* A FAILED message of LAUNCH_FAIL_NOJOIN carries, after its launch_failed_t,
 * up to this many int32 ranks: those that never joined. */
#define LAUNCH_NOJOIN_LIST_MAX 16

typedef struct launch_failed {
    int32_t rank;     /* the rank that failed, -1 when pshmrun ended the job */
    int32_t status;   /* the job's exit status (128+N for signal N) */
    int32_t how;      /* LAUNCH_FAIL_* */
    int32_t detail;   /* exit code, signal number, abort code or errno */
} launch_failed_t;

#include <stddef.h>

#define LAUNCH_TAG_LEN 12   /* tags pshmrun and the library draw: [a-z0-9]{12} */

/* The protocol's helpers, common/launch.c: compiled into the library and,
 * apart, into the tools, never called across. */
/* Draws a random job tag of LAUNCH_TAG_LEN chars into out (n > LAUNCH_TAG_LEN).
 * Returns 0 or a negative errno (errno of the failed read). */
int launch_random_tag(char *out, size_t n);
/* "1, 3, 4" (and "and N more" past `shown`) into buf: a list of ranks. */
const char *launch_rank_list(const int32_t *ranks, int n, int total, char *buf, size_t len);
/* Why, as a phrase: "killed by signal 9 (Killed)", "exited with status 3". */
const char *launch_describe(const launch_failed_t *f, char *buf, size_t n);

#endif /* PSHM_LAUNCH_H */
