/*
 * bench_instr.h - pshm-pingpong --instructions: instruction counts of the
 * library's calls, by running small loops of this program under
 * valgrind --tool=callgrind with collection toggled on the public calls
 * (--toggle-collect), so that only the library's own work (and the
 * handlers it runs) is counted. Counts do not drift with the machine's
 * load: the same binary gives the same counts.
 *
 * The driver (bench_instr_run) starts one `pshmrun -n 2 valgrind ...` job
 * per scenario, each rank running `pshm-pingpong --instr-child NAME`
 * (bench_instr_child), and reads the totals callgrind writes.
 */
#ifndef PSHM_TOOLS_BENCH_INSTR_H
#define PSHM_TOOLS_BENCH_INSTR_H

#include <stdatomic.h>
#include <stdint.h>

#include "pshm.h"

/* The scenarios, by the name --instr-child takes. */
int bench_instr_known(const char *name);

/* One rank of a scenario inside the job: `mine` is a line of this rank's
 * segment that the peer writes, `peers` (local view) the same line of the
 * peer's. Returns 0, or prints why and returns 1. */
int bench_instr_child(pshm_ctx_t *ctx, const char *name, _Atomic uint64_t *mine,
                      _Atomic uint64_t *peers);

/* Runs every scenario under callgrind and records one result per count
 * (unit "instructions"). `self` is this program's path. Returns 0, or
 * prints why and returns 1 (valgrind missing, a job failed, no totals). */
int bench_instr_run(const char *self);

#endif
