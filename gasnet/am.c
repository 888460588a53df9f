/*
 * am.c - GASNet's active messages over pshm_am_*.
 *
 * GASNet handler index i is pshm's index i. pshm calls a handler with the
 * arguments as an array; a GASNet handler takes them one by one, after
 * (token) for a Short and (token, buf, nbytes) for a Medium or a Long. pshm
 * passes buf NULL for a Short and never for a Medium or a Long (pshm.h),
 * which tells them apart. pshm does not pass the index to the handler, so
 * each index has its trampoline (tramp[i]) that names it.
 */
#include "gasnetc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef gasnet_handlerarg_t A_;
typedef gasnet_token_t T_;

#define S_ARGS0
#define S_ARGS1 , A_
#define S_ARGS2 S_ARGS1, A_
#define S_ARGS3 S_ARGS2, A_
#define S_ARGS4 S_ARGS3, A_
#define S_ARGS5 S_ARGS4, A_
#define S_ARGS6 S_ARGS5, A_
#define S_ARGS7 S_ARGS6, A_
#define S_ARGS8 S_ARGS7, A_
#define S_ARGS9 S_ARGS8, A_
#define S_ARGS10 S_ARGS9, A_
#define S_ARGS11 S_ARGS10, A_
#define S_ARGS12 S_ARGS11, A_
#define S_ARGS13 S_ARGS12, A_
#define S_ARGS14 S_ARGS13, A_
#define S_ARGS15 S_ARGS14, A_
#define S_ARGS16 S_ARGS15, A_
#define V0
#define V1 , (A_)a[0]
#define V2 V1, (A_)a[1]
#define V3 V2, (A_)a[2]
#define V4 V3, (A_)a[3]
#define V5 V4, (A_)a[4]
#define V6 V5, (A_)a[5]
#define V7 V6, (A_)a[6]
#define V8 V7, (A_)a[7]
#define V9 V8, (A_)a[8]
#define V10 V9, (A_)a[9]
#define V11 V10, (A_)a[10]
#define V12 V11, (A_)a[11]
#define V13 V12, (A_)a[12]
#define V14 V13, (A_)a[13]
#define V15 V14, (A_)a[14]
#define V16 V15, (A_)a[15]

#define SHORT_CASE(n) \
    case n: ((void (*)(T_ S_ARGS##n))fn)(t V##n); break;
#define MEDIUM_CASE(n) \
    case n: ((void (*)(T_, void *, size_t S_ARGS##n))fn)(t, buf, nbytes V##n); break;
#define CASES(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) \
    X(13) X(14) X(15) X(16)

/* Calls fn as a Short handler (buf unused) or a Medium/Long one. */
static void run(gasnetc_handler_fn_t fn, T_ t, int is_short, void *buf, size_t nbytes,
                const uint32_t *a, unsigned na)
{
    gsn_in_handler++;
    if (is_short) {
        switch (na) { CASES(SHORT_CASE) default: break; }
    } else {
        switch (na) { CASES(MEDIUM_CASE) default: break; }
    }
    gsn_in_handler--;
}

static void dispatch(unsigned h, pshm_token_t *tok, void *buf, size_t nbytes, const uint32_t *a,
                     unsigned na)
{
    gasnetc_handler_fn_t fn = gsn.fn[h];

    if (__builtin_expect(fn == NULL, 0))
        gsn_fatal("gasnet handler", "a message from node %d names handler %u, which this node "
                  "did not register in gasnet_attach", pshm_token_source(tok), h);
    run(fn, (T_)tok, buf == NULL, buf, nbytes, a, na);
}

#define TR(h, l) \
    static void tr_##h##l(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na) \
    { dispatch(0x##h##l, t, b, n, a, na); }
#define TROW(h) TR(h, 0) TR(h, 1) TR(h, 2) TR(h, 3) TR(h, 4) TR(h, 5) TR(h, 6) TR(h, 7) \
    TR(h, 8) TR(h, 9) TR(h, a) TR(h, b) TR(h, c) TR(h, d) TR(h, e) TR(h, f)
#define TP(h, l) tr_##h##l,
#define TPROW(h) TP(h, 0) TP(h, 1) TP(h, 2) TP(h, 3) TP(h, 4) TP(h, 5) TP(h, 6) TP(h, 7) \
    TP(h, 8) TP(h, 9) TP(h, a) TP(h, b) TP(h, c) TP(h, d) TP(h, e) TP(h, f)
#define HEX(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(a) X(b) X(c) X(d) X(e) X(f)
HEX(TROW)
static const pshm_handler_fn tramp[256] = {HEX(TPROW)};

static int reg(unsigned h, gasnetc_handler_fn_t fn)
{
    pshm_handler_entry_t e = {.index = h, .fn = tramp[h], .nargs = PSHM_AM_ANY_NARGS};
    int rc = pshm_am_register(gsn.ctx, &e, 1);
    if (rc < 0)
        return gsn_pshm_fail("gasnet_attach", rc);
    gsn.fn[h] = fn;
    return GASNET_OK;
}

void gsn_register_internal(void)
{
    if (reg(GSN_H_EXIT, (gasnetc_handler_fn_t)gsn_exit_handler) != GASNET_OK ||
        reg(GSN_H_BAR_ARRIVE, (gasnetc_handler_fn_t)gsn_bar_arrive) != GASNET_OK ||
        reg(GSN_H_BAR_DONE, (gasnetc_handler_fn_t)gsn_bar_done) != GASNET_OK ||
        reg(GSN_H_BCAST, (gasnetc_handler_fn_t)gsn_bcast_handler) != GASNET_OK)
        gsn_fatal("gasnet_init", "cannot register the layer's own handlers");
}

/* GASNet's rules: indices 128..255 for the client, 0 meaning "choose one"
 * (written back into the table), each index once. */
int gsn_register_table(gasnet_handlerentry_t *table, int numentries)
{
    unsigned char used[256] = {0};

    if (numentries < 0 || (numentries > 0 && table == NULL)) {
        gsn_say("gasnet_attach", "the handler table is %s with %d entries",
                table ? "given" : "NULL", numentries);
        return GASNET_ERR_BAD_ARG;
    }
    for (int i = 0; i < numentries; i++) {
        unsigned h = table[i].index;
        if (table[i].fnptr == NULL) {
            gsn_say("gasnet_attach", "handler table entry %d (index %u) has a NULL function", i, h);
            return GASNET_ERR_BAD_ARG;
        }
        if (h == 0)
            continue;
        if (h < GSN_CLIENT_MIN) {
            gsn_say("gasnet_attach", "handler table entry %d has index %u: a client's indices "
                    "are %d..255 (or 0 to have one chosen)", i, h, GSN_CLIENT_MIN);
            return GASNET_ERR_BAD_ARG;
        }
        if (used[h]) {
            gsn_say("gasnet_attach", "handler index %u is given twice in the table (entry %d)",
                    h, i);
            return GASNET_ERR_BAD_ARG;
        }
        used[h] = 1;
    }
    unsigned next = GSN_CLIENT_MIN;
    for (int i = 0; i < numentries; i++) {
        if (table[i].index != 0)
            continue;
        while (next < 256 && used[next])
            next++;
        if (next == 256) {
            gsn_say("gasnet_attach", "no handler index is left for table entry %d: a client has "
                    "%d (%d..255)", i, 256 - GSN_CLIENT_MIN, GSN_CLIENT_MIN);
            return GASNET_ERR_RESOURCE;
        }
        used[next] = 1;
        table[i].index = (gasnet_handler_t)next;
    }
    for (int i = 0; i < numentries; i++) {
        int rc = reg(table[i].index, table[i].fnptr);
        if (rc != GASNET_OK)
            return rc;
    }
    return GASNET_OK;
}

/* ------------------------------------------------------------ loopback */

/* A message to this node runs its handler inside the sending call, as
 * GASNet's loopback does (its PSHM and smp conduits): clients rely on it,
 * a thread spinning without a poll on a flag that its own node's handler
 * sets (testcontend). A reply to such a request runs at once too. The
 * token is this frame on the sender's stack, known by the chain of the
 * loopback handlers running on this thread. */
enum { LOOP_SHORT, LOOP_MEDIUM, LOOP_LONG };

typedef struct gsn_loop {
    struct gsn_loop *up;     /* the loopback handler this one runs inside */
    int is_req, replied;
} gsn_loop_t;

static _Thread_local gsn_loop_t *loop_top;

static gsn_loop_t *loop_token(gasnet_token_t t)
{
    for (gsn_loop_t *l = loop_top; l != NULL; l = l->up)
        if ((gasnet_token_t)l == t)
            return l;
    return NULL;
}

static int loopback(const char *call, int cat, int is_req, gasnet_handler_t handler, void *src,
                    size_t nbytes, void *dest_addr, int numargs, const gasnet_handlerarg_t *args)
{
    gasnetc_handler_fn_t fn = gsn.fn[handler];
    gsn_loop_t tok = {.up = loop_top, .is_req = is_req, .replied = 0};
    void *buf = NULL;

    if (fn == NULL) {
        gsn_say(call, "handler %u is not registered (give it in gasnet_attach's table)",
                (unsigned)handler);
        return GASNET_ERR_RESOURCE;
    }
    if (cat != LOOP_SHORT && nbytes > 0 && src == NULL) {
        gsn_say(call, "%zu bytes but the source address is NULL", nbytes);
        return GASNET_ERR_RESOURCE;
    }
    if (cat == LOOP_MEDIUM) {
        if (nbytes > gasnet_AMMaxMedium()) {
            gsn_say(call, "%zu bytes exceeds gasnet_AMMaxMedium() (%zu): send a Long instead",
                    nbytes, gasnet_AMMaxMedium());
            return GASNET_ERR_RESOURCE;
        }
        /* The handler gets its own copy, 8-aligned, as from a peer. */
        buf = malloc(nbytes ? nbytes : 1);
        if (buf == NULL) {
            gsn_say(call, "out of memory for a %zu-byte Medium to this node", nbytes);
            return GASNET_ERR_RESOURCE;
        }
        if (nbytes)
            memcpy(buf, src, nbytes);
    } else if (cat == LOOP_LONG) {
        const gsn_seg_t *sg = &gsn.seg[gsn.me];
        uintptr_t a = (uintptr_t)dest_addr;
        if (a < sg->owner || a - sg->owner > sg->size || nbytes > sg->size - (a - sg->owner)) {
            gsn_say(call, "%zu bytes at %p do not lie in this node's %" PRIuPTR "-byte segment "
                    "(at %#" PRIxPTR ")", nbytes, dest_addr, sg->size, sg->owner);
            return GASNET_ERR_RESOURCE;
        }
        buf = sg->local + (a - sg->owner);
        if (nbytes && buf != src)
            memmove(buf, src, nbytes);
        atomic_thread_fence(memory_order_release);
    }
    loop_top = &tok;
    run(fn, (T_)&tok, cat == LOOP_SHORT, cat == LOOP_LONG ? dest_addr : buf, nbytes,
        (const uint32_t *)args, (unsigned)numargs);
    loop_top = tok.up;
    if (cat == LOOP_MEDIUM)
        free(buf);
    return GASNET_OK;
}

/* A request to this node: polled first, as GASNet's requests are. */
static int loop_request(const char *call, int cat, gasnet_handler_t handler, void *src,
                        size_t nbytes, void *dest_addr, int numargs,
                        const gasnet_handlerarg_t *args)
{
    int rc;
    if (gsn_in_handler) {
        gsn_say(call, "a handler may not send a request (it could deadlock); reply through "
                "the token instead");
        return GASNET_ERR_RESOURCE;
    }
    gsn_poll(call);
    rc = loopback(call, cat, 1, handler, src, nbytes, dest_addr, numargs, args);
    gsn_after_poll();
    return rc;
}

/* A reply to a loopback request's token (l): run at once. */
static int loop_reply(const char *call, gsn_loop_t *l, int cat, gasnet_handler_t handler,
                      void *src, size_t nbytes, void *dest_addr, int numargs,
                      const gasnet_handlerarg_t *args)
{
    if (!l->is_req) {
        gsn_say(call, "a reply handler may not reply (handler of a message from node %d)",
                gsn.me);
        return GASNET_ERR_RESOURCE;
    }
    if (l->replied) {
        gsn_say(call, "this request (from node %d) was already replied to; a request handler "
                "replies at most once", gsn.me);
        return GASNET_ERR_RESOURCE;
    }
    l->replied = 1;
    return loopback(call, cat, 0, handler, src, nbytes, dest_addr, numargs, args);
}

/* ------------------------------------------------------------ limits */

/* pshm copies a Long straight into the target's segment: the segment
 * bounds it, and this is the bound GASNet clients are told. */
#define GSN_MAX_LONG ((size_t)0x7fffffff)

size_t gasnet_AMMaxArgs(void) { return PSHM_AM_MAX_ARGS; }
size_t gasnet_AMMaxMedium(void) { return gsn.inited ? pshm_am_max_medium(gsn.ctx) : 65536; }
size_t gasnet_AMMaxLongRequest(void) { return GSN_MAX_LONG; }
size_t gasnet_AMMaxLongReply(void) { return GSN_MAX_LONG; }

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex)
{
    int r;
    if (token == NULL || srcindex == NULL)
        return GASNET_ERR_BAD_ARG;
    if (loop_token(token) != NULL) {
        *srcindex = (gasnet_node_t)gsn.me;
        return GASNET_OK;
    }
    r = pshm_token_source((const pshm_token_t *)token);
    if (r < 0)
        return GASNET_ERR_BAD_ARG;
    *srcindex = (gasnet_node_t)r;
    return GASNET_OK;
}

int gasnet_AMPoll(void)
{
    gsn_need_attach("gasnet_AMPoll");
    gsn_poll("gasnet_AMPoll");
    return GASNET_OK;
}

void gasnetc_wait_step(void)
{
    gsn_need_attach("GASNET_BLOCKUNTIL");
    gsn_wait_poll("GASNET_BLOCKUNTIL");
}

/* ------------------------------------------------------------ sends */

static int check_dest(const char *call, gasnet_node_t dest)
{
    gsn_need_attach(call);
    if (__builtin_expect(dest >= (gasnet_node_t)gsn.n, 0)) {
        gsn_say(call, "node %u is not in the job (nodes 0..%d)", (unsigned)dest, gsn.n - 1);
        return GASNET_ERR_BAD_ARG;
    }
    return GASNET_OK;
}

static int check_args(const char *call, int numargs)
{
    if (__builtin_expect(numargs < 0 || numargs > PSHM_AM_MAX_ARGS, 0)) {
        gsn_say(call, "%d arguments: at most %d", numargs, PSHM_AM_MAX_ARGS);
        return GASNET_ERR_BAD_ARG;
    }
    return GASNET_OK;
}

/* A send's outcome: pshm's failure told, and a peer's exit honoured. */
static int sent(const char *call, int rc)
{
    if (__builtin_expect(rc < 0, 0))
        return gsn_pshm_fail(call, rc);
    gsn_after_poll();
    return GASNET_OK;
}

static int request_short(gasnet_node_t dest, gasnet_handler_t handler, int numargs,
                         const gasnet_handlerarg_t *args)
{
    static const char call[] = "gasnet_AMRequestShort";
    int rc = check_dest(call, dest);
    if (rc == GASNET_OK)
        rc = check_args(call, numargs);
    if (rc != GASNET_OK)
        return rc;
    if (dest == (gasnet_node_t)gsn.me)
        return loop_request(call, LOOP_SHORT, handler, NULL, 0, NULL, numargs, args);
    return sent(call, pshm_am_request_short(gsn.ctx, (int)dest, handler, 0, (unsigned)numargs,
                                            (const uint32_t *)args));
}

static int request_medium(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                          size_t nbytes, int numargs, const gasnet_handlerarg_t *args)
{
    static const char call[] = "gasnet_AMRequestMedium";
    int rc = check_dest(call, dest);
    if (rc == GASNET_OK)
        rc = check_args(call, numargs);
    if (rc != GASNET_OK)
        return rc;
    if (dest == (gasnet_node_t)gsn.me)
        return loop_request(call, LOOP_MEDIUM, handler, source_addr, nbytes, NULL, numargs,
                            args);
    return sent(call, pshm_am_request_medium(gsn.ctx, (int)dest, handler, source_addr, nbytes, 0,
                                             (unsigned)numargs, (const uint32_t *)args));
}

static int request_long(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                        size_t nbytes, void *dest_addr, int async, int numargs,
                        const gasnet_handlerarg_t *args)
{
    const char *call = async ? "gasnet_AMRequestLongAsync" : "gasnet_AMRequestLong";
    int rc = check_dest(call, dest);
    if (rc == GASNET_OK)
        rc = check_args(call, numargs);
    if (rc != GASNET_OK)
        return rc;
    /* The payload is in place when the call returns: Async is the same. */
    if (dest == (gasnet_node_t)gsn.me)
        return loop_request(call, LOOP_LONG, handler, source_addr, nbytes, dest_addr, numargs,
                            args);
    return sent(call, pshm_am_request_long(gsn.ctx, (int)dest, handler, source_addr, nbytes,
                                           dest_addr, 0, (unsigned)numargs,
                                           (const uint32_t *)args));
}

static int reply_short(gasnet_token_t token, gasnet_handler_t handler, int numargs,
                       const gasnet_handlerarg_t *args)
{
    static const char call[] = "gasnet_AMReplyShort";
    int rc = check_args(call, numargs);
    if (rc != GASNET_OK)
        return rc;
    gsn_loop_t *l = loop_token(token);
    if (l != NULL)
        return loop_reply(call, l, LOOP_SHORT, handler, NULL, 0, NULL, numargs, args);
    rc = pshm_am_reply_short((pshm_token_t *)token, handler, 0, (unsigned)numargs,
                             (const uint32_t *)args);
    return rc < 0 ? gsn_pshm_fail(call, rc) : GASNET_OK;
}

static int reply_medium(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                        size_t nbytes, int numargs, const gasnet_handlerarg_t *args)
{
    static const char call[] = "gasnet_AMReplyMedium";
    int rc = check_args(call, numargs);
    if (rc != GASNET_OK)
        return rc;
    gsn_loop_t *l = loop_token(token);
    if (l != NULL)
        return loop_reply(call, l, LOOP_MEDIUM, handler, source_addr, nbytes, NULL, numargs,
                          args);
    rc = pshm_am_reply_medium((pshm_token_t *)token, handler, source_addr, nbytes, 0,
                              (unsigned)numargs, (const uint32_t *)args);
    return rc < 0 ? gsn_pshm_fail(call, rc) : GASNET_OK;
}

static int reply_long(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                      size_t nbytes, void *dest_addr, int numargs,
                      const gasnet_handlerarg_t *args)
{
    static const char call[] = "gasnet_AMReplyLong";
    int rc = check_args(call, numargs);
    if (rc != GASNET_OK)
        return rc;
    gsn_loop_t *l = loop_token(token);
    if (l != NULL)
        return loop_reply(call, l, LOOP_LONG, handler, source_addr, nbytes, dest_addr,
                          numargs, args);
    rc = pshm_am_reply_long((pshm_token_t *)token, handler, source_addr, nbytes, dest_addr, 0,
                            (unsigned)numargs, (const uint32_t *)args);
    return rc < 0 ? gsn_pshm_fail(call, rc) : GASNET_OK;
}

/* The public sends: an error returned is noted for the waits after it. */
static int told(const char *call, int rc)
{
    if (__builtin_expect(rc != GASNET_OK, 0))
        gsn_note_error(call, rc);
    return rc;
}

int gasnetc_AMRequestShortA(gasnet_node_t dest, gasnet_handler_t handler, int numargs,
                            const gasnet_handlerarg_t *args)
{
    return told("gasnet_AMRequestShort", request_short(dest, handler, numargs, args));
}

int gasnetc_AMRequestMediumA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                             size_t nbytes, int numargs, const gasnet_handlerarg_t *args)
{
    return told("gasnet_AMRequestMedium",
                request_medium(dest, handler, source_addr, nbytes, numargs, args));
}

int gasnetc_AMRequestLongA(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, void *dest_addr, int async, int numargs,
                           const gasnet_handlerarg_t *args)
{
    return told(async ? "gasnet_AMRequestLongAsync" : "gasnet_AMRequestLong",
                request_long(dest, handler, source_addr, nbytes, dest_addr, async, numargs, args));
}

int gasnetc_AMReplyShortA(gasnet_token_t token, gasnet_handler_t handler, int numargs,
                          const gasnet_handlerarg_t *args)
{
    return told("gasnet_AMReplyShort", reply_short(token, handler, numargs, args));
}

int gasnetc_AMReplyMediumA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, int numargs, const gasnet_handlerarg_t *args)
{
    return told("gasnet_AMReplyMedium",
                reply_medium(token, handler, source_addr, nbytes, numargs, args));
}

int gasnetc_AMReplyLongA(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                         size_t nbytes, void *dest_addr, int numargs,
                         const gasnet_handlerarg_t *args)
{
    return told("gasnet_AMReplyLong",
                reply_long(token, handler, source_addr, nbytes, dest_addr, numargs, args));
}

/* ------------------------------------------------------------ varargs (C++) */

#define COLLECT(numargs, last)                                    \
    gasnet_handlerarg_t a_[PSHM_AM_MAX_ARGS];                     \
    if ((numargs) < 0 || (numargs) > PSHM_AM_MAX_ARGS)            \
        return check_args(__func__, numargs);                     \
    do {                                                          \
        va_list ap;                                               \
        va_start(ap, last);                                       \
        for (int i_ = 0; i_ < (numargs); i_++)                    \
            a_[i_] = (gasnet_handlerarg_t)va_arg(ap, int);        \
        va_end(ap);                                               \
    } while (0)

int gasnetc_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...)
{
    COLLECT(numargs, numargs);
    return gasnetc_AMRequestShortA(dest, handler, numargs, a_);
}
int gasnetc_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                             size_t nbytes, int numargs, ...)
{
    COLLECT(numargs, numargs);
    return gasnetc_AMRequestMediumA(dest, handler, source_addr, nbytes, numargs, a_);
}
int gasnetc_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, void *dest_addr, int async, int numargs, ...)
{
    COLLECT(numargs, numargs);
    return gasnetc_AMRequestLongA(dest, handler, source_addr, nbytes, dest_addr, async, numargs,
                                  a_);
}
int gasnetc_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...)
{
    COLLECT(numargs, numargs);
    return gasnetc_AMReplyShortA(token, handler, numargs, a_);
}
int gasnetc_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, int numargs, ...)
{
    COLLECT(numargs, numargs);
    return gasnetc_AMReplyMediumA(token, handler, source_addr, nbytes, numargs, a_);
}
int gasnetc_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                         size_t nbytes, void *dest_addr, int numargs, ...)
{
    COLLECT(numargs, numargs);
    return gasnetc_AMReplyLongA(token, handler, source_addr, nbytes, dest_addr, numargs, a_);
}
