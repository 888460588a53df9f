/*
 * shmem_internal.h - what the files of the OpenSHMEM layer share.
 *
 * The layer is a client of pshm.h only. Every PE of the job is in this PE's
 * supernode (shmem_init refuses anything else), so PE numbers are pshm ranks
 * and every symmetric object of every PE is mapped here:
 *   - the symmetric heap is the PE's pshm segment (pshm_attach);
 *   - the executable's writable data and bss ("statics") are a second
 *     cross-mapped range (pshm_attach_range), remapped in place at init.
 * A remote address is therefore a local pointer: base of the peer's copy +
 * (sym - base of mine), for one of the two areas.
 */
#ifndef PSHMEM_INTERNAL_H
#define PSHMEM_INTERNAL_H

#include "pshm.h"
#include "shmem.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHM_HIDDEN __attribute__((visibility("hidden")))
#define SHM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SHM_UNLIKELY(x) __builtin_expect(!!(x), 0)

extern struct shm_state {
    pshm_ctx_t *ctx;
    int me;
    int npes;
    int initialized;
} shm SHM_HIDDEN;

/*
 * The translation table, read by every remote operation. For area a (heap,
 * statics): mine[a] is where my copy starts, size[a] its length (0: none),
 * and base[a][pe] where PE pe's copy is mapped in this process.
 */
enum { SHM_HEAP = 0, SHM_DATA = 1, SHM_NAREAS = 2 };
extern struct shm_sym {
    uintptr_t mine[SHM_NAREAS];
    size_t size[SHM_NAREAS];
    char **base[SHM_NAREAS];
    int debug;                  /* SHMEM_DEBUG: extra argument checks */
} shm_sym SHM_HIDDEN;

/* Symmetric heap bytes the layer keeps for itself at the start of the heap
 * (the same offset on every PE): the collectives' and locks' own state.
 * Zero at init; shm_scratch is its symmetric address. */
#define SHM_SCRATCH_SIZE 65536u
extern void *shm_scratch SHM_HIDDEN;

/* The fast path of shm_ptr_of: one unsigned compare per area, no division.
 * An address below mine[a] wraps to a huge offset and fails the compare. */
static inline void *shm_xlate(const void *sym, int pe)
{
    uintptr_t off = (uintptr_t)sym - shm_sym.mine[SHM_HEAP];
    if (SHM_LIKELY(off < shm_sym.size[SHM_HEAP]))
        return shm_sym.base[SHM_HEAP][pe] + off;
    off = (uintptr_t)sym - shm_sym.mine[SHM_DATA];
    if (off < shm_sym.size[SHM_DATA])
        return shm_sym.base[SHM_DATA][pe] + off;
    return NULL;
}

/* Local pointer to PE pe's copy of symmetric object sym (heap or static);
 * NULL if sym is not symmetric. O(1), no syscall. */
void *shm_ptr_of(const void *sym, int pe) SHM_HIDDEN;
/* Same, but on a non-symmetric address or bad pe: message naming `call`, then
 * global exit. */
void *shm_remote(const char *call, const void *sym, int pe) SHM_HIDDEN;
/* shm_remote for nbytes at sym: the whole range must lie in one area (checked
 * in every build: a bad range never reaches another process's memory). */
void *shm_remote_range(const char *call, const void *sym, size_t nbytes, int pe) SHM_HIDDEN;
/* One round of progress (pshm_poll); on failure the job ends as pshm does. */
void shm_progress(void) SHM_HIDDEN;
/* Waits until cond(arg) != 0, making progress, yielding when oversubscribed;
 * ends the job on peer death/abort. */
void shm_wait(int (*cond)(void *), void *arg) SHM_HIDDEN;
/* Prints "shmem: <call>: <message>" to stderr and ends the job with status 1. */
_Noreturn void shm_fatal(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3))) SHM_HIDDEN;
/* shm_fatal for a failure at init that every PE meets alike (an attach that
 * pshm agrees on, the job's layout): told once, by PE 0. */
_Noreturn void shm_fatal_all(const char *call, const char *fmt, ...)
    __attribute__((format(printf, 2, 3))) SHM_HIDDEN;
/* The fast path of every remote operation on one element: a valid PE and a
 * symmetric address give the local pointer at once; anything else goes to
 * shm_remote, which says what is wrong and ends the job. Before shmem_init
 * npes is 0, so every PE fails the first compare. */
static inline void *shm_at(const char *call, const void *sym, int pe)
{
    if (SHM_LIKELY((unsigned)pe < (unsigned)shm.npes)) {
        void *p = shm_xlate(sym, pe);
        if (SHM_LIKELY(p != NULL))
            return p;
    }
    return shm_remote(call, sym, pe);
}

/* Argument checks of the debug mode and every build (PE range, init state...). */
void shm_check_pe(const char *call, int pe) SHM_HIDDEN;
/* Fatal unless shmem_init has run (and shmem_finalize has not). */
void shm_check_init(const char *call) SHM_HIDDEN;
/* Fatal if nelems > 0 and ptr is NULL (debug mode: the caller tests
 * shm_sym.debug); `what` names the argument. */
void shm_check_null(const char *call, const char *what, const void *ptr, size_t nelems) SHM_HIDDEN;
/* A barrier over all PEs through pshm, for the layer's own use (init, the
 * allocator); the job ends if it fails. */
void shm_barrier(void) SHM_HIDDEN;

/* Called by shmem_init after the heap and statics are mapped and before its
 * final barrier, if linked in: the collectives' and locks' setup. */
void shm_coll_init(void) __attribute__((weak)) SHM_HIDDEN;
/* Called by shmem_finalize before teardown, if linked in. */
void shm_coll_fini(void) __attribute__((weak)) SHM_HIDDEN;

/* ---- the core's own modules ---- */

/* The put of rma.c: nelems elements of `size` bytes from local src to the
 * symmetric dest on pe, every check included; `call` names the routine. */
void shm_put_bytes(const char *call, void *dest, const void *src, size_t nelems, size_t size,
                   int pe) SHM_HIDDEN;

/* The environment (env.c): SHMEM_SYMMETRIC_SIZE, SHMEM_DEBUG, SHMEM_INFO,
 * SHMEM_VERSION (and the SMA_* spellings of SGI SHMEM). */
typedef struct shm_env {
    size_t heap_size;   /* bytes of symmetric heap per PE */
    int heap_set;       /* given by the user (else the default, which may shrink) */
    int debug, info, version;
} shm_env_t;
#define SHM_HEAP_DEFAULT ((size_t)128 << 20)
/* The default shrinks (halving) down to this when the backing store cannot
 * give every PE the default: a small /dev/shm still runs small programs. */
#define SHM_HEAP_DEFAULT_MIN ((size_t)8 << 20)
/* Reads and checks the variables; a bad value is fatal (named). */
void shm_env_load(shm_env_t *env) SHM_HIDDEN;
/* SHMEM_INFO: the implementation's variables and values, on stdout. */
void shm_env_print(const shm_env_t *env) SHM_HIDDEN;

/* The symmetric heap's allocator (heap.c), over [base, base + size). */
void shm_heap_init(void *base, size_t size) SHM_HIDDEN;
void shm_heap_fini(void) SHM_HIDDEN;

/* The executable's data and bss as symmetric memory (statics.c). attach:
 * collective, inside shmem_init after pshm_attach; tables: fills
 * shm_sym.{mine,size,base}[SHM_DATA] after build of the heap's. */
void shm_statics_attach(void) SHM_HIDDEN;
void shm_statics_tables(void) SHM_HIDDEN;

#endif /* PSHMEM_INTERNAL_H */
