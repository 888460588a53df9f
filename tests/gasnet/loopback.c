/*
 * loopback - an AM to the sending node runs its handler inside the
 * request call, and a reply to it inside the reply call, as GASNet's
 * conduits do: right after a request to self returns, with no poll, its
 * request and reply handlers have run (Short, Medium of 0 and
 * gasnet_AMMaxMedium() bytes, Long of 0 and 3 pages, 0 and 16 arguments),
 * the Medium handler saw a copy of the bytes, the Long's landed in the
 * segment, the source is this node. A second reply, a reply from a reply
 * handler, a request from a handler, an unregistered handler, a Medium
 * over the limit and a Long outside the segment are refused. PAR: threads
 * spin without polling on a flag that the main thread's request to self
 * sets (GASNet's testcontend does), giving up after 10 s.
 */
#include "gtest.h"

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#ifdef GASNET_PAR
#include <pthread.h>
#endif

enum { H_REQ_S = 200, H_REP_S, H_REQ_M, H_REP_M, H_REQ_L, H_REP_L, H_DONE, H_REQ_S16,
       H_REP_S16 };
#define LONG_BYTES (3u * GASNET_PAGESIZE)

static unsigned me;
static uint8_t *myseg;            /* [0, LONG_BYTES): requests, then replies */
static uint8_t *msrc;             /* a Medium's source bytes */
static size_t expect_n;           /* the payload of the message under way */
static int req_ran, rep_ran;      /* handlers run so far */
static int in_request;            /* the request call is still on the stack */
static atomic_int done;

static uint8_t byte_of(size_t j, int salt) { return (uint8_t)(j * 7u + (size_t)salt * 13u + 1u); }

static void check_bytes(const char *what, const uint8_t *p, size_t n, int salt)
{
    for (size_t j = 0; j < n; j++)
        if (p[j] != byte_of(j, salt)) {
            GT_CHECK(0, "%s byte %zu of %zu: 0x%02x, expected 0x%02x", what, j, n, p[j],
                     byte_of(j, salt));
            return;
        }
}

/* What a request handler checks of its token, and the refusals. */
static void check_token(const char *what, gasnet_token_t t)
{
    gasnet_node_t src = 12345;
    GT_SAFE(gasnet_AMGetMsgSource(t, &src));
    GT_CHECK(src == me, "%s: source %u, expected this node %u", what, (unsigned)src, me);
    GT_CHECK(in_request, "%s ran after its request call returned", what);
    int rc = gasnet_AMRequestShort0(me, H_DONE);
    GT_CHECK(rc == GASNET_ERR_RESOURCE, "%s: a request from the handler gave %s", what,
             gasnet_ErrorName(rc));
}

static void req_s(gasnet_token_t t, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1)
{
    check_token("ShortRequest", t);
    GT_CHECK(a0 == 11 && a1 == -22, "ShortRequest args %d %d", (int)a0, (int)a1);
    req_ran++;
    GT_SAFE(gasnet_AMReplyShort2(t, H_REP_S, a0 + 1, a1 - 1));
    GT_CHECK(rep_ran == req_ran, "the Short reply's handler had not run when the reply returned");
    int rc = gasnet_AMReplyShort0(t, H_REP_S);
    GT_CHECK(rc == GASNET_ERR_RESOURCE, "a second reply gave %s", gasnet_ErrorName(rc));
}

static void rep_s(gasnet_token_t t, gasnet_handlerarg_t a0, gasnet_handlerarg_t a1)
{
    gasnet_node_t src = 12345;
    GT_SAFE(gasnet_AMGetMsgSource(t, &src));
    GT_CHECK(src == me, "ShortReply source %u", (unsigned)src);
    GT_CHECK(a0 == 12 && a1 == -23, "ShortReply args %d %d", (int)a0, (int)a1);
    int rc = gasnet_AMReplyShort0(t, H_REP_S);
    GT_CHECK(rc == GASNET_ERR_RESOURCE, "a reply from a reply handler gave %s",
             gasnet_ErrorName(rc));
    rep_ran++;
}

#define A16 gasnet_handlerarg_t
static void req_s16(gasnet_token_t t, A16 a0, A16 a1, A16 a2, A16 a3, A16 a4, A16 a5, A16 a6,
                    A16 a7, A16 a8, A16 a9, A16 a10, A16 a11, A16 a12, A16 a13, A16 a14, A16 a15)
{
    A16 a[16] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15};
    for (int i = 0; i < 16; i++)
        GT_CHECK(a[i] == 100 + i, "Short16 arg %d: %d", i, (int)a[i]);
    req_ran++;
    GT_SAFE(gasnet_AMReplyShort16(t, H_REP_S16, a15, a14, a13, a12, a11, a10, a9, a8, a7, a6,
                                  a5, a4, a3, a2, a1, a0));
}

static void rep_s16(gasnet_token_t t, A16 a0, A16 a1, A16 a2, A16 a3, A16 a4, A16 a5, A16 a6,
                    A16 a7, A16 a8, A16 a9, A16 a10, A16 a11, A16 a12, A16 a13, A16 a14, A16 a15)
{
    A16 a[16] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15};
    (void)t;
    for (int i = 0; i < 16; i++)
        GT_CHECK(a[i] == 115 - i, "Short16 reply arg %d: %d", i, (int)a[i]);
    rep_ran++;
}

static void req_m(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t salt)
{
    check_token("MediumRequest", t);
    GT_CHECK(nbytes == expect_n, "MediumRequest of %zu bytes, sent %zu", nbytes, expect_n);
    GT_CHECK(buf != NULL && buf != (void *)msrc, "MediumRequest buf %p: not a copy of %p", buf,
             (void *)msrc);
    GT_CHECK((uintptr_t)buf % 8 == 0, "MediumRequest buf %p is not 8-aligned", buf);
    check_bytes("MediumRequest", buf, nbytes, salt);
    req_ran++;
    /* The reply's bytes are the handler's buffer, changed in place. */
    for (size_t j = 0; j < nbytes; j++)
        ((uint8_t *)buf)[j] = byte_of(j, salt + 1);
    GT_SAFE(gasnet_AMReplyMedium1(t, H_REP_M, buf, nbytes, salt + 1));
}

static void rep_m(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t salt)
{
    (void)t;
    GT_CHECK(nbytes == expect_n, "MediumReply of %zu bytes, sent %zu", nbytes, expect_n);
    check_bytes("MediumReply", buf, nbytes, salt);
    rep_ran++;
}

static void req_l(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t salt)
{
    check_token("LongRequest", t);
    GT_CHECK(nbytes == expect_n && buf == myseg, "LongRequest of %zu bytes at %p, sent %zu to %p",
             nbytes, buf, expect_n, (void *)myseg);
    check_bytes("LongRequest", myseg, nbytes, salt);
    req_ran++;
    GT_SAFE(gasnet_AMReplyLong1(t, H_REP_L, msrc, nbytes, myseg + LONG_BYTES, salt));
}

static void rep_l(gasnet_token_t t, void *buf, size_t nbytes, gasnet_handlerarg_t salt)
{
    (void)t;
    GT_CHECK(nbytes == expect_n && buf == myseg + LONG_BYTES, "LongReply of %zu bytes at %p",
             nbytes, buf);
    check_bytes("LongReply", myseg + LONG_BYTES, nbytes, salt);
    rep_ran++;
}

static void on_done(gasnet_token_t t) { (void)t; atomic_store(&done, 1); }

/* After a request to self returned: both handlers ran, once. */
static void ran(const char *what, int want)
{
    GT_CHECK(req_ran == want && rep_ran == want, "%s to this node: %d request and %d reply "
             "handlers had run when the call returned, expected %d", what, req_ran, rep_ran,
             want);
}

#ifdef GASNET_PAR
#define NSPIN 3
/* Spins on `done` without a GASNet call, as testcontend's threads do. */
static void *spinner(void *arg)
{
    struct timespec t0, t;
    (void)arg;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!atomic_load(&done)) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 10)
            return (void *)1;
    }
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    gasnet_handlerentry_t tab[] = {
        {H_REQ_S, (gasnetc_handler_fn_t)req_s},     {H_REP_S, (gasnetc_handler_fn_t)rep_s},
        {H_REQ_M, (gasnetc_handler_fn_t)req_m},     {H_REP_M, (gasnetc_handler_fn_t)rep_m},
        {H_REQ_L, (gasnetc_handler_fn_t)req_l},     {H_REP_L, (gasnetc_handler_fn_t)rep_l},
        {H_DONE, (gasnetc_handler_fn_t)on_done},    {H_REQ_S16, (gasnetc_handler_fn_t)req_s16},
        {H_REP_S16, (gasnetc_handler_fn_t)rep_s16},
    };
    int want = 0, rc;

    GT_SAFE(gasnet_init(&argc, &argv));
    GT_SAFE(gasnet_attach(tab, (int)(sizeof tab / sizeof tab[0]), 2 * LONG_BYTES, 0));
    me = gasnet_mynode();
    gasnet_seginfo_t *segs = calloc(gasnet_nodes(), sizeof *segs);
    GT_SAFE(gasnet_getSegmentInfo(segs, (int)gasnet_nodes()));
    myseg = segs[me].addr;
    size_t maxm = gasnet_AMMaxMedium();
    msrc = malloc(maxm > LONG_BYTES ? maxm : LONG_BYTES);
    fprintf(stderr, "node %u: the refusals told below are expected\n", me);
    gt_barrier();

    in_request = 1;
    GT_SAFE(gasnet_AMRequestShort2(me, H_REQ_S, 11, -22));
    in_request = 0;
    ran("a Short request", ++want);
    GT_SAFE(gasnet_AMRequestShort16(me, H_REQ_S16, 100, 101, 102, 103, 104, 105, 106, 107, 108,
                                    109, 110, 111, 112, 113, 114, 115));
    ran("a Short request of 16 arguments", ++want);
    size_t msizes[2] = {0, maxm};
    for (int i = 0; i < 2; i++) {
        expect_n = msizes[i];
        for (size_t j = 0; j < expect_n; j++)
            msrc[j] = byte_of(j, 3 + i);
        in_request = 1;
        GT_SAFE(gasnet_AMRequestMedium1(me, H_REQ_M, msrc, expect_n, 3 + i));
        in_request = 0;
        ran("a Medium request", ++want);
        check_bytes("the Medium's source after its call", msrc, expect_n, 3 + i);
    }
    size_t lsizes[2] = {0, LONG_BYTES};
    for (int i = 0; i < 2; i++) {
        expect_n = lsizes[i];
        memset(myseg, 0, 2 * LONG_BYTES);
        for (size_t j = 0; j < expect_n; j++)
            msrc[j] = byte_of(j, 7 + i);
        in_request = 1;
        if (i == 0)
            GT_SAFE(gasnet_AMRequestLong1(me, H_REQ_L, msrc, expect_n, myseg, 7 + i));
        else
            GT_SAFE(gasnet_AMRequestLongAsync1(me, H_REQ_L, msrc, expect_n, myseg, 7 + i));
        in_request = 0;
        ran("a Long request", ++want);
    }

    /* Refusals: nothing runs. */
    rc = gasnet_AMRequestShort0(me, 150);
    GT_CHECK(rc == GASNET_ERR_RESOURCE, "an unregistered handler gave %s", gasnet_ErrorName(rc));
    rc = gasnet_AMRequestMedium1(me, H_REQ_M, msrc, maxm + 1, 0);
    GT_CHECK(rc == GASNET_ERR_RESOURCE, "a Medium of %zu bytes gave %s", maxm + 1,
             gasnet_ErrorName(rc));
    rc = gasnet_AMRequestLong1(me, H_REQ_L, msrc, LONG_BYTES, myseg + LONG_BYTES + 1, 0);
    GT_CHECK(rc == GASNET_ERR_RESOURCE, "a Long past the segment's end gave %s",
             gasnet_ErrorName(rc));
    ran("a refused request", want);

#ifdef GASNET_PAR
    pthread_t th[NSPIN];
    for (int i = 0; i < NSPIN; i++)
        pthread_create(&th[i], NULL, spinner, NULL);
    GT_SAFE(gasnet_AMRequestShort0(me, H_DONE));
    for (int i = 0; i < NSPIN; i++) {
        void *r;
        pthread_join(th[i], &r);
        GT_CHECK(r == NULL, "a thread spinning on a flag set by a request to this node waited "
                 "10 s in vain");
    }
#else
    GT_SAFE(gasnet_AMRequestShort0(me, H_DONE));
    GT_CHECK(atomic_load(&done), "the flag of a Short to this node was not set");
#endif
    free(msrc);
    free(segs);
    gt_end("loopback");
    return 0;
}
