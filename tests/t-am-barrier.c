/*
 * t-am-barrier: thousands of supernode barriers with 8 processes (more than
 * the cores, so waits yield); each round every process writes the round in
 * its segment, and after the barrier every peer must show that round.
 */
#include "amtest.h"

#include <stdio.h>
#include <stdlib.h>

#define NP 8
#define ROUNDS 1500

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, NP);
    if (st >= 0) return st;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    int me = pshm_rank(ctx), np = pshm_size(ctx);
    pshm_seginfo_t segs[NP];
    for (int r = 0; r < np; r++) CHECK_OK(pshm_segment_info(ctx, r, &segs[r]));
    volatile long *mine = segs[me].local_base;
    for (long i = 1; i <= ROUNDS; i++) {
        *mine = i;
        CHECK_OK(pshm_node_barrier(ctx));
        for (int r = 0; r < np; r++) {
            long v = *(volatile long *)segs[r].local_base;
            if (v != i) {
                fprintf(stderr, "FAIL rank %d round %ld: rank %d shows %ld\n", me, i, r, v);
                return T_FAIL;
            }
        }
        CHECK_OK(pshm_node_barrier(ctx));
    }
    printf("rank %d: %d barriers, every peer's value seen after each\n", me, 2 * ROUNDS);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
