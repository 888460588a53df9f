/*
 * rma-count.c - the GASNet layer's small puts and gets, counted: node 0
 * runs each form N times on 8 bytes of node 1's segment, one function per
 * form (rma-count.sh collects inside each under callgrind). Built twice:
 * as a client builds it (gasnet.h's inline forms) and with
 * RMA_COUNT_FUNCTIONS (the library's functions, as through a pointer).
 *
 *   rma-count N
 */
#include <gasnet.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef RMA_COUNT_FUNCTIONS
#undef gasnet_put
#undef gasnet_get
#undef gasnet_put_nbi
#undef gasnet_wait_syncnbi_puts
#undef gasnet_put_val
#undef gasnet_get_val
#undef gasnet_get_nb
#undef gasnet_wait_syncnb
#endif

static char src[8], dst[8];
static long n;

#define FORM(name, body)                                                   \
    __attribute__((noinline)) static void name(gasnet_node_t p, char *r)   \
    {                                                                      \
        for (long i = 0; i < n; i++)                                       \
            body;                                                          \
    }
FORM(rma_put, gasnet_put(p, r, src, 8))
FORM(rma_get, gasnet_get(dst, p, r, 8))
FORM(rma_put_nbi, gasnet_put_nbi(p, r, src, 8))
FORM(rma_put_val, gasnet_put_val(p, r, (gasnet_register_value_t)i, 8))
FORM(rma_get_val, dst[0] = (char)gasnet_get_val(p, r, 8))
FORM(rma_get_nb, gasnet_wait_syncnb(gasnet_get_nb(dst, p, r, 8)))

int main(int argc, char **argv)
{
    if (gasnet_init(&argc, &argv) != GASNET_OK || gasnet_attach(NULL, 0, GASNET_PAGESIZE, 0))
        return 1;
    n = argc > 1 ? atol(argv[1]) : 100000;
    gasnet_seginfo_t si[2];
    if (gasnet_nodes() != 2 || n < 1 || gasnet_getSegmentInfo(si, 2) != GASNET_OK) {
        fprintf(stderr, "rma-count: 2 nodes and a count of at least 1\n");
        gasnet_exit(2);
    }
    if (gasnet_mynode() == 0) {
        char *r = si[1].addr;
        rma_put(1, r);
        rma_get(1, r);
        rma_put_nbi(1, r);
        gasnet_wait_syncnbi_puts();
        rma_put_val(1, r);
        rma_get_val(1, r);
        rma_get_nb(1, r);
    }
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
