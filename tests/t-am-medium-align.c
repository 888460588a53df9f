/*
 * t-am-medium-align: where a Medium's payload lands in its pool chunk. The
 * copy into the chunk is memcpy, which on AMD Zen runs 50-70x slower when
 * the destination lies 8 to 24 bytes past the source's offset in a cache
 * line, as 1 to 6 arguments put it; so a payload that takes a chunk lands
 * at the 8-aligned address of its source's line offset, and a prepared one
 * at a line start, whatever the argument count. Checked for every count
 * 0..16 and source offset 0..63, in a job of one (messages to self): the
 * handler's buffer offset, its 8-byte alignment (README.PSHM 8.1), and
 * every byte. Small payloads travel in the slot and are not concerned.
 */
#include "amtest.h"

#include <stdint.h>

enum { H = 1 };
static long got, bad;
static uintptr_t want_off; /* the payload's expected offset in a line, or 64: any 8-aligned */
static uint32_t seed;

static void h(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t, (void)a;
    uintptr_t off = (uintptr_t)buf & 63;
    long d = am_diff(buf, n, seed);
    if (off % 8 != 0 || (want_off < 64 && off != want_off) || d >= 0) {
        if (bad++ < 5)
            printf("FAIL: %u args, %zu bytes: payload at line offset %lu (want %lu), first "
                   "wrong byte %ld\n", na, n, (unsigned long)off, (unsigned long)want_off, d);
    }
    got++;
}

int main(int argc, char **argv)
{
    static unsigned char src[2 * 4096 + 128] __attribute__((aligned(64)));
    uint32_t args[16] = {0};
    pshm_handler_entry_t tab = {H, h, PSHM_AM_ANY_NARGS};
    int rc = th_launch(argc, argv, 1);
    if (rc >= 0)
        return rc;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    long sent = 0;
    for (unsigned na = 0; na <= 16; na++) {
        for (unsigned so = 0; so < 64; so++) {
            size_t n = 4096;
            seed = na * 64 + so;
            am_fill(src + so, n, seed);
            want_off = so & 56;
            CHECK_OK(pshm_am_request_medium(ctx, pshm_rank(ctx), H, src + so, n, 0, na, args));
            CHECK_OK(pshm_poll(ctx));
            sent++;
        }
        /* Prepared: the buffer handed out starts a line. */
        void *b;
        size_t room;
        seed = 5000 + na;
        CHECK_OK(pshm_am_prepare_request_medium(ctx, pshm_rank(ctx), 4096, 4096, 0, na, &b, &room));
        if ((uintptr_t)b % 64 != 0) {
            printf("FAIL: %u args: the prepared buffer lies at line offset %lu\n", na,
                   (unsigned long)((uintptr_t)b % 64));
            bad++;
        }
        am_fill(b, 4096, seed);
        want_off = 0;
        CHECK_OK(pshm_am_commit_request_medium(ctx, H, 4096, na, args));
        CHECK_OK(pshm_poll(ctx));
        sent++;
    }
    CHECK_OK(pshm_finalize(ctx));
    printf("%ld Medium payloads of 4096 bytes, 0..16 args, every source offset: %ld received, "
           "%ld misplaced\n", sent, got, bad);
    return got == sent && bad == 0 ? T_PASS : T_FAIL;
}
