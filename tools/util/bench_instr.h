/*
 * bench_instr.h - pshm-pingpong --instructions: instruction counts of the
 * library's calls, by running small loops of this program under
 * valgrind --tool=callgrind with collection toggled on the public calls
 * (--toggle-collect), so that only the library's own work (and the
 * handlers it runs) is counted. Counts do not drift with the machine's
 * load: the same binary gives the same counts.
 *
 * The driver (bench_instr_run) starts one `pshmrun -n P` job per scenario
 * and P, each rank running `pshm-pingpong --instr-child NAME`
 * (bench_instr_child): the ranks that do the counted work under valgrind,
 * the others natively, idle in pshm_wait_until or pshm_poll; it reads the
 * totals callgrind writes.
 */
#ifndef PSHM_TOOLS_BENCH_INSTR_H
#define PSHM_TOOLS_BENCH_INSTR_H

#include <stdatomic.h>
#include <stdint.h>

#include "pshm.h"

/* What the ranks without a part in a scenario do (--idle). */
enum { BENCH_IDLE_WAIT = 0, BENCH_IDLE_POLL = 1 };

#define BENCH_INSTR_MAX_PROCS 16 /* --procs values */
#define BENCH_INSTR_MAX_NAMES 16 /* --scenarios names */

/* What --instructions runs: scenarios by name (none: the default set), at
 * each of the job sizes (none: 2), the idle ranks doing `idle`. */
typedef struct bench_instr_req {
    const char *names[BENCH_INSTR_MAX_NAMES];
    int nnames;
    int procs[BENCH_INSTR_MAX_PROCS];
    int nprocs;
    int idle;
} bench_instr_req_t;

/* The scenarios, by the name --instr-child and --scenarios take. */
int bench_instr_known(const char *name);
/* Can scenario `name` run with P processes? */
int bench_instr_scenario_ok(const char *name, int P);
/* "burst, burst-any, ...": the names, for messages. */
const char *bench_instr_list(void);

/* The lines the ranks of a scenario meet on, outside the library: `mine`
 * (this rank's segment) and `peer` (rank 0's or 1's, the other of the
 * pair) for ranks 0 and 1; `done` and `count`, in rank 0's segment, for
 * every rank. Local views. */
typedef struct bench_instr_lines {
    _Atomic uint64_t *mine, *peer, *done, *count;
} bench_instr_lines_t;

/* One rank of a scenario inside the job. Returns 0, or prints why and
 * returns 1. */
int bench_instr_child(pshm_ctx_t *ctx, const char *name, int idle, const bench_instr_lines_t *ln);

/* Runs the scenarios `req` asks for under callgrind and records one result
 * per count (unit "instructions"). `self` is this program's path. Returns
 * 0, or prints why and returns 1 (valgrind missing, a job failed, no
 * totals). */
int bench_instr_run(const char *self, const bench_instr_req_t *req);

/* argv = EXE --instr-shim NV VALGRIND... -- CHILD...: execs CHILD under
 * VALGRIND when PSHM_RANK < NV, else alone. Never returns. */
void bench_instr_shim(int argc, char **argv);

#endif
