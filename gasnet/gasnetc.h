/*
 * gasnetc.h - what the GASNet layer's files share (not installed).
 */
#ifndef GASNETC_H
#define GASNETC_H

#include "pshm.h"

#define GASNET_PAR 1 /* the layer itself is thread-safe; the mode is mode.c's */
#include "gasnet.h"

#include <stdatomic.h>

/* The layer's own handlers (GASNet reserves 1..127 for the library). */
enum { GSN_H_EXIT = 1, GSN_H_BAR_ARRIVE = 2, GSN_H_BAR_DONE = 3, GSN_H_BCAST = 4 };
#define GSN_CLIENT_MIN 128

/* Where a rank's segment is: its owner's address and ours (gasnet.h's
 * type, as its inline translation reads the table). */
typedef gasnetc_segmap_t gsn_seg_t;

typedef struct gsn_state {
    pshm_ctx_t *ctx;
    int me, n;
    int inited, attached;
    int threads;             /* PAR: pshm was told several threads poll */
    int crowded;             /* more processes than CPUs: waits yield */
    gsn_seg_t *seg;          /* [n], after attach */
    uint64_t seg_max;        /* gasnet_getMaxLocalSegmentSize(), fixed at init */
    int seg_max_by_mem;      /* ... bound by the memory available, not pshm's limit */
    gasnetc_handler_fn_t fn[256];
    /* gasnet_exit */
    atomic_int exiting;      /* this rank has begun gasnet_exit */
    atomic_int exit_code;    /* the code it ends with (first non-zero heard) */
    atomic_int exit_heard;   /* EXIT messages received (one from each peer) */
    atomic_int exit_asked;   /* a peer's EXIT arrived before this rank exited */
    /* the last AM call that returned an error, for the waits after it */
    _Atomic uint64_t err_ms;      /* when (CLOCK_MONOTONIC ms; 0: none) */
    _Atomic uint64_t progress_ms; /* after it: when a poll last ran a handler */
    char err_call[48];
    int err_code;
} gsn_state_t;

extern gsn_state_t gsn;

/* Handlers running on this thread (a poll inside one is refused by pshm). */
extern _Thread_local int gsn_in_handler;

/* Messages in the user's words: "gasnet_attach: ..." on stderr. */
void gsn_say(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A fatal error: says it and ends the job with status 1. */
_Noreturn void gsn_fatal(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A pshm call failed with rc: a dead peer or an abort ends the job (GASNet
 * clients never check); else the error is told and GASNET_ERR_RESOURCE
 * returned. */
int gsn_pshm_fail(const char *call, int rc);
/* Calls made before gasnet_init/attach end the job, in the call's name. */
void gsn_need_attach(const char *call);
/* After a poll: a peer's gasnet_exit asks this rank to end too. */
void gsn_after_poll(void);
/* An AM call returns err to the client: a wait that then never runs a
 * handler ends the job after a while (core.c). */
void gsn_note_error(const char *call, int err);
/* One poll, with its failures handled; returns the handlers run. */
int gsn_poll(const char *call);
/* One step of a wait: a poll, and now and then the CPU yielded. */
void gsn_wait_poll(const char *call);

int gsn_init(int *argc, char ***argv, int threads);
void gsn_register_internal(void);
int gsn_register_table(gasnet_handlerentry_t *table, int numentries);

/* The barrier's handlers (barrier.c) and the exit's (core.c). */
/* Node 0 sends the barrier results that are due (every poll). */
void gsn_bar_progress(void);
void gsn_bar_arrive(gasnet_token_t t, gasnet_handlerarg_t phase, gasnet_handlerarg_t id,
                    gasnet_handlerarg_t flags);
void gsn_bar_done(gasnet_token_t t, gasnet_handlerarg_t phase, gasnet_handlerarg_t id,
                  gasnet_handlerarg_t result);
void gsn_exit_handler(gasnet_token_t t, gasnet_handlerarg_t code);
void gsn_bcast_handler(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t off_lo,
                       gasnet_handlerarg_t off_hi);

#endif /* GASNETC_H */
