/*
 * internal.h - the driver's header (pshm/: init, attach, finalize, the
 * bootstrap, agreement, queries): everything below it, the base (base/) and
 * the modules (nodemap/, segment/, amqueue/), plus the driver's own parts.
 * The modules never include it (docs/HACKING.md, "Layers"); the tests may.
 */
#ifndef PSHM_INTERNAL_H
#define PSHM_INTERNAL_H

#include "base/ctx.h"

/* --------------------------------------------------------------- bootstrap */

enum { BOOT_SINGLE = 0, BOOT_LAUNCHER, BOOT_CALLBACKS };

typedef struct boot {
    int kind;
    int rank, size;
    int (*exchange)(void *arg, const void *mine, size_t len, void *all);
    int (*barrier)(void *arg);
    void *arg;
    int fd;                          /* BOOT_LAUNCHER: socket to pshmrun, else -1 */
    char tag[PSHM_TAG_MAX + 1];      /* job tag agreed by all ranks */
} boot_t;

/* Chooses the bootstrap: `user` if given, else pshmrun's environment, else single. */
int boot_open(boot_t *b, const pshm_bootstrap_t *user);
int boot_exchange(boot_t *b, const void *mine, size_t len, void *all);
int boot_barrier(boot_t *b);
/* Tells the launcher the process finalized cleanly (or aborts with code). */
void boot_finish(boot_t *b);
/* ABORT: the code, then the reason (NUL-terminated) if not NULL. */
void boot_abort(boot_t *b, int code, const char *reason);
/* Tells the launcher pshm_init failed, with its message (not an abort: the
 * process called no pshm_abort). */
void boot_init_failed(boot_t *b, const char *msg);
void boot_close(boot_t *b);
/* Exchanges every setting that shapes shared state (queue depth and memory,
 * supernode size, host detection, backend, versions, ...) and fails on every
 * rank alike, naming the setting, the ranks and their values, if any differs. */
int agree_settings(boot_t *b, const pshm_cfg_t *cfg);

/* ----------------------------------------------------------------- nodemap */

#include "nodemap/nodemap.h"

/* ----------------------------------------------------------------- segment */

#include "segment/segment.h"

/* ------------------------------------------------------------- AM network */

#include "amqueue/amqueue.h"

/* ------------------------------------------------------------------ driver */

/* Collective: every rank reports my_rc (and its message); returns the first
 * failure of any rank, prefixed with `what`, or 0. */
int ctx_agree(pshm_ctx_t *ctx, int my_rc, const char *what);
/* Unmaps the peers' ranges and removes my range's name (range.c). */
void range_undo(pshm_ctx_t *ctx);
/* Collective (pshm_init): -EXDEV if a supernode spans PID namespaces, or IPC
 * namespaces with the sysv backend (liveness and SysV ids would be wrong). */
int ns_check(pshm_ctx_t *ctx);
/* Collective (pshm_attach): the supernode's rank 0 reads the room for the
 * segments once (seg_room_read) and every rank of the supernode gets it. */
int attach_room(pshm_ctx_t *ctx, seg_room_t *out);
/* While named objects exist (inside pshm_attach), a fatal signal removes the
 * names first, then goes to the application's handler or default action. */
void sigguard_arm(pshm_ctx_t *ctx, seg_obj_t *seg, seg_obj_t *region);
void sigguard_disarm(void);

#endif /* PSHM_INTERNAL_H */
