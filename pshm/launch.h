/*
 * launch.h - the protocol between pshmrun and the processes it starts.
 *
 * pshmrun gives every process a connected AF_UNIX stream socket and sets:
 *   PSHM_RANK, PSHM_SIZE   rank and job size
 *   PSHM_JOB_TAG           the job tag (names of every object of the job)
 *   PSHM_BOOT_FD           the socket's descriptor number
 * Messages are a launch_msg_t header followed by `len` bytes.
 *   process -> pshmrun: HELLO (pid), EXCHANGE (its contribution; all ranks
 *       must give the same length), FINISH (clean finalize), ABORT (int32 code)
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

enum { LAUNCH_HELLO = 1, LAUNCH_EXCHANGE, LAUNCH_FINISH, LAUNCH_ABORT, LAUNCH_FAILED };

typedef struct launch_msg {
    uint32_t type;
    uint32_t len;
} launch_msg_t;

typedef struct launch_failed {
    int32_t rank;     /* the rank that failed */
    int32_t status;   /* its exit status (128+N for signal N) */
} launch_failed_t;

#endif /* PSHM_LAUNCH_H */
