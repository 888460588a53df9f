/*
 * amtest.h - setup and payload patterns shared by the t-am-* tests.
 */
#ifndef PSHM_AMTEST_H
#define PSHM_AMTEST_H

#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* With --disable-pshm every process is a supernode of one, so a test of
 * traffic between processes has no peer there: says so and returns 1. */
static inline int am_no_peers(void)
{
    if (strstr(pshm_version(), "(none backend)") == NULL)
        return 0;
    printf("skip: built with --disable-pshm, no two processes share memory\n");
    return 1;
}

/* pshm_init + pshm_attach, failing the test on error. */
static inline pshm_ctx_t *am_setup(unsigned flags, size_t segsize)
{
    pshm_init_attr_t attr = {flags, NULL};
    pshm_ctx_t *ctx = NULL;
    CHECK_OK(pshm_init(&ctx, &attr));
    CHECK_OK(pshm_attach(ctx, segsize));
    return ctx;
}

/* In a job of two: my segment, the peer's in my view and in its own;
 * returns my rank. */
static inline int am_pair(pshm_ctx_t *ctx, char **mine, char **peer, char **peer_owner)
{
    pshm_seginfo_t si;
    int me = pshm_rank(ctx);
    CHECK_OK(pshm_segment_info(ctx, me, &si));
    *mine = si.local_base;
    CHECK_OK(pshm_segment_info(ctx, 1 - me, &si));
    *peer = si.local_base;
    *peer_owner = (char *)si.owner_base;
    return me;
}

/* Byte i of the pattern of `seed`. */
static inline uint8_t am_byte(uint32_t seed, size_t i)
{
    uint32_t x = seed * 2654435761u + (uint32_t)i * 40503u;
    return (uint8_t)(x ^ x >> 13 ^ i >> 8);
}
static inline void am_fill(void *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) ((uint8_t *)p)[i] = am_byte(seed, i);
}
/* Index of the first wrong byte, or -1. */
static inline long am_diff(const void *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (((const uint8_t *)p)[i] != am_byte(seed, i)) return (long)i;
    return -1;
}

static inline int am_flag_set(void *arg) { return *(volatile int *)arg != 0; }
static inline int am_count_reached(void *arg)
{
    const volatile long *c = arg;
    return c[0] >= c[1];
}

/* Whether a poll that met a corrupt message (`what`) returned rc and ran
 * `ran` handlers as it must: EPROTO, none, a message saying it dropped
 * it. Says what went wrong otherwise. */
static inline int am_dropped_ok(int rc, long ran, const char *what)
{
    if (rc != -EPROTO || ran != 0) {
        fprintf(stderr, "%s: poll returned %d (expected %d), %ld handlers ran\n", what, rc,
                -EPROTO, ran);
        return 0;
    }
    if (!strstr(pshm_last_error(), "dropped")) {
        fprintf(stderr, "%s: message \"%s\" does not say the message was dropped\n", what,
                pshm_last_error());
        return 0;
    }
    return 1;
}

#endif
