/*
 * t-am-prepare-line: a prepare writes nothing into the queue's line that
 * will carry the message, which the receiver may be polling; the commit
 * writes it once. (A store into that line at the prepare took the line
 * from a polling receiver, which read it back while the payload was
 * built, and the commit had to take it again: one more transfer of the
 * line on every prepared message.)
 *
 * Rank 0 prepares, for each kind, a request to rank 1, builds the payload
 * in the buffer handed out, and compares the queue's next line before the
 * prepare and before the commit: a Medium in a chunk (4 KiB, and 16 args),
 * a Long with its args in the slot and one with 16 args in a chunk, and a
 * Medium in the slot (whose payload goes in that line, so only the bytes
 * outside the buffer are compared). Rank 1 checks each message byte for
 * byte; each runs once.
 */
#include "amtest.h"
#include "amqueue/amq_internal.h"

#include <stdio.h>
#include <string.h>

enum { H_MED = 1, H_LONG = 2, H_MED16 = 3, H_LONG16 = 4, H_END = 5 };
static long nrun, bad, ended;
static char *lbase; /* my segment, owner view */

/* Where the Long of seed lands: its own 4 KiB of the segment (a Long's
 * destination is not reused while it may still be in flight). */
static size_t long_off(uint32_t seed) { return 4096 * (1 + 2 * (seed / 10) + (seed % 10 == 4)); }

/* args[0]: the seed of the payload (a Long's lands at the segment's start) */
static void on_msg(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t;
    for (unsigned i = 1; i < na; i++)
        if (a[i] != a[0] + i) bad++;
    if (am_diff(p, n, a[0]) >= 0) bad++;
    nrun++;
}
static void on_long(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    if (p != lbase + long_off(a[0])) bad++;
    on_msg(t, p, n, a, na);
}
static void on_end(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)p, (void)n, (void)a, (void)na;
    ended = 1;
}

/* The line the next request to rank dest goes in. */
static unsigned char *next_line(pshm_ctx_t *ctx, int dest)
{
    return (unsigned char *)((uintptr_t)ctx->req_sq[dest]->slot & ~(uintptr_t)(AMQ_LINE - 1));
}

/* One prepared request of `kind` to rank 1: the line compared around the
 * prepare (outside [skip_from, skip_to) of it, where a Medium in the slot
 * puts its payload), then committed. */
static void one(pshm_ctx_t *ctx, const char *kind, unsigned h, size_t n, unsigned nargs,
                void *dest_addr, uint32_t seed)
{
    unsigned char before[AMQ_LINE], *line = next_line(ctx, 1);
    uint32_t args[16];
    void *b = NULL;
    size_t room = 0;

    for (unsigned i = 0; i < nargs; i++) args[i] = seed + i;
    memcpy(before, line, AMQ_LINE);
    if (dest_addr)
        CHECK_OK(pshm_am_prepare_request_long(ctx, 1, dest_addr, n, n, 0, nargs, &b, &room));
    else
        CHECK_OK(pshm_am_prepare_request_medium(ctx, 1, n, n, 0, nargs, &b, &room));
    CHECK(room == n && b != NULL);
    am_fill(b, n, seed);
    for (size_t i = 0; i < AMQ_LINE; i++) {
        if (line + i >= (unsigned char *)b && line + i < (unsigned char *)b + n)
            continue; /* the payload, in the slot */
        if (line[i] != before[i]) {
            printf("FAIL: %s: the prepare wrote byte %zu of the message's line "
                   "(0x%02x, was 0x%02x)\n", kind, i, line[i], before[i]);
            bad++;
            break;
        }
    }
    if (dest_addr)
        CHECK_OK(pshm_am_commit_request_long(ctx, h, n, nargs, args));
    else
        CHECK_OK(pshm_am_commit_request_medium(ctx, h, n, nargs, args));
    CHECK(memcmp(line, before, AMQ_LINE) != 0); /* the commit wrote it */
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, 2);
    if (st >= 0) return st;
    pshm_ctx_t *ctx = am_setup(0, 4 << 20);
    pshm_handler_entry_t tab[] = {{H_MED, on_msg, 1}, {H_LONG, on_long, 1},
                                  {H_MED16, on_msg, 16}, {H_LONG16, on_long, 16},
                                  {H_END, on_end, 0}};
    CHECK_OK(pshm_am_register(ctx, tab, 5));
    int me = pshm_rank(ctx);
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, me, &si));
    lbase = si.local_base;
    CHECK_OK(pshm_segment_info(ctx, 1 - me, &si));
    char *peer_owner = (char *)si.owner_base;
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0) {
        /* Several laps of each, so that lines written before are met too. */
        for (uint32_t k = 0; k < 200; k++) {
            one(ctx, "Medium of 4096 bytes in a chunk", H_MED, 4096, 1, NULL, 10 * k + 1);
            one(ctx, "Medium of 16 args in a chunk", H_MED16, 100, 16, NULL, 10 * k + 2);
            one(ctx, "Long, args in the slot", H_LONG, 3000, 1, peer_owner + long_off(10 * k + 3),
                10 * k + 3);
            one(ctx, "Long of 16 args in a chunk", H_LONG16, 2000, 16,
                peer_owner + long_off(10 * k + 4), 10 * k + 4);
            one(ctx, "Medium in the slot", H_MED, 24, 1, NULL, 10 * k + 5);
            /* Room: rank 1 serves as it goes. */
            while (pshm_poll(ctx) > 0) {}
        }
        CHECK_OK(pshm_am_request_short(ctx, 1, H_END, 0, 0, NULL));
    } else {
        CHECK_OK(pshm_wait_until(ctx, am_flag_set, (void *)&ended));
        printf("%ld messages run, %ld wrong\n", nrun, bad);
        CHECK(nrun == 1000 && bad == 0);
    }
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0)
        CHECK(bad == 0);
    CHECK_OK(pshm_finalize(ctx));
    if (me == 0)
        printf("ok: 1000 prepared requests of 5 kinds left their line alone until the commit\n");
    return 0;
}
