/*
 * t-debug: the checks that only --enable-debug builds make on the fast
 * path: a token kept and used after its handler returned, and a Long whose
 * source overlaps its destination, are refused with -EINVAL and a message;
 * the context still works afterwards. Skipped (77) in release builds.
 */
#include "config.h"
#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>

enum { H_KEEP = 1, H_COUNT = 2 };

static pshm_token_t *kept;
static int counted;

static void h_keep(pshm_token_t *t, void *buf, size_t n, const uint32_t *args, unsigned na)
{
    (void)buf, (void)n, (void)args, (void)na;
    kept = t;
}

static void h_count(pshm_token_t *t, void *buf, size_t n, const uint32_t *args, unsigned na)
{
    (void)t, (void)buf, (void)n, (void)args, (void)na;
    counted++;
}

static int got_count(void *arg) { return counted >= *(int *)arg; }

int main(void)
{
    const pshm_handler_entry_t tab[] = { { H_KEEP, h_keep, 0 }, { H_COUNT, h_count, 0 } };
    pshm_ctx_t *ctx;
    pshm_seginfo_t me;
    int want = 1, rc;

    if (!PSHM_DEBUG) {
        printf("skip: a release build (configure --enable-debug makes these checks)\n");
        return T_SKIP;
    }
    CHECK_OK(pshm_init(&ctx, NULL));
    CHECK_OK(pshm_am_register(ctx, tab, 2));
    CHECK_OK(pshm_attach(ctx, 1 << 16));
    CHECK_OK(pshm_segment_info(ctx, 0, &me));

    /* A token outlives its handler only as a dangling pointer. */
    CHECK_OK(pshm_am_request_short(ctx, 0, H_KEEP, 0, 0, NULL));
    while (kept == NULL)
        CHECK_OK(pshm_poll(ctx));
    rc = pshm_am_reply_short(kept, H_COUNT, 0, 0, NULL);
    CHECK(rc == -EINVAL);
    CHECK(strstr(pshm_last_error(), "valid only inside its own handler") != NULL);
    printf("ok: a token used after its handler returned: %s\n", pshm_last_error());

    /* Loopback Long from the segment onto an overlapping part of itself. */
    rc = pshm_am_request_long(ctx, 0, H_COUNT, me.local_base, 4096,
                              (char *)me.owner_base + 64, 0, 0, NULL);
    CHECK(rc == -EINVAL);
    CHECK(strstr(pshm_last_error(), "overlaps its destination") != NULL);
    printf("ok: an overlapping Long: %s\n", pshm_last_error());

    /* Nothing was sent by the refused calls; a good one still goes through. */
    CHECK_OK(pshm_am_request_long(ctx, 0, H_COUNT, me.local_base, 64,
                                  (char *)me.owner_base + 64, 0, 0, NULL));
    CHECK_OK(pshm_wait_until(ctx, got_count, &want));
    CHECK(counted == 1);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
