/*
 * util.c - errors, argument checks, progress and waiting: the services every
 * file of the layer uses. Unlike pshm, an OpenSHMEM layer prints and ends
 * the job on a usage error, as its users expect (the specification leaves
 * those cases undefined; SOS's debug mode does the same).
 */
#include "shmem_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct shm_state shm;
struct shm_sym shm_sym;
void *shm_scratch;
size_t shm_scratch_size = SHM_SCRATCH_FIXED;

static void vsay(const char *call, const char *fmt, va_list ap)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "shmem: %s: ", call);

    if (n >= 0 && (size_t)n < sizeof msg)
        vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    /* One write: the lines of several PEs failing at once do not mix. */
    fflush(stdout);
    fprintf(stderr, "%s\n", msg);
    fflush(stderr);
}

_Noreturn void shm_fatal(const char *call, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsay(call, fmt, ap);
    va_end(ap);
    shm_abort_in(call, 1);
}

_Noreturn void shm_abort_why(int code, const char *why)
{
    /* Under MPI the job spans what pshm cannot reach: mpirun ends every
     * process, with this code as the job's status. */
    if (shm.mpi)
        shm_net_abort(code);
    /* pshm_abort with a NULL context just exits: fine before init. */
    pshm_abort_reason(shm.ctx, code, why);
}

_Noreturn void shm_abort(int code)
{
    shm_abort_why(code, NULL);
}

_Noreturn void shm_abort_in(const char *call, int code)
{
    char why[PSHM_ABORT_REASON_MAX];

    snprintf(why, sizeof why, "stopped in %s at the error told above", call);
    shm_abort_why(code, why);
}

/* How long a PE other than 0 waits for PE 0 to end the job, in 10 ms steps:
 * only reached if PE 0 did not fail after all. */
#define FATAL_ALL_STEPS 1000

_Noreturn void shm_fatal_all(const char *call, const char *fmt, ...)
{
    va_list ap;

    /* Were the others to abort first, the launcher could end PE 0 before
     * it printed: they wait for its abort (SIGTERM from oshrun, or the abort
     * word once attached), and tell it themselves only if it never comes. */
    for (int i = 0; shm.me != 0 && i < FATAL_ALL_STEPS; i++) {
        int rc = shm.ctx != NULL ? pshm_poll(shm.ctx) : 0;
        if (rc == -ECANCELED || rc == -ESRCH)
            shm_abort(1);
        usleep(10000);
    }
    va_start(ap, fmt);
    vsay(call, fmt, ap);
    va_end(ap);
    shm_abort_in(call, 1);
}

void shm_check_init(const char *call)
{
    if (SHM_UNLIKELY(!shm.initialized))
        shm_fatal(call, "called before shmem_init (or after shmem_finalize); call shmem_init "
                  "first");
}

void shm_check_pe(const char *call, int pe)
{
    shm_check_init(call);
    if (SHM_UNLIKELY(pe < 0 || pe >= shm.npes))
        shm_fatal(call, "PE %d is out of range: this job has %d PEs (0 to %d)", pe, shm.npes,
                  shm.npes - 1);
}

void shm_check_null(const char *call, const char *what, const void *ptr, size_t nelems)
{
    if (SHM_UNLIKELY(ptr == NULL && nelems > 0))
        shm_fatal(call, "%s is NULL with %zu elements to transfer", what, nelems);
}

void *shm_ptr_of(const void *sym, int pe)
{
    if ((unsigned)pe >= (unsigned)shm.npes)
        return NULL;
    return shm_xlate(sym, pe);
}

/* Names the symmetric areas for a message about an address outside them. */
static _Noreturn void not_symmetric(const char *call, const void *sym, size_t n)
{
    const char *what = n > 1 ? "the range at" : "address";
    char extent[48] = "";

    if (n > 1)
        snprintf(extent, sizeof extent, " (%zu bytes)", n);
    shm_fatal(call, "%s %p%s is not symmetric: the symmetric heap is [%p, %p) and the "
              "program's global and static data [%p, %p); pass the address of a global or "
              "static variable or of shmem_malloc'd memory", what, sym, extent,
              (void *)shm_sym.mine[SHM_HEAP],
              (void *)(shm_sym.mine[SHM_HEAP] + shm_sym.size[SHM_HEAP]),
              (void *)shm_sym.mine[SHM_DATA],
              (void *)(shm_sym.mine[SHM_DATA] + shm_sym.size[SHM_DATA]));
}

void *shm_range_or_net(const char *call, const void *sym, size_t nbytes, int pe)
{
    size_t off;
    int a;

    shm_check_pe(call, pe);
    a = shm_area_of(sym, nbytes, &off);
    if (a < 0)
        not_symmetric(call, sym, nbytes);
    return shm_sym.base[a][pe] != NULL ? shm_sym.base[a][pe] + off : NULL;
}

void *shm_remote_or_net(const char *call, const void *sym, int pe)
{
    return shm_range_or_net(call, sym, 1, pe);
}

void *shm_remote_range(const char *call, const void *sym, size_t nbytes, int pe)
{
    /* The translation's hit first: the collectives ask here for every
     * slot and every block they touch, nearly always a hit. */
    void *p = shm_fast_range(sym, nbytes, pe);

    if (SHM_LIKELY(p != NULL))
        return p;
    p = shm_range_or_net(call, sym, nbytes, pe);

    if (p == NULL)
        shm_fatal(call, "PE %d is in another supernode: its memory is not mapped in PE %d "
                  "(an error of the OpenSHMEM layer, not of the program)", pe, shm.me);
    return p;
}

void *shm_remote(const char *call, const void *sym, int pe)
{
    return shm_remote_range(call, sym, 1, pe);
}

/* A failed poll or wait means a peer died or the job was aborted: pshm has
 * marked the job, and this PE leaves with it. */
_Noreturn void shm_lost(const char *call, int rc)
{
    /* Aborted by another PE: that PE has said why already. */
    if (rc == -ECANCELED)
        shm_abort(1);
    shm_fatal(call, "the job is ending: %s (%s)", pshm_last_error(), pshm_strerror(rc));
}

void shm_poll(void)
{
    int rc = pshm_poll(shm.ctx);
    if (SHM_UNLIKELY(rc < 0))
        shm_lost("progress", rc);
}
