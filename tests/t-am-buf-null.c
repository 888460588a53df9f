/*
 * t-am-buf-null: a handler's buf is NULL for a Short only (pshm.h): a
 * Medium of 0 bytes gets a buf that is not NULL, and a Long to address NULL
 * fails with EFAULT, even with 0 bytes into an empty segment; a handler
 * reached by every category tells them apart by it (as a GASNet layer does). Messages to self, in a job of one.
 */
#include "tests/helpers.h"
#include "pshm.h"

#include <errno.h>
#include <stdio.h>

static int got, was_null[4];
/* [0] Short, [1] Medium of 0 bytes, [3] Medium of 1 byte */

static void h(pshm_token_t *t, void *buf, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)n; (void)na;
    was_null[a[0]] = buf == NULL;
    got++;
}

int main(void)
{
    pshm_ctx_t *ctx;
    pshm_seginfo_t si;
    pshm_handler_entry_t e = {1, h, 1};
    CHECK_OK(pshm_init(&ctx, NULL));
    CHECK_OK(pshm_am_register(ctx, &e, 1));
    CHECK_OK(pshm_attach(ctx, 0));
    CHECK_OK(pshm_segment_info(ctx, 0, &si));
    uint32_t a;
    char b = 0;
    a = 0; CHECK_OK(pshm_am_request_short(ctx, 0, 1, 0, 1, &a));
    a = 1; CHECK_OK(pshm_am_request_medium(ctx, 0, 1, &b, 0, 0, 1, &a));
    CHECK(si.size == 0);
    a = 3; CHECK_OK(pshm_am_request_medium(ctx, 0, 1, &b, 1, 0, 1, &a));
    CHECK_ERR(pshm_am_request_long(ctx, 0, 1, &b, 0, NULL, 0, 1, &a), -EFAULT);
    for (int i = 0; i < 1000 && got < 3; i++)
        CHECK_OK(pshm_poll(ctx));
    CHECK(got == 3);
    CHECK(was_null[0] && !was_null[1] && !was_null[3]);
    printf("ok: buf is NULL for the Short only; a Long to NULL: %s\n", pshm_last_error());
    CHECK_OK(pshm_finalize(ctx));
    return 0;
}
