/*
 * t-crossmap: every process writes a pattern in its own segment; every peer
 * checks every other's through translated addresses, with 2, 4 and 8
 * processes (64 MiB segments with 8, 16 MiB otherwise, or what the store
 * holds: a small /dev/shm or temporary directory lowers the size, and one
 * too small for 1 MiB each skips with the reason). Also: no name of the job
 * is left in the system once attach returned, translation bounds, put/get.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

static uint64_t pattern(int rank, size_t i) { return ((uint64_t)rank << 56) ^ (i * 0x9e3779b97f4a7c15ull); }

static int worker(void)
{
    pshm_ctx_t *ctx;
    pshm_seginfo_t me, peer;
    const char *tag = getenv("PSHM_JOB_TAG");
    int n, rank, nn;
    size_t segsize, words;

    CHECK(tag != NULL);
    CHECK_OK(pshm_init(&ctx, NULL));
    rank = pshm_rank(ctx);
    n = pshm_size(ctx);
    nn = pshm_node_size(ctx);
    CHECK(nn >= 1 && nn <= n);
    segsize = (size_t)strtoull(getenv("T_SEGSIZE"), NULL, 10);
    CHECK_OK(pshm_attach(ctx, segsize));

    /* Attach returns only after every name of the supernode is gone. */
    CHECK(th_count_objects(tag) == 0);

    CHECK_OK(pshm_segment_info(ctx, rank, &me));
    CHECK(me.size == segsize);
    CHECK((uintptr_t)me.local_base == me.owner_base);
    words = me.size / sizeof(uint64_t);
    for (size_t i = 0; i < words; i++)
        ((uint64_t *)me.local_base)[i] = pattern(rank, i);
    CHECK_OK(pshm_barrier(ctx));

    for (int r = 0; r < n; r++) {
        const uint64_t *p;
        void *local;

        if (!pshm_is_local(ctx, r))
            continue;
        CHECK_OK(pshm_segment_info(ctx, r, &peer));
        CHECK(peer.size == segsize);
        /* Translation of the first, a middle and the last byte, and one past. */
        CHECK_OK(pshm_translate(ctx, r, (void *)peer.owner_base, &local));
        CHECK(local == peer.local_base);
        CHECK_OK(pshm_translate(ctx, r, (char *)peer.owner_base + peer.size - 1, &local));
        CHECK(local == (char *)peer.local_base + peer.size - 1);
        CHECK_ERR(pshm_translate(ctx, r, (char *)peer.owner_base + peer.size, &local), -EFAULT);
        CHECK_ERR(pshm_translate(ctx, r, (char *)peer.owner_base - 1, &local), -EFAULT);
        p = peer.local_base;
        for (size_t i = 0; i < words; i++)
            if (p[i] != pattern(r, i)) {
                fprintf(stderr, "rank %d: rank %d's word %zu is %#llx, expected %#llx\n",
                        rank, r, i, (unsigned long long)p[i],
                        (unsigned long long)pattern(r, i));
                return T_FAIL;
            }
    }
    CHECK_OK(pshm_barrier(ctx));

    /* put/get: each rank writes its rank into the next local rank's last word. */
    {
        int next = pshm_node_member(ctx, (pshm_node_rank(ctx) + 1) % nn);
        uint64_t v = 0xabc000u + (uint64_t)rank, got = 0;
        void *dst;

        CHECK(next >= 0);
        CHECK_OK(pshm_segment_info(ctx, next, &peer));
        dst = (char *)peer.owner_base + peer.size - sizeof v;
        CHECK_OK(pshm_put(ctx, next, dst, &v, sizeof v));
        CHECK_OK(pshm_get(ctx, next, &got, dst, sizeof got));
        CHECK(got == v);
        CHECK_ERR(pshm_put(ctx, next, (char *)dst + 1, &v, sizeof v), -EFAULT);
        CHECK_ERR(pshm_get(ctx, next, &got, (char *)peer.owner_base + peer.size, 1), -EFAULT);
        CHECK_ERR(pshm_put(ctx, n, dst, &v, sizeof v), -EINVAL);
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK(((uint64_t *)me.local_base)[words - 1] ==
          0xabc000u + (uint64_t)pshm_node_member(ctx, (pshm_node_rank(ctx) + nn - 1) % nn));
    CHECK_OK(pshm_finalize(ctx));
    /* Calls after finalize are errors, not crashes. */
    CHECK_ERR(pshm_rank(ctx), -EINVAL);
    if (rank == 0)
        printf("%d processes, %d per supernode, %zu MiB segments: every pattern verified\n",
               n, nn, segsize >> 20);
    return T_PASS;
}

/* The segment size for n processes: the wanted one, or three quarters of
 * what the store and the other limits allow (others may use it too), in
 * whole MiB; 0 if that is less than 1 MiB. */
static size_t fitting_size(int n)
{
    size_t want = (size_t)(n >= 8 ? 64u : 16u) << 20;
    uint64_t am, max;
    pshm_cfg_t cfg;
    char a[32];

    CHECK_OK(env_load(&cfg));
    CHECK_OK(pshm_am_network_size((unsigned)n, 0, 0, &am));
    if (seg_max_size(&cfg, n, n, am + SEG_HDR_SIZE, &max) < 0)
        max = 0;
    if (max >= want + want / 4)
        return want;
    size_t fit = (size_t)(max / 4 * 3) & ~(((size_t)1 << 20) - 1);
    printf("%d processes: the store allows %s each; using %zu MiB instead of %zu MiB\n", n,
           pshm_fmt_size(a, sizeof a, max), fit >> 20, want >> 20);
    return fit;
}

int main(int argc, char **argv)
{
    static const int procs[] = { 2, 4, 8 };
    char v[32];

    if (getenv("PSHM_RANK") != NULL)
        return worker();
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        size_t segsize = fitting_size(procs[i]);
        if (segsize == 0) {
            printf("skip: the store cannot hold %d segments of 1 MiB (pshm-info shows why)\n",
                   procs[i]);
            return T_SKIP;
        }
        snprintf(v, sizeof v, "%zu", segsize);
        setenv("T_SEGSIZE", v, 1);
        int rc = th_launch(argc, argv, procs[i]);
        if (rc != 0) {
            fprintf(stderr, "FAIL: the job of %d processes exited with %d\n", procs[i], rc);
            return T_FAIL;
        }
    }
    return T_PASS;
}
