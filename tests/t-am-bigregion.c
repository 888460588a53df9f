/*
 * t-am-bigregion: an AM region larger than 4 GiB (one process, 2100 MiB pools:
 * its request pool ends past 4 GiB into the region). Loopback Mediums fill
 * the pool without polling until PSHM_IMMEDIATE says -EAGAIN, so the last
 * chunks lie beyond the 4 GiB offset; then every message must arrive in
 * order with its own payload (a 32-bit offset would misdeliver them).
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define MSZ 65536
static uint8_t *ref;
static uint32_t next;
static long got[2];
static int bad;

static void h(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)t; (void)na;
    uint32_t first;
    memcpy(&first, p, 4);
    if (a[0] != next || n != MSZ || first != a[0] || memcmp((uint8_t *)p + 4, ref + 4, MSZ - 4))
        if (bad++ < 3) fprintf(stderr, "message %u (expected %u) damaged\n", a[0], next);
    next++;
    got[0]++;
}

int main(int argc, char **argv)
{
    struct statvfs v;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (!getenv("PSHM_RANK")) {
        if ((double)pages * psz < 12e9 || statvfs("/dev/shm", &v) != 0 ||
            (double)v.f_bavail * v.f_frsize < 6e9) {
            printf("SKIP: needs 12 GB of memory and 6 GB free in /dev/shm\n");
            return T_SKIP;
        }
        setenv("GASNET_PSHMNET_QUEUE_MEMORY", "2100M", 1);
        setenv("GASNET_PSHMNET_QUEUE_DEPTH", "65536", 1);
        return th_launch(argc, argv, 1);
    }
    pshm_init_attr_t attr = {0, NULL};
    pshm_ctx_t *ctx;
    CHECK_OK(pshm_init(&ctx, &attr));
    int rc = pshm_attach(ctx, 4096);
    if (rc == -ENOSPC || rc == -ENOMEM || rc == -EINVAL) {
        printf("SKIP: this backend cannot hold the region: %s\n", pshm_last_error());
        pshm_finalize(ctx);
        return T_SKIP;
    }
    CHECK_OK(rc);
    uint64_t bytes;
    CHECK_OK(pshm_am_memory(ctx, &bytes));
    CHECK(bytes > (4ull << 30));
    pshm_handler_entry_t tab = {1, h, 1};
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    ref = malloc(MSZ);
    CHECK(ref != NULL);
    am_fill(ref, MSZ, 1);
    uint32_t i;
    for (i = 0;; i++) {
        memcpy(ref, &i, 4);
        rc = pshm_am_request_medium(ctx, 0, 1, ref, MSZ, PSHM_IMMEDIATE, 1, &i);
        if (rc == -EAGAIN) break;
        CHECK_OK(rc);
    }
    /* 2100 MiB of 64 KiB chunks: the pool, not the queue, ran out. */
    CHECK(i > 30000 && i < 65536);
    CHECK(strstr(pshm_last_error(), "pool") != NULL);
    got[1] = i;
    CHECK_OK(pshm_wait_until(ctx, am_count_reached, got));
    CHECK(bad == 0 && next == i);
    printf("%.2f GiB region: %u Mediums filled the pool past 4 GiB and arrived intact, in "
           "order\n", (double)bytes / (1u << 30), i);
    CHECK_OK(pshm_finalize(ctx));
    free(ref);
    return T_PASS;
}
