/*
 * am.c - every GASNet active-message form: Short, Medium, Long and
 * LongAsync requests with 0..16 arguments to every node (itself too), each
 * answered by the reply of the same category and count. Every argument,
 * every payload byte, where a Long landed and the message's source are
 * checked by the handlers, and every reply is counted. The handler table
 * mixes fixed indices and index 0 ("choose one"): the chosen ones must be
 * distinct and in 128..255. PAR: threads send at once as well.
 */
#include "gtest.h"

#include <stdatomic.h>
#ifdef GASNET_PAR
#include <pthread.h>
#endif

#define SLOT 65536u
#define MAXN 16
#define NCAT 3 /* short, medium, long */

static uint8_t *myseg;           /* my segment (my own address of it) */
static gasnet_seginfo_t *segs;
static atomic_int replies;
static uint8_t *reply_buf;       /* where a Medium reply's bytes are kept for checking */

static gasnet_handlerarg_t arg_of(int n, int i, unsigned src, int reply)
{
    return (gasnet_handlerarg_t)(0x80000000u ^ ((uint32_t)n << 20) ^ ((uint32_t)i << 12) ^
                                 ((uint32_t)src << 4) ^ (uint32_t)reply);
}
static uint8_t byte_of(size_t j, int n, unsigned src) { return (uint8_t)(j * 7u + (unsigned)n * 13u + src); }
static size_t size_of(int n, size_t max)
{
    size_t s = (size_t)n * 3001u + 1u;
    if (n == MAXN)
        s = max;      /* the largest payload, once */
    return s;
}

static void check_args(const char *what, int n, const gasnet_handlerarg_t *a, unsigned src, int reply)
{
    for (int i = 0; i < n; i++)
        GT_CHECK(a[i] == arg_of(n, i, src, reply), "%s%d arg %d from %u: got 0x%x, expected 0x%x",
                 what, n, i, src, (unsigned)a[i], (unsigned)arg_of(n, i, src, reply));
}

static unsigned source(gasnet_token_t t)
{
    gasnet_node_t s = (gasnet_node_t)-1;
    GT_SAFE(gasnet_AMGetMsgSource(t, &s));
    GT_CHECK(s < gasnet_nodes(), "gasnet_AMGetMsgSource gave %u", (unsigned)s);
    return (unsigned)s;
}

static void check_payload(const char *what, int n, const void *buf, size_t nbytes, size_t want,
                          unsigned src)
{
    const uint8_t *b = buf;
    GT_CHECK(nbytes == want, "%s%d from %u: %zu bytes, expected %zu", what, n, src, nbytes, want);
    for (size_t j = 0; j < nbytes && j < want; j++)
        if (b[j] != byte_of(j, n, src)) {
            GT_CHECK(0, "%s%d from %u: byte %zu is 0x%02x, expected 0x%02x", what, n, src, j,
                     b[j], byte_of(j, n, src));
            break;
        }
}

/* The reply's arguments: the request's, as the replier computes them. */
static void fill_args(gasnet_handlerarg_t *a, int n, unsigned src, int reply)
{
    for (int i = 0; i < n; i++)
        a[i] = arg_of(n, i, src, reply);
}

/* ---- handlers, one per category and count (their signatures differ) */

static gasnet_handler_t idx[2][NCAT][MAXN + 1]; /* [reply][cat][n] */

#define P0
#define P1 , gasnet_handlerarg_t a0
#define P2 P1, gasnet_handlerarg_t a1
#define P3 P2, gasnet_handlerarg_t a2
#define P4 P3, gasnet_handlerarg_t a3
#define P5 P4, gasnet_handlerarg_t a4
#define P6 P5, gasnet_handlerarg_t a5
#define P7 P6, gasnet_handlerarg_t a6
#define P8 P7, gasnet_handlerarg_t a7
#define P9 P8, gasnet_handlerarg_t a8
#define P10 P9, gasnet_handlerarg_t a9
#define P11 P10, gasnet_handlerarg_t a10
#define P12 P11, gasnet_handlerarg_t a11
#define P13 P12, gasnet_handlerarg_t a12
#define P14 P13, gasnet_handlerarg_t a13
#define P15 P14, gasnet_handlerarg_t a14
#define P16 P15, gasnet_handlerarg_t a15
#define L0 0
#define L1 a0
#define L2 L1, a1
#define L3 L2, a2
#define L4 L3, a3
#define L5 L4, a4
#define L6 L5, a5
#define L7 L6, a6
#define L8 L7, a7
#define L9 L8, a8
#define L10 L9, a9
#define L11 L10, a10
#define L12 L11, a11
#define L13 L12, a12
#define L14 L13, a13
#define L15 L14, a14
#define L16 L15, a15

/* The forms' arguments spelt out: FWn is ", x[0], ..., x[n-1]". */
/* CALL: the form named once its arguments are spelt out. */
#define CALL(m, ...) m(__VA_ARGS__)
#define FW0
#define FW1 FW0, x[0]
#define FW2 FW1, x[1]
#define FW3 FW2, x[2]
#define FW4 FW3, x[3]
#define FW5 FW4, x[4]
#define FW6 FW5, x[5]
#define FW7 FW6, x[6]
#define FW8 FW7, x[7]
#define FW9 FW8, x[8]
#define FW10 FW9, x[9]
#define FW11 FW10, x[10]
#define FW12 FW11, x[11]
#define FW13 FW12, x[12]
#define FW14 FW13, x[13]
#define FW15 FW14, x[14]
#define FW16 FW15, x[15]

static int do_reply(gasnet_token_t t, int cat, int n, void *buf, size_t nbytes, void *dest);

#define HANDLERS(n)                                                                    \
    static void rqs##n(gasnet_token_t t P##n)                                         \
    {                                                                                  \
        gasnet_handlerarg_t a[] = {L##n};                                              \
        unsigned src = source(t);                                                      \
        check_args("RequestShort", n, a, src, 0);                                     \
        GT_SAFE(do_reply(t, 0, n, NULL, 0, NULL));                                     \
    }                                                                                  \
    static void rqm##n(gasnet_token_t t, void *buf, size_t nbytes P##n)               \
    {                                                                                  \
        gasnet_handlerarg_t a[] = {L##n};                                              \
        unsigned src = source(t);                                                      \
        check_args("RequestMedium", n, a, src, 0);                                    \
        check_payload("RequestMedium", n, buf, nbytes, size_of(n, gasnet_AMMaxMedium()), src); \
        GT_SAFE(do_reply(t, 1, n, buf, nbytes, NULL));                                 \
    }                                                                                  \
    static void rql##n(gasnet_token_t t, void *buf, size_t nbytes P##n)               \
    {                                                                                  \
        gasnet_handlerarg_t a[] = {L##n};                                              \
        unsigned src = source(t);                                                      \
        check_args("RequestLong", n, a, src, 0);                                      \
        GT_CHECK((uint8_t *)buf == (uint8_t *)segs[gasnet_mynode()].addr + src * SLOT, \
                 "RequestLong%d from %u landed at %p, expected %p", n, src, buf,         \
                 (void *)((uint8_t *)segs[gasnet_mynode()].addr + src * SLOT));          \
        check_payload("RequestLong", n, myseg + src * SLOT, nbytes, size_of(n, SLOT), src); \
        GT_SAFE(do_reply(t, 2, n, myseg + src * SLOT, nbytes,                          \
                         (uint8_t *)segs[src].addr + (gasnet_nodes() + gasnet_mynode()) * SLOT)); \
    }                                                                                  \
    static void rps##n(gasnet_token_t t P##n)                                         \
    {                                                                                  \
        gasnet_handlerarg_t a[] = {L##n};                                              \
        check_args("ReplyShort", n, a, source(t), 1);                                  \
        atomic_fetch_add(&replies, 1);                                                 \
    }                                                                                  \
    static void rpm##n(gasnet_token_t t, void *buf, size_t nbytes P##n)               \
    {                                                                                  \
        gasnet_handlerarg_t a[] = {L##n};                                              \
        unsigned src = source(t);                                                      \
        check_args("ReplyMedium", n, a, src, 1);                                       \
        /* the bytes are the request's: made by this node */                           \
        check_payload("ReplyMedium", n, buf, nbytes, size_of(n, gasnet_AMMaxMedium()), \
                      gasnet_mynode());                                                 \
        atomic_fetch_add(&replies, 1);                                                 \
    }                                                                                  \
    static void rpl##n(gasnet_token_t t, void *buf, size_t nbytes P##n)               \
    {                                                                                  \
        gasnet_handlerarg_t a[] = {L##n};                                              \
        unsigned src = source(t);                                                      \
        check_args("ReplyLong", n, a, src, 1);                                         \
        GT_CHECK((uint8_t *)buf == (uint8_t *)segs[gasnet_mynode()].addr +              \
                 (gasnet_nodes() + src) * SLOT, "ReplyLong%d landed at %p", n, buf);    \
        check_payload("ReplyLong", n, myseg + (gasnet_nodes() + src) * SLOT, nbytes,    \
                      size_of(n, SLOT), gasnet_mynode());                               \
        atomic_fetch_add(&replies, 1);                                                 \
    }
#define EACH(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) \
    X(14) X(15) X(16)
EACH(HANDLERS)

static int do_reply(gasnet_token_t t, int cat, int n, void *buf, size_t nbytes, void *dest)
{
    gasnet_handlerarg_t x[MAXN];
    gasnet_handler_t h = idx[1][cat][n];
    fill_args(x, n, gasnet_mynode(), 1); /* the reply's source is this node */
    switch (n) {
#define RCASE(k)                                                                         \
    case k:                                                                              \
        if (cat == 0) return CALL(gasnet_AMReplyShort##k, t, h FW##k);                         \
        if (cat == 1) return CALL(gasnet_AMReplyMedium##k, t, h, buf, nbytes FW##k);           \
        return CALL(gasnet_AMReplyLong##k, t, h, buf, nbytes, dest FW##k);
        EACH(RCASE)
    }
    return GASNET_ERR_BAD_ARG;
}

static int do_request(unsigned dest, int cat, int async, int n, void *buf, size_t nbytes, void *daddr)
{
    gasnet_handlerarg_t x[MAXN];
    gasnet_handler_t h = idx[0][cat][n];
    fill_args(x, n, gasnet_mynode(), 0);
    switch (n) {
#define QCASE(k)                                                                          \
    case k:                                                                               \
        if (cat == 0) return CALL(gasnet_AMRequestShort##k, dest, h FW##k);                     \
        if (cat == 1) return CALL(gasnet_AMRequestMedium##k, dest, h, buf, nbytes FW##k);       \
        if (async) return CALL(gasnet_AMRequestLongAsync##k, dest, h, buf, nbytes, daddr FW##k); \
        return CALL(gasnet_AMRequestLong##k, dest, h, buf, nbytes, daddr FW##k);
        EACH(QCASE)
    }
    return GASNET_ERR_BAD_ARG;
}

#ifdef GASNET_PAR
/* Threads at once: Short2 requests carrying (thread, sequence), replies
 * counted per thread. */
#define NTHREADS 3
#define PER_THREAD 300
static atomic_int thr_replies[NTHREADS];
static gasnet_handler_t h_tq, h_tp;
static void tq(gasnet_token_t t, gasnet_handlerarg_t th, gasnet_handlerarg_t seq)
{
    GT_SAFE(gasnet_AMReplyShort2(t, h_tp, th, seq + 1));
}
static void tp(gasnet_token_t t, gasnet_handlerarg_t th, gasnet_handlerarg_t seq)
{
    (void)t;
    GT_CHECK(th >= 0 && th < NTHREADS && seq >= 1, "thread reply (%d, %d)", (int)th, (int)seq);
    if (th >= 0 && th < NTHREADS)
        atomic_fetch_add(&thr_replies[th], 1);
}
static void *thread_main(void *arg)
{
    int th = (int)(intptr_t)arg;
    for (int i = 0; i < PER_THREAD; i++)
        GT_SAFE(gasnet_AMRequestShort2((gasnet_node_t)((gasnet_mynode() + (unsigned)i) % gasnet_nodes()),
                                       h_tq, th, i));
    GASNET_BLOCKUNTIL(atomic_load(&thr_replies[th]) == PER_THREAD);
    return NULL;
}
#endif

int main(int argc, char **argv)
{
    enum { NH = 2 * NCAT * (MAXN + 1) };
    gasnet_handlerentry_t tab[NH + 2];
    gasnetc_handler_fn_t fns[2][NCAT][MAXN + 1] = {
        {{
#define F(k) (gasnetc_handler_fn_t)rqs##k,
              EACH(F)
#undef F
          }, {
#define F(k) (gasnetc_handler_fn_t)rqm##k,
              EACH(F)
#undef F
          }, {
#define F(k) (gasnetc_handler_fn_t)rql##k,
              EACH(F)
#undef F
          }},
        {{
#define F(k) (gasnetc_handler_fn_t)rps##k,
              EACH(F)
#undef F
          }, {
#define F(k) (gasnetc_handler_fn_t)rpm##k,
              EACH(F)
#undef F
          }, {
#define F(k) (gasnetc_handler_fn_t)rpl##k,
              EACH(F)
#undef F
          }}};
    int k = 0;

    GT_SAFE(gasnet_init(&argc, &argv));
    /* The Short handlers at fixed indices 200.., the others chosen. */
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < NCAT; c++)
            for (int n = 0; n <= MAXN; n++, k++) {
                tab[k].index = c == 0 ? (gasnet_handler_t)(200 + r * (MAXN + 1) + n) : 0;
                tab[k].fnptr = fns[r][c][n];
            }
    int nh = k;
#ifdef GASNET_PAR
    tab[nh].index = 0; tab[nh].fnptr = (gasnetc_handler_fn_t)tq;
    tab[nh + 1].index = 0; tab[nh + 1].fnptr = (gasnetc_handler_fn_t)tp;
    nh += 2;
#endif
    unsigned nodes = gasnet_nodes(), me = gasnet_mynode();
    uintptr_t segsz = (2u * nodes * SLOT + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
    GT_SAFE(gasnet_attach(tab, nh, segsz, 0));
    unsigned char seen[256] = {0};
    k = 0;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < NCAT; c++)
            for (int n = 0; n <= MAXN; n++, k++) {
                unsigned h = tab[k].index;
                GT_CHECK(h >= 128 && h <= 255 && !seen[h], "entry %d got index %u (seen %d)", k, h,
                         seen[h]);
                if (c == 0)
                    GT_CHECK(h == 200u + (unsigned)(r * (MAXN + 1) + n), "a fixed index moved: %u", h);
                seen[h] = 1;
                idx[r][c][n] = (gasnet_handler_t)h;
            }
#ifdef GASNET_PAR
    h_tq = tab[nh - 2].index;
    h_tp = tab[nh - 1].index;
#endif
    segs = calloc(nodes, sizeof *segs);
    GT_SAFE(gasnet_getSegmentInfo(segs, (int)nodes));
    myseg = segs[me].addr; /* my own view of my segment */
    GT_CHECK(segs[me].size >= segsz, "segment of %zu bytes, asked %zu", (size_t)segs[me].size,
             (size_t)segsz);
    GT_CHECK(gasnet_AMMaxArgs() >= 16 && gasnet_AMMaxMedium() >= 512 &&
             gasnet_AMMaxLongRequest() >= 512 && gasnet_AMMaxLongReply() >= 512,
             "AM limits %zu %zu %zu %zu", gasnet_AMMaxArgs(), gasnet_AMMaxMedium(),
             gasnet_AMMaxLongRequest(), gasnet_AMMaxLongReply());
    size_t maxm = gasnet_AMMaxMedium();
    uint8_t *src = malloc(maxm > SLOT ? maxm : SLOT);
    reply_buf = src;
    gt_barrier();

    int want = 0;
    for (unsigned d0 = 0; d0 < nodes; d0++) {
        unsigned d = (me + d0) % nodes;
        for (int c = 0; c < 4; c++)
            for (int n = 0; n <= MAXN; n++) {
                int cat = c < 3 ? c : 2;
                size_t nb = cat == 0 ? 0 : size_of(n, cat == 1 ? maxm : SLOT);
                for (size_t j = 0; j < nb; j++)
                    src[j] = byte_of(j, n, me);
                GT_SAFE(do_request(d, cat, c == 3, n, src, nb,
                                   (uint8_t *)segs[d].addr + me * SLOT));
                want++;
                /* one message in flight: a Long's landing place is reused */
                GASNET_BLOCKUNTIL(atomic_load(&replies) == want);
            }
    }
#ifdef GASNET_PAR
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&th[i], NULL, thread_main, (void *)(intptr_t)i);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
#endif
    gt_barrier();
    if (me == 0)
        printf("checked %d round trips per node: every form, 0..16 arguments\n", want);
    gt_end("am");
    return 0;
}
