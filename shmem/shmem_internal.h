/*
 * shmem_internal.h - what the files of the OpenSHMEM layer share.
 *
 * The layer is a client of pshm.h (and, built with MPI, of MPI). PE numbers
 * are pshm ranks. Every symmetric object of every PE of this PE's supernode
 * is mapped here:
 *   - the symmetric heap is the PE's pshm segment (pshm_attach);
 *   - the executable's writable data and bss ("statics") are a second
 *     cross-mapped range (pshm_attach_range), remapped in place at init.
 * A remote address is therefore a local pointer: base of the peer's copy +
 * (sym - base of mine), for one of the two areas. A PE of another supernode
 * (a job started by mpirun over several hosts) has no mapping here: its
 * table entries say size 0, the fast path's compare fails, and the slow path
 * sends the operation through MPI (net*.c).
 */
#ifndef PSHMEM_INTERNAL_H
#define PSHMEM_INTERNAL_H

#include "pshm.h"
#include "shmem.h"

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* Set by the build (1: the layer carries traffic between supernodes over
 * MPI; 0: every PE must share this PE's supernode). */
#ifndef PSHMEM_HAVE_MPI
#define PSHMEM_HAVE_MPI 0
#endif
#if PSHMEM_HAVE_MPI
#include <mpi.h>
#endif

#define SHM_HIDDEN __attribute__((visibility("hidden")))
#define SHM_LIKELY(x) __builtin_expect(!!(x), 1)
#define SHM_UNLIKELY(x) __builtin_expect(!!(x), 0)

extern struct shm_state {
    pshm_ctx_t *ctx;
    int me;
    int npes;
    int initialized;
    int mpi;            /* started under MPI: PE = rank in MPI_COMM_WORLD */
    int multi;          /* the job spans supernodes: some PEs are reached through MPI */
    int *node_pes;      /* the PEs of my supernode, ascending (me included) */
    int node_npes;      /* how many */
    int node_leader;    /* node_pes[0] */
    int crowded;        /* pshm_cpu_sharers: waits yield; the layer's on MPI too */
    long progress_us;   /* SHMEM_PROGRESS_INTERVAL: the progress thread's period, 0 off */
} shm SHM_HIDDEN;

#if PSHMEM_HAVE_MPI
/* A private duplicate of MPI_COMM_WORLD (rank = PE) for the layer's MPI
 * traffic; valid while shm.mpi. The RMA windows are over it; the atomics'
 * requests travel on another duplicate of their own (net_amo.c), so any
 * point-to-point tags may be used here. */
extern MPI_Comm shm_comm SHM_HIDDEN;
#endif

/*
 * The translation table, read by every remote operation. For area a (heap,
 * statics): mine[a] is where my copy starts, size[a] its length (0: none);
 * base[a][pe] is where PE pe's copy is mapped in this process and lim[a][pe]
 * how long it is there: NULL and 0 for a PE of another supernode, so that
 * the fast path's one compare (off < lim) sends such a PE to the slow path.
 */
enum { SHM_HEAP = 0, SHM_DATA = 1, SHM_NAREAS = 2 };
extern struct shm_sym {
    uintptr_t mine[SHM_NAREAS];
    size_t size[SHM_NAREAS];
    char **base[SHM_NAREAS];
    size_t *lim[SHM_NAREAS];    /* size[a] where mapped, 0 where not */
    int debug;                  /* SHMEM_DEBUG: extra argument checks */
} shm_sym SHM_HIDDEN;

/* Symmetric heap bytes the layer keeps for itself at the start of the heap
 * (the same offset on every PE): the collectives' and locks' own state.
 * Zero at init; shm_scratch is its symmetric address. */
/* shmem_barrier_all's lines, then the teams' slots (team.h): the part of
 * fixed size; then the active sets' signal lines (coll_set.c), one per PE
 * of the supernode, in whole pages: shm_scratch_size in all, set by
 * shmem_init before the heap is attached. */
#define SHM_SCRATCH_FIXED (4096u + 64u * 2048u)
extern void *shm_scratch SHM_HIDDEN;
extern size_t shm_scratch_size SHM_HIDDEN;
static inline size_t shm_scratch_size_for(int node_npes)
{
    return SHM_SCRATCH_FIXED + (((size_t)node_npes * 64u + 4095u) & ~(size_t)4095u);
}

/* Tells the compiler what holds, so that it drops a test it cannot prove. */
#define SHM_ASSUME(x) do { if (!(x)) __builtin_unreachable(); } while (0)

/* 1 if PE pe (0 <= pe < npes) shares my supernode: its memory is mapped here. */
static inline int shm_pe_local(int pe)
{
    return shm_sym.base[SHM_HEAP][pe] != NULL;
}

/* The fast path of every remote operation: the local pointer to PE pe's
 * copy of [sym, sym + n) if pe is valid and mapped here and the range lies
 * in one area, else NULL, and the caller's slow path (shm_range_or_net)
 * says why or goes through MPI. An address below mine[a] wraps to a huge
 * offset and fails the compare; so does a PE of another supernode (lim 0).
 * Before shmem_init npes is 0 and every PE fails the first compare. A
 * mapped copy is never at address 0: the compiler may take the result's
 * NULL test for the hit as done. */
static inline void *shm_fast_range(const void *sym, size_t n, int pe)
{
    if (SHM_LIKELY((unsigned)pe < (unsigned)shm.npes)) {
        for (int a = 0; a < SHM_NAREAS; a++) {
            uintptr_t off = (uintptr_t)sym - shm_sym.mine[a];
            size_t lim = shm_sym.lim[a][pe];
            if (SHM_LIKELY(off < lim && n <= lim - off)) {
                char *p = shm_sym.base[a][pe] + off;
                SHM_ASSUME(p != NULL);
                return p;
            }
        }
    }
    return NULL;
}

/* One element: the first byte decides, as for an address (one compare per
 * area, no division). */
static inline void *shm_fast(const void *sym, int pe)
{
    if (SHM_LIKELY((unsigned)pe < (unsigned)shm.npes)) {
        for (int a = 0; a < SHM_NAREAS; a++) {
            uintptr_t off = (uintptr_t)sym - shm_sym.mine[a];
            if (SHM_LIKELY(off < shm_sym.lim[a][pe])) {
                char *p = shm_sym.base[a][pe] + off;
                SHM_ASSUME(p != NULL);
                return p;
            }
        }
    }
    return NULL;
}

/* shm_fast without the PE check, for a valid pe (shmem_ptr). */
static inline void *shm_xlate(const void *sym, int pe)
{
    for (int a = 0; a < SHM_NAREAS; a++) {
        uintptr_t off = (uintptr_t)sym - shm_sym.mine[a];
        if (off < shm_sym.lim[a][pe])
            return shm_sym.base[a][pe] + off;
    }
    return NULL;
}

/* The area (SHM_HEAP, SHM_DATA) holding [sym, sym + n) in my own copy, with
 * the offset in it; -1 if none does. */
static inline int shm_area_of(const void *sym, size_t n, size_t *off)
{
    for (int a = 0; a < SHM_NAREAS; a++) {
        uintptr_t o = (uintptr_t)sym - shm_sym.mine[a];
        /* o < size and the rest fits: no overflow in either compare. */
        if (o < shm_sym.size[a] && n <= shm_sym.size[a] - o) {
            *off = o;
            return a;
        }
    }
    return -1;
}

/* Local pointer to PE pe's copy of symmetric object sym (heap or static);
 * NULL if sym is not symmetric. O(1), no syscall. */
void *shm_ptr_of(const void *sym, int pe) SHM_HIDDEN;
/* Same, but on a non-symmetric address or bad pe: message naming `call`, then
 * global exit. pe must share my supernode (a PE of another one is a fatal
 * error of the layer here: see shm_range_or_net, which says NULL). */
void *shm_remote(const char *call, const void *sym, int pe) SHM_HIDDEN;
/* shm_remote for nbytes at sym: the whole range must lie in one area (checked
 * in every build: a bad range never reaches another process's memory). */
void *shm_remote_range(const char *call, const void *sym, size_t nbytes, int pe) SHM_HIDDEN;
/* The slow path of shm_fast and shm_fast_range: the checks (a bad PE or
 * address ends the job with a message naming `call`), then the local
 * pointer, or NULL when pe is of another supernode (the operation then goes
 * through MPI). */
void *shm_remote_or_net(const char *call, const void *sym, int pe) SHM_HIDDEN;
void *shm_range_or_net(const char *call, const void *sym, size_t nbytes, int pe) SHM_HIDDEN;
/* One round of progress: pshm_poll, and in a job over several supernodes
 * the MPI side too (serves other PEs' atomics, drives MPI's RMA). On failure
 * the job ends as pshm does. Safe from any thread. */
void shm_progress(void) SHM_HIDDEN;
/* pshm's half of shm_progress alone (peer deaths, pshm's messages). */
void shm_poll(void) SHM_HIDDEN;
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
/* Argument checks of the debug mode and every build (PE range, init state...). */
void shm_check_pe(const char *call, int pe) SHM_HIDDEN;
/* Fatal unless shmem_init has run (and shmem_finalize has not). */
void shm_check_init(const char *call) SHM_HIDDEN;
/* Fatal if nelems > 0 and ptr is NULL (debug mode: the caller tests
 * shm_sym.debug); `what` names the argument. */
void shm_check_null(const char *call, const char *what, const void *ptr, size_t nelems) SHM_HIDDEN;
/* A barrier over all PEs through pshm (and MPI, serving other PEs' atomics
 * while it waits), for the layer's own use (init, finalize, the allocator);
 * it implies quiet, as shmem_barrier_all does (the seam's shm_xp_barrier,
 * xport.h); the job ends if it fails. */
void shm_barrier(void) SHM_HIDDEN;
/* A failed poll, wait or barrier of pshm's (rc < 0): a peer died or the
 * job was aborted; this PE leaves with it, naming `call`. */
_Noreturn void shm_lost(const char *call, int rc) SHM_HIDDEN;
/* Ends the job with `code` (pshm_abort, or MPI_Abort under MPI). */
_Noreturn void shm_abort(int code) SHM_HIDDEN;
/* The same, and the launcher says `why` ("called shmem_global_exit(7)")
 * rather than pshm's words; shm_abort_in: after an error of `call` that
 * this PE printed. */
_Noreturn void shm_abort_why(int code, const char *why) SHM_HIDDEN;
_Noreturn void shm_abort_in(const char *call, int code) SHM_HIDDEN;

/* Called by shmem_init after the heap and statics are mapped and before its
 * final barrier, if linked in: the collectives' and locks' setup. */
void shm_coll_init(void) __attribute__((weak)) SHM_HIDDEN;
/* Called by shmem_finalize before teardown, if linked in. */
void shm_coll_fini(void) __attribute__((weak)) SHM_HIDDEN;

/* ---- the core's own modules ---- */

/* shmem_uint64_wait_until that returns the value that satisfied the wait,
 * as read by the load that saw it (sync.c; shmem_signal_wait_until);
 * `call` names the routine in errors. */
uint64_t shm_signal_wait(const char *call, uint64_t *sig_addr, int cmp, uint64_t cmp_value)
    SHM_HIDDEN;

/* The put of rma.c: nelems elements of `size` bytes from local src to the
 * symmetric dest on pe, every check included; `call` names the routine. */
void shm_put_bytes(const char *call, void *dest, const void *src, size_t nelems, size_t size,
                   int pe) SHM_HIDDEN;
/* The strided transfers of rma.c (iput, iget) and rma_ib.c (ibput, ibget),
 * the transport seam's (xport.c): nblocks blocks of bsize elements of
 * `size` bytes, block i at dest + i * dst and src + i * sst elements
 * (strides of any sign), every check of the remote span included; is_put:
 * dest is the symmetric side. */
void shm_strided(const char *call, int is_put, void *dest, const void *src, ptrdiff_t dst,
                 ptrdiff_t sst, size_t bsize, size_t nblocks, size_t size, int pe) SHM_HIDDEN;

/* The environment (env.c): SHMEM_SYMMETRIC_SIZE, SHMEM_DEBUG, SHMEM_INFO,
 * SHMEM_VERSION (and the SMA_* spellings of SGI SHMEM). */
typedef struct shm_env {
    size_t heap_size;   /* bytes of symmetric heap per PE */
    int heap_set;       /* given by the user (else the default, which may shrink) */
    int debug, info, version;
    long progress_us;   /* SHMEM_PROGRESS_INTERVAL, microseconds (0: no thread) */
} shm_env_t;
/* The progress thread's default period (docs/shmem.md: how it was chosen). */
#define SHM_PROGRESS_DEFAULT_US 1000L
#define SHM_PROGRESS_MAX_US 10000000L
#define SHM_HEAP_DEFAULT ((size_t)128 << 20)
/* The default shrinks (halving) down to this when the backing store cannot
 * give every PE the default: a small /dev/shm still runs small programs. */
#define SHM_HEAP_DEFAULT_MIN ((size_t)8 << 20)
/* Reads and checks the variables; a bad value is fatal (named). */
void shm_env_load(shm_env_t *env) SHM_HIDDEN;
/* 1 if an MPI launcher (mpirun, mpiexec, srun with PMI) started this
 * process and pshmrun did not; *rank and *size from its variables, -1 when
 * it does not tell. */
int shm_env_mpi_launch(int *rank, int *size) SHM_HIDDEN;
/* Ends the job (told once) when the heap of env cannot be made, in the
 * words of the variable that sized it; pshm_msg is pshm_attach's sentence. */
_Noreturn void shm_env_heap_fail(const shm_env_t *env, const char *pshm_msg) SHM_HIDDEN;
/* PE 0: every SHMEM_* and SMA_* variable the layer does not read, on stderr. */
void shm_env_warn(void) SHM_HIDDEN;
/* The variables with their values, defaults and accepted values (SHMEM_INFO
 * and oshinfo). */
void shm_env_print_vars(const shm_env_t *env, FILE *out) SHM_HIDDEN;
/* SHMEM_INFO: the implementation's variables and values, on stdout. */
void shm_env_print(const shm_env_t *env) SHM_HIDDEN;

/* The symmetric heap's allocator (heap.c), over [base, base + size) in my
 * segment, after the scratch area. init may map my segment a second time,
 * where the heap's start is aligned for shmem_align, and then points
 * shm_sym.mine and base[SHM_HEAP][me] and shm_scratch at that view (both
 * views reach the same pages): called once the tables are built. */
void shm_heap_init(void *base, size_t size) SHM_HIDDEN;
void shm_heap_fini(void) SHM_HIDDEN;

/* The executable's data and bss as symmetric memory (statics.c). attach:
 * collective, inside shmem_init after pshm_attach; tables: fills
 * shm_sym.{mine,size,base}[SHM_DATA] after build of the heap's. */
void shm_statics_attach(void) SHM_HIDDEN;
void shm_statics_tables(void) SHM_HIDDEN;

/* ---- between supernodes, through MPI (net*.c) ----
 *
 * Called only when shm.multi (never without MPI): the operation's PE is of
 * another supernode and its address was checked (shm_range_or_net). sym is the
 * symmetric address in my own copy; the target's is at the same offset. */

/* Atomic operations, executed by the target PE with the same CPU atomic a
 * PE of its supernode uses (net_amo.c). Values travel as the low `size`
 * bytes of a uint64_t. */
enum shm_aop {
    SHM_AOP_FETCH, SHM_AOP_SET, SHM_AOP_SWAP, SHM_AOP_CSWAP, SHM_AOP_FADD,
    SHM_AOP_FAND, SHM_AOP_FOR, SHM_AOP_FXOR, SHM_AOP_NOP, SHM_AOP_COUNT
};

/* What this PE issued through MPI and may not be complete yet, since the
 * last quiet: SHM_NET_RMA (a put or get), SHM_NET_AMO (a non-fetching
 * atomic); SHM_NET_BUSY while a quiet completes what it took (another
 * thread's quiet then waits for it: net_amo.c). Always 0 in a job of one
 * supernode and after a quiet, so that quiet's MPI part is one compare
 * then (order.c). */
extern int shm_net_pending SHM_HIDDEN;
enum { SHM_NET_RMA = 1, SHM_NET_AMO = 2, SHM_NET_BUSY = 4 };

#if PSHMEM_HAVE_MPI
/* RMA through the windows (net_rma.c). blocking put: the source may be
 * reused on return; a get's data is there on return unless nbi. */
void shm_net_put(const void *sym, const void *src, size_t n, int pe, int nbi) SHM_HIDDEN;
void shm_net_get(void *dst, const void *sym, size_t n, int pe, int nbi) SHM_HIDDEN;
/* Strided: n blocks of bsize elements of `size` bytes, strides in elements. */
void shm_net_iput(void *sym, const void *src, ptrdiff_t tst, ptrdiff_t sst, size_t bsize,
                  size_t n, size_t size, int pe) SHM_HIDDEN;
void shm_net_iget(void *dst, const void *sym, ptrdiff_t dst_st, ptrdiff_t tst, size_t bsize,
                  size_t n, size_t size, int pe) SHM_HIDDEN;
/* The atomic `op` on the target's `size`-byte object; the old value. A
 * non-fetching op (set, add...) returns once sent: quiet completes it. */
uint64_t shm_net_amo(const void *sym, int pe, int op, size_t size, uint64_t val,
                     uint64_t cond, int fetching) SHM_HIDDEN;
/* Remote completion of everything this PE issued through MPI (quiet;
 * called when shm_net_pending is set). */
void shm_net_quiet(void) SHM_HIDDEN;
/* Remote completion of the puts and gets to pe (not its atomics). */
void shm_net_flush_pe(int pe) SHM_HIDDEN;
/* Remote completion of everything this PE issued through MPI to pe, its
 * atomics included (shmem_pe_quiet). */
void shm_net_quiet_pe(int pe) SHM_HIDDEN;
/* Serves the atomics other PEs sent here (progress of the MPI side). */
void shm_net_serve(void) SHM_HIDDEN;
/* Waits for MPI requests, serving and polling meanwhile (every MPI wait of
 * the layer goes through here: an idle PE still answers others' atomics,
 * and a supernode peer's death ends the wait); yields when oversubscribed. */
void shm_net_waitall(int n, MPI_Request *reqs) SHM_HIDDEN;
/* A barrier of all PEs through MPI that serves meanwhile (shm_barrier). */
void shm_net_barrier(void) SHM_HIDDEN;
/* MPI_Abort(code) if MPI is running (returns if not). */
void shm_net_abort(int code) SHM_HIDDEN;
/* The net side of shmem_init / shmem_finalize (net.c). start: before
 * pshm_init; under mpirun (or when the program initialized MPI) it
 * initializes MPI if needed, asking for `mpi_thread` (MPI_THREAD_*), sets
 * shm.mpi, fills *boot and returns the thread level MPI provides; else
 * returns -1 and the job is pshmrun's. init: after the heap and statics are
 * mapped (windows, the atomics' service, the progress thread); fini before
 * pshm_finalize, stop after it (MPI_Finalize if start initialized MPI). */
int shm_net_start(pshm_bootstrap_t *boot, int mpi_thread) SHM_HIDDEN;
void shm_net_init(void) SHM_HIDDEN;
void shm_net_fini(void) SHM_HIDDEN;
void shm_net_stop(pshm_bootstrap_t *boot) SHM_HIDDEN;
#else
/* Without MPI shm.multi is never set: these are never reached. */
static inline void shm_net_put(const void *sym, const void *src, size_t n, int pe, int nbi)
{ (void)sym; (void)src; (void)n; (void)pe; (void)nbi; }
static inline void shm_net_get(void *dst, const void *sym, size_t n, int pe, int nbi)
{ (void)dst; (void)sym; (void)n; (void)pe; (void)nbi; }
static inline void shm_net_iput(void *sym, const void *src, ptrdiff_t tst, ptrdiff_t sst,
                                size_t bsize, size_t n, size_t size, int pe)
{ (void)sym; (void)src; (void)tst; (void)sst; (void)bsize; (void)n; (void)size; (void)pe; }
static inline void shm_net_iget(void *dst, const void *sym, ptrdiff_t dst_st, ptrdiff_t tst,
                                size_t bsize, size_t n, size_t size, int pe)
{ (void)dst; (void)sym; (void)dst_st; (void)tst; (void)bsize; (void)n; (void)size; (void)pe; }
static inline uint64_t shm_net_amo(const void *sym, int pe, int op, size_t size, uint64_t val,
                                   uint64_t cond, int fetching)
{ (void)sym; (void)pe; (void)op; (void)size; (void)val; (void)cond; (void)fetching; return 0; }
static inline void shm_net_quiet(void) {}
static inline void shm_net_flush_pe(int pe) { (void)pe; }
static inline void shm_net_quiet_pe(int pe) { (void)pe; }
static inline void shm_net_serve(void) {}
static inline void shm_net_barrier(void) {}
static inline void shm_net_abort(int code) { (void)code; }
static inline int shm_net_start(pshm_bootstrap_t *boot, int mpi_thread)
{ (void)boot; (void)mpi_thread; return -1; }
static inline void shm_net_init(void) {}
static inline void shm_net_fini(void) {}
static inline void shm_net_stop(pshm_bootstrap_t *boot) { (void)boot; }
#endif

#endif /* PSHMEM_INTERNAL_H */
