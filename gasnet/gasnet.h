/*
 * gasnet.h - the GASNet-1 API (specification 1.8) over pshm, for the
 * processes of one host: GASNet's "smp" conduit with PSHM, as a client of
 * pshm.h. docs/gasnet.md describes what it provides and its limits.
 *
 * A client defines exactly one of GASNET_SEQ, GASNET_PAR, GASNET_PARSYNC
 * (the makefile fragments smp-conduit/smp-{seq,par}.mak do) and
 * links the library of that mode: libgasnet-smp-seq.a or libgasnet-smp-par.a
 * (PARSYNC uses the latter). A mismatch fails the link on gasnetc_init_seq
 * or gasnetc_init_par.
 */
#ifndef GASNET_H
#define GASNET_H

#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "gasnet_config.h"

#if (defined(GASNET_SEQ) + defined(GASNET_PAR) + defined(GASNET_PARSYNC)) != 1
#error "define exactly one of GASNET_SEQ, GASNET_PAR, GASNET_PARSYNC (include smp-conduit/smp-seq.mak or smp-par.mak in your makefile)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ versions */

#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8
#define GASNET_VERSION GASNET_SPEC_VERSION_MAJOR
/* GASNET_RELEASE_VERSION_MAJOR, _MINOR, _PATCH: gasnet_config.h */

/* The conduit's names, GASNET_PSHM and the segment kind: the conduit's
 * header, beside gasnet.h as in GASNet's layout. */
#include "smp-conduit/gasnet_core.h"
#define GASNET_EXTENDED_NAME SMP
#define GASNET_EXTENDED_NAME_STR "SMP"
#define GASNET_EXTENDED_VERSION 2.0
#define GASNET_EXTENDED_VERSION_STR "2.0"

#if !defined(GASNET_DEBUG) && !defined(GASNET_NDEBUG)
#define GASNET_NDEBUG 1
#endif

#if defined(GASNET_SEQ)
#define GASNETC_THREADMODEL_STR "SEQ"
#elif defined(GASNET_PAR)
#define GASNETC_THREADMODEL_STR "PAR"
#else
#define GASNETC_THREADMODEL_STR "PARSYNC"
#endif
#define GASNET_CONFIG_STRING                                                              \
    "RELEASE=" GASNETI_RELEASE_VERSION ",SPEC=1.8,CONDUIT=SMP(SMP-2.0/pshm-" GASNETI_PSHM_VERSION \
    "),THREADMODEL=" GASNETC_THREADMODEL_STR ",SEGMENT=FAST,PTR=64bit,noalign,pshm,nodebug,"  \
    "notrace,nostats,nodebugmalloc,nosrclines,timers_native,membars_native,atomics_native,"  \
    "atomic32_native,atomic64_native"

/* ------------------------------------------------------------ types */

typedef uint32_t gasnet_node_t;
typedef uint8_t gasnet_handler_t;
typedef int32_t gasnet_handlerarg_t;
typedef struct gasnetc_token *gasnet_token_t;
typedef uint64_t gasnet_register_value_t;
#define SIZEOF_GASNET_REGISTER_VALUE_T 8
typedef struct gasnetc_handle *gasnet_handle_t;
#define GASNET_INVALID_HANDLE ((gasnet_handle_t)0)
/* A value get completes at once: the handle is the value. */
typedef gasnet_register_value_t gasnet_valget_handle_t;

/* One region of a vector put or get (gasnet_vis.h). */
typedef struct {
    void *addr;
    size_t len;
} gasnet_memvec_t;

typedef struct gasnet_seginfo {
    void *addr;
    uintptr_t size;
} gasnet_seginfo_t;

typedef struct gasnet_nodeinfo {
    gasnet_node_t host;      /* nodes with the same host share memory */
    gasnet_node_t supernode; /* nodes of one supernode are cross-mapped */
    intptr_t offset;         /* 0: see gasnet_getNodeInfo */
} gasnet_nodeinfo_t;

/* A handler: Short ones take (token, args...), Medium and Long ones
 * (token, buf, nbytes, args...); registered cast to this type: void * when
 * the client defines GASNET_USE_STRICT_PROTOTYPES (left undefined by
 * default, as GASNet leaves it: its clients test it with #ifdef). */
#ifdef GASNET_USE_STRICT_PROTOTYPES
typedef void *gasnetc_handler_fn_t;
#else
typedef void (*gasnetc_handler_fn_t)();
#endif
typedef struct gasnet_handlerentry {
    gasnet_handler_t index;  /* 0: let gasnet_attach choose (it writes it back) */
    gasnetc_handler_fn_t fnptr;
} gasnet_handlerentry_t;

#define GASNET_MAXNODES 4096
#define GASNET_PAGESIZE 4096
#define GASNET_ERRSTR_MAX 256

/* ------------------------------------------------------------ errors */

#define GASNET_OK 0
#define _GASNET_ERR_BASE 10000
#define GASNET_ERR_NOT_INIT (_GASNET_ERR_BASE + 1)
#define GASNET_ERR_RESOURCE (_GASNET_ERR_BASE + 2)
#define GASNET_ERR_BAD_ARG (_GASNET_ERR_BASE + 3)
#define GASNET_ERR_NOT_READY (_GASNET_ERR_BASE + 4)
#define GASNET_ERR_BARRIER_MISMATCH (_GASNET_ERR_BASE + 5)

extern const char *gasnet_ErrorName(int errval);
extern const char *gasnet_ErrorDesc(int errval);

/* ------------------------------------------------------------ init, exit */

#if defined(GASNET_SEQ)
#define gasnet_init gasnetc_init_seq
#else
#define gasnet_init gasnetc_init_par
#endif
extern int gasnet_init(int *argc, char ***argv);
extern int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize,
                         uintptr_t minheapoffset);
extern void gasnet_exit(int exitcode)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

extern gasnet_node_t gasnet_mynode(void);
extern gasnet_node_t gasnet_nodes(void);
extern int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries);
extern int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries);
extern uintptr_t gasnet_getMaxLocalSegmentSize(void);
extern uintptr_t gasnet_getMaxGlobalSegmentSize(void);
extern char *gasnet_getenv(const char *name);

#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2
extern int gasnet_set_waitmode(int wait_mode);

/* ------------------------------------------------------------ threads */

/* No thread-specific data is needed: these are for portability. */
typedef void *gasnet_threadinfo_t;
#define GASNET_GET_THREADINFO() ((gasnet_threadinfo_t)0)
/* A declaration (it may begin a block, and repeat), that declares nothing new. */
#define GASNET_POST_THREADINFO(info) extern int gasnet_AMPoll(void)
#define GASNET_BEGIN_FUNCTION() GASNET_POST_THREADINFO(GASNET_GET_THREADINFO())

/* No interrupts: handlers run only inside GASNet calls (polls). */
#define gasnet_hold_interrupts() ((void)0)
#define gasnet_resume_interrupts() ((void)0)
#define GASNET_BEGIN_NOINTERRUPT() ((void)0)
#define GASNET_END_NOINTERRUPT() ((void)0)

/* Handler-safe locks. */
typedef struct gasnet_hsl {
    pthread_mutex_t lock;
} gasnet_hsl_t;
#define GASNET_HSL_INITIALIZER { PTHREAD_MUTEX_INITIALIZER }
extern void gasnet_hsl_init(gasnet_hsl_t *hsl);
extern void gasnet_hsl_destroy(gasnet_hsl_t *hsl);
extern void gasnet_hsl_lock(gasnet_hsl_t *hsl);
extern void gasnet_hsl_unlock(gasnet_hsl_t *hsl);
extern int gasnet_hsl_trylock(gasnet_hsl_t *hsl);

/* ------------------------------------------------------------ active messages */

#define GASNETC_MAX_ARGS 16
extern size_t gasnet_AMMaxArgs(void);
extern size_t gasnet_AMMaxMedium(void);
extern size_t gasnet_AMMaxLongRequest(void);
extern size_t gasnet_AMMaxLongReply(void);
extern int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex);
extern int gasnet_AMPoll(void);

/* One step of a wait: a poll, and the CPU yielded when the host's
 * processes outnumber its CPUs (as pshm's own waits do). */
extern void gasnetc_wait_step(void);
#define GASNET_BLOCKUNTIL(cond) \
    do { while (!(cond)) gasnetc_wait_step(); } while (0)

/* The calls behind the gasnet_AM* forms: the arguments are an array. */
extern int gasnetc_AMRequestShortA(gasnet_node_t dest, gasnet_handler_t handler, int numargs,
                                   const gasnet_handlerarg_t *args);
extern int gasnetc_AMRequestMediumA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                    size_t nbytes, int numargs, const gasnet_handlerarg_t *args);
extern int gasnetc_AMRequestLongA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                  size_t nbytes, void *dest_addr, int async, int numargs,
                                  const gasnet_handlerarg_t *args);
extern int gasnetc_AMReplyShortA(gasnet_token_t token, gasnet_handler_t handler, int numargs,
                                 const gasnet_handlerarg_t *args);
extern int gasnetc_AMReplyMediumA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                                  size_t nbytes, int numargs, const gasnet_handlerarg_t *args);
extern int gasnetc_AMReplyLongA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                                size_t nbytes, void *dest_addr, int numargs,
                                const gasnet_handlerarg_t *args);
/* The same with the arguments as varargs (C++, where the C forms' array
 * literals are not available). */
extern int gasnetc_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...);
extern int gasnetc_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                    size_t nbytes, int numargs, ...);
extern int gasnetc_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                                  size_t nbytes, void *dest_addr, int async, int numargs, ...);
extern int gasnetc_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...);
extern int gasnetc_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                                  size_t nbytes, int numargs, ...);
extern int gasnetc_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                                size_t nbytes, void *dest_addr, int numargs, ...);

/* GASNETC_RS(dest, handler, n, args...) and the others: the forms below
 * with n >= 1 arguments; C passes them as an array, C++ as varargs. */
#ifdef __cplusplus
#define GASNETC_RS(d, h, n, ...) gasnetc_AMRequestShortM(d, h, n, __VA_ARGS__)
#define GASNETC_RM(d, h, b, s, n, ...) gasnetc_AMRequestMediumM(d, h, b, s, n, __VA_ARGS__)
#define GASNETC_RL(d, h, b, s, a, y, n, ...) gasnetc_AMRequestLongM(d, h, b, s, a, y, n, __VA_ARGS__)
#define GASNETC_PS(t, h, n, ...) gasnetc_AMReplyShortM(t, h, n, __VA_ARGS__)
#define GASNETC_PM(t, h, b, s, n, ...) gasnetc_AMReplyMediumM(t, h, b, s, n, __VA_ARGS__)
#define GASNETC_PL(t, h, b, s, a, n, ...) gasnetc_AMReplyLongM(t, h, b, s, a, n, __VA_ARGS__)
#else
#define GASNETC_A(...) ((const gasnet_handlerarg_t[]){__VA_ARGS__})
#define GASNETC_RS(d, h, n, ...) gasnetc_AMRequestShortA(d, h, n, GASNETC_A(__VA_ARGS__))
#define GASNETC_RM(d, h, b, s, n, ...) gasnetc_AMRequestMediumA(d, h, b, s, n, GASNETC_A(__VA_ARGS__))
#define GASNETC_RL(d, h, b, s, a, y, n, ...) \
    gasnetc_AMRequestLongA(d, h, b, s, a, y, n, GASNETC_A(__VA_ARGS__))
#define GASNETC_PS(t, h, n, ...) gasnetc_AMReplyShortA(t, h, n, GASNETC_A(__VA_ARGS__))
#define GASNETC_PM(t, h, b, s, n, ...) gasnetc_AMReplyMediumA(t, h, b, s, n, GASNETC_A(__VA_ARGS__))
#define GASNETC_PL(t, h, b, s, a, n, ...) gasnetc_AMReplyLongA(t, h, b, s, a, n, GASNETC_A(__VA_ARGS__))
#endif
#define GASNETC_NOARGS ((const gasnet_handlerarg_t *)0)

#include "gasnet_am_forms.h"

/* ------------------------------------------------------------ memory */

/* Where node's segment address addr is mapped here (NULL: never; a bad
 * address ends the job with a message naming the call). */
extern void *gasnetc_ptr(gasnet_node_t node, const void *addr, size_t nbytes, const char *call);

extern void gasnet_put(gasnet_node_t node, void *dest, void *src, size_t nbytes);
extern void gasnet_put_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes);
extern void gasnet_get(void *dest, gasnet_node_t node, void *src, size_t nbytes);
extern void gasnet_get_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes);
extern void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                           size_t nbytes);
extern gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void *src, size_t nbytes);
extern void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes);

/* Within a host every operation is a copy between mapped memory: each
 * completes before its call returns, and its handle is invalid (done). */
extern gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, void *src, size_t nbytes);
extern gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes);
extern gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, void *src, size_t nbytes);
extern gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes);
extern gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest,
                                         gasnet_register_value_t value, size_t nbytes);
extern gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes);
extern gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void *src, size_t nbytes);
extern gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle);

extern void gasnet_put_nbi(gasnet_node_t node, void *dest, void *src, size_t nbytes);
extern void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes);
extern void gasnet_get_nbi(void *dest, gasnet_node_t node, void *src, size_t nbytes);
extern void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes);
extern void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                               size_t nbytes);
extern void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes);

extern int gasnet_try_syncnb(gasnet_handle_t handle);
extern void gasnet_wait_syncnb(gasnet_handle_t handle);
extern int gasnet_try_syncnb_some(gasnet_handle_t *phandle, size_t numhandles);
extern void gasnet_wait_syncnb_some(gasnet_handle_t *phandle, size_t numhandles);
extern int gasnet_try_syncnb_all(gasnet_handle_t *phandle, size_t numhandles);
extern void gasnet_wait_syncnb_all(gasnet_handle_t *phandle, size_t numhandles);
extern int gasnet_try_syncnbi_gets(void);
extern int gasnet_try_syncnbi_puts(void);
extern int gasnet_try_syncnbi_all(void);
extern void gasnet_wait_syncnbi_gets(void);
extern void gasnet_wait_syncnbi_puts(void);
extern void gasnet_wait_syncnbi_all(void);

/*
 * The calls above, inline (as GASNet's own header makes them): a copy
 * between this process and the mapped segment after an O(1) translation,
 * which the compiler turns into a few moves for a small constant size. The
 * names are function-like macros, so &gasnet_put and (gasnet_put)(...)
 * still reach the library's functions. gasnetc_segmap holds every node's
 * segment as mapped here once gasnet_attach has returned, and no node
 * before (gasnetc_segmap_n 0), so that an early call, a bad node or an
 * address outside the segment goes to gasnetc_ptr, which ends the job
 * naming the call.
 */
typedef struct gasnetc_segmap {
    uintptr_t owner; /* the segment's address in its owner */
    char *local;     /* where it is mapped here */
    uintptr_t size;
} gasnetc_segmap_t;
extern gasnetc_segmap_t *gasnetc_segmap;
extern gasnet_node_t gasnetc_segmap_n;

static inline void *gasnetc_xlate(const char *call, gasnet_node_t node, const void *addr,
                                  size_t nbytes)
{
    if (node < gasnetc_segmap_n) {
        const gasnetc_segmap_t *s = &gasnetc_segmap[node];
        uintptr_t off = (uintptr_t)addr - s->owner;
        if (off <= s->size && nbytes <= s->size - off)
            return s->local + off;
    }
    return gasnetc_ptr(node, addr, nbytes, call);
}

static inline void gasnetc_put_inl(const char *call, gasnet_node_t node, void *dest,
                                   const void *src, size_t nbytes)
{
    if (nbytes)
        memcpy(gasnetc_xlate(call, node, dest, nbytes), src, nbytes);
}

static inline void gasnetc_get_inl(const char *call, void *dest, gasnet_node_t node,
                                   const void *src, size_t nbytes)
{
    if (nbytes)
        memcpy(dest, gasnetc_xlate(call, node, src, nbytes), nbytes);
}

static inline void gasnetc_memset_inl(const char *call, gasnet_node_t node, void *dest, int val,
                                      size_t nbytes)
{
    if (nbytes)
        memset(gasnetc_xlate(call, node, dest, nbytes), val, nbytes);
}

/* A value of 1, 2, 4 or 8 bytes; any other size goes to fn, whose
 * function says what is wrong. */
static inline void gasnetc_put_val_inl(const char *call, gasnet_node_t node, void *dest,
                                       gasnet_register_value_t v, size_t nbytes,
                                       void (*fn)(gasnet_node_t, void *, gasnet_register_value_t,
                                                  size_t))
{
    void *p;
    uint8_t b;
    uint16_t h;
    uint32_t w;

    switch (nbytes) {
    case 1: b = (uint8_t)v; p = &b; break;
    case 2: h = (uint16_t)v; p = &h; break;
    case 4: w = (uint32_t)v; p = &w; break;
    case 8: p = &v; break;
    default: fn(node, dest, v, nbytes); return;
    }
    memcpy(gasnetc_xlate(call, node, dest, nbytes), p, nbytes);
}

static inline gasnet_register_value_t gasnetc_get_val_inl(const char *call, gasnet_node_t node,
                                                          void *src, size_t nbytes)
{
    const void *p;
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;

    switch (nbytes) {
    case 1: p = gasnetc_xlate(call, node, src, 1); memcpy(&b, p, 1); return b;
    case 2: p = gasnetc_xlate(call, node, src, 2); memcpy(&h, p, 2); return h;
    case 4: p = gasnetc_xlate(call, node, src, 4); memcpy(&w, p, 4); return w;
    case 8: p = gasnetc_xlate(call, node, src, 8); memcpy(&d, p, 8); return d;
    default: return (gasnet_get_val)(node, src, nbytes);
    }
}

#define gasnet_put(node, dest, src, n) gasnetc_put_inl("gasnet_put", node, dest, src, n)
#define gasnet_put_bulk(node, dest, src, n) gasnetc_put_inl("gasnet_put_bulk", node, dest, src, n)
#define gasnet_get(dest, node, src, n) gasnetc_get_inl("gasnet_get", dest, node, src, n)
#define gasnet_get_bulk(dest, node, src, n) gasnetc_get_inl("gasnet_get_bulk", dest, node, src, n)
#define gasnet_memset(node, dest, val, n) gasnetc_memset_inl("gasnet_memset", node, dest, val, n)
#define gasnet_put_val(node, dest, v, n) \
    gasnetc_put_val_inl("gasnet_put_val", node, dest, v, n, (gasnet_put_val))
#define gasnet_get_val(node, src, n) gasnetc_get_val_inl("gasnet_get_val", node, src, n)

#define gasnet_put_nb(node, dest, src, n) \
    (gasnetc_put_inl("gasnet_put_nb", node, dest, src, n), GASNET_INVALID_HANDLE)
#define gasnet_put_nb_bulk(node, dest, src, n) \
    (gasnetc_put_inl("gasnet_put_nb_bulk", node, dest, src, n), GASNET_INVALID_HANDLE)
#define gasnet_get_nb(dest, node, src, n) \
    (gasnetc_get_inl("gasnet_get_nb", dest, node, src, n), GASNET_INVALID_HANDLE)
#define gasnet_get_nb_bulk(dest, node, src, n) \
    (gasnetc_get_inl("gasnet_get_nb_bulk", dest, node, src, n), GASNET_INVALID_HANDLE)
#define gasnet_memset_nb(node, dest, val, n) \
    (gasnetc_memset_inl("gasnet_memset_nb", node, dest, val, n), GASNET_INVALID_HANDLE)
#define gasnet_put_nb_val(node, dest, v, n) \
    (gasnetc_put_val_inl("gasnet_put_nb_val", node, dest, v, n, (gasnet_put_val)), \
     GASNET_INVALID_HANDLE)
#define gasnet_get_nb_val(node, src, n) gasnetc_get_val_inl("gasnet_get_nb_val", node, src, n)
#define gasnet_wait_syncnb_valget(h) ((gasnet_register_value_t)(h))

#define gasnet_put_nbi(node, dest, src, n) gasnetc_put_inl("gasnet_put_nbi", node, dest, src, n)
#define gasnet_put_nbi_bulk(node, dest, src, n) \
    gasnetc_put_inl("gasnet_put_nbi_bulk", node, dest, src, n)
#define gasnet_get_nbi(dest, node, src, n) gasnetc_get_inl("gasnet_get_nbi", dest, node, src, n)
#define gasnet_get_nbi_bulk(dest, node, src, n) \
    gasnetc_get_inl("gasnet_get_nbi_bulk", dest, node, src, n)
#define gasnet_put_nbi_val(node, dest, v, n) \
    gasnetc_put_val_inl("gasnet_put_nbi_val", node, dest, v, n, (gasnet_put_nbi_val))
#define gasnet_memset_nbi(node, dest, val, n) \
    gasnetc_memset_inl("gasnet_memset_nbi", node, dest, val, n)

/* Every handle is done: a sync of one handle is nothing. */
#define gasnet_try_syncnb(h) ((void)(h), GASNET_OK)
#define gasnet_wait_syncnb(h) ((void)(h))
#define gasnet_try_syncnbi_gets() GASNET_OK
#define gasnet_try_syncnbi_puts() GASNET_OK
#define gasnet_try_syncnbi_all() GASNET_OK
#define gasnet_wait_syncnbi_gets() ((void)0)
#define gasnet_wait_syncnbi_puts() ((void)0)
#define gasnet_wait_syncnbi_all() ((void)0)
extern void gasnet_begin_nbi_accessregion(void);
extern gasnet_handle_t gasnet_end_nbi_accessregion(void);

/* ------------------------------------------------------------ barriers */

#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
/* Every node anonymous (a hint GASNet-1 releases after 1.8 take): anonymous. */
#define GASNET_BARRIERFLAG_UNNAMED (GASNET_BARRIERFLAG_ANONYMOUS | 8)
extern void gasnet_barrier_notify(int id, int flags);
extern int gasnet_barrier_wait(int id, int flags);
extern int gasnet_barrier_try(int id, int flags);
/* Notify and wait at once. */
extern int gasnet_barrier(int id, int flags);
/* After a wait or a successful try: *id is the phase's id, and the result
 * GASNET_BARRIERFLAG_ANONYMOUS if every node was anonymous, _MISMATCH if
 * the phase mismatched, else 0. */
extern int gasnet_barrier_result(int *id);

#ifdef __cplusplus
}
#endif
#include "gasnet_coll.h"
#endif /* GASNET_H */
