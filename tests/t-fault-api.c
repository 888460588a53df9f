/*
 * t-fault-api: bad input to the public API, in every state of a context.
 * Before init (NULL, a pointer to an unreadable page, a pointer to garbage),
 * double init, unknown flags, calls that need attach, attach twice, ranks
 * and supernode ranks out of range, NULL out-pointers, translate/put/get
 * outside a segment and with lengths that would wrap (SIZE_MAX), AM sends
 * with every kind of bad argument, IMMEDIATE on a full queue, and calls with
 * the pointer of a finalized context. Each returns its exact negative code and
 * a sentence, and changes nothing: a good message after the bad calls still
 * arrives, and every message is counted exactly once. (t-am-errors covers
 * handler registration and receiver-side errors; t-crossmap in-range access.)
 */
#include "amtest.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MSG(s)                                                                       \
    do {                                                                             \
        if (strstr(pshm_last_error(), s) == NULL) {                                  \
            printf("FAIL line %d: message \"%s\" lacks \"%s\"\n", __LINE__,          \
                   pshm_last_error(), s);                                            \
            exit(T_FAIL);                                                            \
        }                                                                            \
    } while (0)

enum { H_COUNT = 7, H_ANY = 8 };
static volatile long got;      /* good messages handled here */
static int checks;
#define BAD(expr, err, words) do { CHECK_ERR(expr, err); MSG(words); checks++; } while (0)

static void h_count(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)b, (void)n, (void)a, (void)na;
    got++;
}

/* Calls with something that is not a live context: never dereferenced. */
static void not_a_context(pshm_ctx_t *bad, const char *words)
{
    pshm_seginfo_t si;
    void *p;
    uint64_t u;
    uint32_t a = 0;
    char c = 0;
    pshm_handler_entry_t e = { H_COUNT, h_count, 0 };

    BAD(pshm_rank(bad), -EINVAL, words);
    BAD(pshm_size(bad), -EINVAL, words);
    BAD(pshm_node_rank(bad), -EINVAL, words);
    BAD(pshm_node_size(bad), -EINVAL, words);
    BAD(pshm_host_count(bad), -EINVAL, words);
    BAD(pshm_node_rank_of(bad, 0), -EINVAL, words);
    BAD(pshm_is_local(bad, 0), -EINVAL, words);
    BAD(pshm_node_member(bad, 0), -EINVAL, words);
    BAD(pshm_cpu_sharers(bad, NULL), -EINVAL, words);
    BAD(pshm_attach(bad, 4096), -EINVAL, words);
    BAD(pshm_segment_info(bad, 0, &si), -EINVAL, words);
    BAD(pshm_translate(bad, 0, &c, &p), -EINVAL, words);
    BAD(pshm_put(bad, 0, &c, &c, 1), -EINVAL, words);
    BAD(pshm_get(bad, 0, &c, &c, 1), -EINVAL, words);
    BAD(pshm_am_register(bad, &e, 1), -EINVAL, words);
    BAD(pshm_am_memory(bad, &u), -EINVAL, words);
    BAD(pshm_node_barrier(bad), -EINVAL, words);
    BAD(pshm_barrier(bad), -EINVAL, words);
    BAD(pshm_finalize(bad), -EINVAL, words);
    pshm_set_user_data(bad, &c);
    CHECK(pshm_get_user_data(bad) == NULL);
    (void)a;
}

/* AM calls read the context's state first (hot path), so they get readable
 * memory that is not an attached context: zeros and garbage. */
static void am_not_a_context(pshm_ctx_t *bad, const char *words)
{
    uint32_t a = 0;
    char c = 0;

    BAD(pshm_poll(bad), -EINVAL, words);
    BAD(pshm_am_request_short(bad, 0, H_COUNT, 0, 0, NULL), -EINVAL, words);
    BAD(pshm_am_request_medium(bad, 0, H_COUNT, &c, 1, 0, 1, &a), -EINVAL, words);
    BAD(pshm_am_request_long(bad, 0, H_COUNT, &c, 1, &c, 0, 0, NULL), -EINVAL, words);
    BAD(pshm_wait_until(bad, am_flag_set, &c), -EINVAL, words);
}

static void before_init(void)
{
    static unsigned char garbage[1 << 15];
    pshm_ctx_t *unreadable;
    pshm_ctx_t *ctx = (pshm_ctx_t *)&garbage;   /* anything but NULL */
    pshm_init_attr_t attr = { 0x6, NULL };

    unreadable = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(unreadable != MAP_FAILED);
    not_a_context(NULL, "context is NULL");
    not_a_context(unreadable, "not a live context");
    memset(garbage, 0xa5, sizeof garbage);
    not_a_context((pshm_ctx_t *)garbage, "not a live context");
    am_not_a_context(NULL, "context is NULL");
    am_not_a_context((pshm_ctx_t *)garbage, "not a live context");
    memset(garbage, 0, sizeof garbage);
    am_not_a_context((pshm_ctx_t *)garbage, "not a live context");
    BAD(pshm_init(NULL, NULL), -EINVAL, "NULL");
    BAD(pshm_init(&ctx, &attr), -EINVAL, "unknown flags 0x6");
    CHECK(ctx == NULL);   /* *out is cleared on failure */
    munmap(unreadable, 4096);
    printf("ok: before init: NULL, unreadable and garbage contexts refused (%d checks)\n",
           checks);
}

/* Init, double init, calls that need attach, attach twice. */
static pshm_ctx_t *init_attach(void)
{
    pshm_ctx_t *ctx, *second = (pshm_ctx_t *)1;
    pshm_seginfo_t si;
    pshm_handler_entry_t tab[] = { { H_COUNT, h_count, 0 }, { H_ANY, h_count, PSHM_AM_ANY_NARGS } };
    char c = 0;
    int n0 = checks;

    CHECK_OK(pshm_init(&ctx, NULL));
    BAD(pshm_init(&second, NULL), -EALREADY, "already has a context");
    CHECK(second == NULL);
    CHECK(pshm_size(ctx) == 2 && pshm_rank(ctx) >= 0);   /* the first still works */
    BAD(pshm_segment_info(ctx, 0, &si), -EINVAL, "pshm_attach first");
    BAD(pshm_put(ctx, 0, &c, &c, 1), -EINVAL, "pshm_attach first");
    BAD(pshm_poll(ctx), -EINVAL, "pshm_attach first");
    BAD(pshm_am_request_short(ctx, 0, H_COUNT, 0, 0, NULL), -EINVAL, "pshm_attach first");
    BAD(pshm_node_barrier(ctx), -EINVAL, "pshm_attach first");
    BAD(pshm_barrier(ctx), -EINVAL, "pshm_attach first");
    BAD(pshm_wait_until(ctx, am_flag_set, &c), -EINVAL, "pshm_attach first");
    BAD(pshm_node_member(ctx, -1), -EINVAL, "out of range");
    BAD(pshm_node_member(ctx, pshm_node_size(ctx)), -EINVAL, "out of range");
    BAD(pshm_node_member(ctx, INT32_MIN), -EINVAL, "out of range");
    BAD(pshm_node_rank_of(ctx, -1), -EINVAL, "out of range");
    BAD(pshm_node_rank_of(ctx, 2), -EINVAL, "out of range");
    BAD(pshm_is_local(ctx, -1), -EINVAL, "out of range");
    BAD(pshm_is_local(ctx, 2), -EINVAL, "out of range");
    CHECK_OK(pshm_am_register(ctx, tab, 2));
    CHECK_OK(pshm_attach(ctx, 1 << 16));
    BAD(pshm_attach(ctx, 1 << 16), -EALREADY, "already attached");
    CHECK(pshm_node_member(ctx, 0) == 0);
    printf("ok: double init, calls before attach, attach twice refused (%d checks)\n",
           checks - n0);
    return ctx;
}

/* One-sided access outside segments, and NULL out-pointers. */
static void bad_access(pshm_ctx_t *ctx, int peer)
{
    pshm_seginfo_t si;
    char *base, c = 0;
    void *p = &c;
    uint64_t u;
    int n0 = checks;

    CHECK_OK(pshm_segment_info(ctx, peer, &si));
    base = (char *)si.owner_base;
    BAD(pshm_segment_info(ctx, peer, NULL), -EINVAL, "info is NULL");
    BAD(pshm_segment_info(ctx, -1, &si), -EINVAL, "out of range");
    BAD(pshm_segment_info(ctx, 2, &si), -EINVAL, "out of range");
    BAD(pshm_translate(ctx, peer, base, NULL), -EINVAL, "local_addr is NULL");
    BAD(pshm_translate(ctx, -1, base, &p), -EINVAL, "out of range");
    BAD(pshm_translate(ctx, peer, NULL, &p), -EFAULT, "outside the segment");
    BAD(pshm_translate(ctx, peer, (void *)UINTPTR_MAX, &p), -EFAULT, "outside the segment");
    CHECK(p == &c);   /* untouched on failure */
    BAD(pshm_put(ctx, peer, base, &c, SIZE_MAX), -EFAULT, "outside the segment");
    BAD(pshm_put(ctx, peer, base + 1, &c, si.size), -EFAULT, "outside the segment");
    BAD(pshm_put(ctx, peer, base + si.size, &c, 1), -EFAULT, "outside the segment");
    BAD(pshm_put(ctx, peer, (void *)(UINTPTR_MAX - 7), &c, 16), -EFAULT, "outside the segment");
    BAD(pshm_put(ctx, peer, base, NULL, 8), -EINVAL, "src is NULL");
    BAD(pshm_put(ctx, 2, base, &c, 1), -EINVAL, "out of range");
    BAD(pshm_get(ctx, peer, &c, base, SIZE_MAX), -EFAULT, "outside the segment");
    BAD(pshm_get(ctx, peer, &c, base - 1, 1), -EFAULT, "outside the segment");
    BAD(pshm_get(ctx, peer, NULL, base, 8), -EINVAL, "dst is NULL");
    BAD(pshm_get(ctx, -1, &c, base, 1), -EINVAL, "out of range");
    /* The last byte is in; zero bytes at the end are too. */
    CHECK_OK(pshm_get(ctx, peer, &c, base + si.size - 1, 1));
    CHECK_OK(pshm_put(ctx, peer, base + si.size, &c, 0));
    BAD(pshm_am_memory(ctx, NULL), -EINVAL, "NULL");
    CHECK_OK(pshm_am_memory(ctx, &u));
    printf("ok: translate/put/get outside the segment, wrapping lengths, NULL pointers "
           "refused (%d checks)\n", checks - n0);
}

/* Bad sends; each followed by a good one that must arrive (counted later). */
static long bad_sends(pshm_ctx_t *ctx, int peer)
{
    static uint8_t big[1 << 20];
    uint32_t a[17] = { 0 };
    pshm_seginfo_t si;
    char *base;
    long sent = 0;
    int n0 = checks;
#define GOOD() do { CHECK_OK(pshm_am_request_short(ctx, peer, H_COUNT, 0, 0, NULL)); sent++; } while (0)

    CHECK_OK(pshm_segment_info(ctx, peer, &si));
    base = (char *)si.owner_base;
    CHECK(pshm_am_max_medium(ctx) >= 65536 && pshm_am_max_medium(ctx) < sizeof big);
    BAD(pshm_am_request_short(ctx, peer, 0, 0, 0, NULL), -EINVAL, "outside 1..255"); GOOD();
    BAD(pshm_am_request_short(ctx, peer, 256, 0, 0, NULL), -EINVAL, "outside 1..255"); GOOD();
    BAD(pshm_am_request_short(ctx, peer, 200, 0, 0, NULL), -EINVAL, "not registered"); GOOD();
    BAD(pshm_am_request_short(ctx, peer, H_ANY, 0, 17, a), -EINVAL, "at most 16"); GOOD();
    BAD(pshm_am_request_short(ctx, peer, H_ANY, 0, 2, NULL), -EINVAL, "args pointer is NULL"); GOOD();
    BAD(pshm_am_request_short(ctx, -1, H_COUNT, 0, 0, NULL), -EINVAL, "outside 0..1"); GOOD();
    BAD(pshm_am_request_short(ctx, 2, H_COUNT, 0, 0, NULL), -EINVAL, "outside 0..1"); GOOD();
    BAD(pshm_am_request_short(ctx, peer, H_COUNT, 0x80000000u, 0, NULL), -EINVAL, "unknown flags"); GOOD();
    BAD(pshm_am_request_medium(ctx, peer, H_ANY, NULL, 1, 0, 0, NULL), -EINVAL, "buffer is NULL"); GOOD();
    BAD(pshm_am_request_medium(ctx, peer, H_ANY, big, pshm_am_max_medium(ctx) + 1, 0, 0, NULL),
        -EINVAL, "Medium maximum"); GOOD();
    BAD(pshm_am_request_medium(ctx, peer, H_ANY, big, SIZE_MAX, 0, 0, NULL), -EINVAL,
        "Medium maximum"); GOOD();
    BAD(pshm_am_request_long(ctx, peer, H_ANY, big, 8, NULL, 0, 0, NULL), -EFAULT,
        "do not lie in"); GOOD();
    BAD(pshm_am_request_long(ctx, peer, H_ANY, big, 8, base + si.size - 4, 0, 0, NULL), -EFAULT,
        "do not lie in"); GOOD();
    BAD(pshm_am_request_long(ctx, peer, H_ANY, big, SIZE_MAX, base, 0, 0, NULL), -EFAULT,
        "do not lie in"); GOOD();
    BAD(pshm_am_request_long(ctx, peer, H_ANY, big, 16, (void *)(UINTPTR_MAX - 7), 0, 0, NULL),
        -EFAULT, "do not lie in"); GOOD();
    BAD(pshm_am_request_long(ctx, peer, H_ANY, NULL, 8, base, 0, 0, NULL), -EINVAL,
        "buffer is NULL"); GOOD();
    /* A Long into my own segment is refused the same way. */
    CHECK_OK(pshm_segment_info(ctx, pshm_rank(ctx), &si));
    BAD(pshm_am_request_long(ctx, pshm_rank(ctx), H_ANY, big, 8,
                             (char *)si.owner_base + si.size, 0, 0, NULL), -EFAULT,
        "do not lie in");
    BAD(pshm_am_request_short(ctx, peer, H_COUNT, 0, 1, a), -EINVAL, "takes 0 arguments"); GOOD();
    printf("ok: bad handler index, unregistered, nargs 17, NULL args/buffer, Medium max+1, "
           "Long outside the target, bad ranks and flags refused (%d checks)\n", checks - n0);
    return sent;
#undef GOOD
}

static int flag_set(void *arg) { return *(volatile int *)arg != 0; }

/* Rank 0 fills its queue to rank 1 with IMMEDIATE while rank 1 does not
 * poll: -EAGAIN and nothing enqueued; then rank 1 drains everything. Rank
 * 0 starts once rank 1 says it stopped polling (flags[1] of rank 0's
 * segment): rank 1 may still be in the barrier before, polling, after
 * rank 0 left it, and would make room between two -EAGAIN. */
static long immediate_full(pshm_ctx_t *ctx, int me, volatile int *flags)
{
    volatile int *release = &flags[0];
    long sent = 0;
    int rc = 0;

    if (me == 0) {
        CHECK_OK(pshm_wait_until(ctx, flag_set, (void *)&flags[1]));
        for (long i = 0; i < 1000000 && rc == 0; i++)
            if ((rc = pshm_am_request_short(ctx, 1, H_COUNT, PSHM_IMMEDIATE, 0, NULL)) == 0)
                sent++;
        CHECK_ERR(rc, -EAGAIN);
        MSG("full");
        CHECK_ERR(pshm_am_request_short(ctx, 1, H_COUNT, PSHM_IMMEDIATE, 0, NULL), -EAGAIN);
        CHECK(sent > 0);
        int one = 1;
        pshm_seginfo_t si;
        CHECK_OK(pshm_segment_info(ctx, 1, &si));
        CHECK_OK(pshm_put(ctx, 1, (void *)si.owner_base, &one, sizeof one));
        printf("ok: IMMEDIATE on a full queue: -EAGAIN after %ld messages: %s\n", sent,
               pshm_last_error());
    } else {
        int one = 1;
        pshm_seginfo_t si;
        CHECK_OK(pshm_segment_info(ctx, 0, &si));
        CHECK_OK(pshm_put(ctx, 0, (int *)si.owner_base + 1, &one, sizeof one));
        for (long n = 0; !*release && n < 20000; n++)
            usleep(1000);   /* not polling: the queue from rank 0 fills */
        CHECK(*release);
    }
    return sent;
}

static int counts_reached(void *arg)
{
    return got >= *(long *)arg;
}

int main(int argc, char **argv)
{
    int st;

    if (am_no_peers())
        return T_SKIP;
    if ((st = th_launch(argc, argv, 2)) >= 0)
        return st;
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "8", 1);   /* read at init */
    before_init();
    pshm_ctx_t *ctx = init_attach();
    int me = pshm_rank(ctx), peer = 1 - me;
    pshm_seginfo_t mine;
    long sent, expect[2];

    CHECK_OK(pshm_segment_info(ctx, me, &mine));
    memset(mine.local_base, 0, mine.size);
    CHECK_OK(pshm_barrier(ctx));
    bad_access(ctx, peer);
    sent = bad_sends(ctx, peer);
    CHECK_OK(pshm_barrier(ctx));     /* polls: the good messages arrive */
    sent += immediate_full(ctx, me, (volatile int *)mine.local_base);
    /* Publish how many I sent at offset 64 of the peer's segment. */
    {
        pshm_seginfo_t ps;
        CHECK_OK(pshm_segment_info(ctx, peer, &ps));
        CHECK_OK(pshm_put(ctx, peer, (char *)ps.owner_base + 64, &sent, sizeof sent));
    }
    CHECK_OK(pshm_barrier(ctx));
    memcpy(&expect[0], (char *)mine.local_base + 64, sizeof expect[0]);
    CHECK_OK(pshm_wait_until(ctx, counts_reached, &expect[0]));
    CHECK_OK(pshm_barrier(ctx));
    if (got != expect[0]) {
        printf("FAIL rank %d: %ld messages handled, %ld sent to it\n", me, (long)got, expect[0]);
        return T_FAIL;
    }
    printf("ok: rank %d: the %ld good messages sent after bad calls all handled once\n", me,
           expect[0]);
    CHECK_OK(pshm_finalize(ctx));

    /* The finalized context's pointer is stale: refused, never used. */
    int n0 = checks;
    not_a_context(ctx, "not a live context");
    BAD(pshm_poll(ctx), -EINVAL, "not a live context");
    BAD(pshm_am_request_short(ctx, peer, H_COUNT, 0, 0, NULL), -EINVAL, "not a live context");
    printf("ok: after finalize: the stale context refused (%d checks); %d bad calls in all\n",
           checks - n0, checks);
    return T_PASS;
}
