/*
 * t-segmax: pshm_attach(ctx, PSHM_SEGSIZE_MAX) gives every process the
 * largest segment GASNET_MAX_SEGSIZE allows, in each of its forms (a size
 * per process, a size per host shared by all the host's processes, however
 * GASNET_SUPERNODE_MAXSIZE cuts them into supernodes); asking for more
 * than that fails with -ENOSPC naming the variable, on every rank; the
 * segment is usable to its last byte from a peer.
 */
#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define NP 4

static int worker(void)
{
    const char *mode = getenv("T_SEGMAX_MODE");
    size_t want = (size_t)strtoull(getenv("T_SEGMAX_WANT"), NULL, 10);
    pshm_ctx_t *ctx;
    pshm_seginfo_t me, peer;
    int rank, next, nn;

    CHECK_OK(pshm_init(&ctx, NULL));
    rank = pshm_rank(ctx);
    nn = pshm_node_size(ctx);
    if (strcmp(mode, "over") == 0) {
        int rc = pshm_attach(ctx, want + (size_t)sysconf(_SC_PAGESIZE));
        CHECK(rc == -ENOSPC);
        CHECK(strstr(pshm_last_error(), "GASNET_MAX_SEGSIZE") != NULL);
        CHECK_OK(pshm_finalize(ctx));
        return T_PASS;
    }
    CHECK_OK(pshm_attach(ctx, PSHM_SEGSIZE_MAX));
    CHECK_OK(pshm_segment_info(ctx, rank, &me));
    if (me.size != want) {
        fprintf(stderr, "rank %d: largest segment %zu bytes, expected %zu (GASNET_MAX_SEGSIZE=%s)\n",
                rank, me.size, want, getenv("GASNET_MAX_SEGSIZE"));
        return T_FAIL;
    }
    /* The first and last bytes, written by the owner, read by the next rank. */
    ((unsigned char *)me.local_base)[0] = (unsigned char)(rank + 1);
    ((unsigned char *)me.local_base)[me.size - 1] = (unsigned char)(rank + 101);
    CHECK_OK(pshm_barrier(ctx));
    next = pshm_node_member(ctx, (pshm_node_rank(ctx) + 1) % nn);
    CHECK_OK(pshm_segment_info(ctx, next, &peer));
    CHECK(peer.size == want);
    CHECK(((unsigned char *)peer.local_base)[0] == (unsigned char)(next + 1));
    CHECK(((unsigned char *)peer.local_base)[peer.size - 1] == (unsigned char)(next + 101));
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}

/* Runs a job of NP with GASNET_MAX_SEGSIZE=spec, expecting `want` bytes each. */
static int run(int argc, char **argv, const char *spec, const char *mode, size_t want)
{
    char w[32];
    int st;

    snprintf(w, sizeof w, "%zu", want);
    setenv("GASNET_MAX_SEGSIZE", spec, 1);
    setenv("T_SEGMAX_MODE", mode, 1);
    setenv("T_SEGMAX_WANT", w, 1);
    st = th_launch(argc, argv, NP);
    printf("%s: GASNET_MAX_SEGSIZE=%s, %s %zu bytes each: status %d\n", st ? "FAIL" : "ok",
           spec, strcmp(mode, "over") ? "largest segment" : "more than", want, st);
    return st != 0;
}

int main(int argc, char **argv)
{
    int fails = 0;
    if (getenv("PSHM_RANK") != NULL)
        return worker();
    fails += run(argc, argv, "8M/p", "max", 8u << 20);
    fails += run(argc, argv, "5M", "max", 5u << 20);
    /* "/h": the NP processes of the host share it, in one supernode or in
     * supernodes of 2 (or of 1, with --disable-pshm). */
    fails += run(argc, argv, "32M/h", "max", (32u << 20) / NP);
    setenv("GASNET_SUPERNODE_MAXSIZE", "2", 1);
    fails += run(argc, argv, "32M/h", "max", (32u << 20) / NP);
    unsetenv("GASNET_SUPERNODE_MAXSIZE");
    fails += run(argc, argv, "8M/p", "over", 8u << 20);
    return fails ? T_FAIL : T_PASS;
}
