/*
 * hello.c - a complete pshm program: every process writes a greeting into its
 * right neighbour's segment with a Long active message, the neighbour's
 * handler prints it and replies, and the sender waits for that reply.
 *
 *   cc -I pshm docs/examples/hello.c libpshm.a -lrt -lpthread -o hello
 *   tools/pshmrun -n 4 ./hello
 */
#include <pshm.h>

#include <stdio.h>
#include <string.h>

enum { H_HELLO = 1, H_ACK = 2 };

static int acked; /* set by the reply handler, read by the wait condition */

/* Runs in the neighbour: buf is where the greeting landed in its segment. */
static void on_hello(pshm_token_t *token, void *buf, size_t nbytes, const uint32_t *args,
                     unsigned nargs)
{
    pshm_ctx_t *ctx = pshm_token_ctx(token);
    (void)nargs;
    printf("rank %d: \"%.*s\" (from rank %u)\n", pshm_rank(ctx), (int)nbytes, (char *)buf,
           (unsigned)args[0]);
    fflush(stdout);
    pshm_am_reply_short(token, H_ACK, 0, 0, NULL);
}

static void on_ack(pshm_token_t *token, void *buf, size_t nbytes, const uint32_t *args,
                   unsigned nargs)
{
    (void)token, (void)buf, (void)nbytes, (void)args, (void)nargs;
    acked = 1;
}

static int is_acked(void *arg)
{
    (void)arg;
    return acked;
}

/* On failure: say why, and end the whole job. */
static void check(pshm_ctx_t *ctx, int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "hello: %s: %s: %s\n", what, pshm_strerror(rc), pshm_last_error());
        pshm_abort(ctx, 1);
    }
}

int main(void)
{
    static const pshm_handler_entry_t handlers[] = {
        {H_HELLO, on_hello, 1},
        {H_ACK, on_ack, 0},
    };
    pshm_ctx_t *ctx = NULL;
    pshm_seginfo_t si;
    char msg[64];
    int me, dest;

    check(NULL, pshm_init(&ctx, NULL), "pshm_init");
    check(ctx, pshm_am_register(ctx, handlers, 2), "pshm_am_register");
    check(ctx, pshm_attach(ctx, 1 << 20), "pshm_attach");

    me = pshm_rank(ctx);
    dest = (me + 1) % pshm_size(ctx);
    if (pshm_is_local(ctx, dest) == 1) {
        uint32_t arg = (uint32_t)me;
        int n = snprintf(msg, sizeof msg, "hello from rank %d", me);
        /* The payload lands at the start of dest's segment, in dest's view. */
        check(ctx, pshm_segment_info(ctx, dest, &si), "pshm_segment_info");
        check(ctx, pshm_am_request_long(ctx, dest, H_HELLO, msg, (size_t)n,
                                        (void *)si.owner_base, 0, 1, &arg),
              "pshm_am_request_long");
        check(ctx, pshm_wait_until(ctx, is_acked, NULL), "pshm_wait_until");
    } else {
        printf("rank %d: rank %d is not on this host's shared memory\n", me, dest);
    }
    check(ctx, pshm_barrier(ctx), "pshm_barrier");
    check(ctx, pshm_finalize(ctx), "pshm_finalize");
    return 0;
}
