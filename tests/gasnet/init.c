/*
 * init.c - gasnet_init and gasnet_attach and the queries: node count and
 * rank against pshm's launcher (PSHM_SIZE, PSHM_RANK), segment sizes and
 * addresses, node info, gasnet_getenv, the error names, the config macros,
 * and attach's refusals (a segment size off the page size, a client index
 * below 128, an index given twice, a segment over the largest).
 * and a put outside a segment, which ends the job with the call's name.
 *   init.c [refuse-page|refuse-index|refuse-twice|refuse-big|bad-put|bad-node|early-get]
 */
#include "gtest.h"

#include <unistd.h>

#if !GASNET_PSHM || !GASNET_SEGMENT_FAST || GASNET_ALIGNED_SEGMENTS || !GASNET_CONDUIT_SMP
#error "the configuration macros of the smp conduit with PSHM"
#endif
#if GASNET_SPEC_VERSION_MAJOR != 1 || GASNET_RELEASE_VERSION_MAJOR != 1
#error "GASNet-1"
#endif

static void h(gasnet_token_t t) { (void)t; }

int main(int argc, char **argv)
{
    GT_SAFE(gasnet_init(&argc, &argv));
    unsigned me = gasnet_mynode(), n = gasnet_nodes();
    const char *rk = getenv("PSHM_RANK"), *sz = getenv("PSHM_SIZE");
    GT_CHECK(rk == NULL || (unsigned)atoi(rk) == me, "mynode %u, PSHM_RANK %s", me, rk);
    GT_CHECK(sz == NULL ? n == 1 : (unsigned)atoi(sz) == n, "nodes %u, PSHM_SIZE %s", n, sz);
    uintptr_t lmax = gasnet_getMaxLocalSegmentSize(), gmax = gasnet_getMaxGlobalSegmentSize();
    GT_CHECK(lmax >= 1024 * 1024 && lmax % GASNET_PAGESIZE == 0 && gmax <= lmax,
             "max segment sizes %zu and %zu", (size_t)lmax, (size_t)gmax);
    const char *mode = argc > 1 ? argv[1] : "";
    gasnet_handlerentry_t tab[2] = {{0, (gasnetc_handler_fn_t)h}, {0, (gasnetc_handler_fn_t)h}};
    int rc;
    if (!strcmp(mode, "refuse-page")) {
        rc = gasnet_attach(NULL, 0, GASNET_PAGESIZE + 1, 0);
    } else if (!strcmp(mode, "refuse-index")) {
        tab[0].index = 127;
        rc = gasnet_attach(tab, 1, 0, 0);
    } else if (!strcmp(mode, "refuse-twice")) {
        tab[0].index = tab[1].index = 140;
        rc = gasnet_attach(tab, 2, 0, 0);
    } else if (!strcmp(mode, "refuse-big")) {
        rc = gasnet_attach(NULL, 0, lmax + GASNET_PAGESIZE, 0);
    } else if (!strcmp(mode, "early-get")) {
        /* the header's inline get, before there is a segment table */
        char b[8];
        gasnet_get(b, 0, b, sizeof b);
        fprintf(stderr, "FAIL: a get before gasnet_attach returned\n");
        return 1;
    } else {
        rc = GASNET_OK;
    }
    if (mode[0] && strcmp(mode, "bad-put") != 0 && strcmp(mode, "bad-node") != 0) {
        /* each refusal is GASNET_ERR_BAD_ARG, said on stderr (the driver
         * checks the words) */
        printf("attach: %s\n", gasnet_ErrorName(rc));
        fflush(stdout);
        gasnet_exit(rc == GASNET_ERR_BAD_ARG ? 0 : 1);
    }
    uintptr_t seg = 16 * GASNET_PAGESIZE;
    GT_SAFE(gasnet_attach(tab, 2, seg, 0));
    GT_CHECK(tab[0].index >= 128 && tab[1].index >= 128 && tab[0].index != tab[1].index,
             "chosen indices %u %u", tab[0].index, tab[1].index);
    gasnet_seginfo_t *si = calloc(n + 1, sizeof *si);
    GT_SAFE(gasnet_getSegmentInfo(si, (int)n + 1));
    for (unsigned r = 0; r < n; r++)
        GT_CHECK(si[r].addr != NULL && si[r].size == seg && (uintptr_t)si[r].addr % GASNET_PAGESIZE == 0,
                 "node %u's segment %p +%zu", r, si[r].addr, (size_t)si[r].size);
    GT_CHECK(si[n].addr == NULL && si[n].size == 0, "an entry past the nodes is not empty");
    if (!strcmp(mode, "bad-put")) {
        char b[8] = {0};
        gasnet_put((me + 1) % n, (char *)si[(me + 1) % n].addr + seg - 4, b, sizeof b);
        fprintf(stderr, "FAIL: a put past the segment's end returned\n");
        return 1;
    }
    if (!strcmp(mode, "bad-node")) {
        GT_CHECK(gasnet_get_val(n, si[me].addr, 8) == 0, "unreachable");
        fprintf(stderr, "FAIL: a get from node %u of %u returned\n", n, n);
        return 1;
    }
    /* the segment is mine: written and read back */
    memset(si[me].addr, 0xa5, seg);
    GT_CHECK(((uint8_t *)si[me].addr)[seg - 1] == 0xa5, "segment not writable");
    gasnet_nodeinfo_t *ni = calloc(n, sizeof *ni);
    GT_SAFE(gasnet_getNodeInfo(ni, (int)n));
    for (unsigned r = 0; r < n; r++)
        GT_CHECK(ni[r].host == ni[me].host && ni[r].supernode == ni[me].supernode,
                 "node %u is on another host or supernode", r);
    setenv("GT_VAR", "a value", 1);
    GT_CHECK(gasnet_getenv("GT_VAR") && !strcmp(gasnet_getenv("GT_VAR"), "a value"), "getenv");
    GT_CHECK(gasnet_getenv("GT_NO_SUCH_VAR") == NULL, "getenv of an unset variable");
    GT_CHECK(!strcmp(gasnet_ErrorName(GASNET_ERR_BARRIER_MISMATCH), "GASNET_ERR_BARRIER_MISMATCH") &&
             !strcmp(gasnet_ErrorName(GASNET_OK), "GASNET_OK") &&
             strlen(gasnet_ErrorDesc(GASNET_ERR_NOT_READY)) > 5, "error names");
    GT_CHECK(strstr(GASNET_CONFIG_STRING, "CONDUIT=SMP") != NULL, "config string %s", GASNET_CONFIG_STRING);
    gasnet_hsl_t l = GASNET_HSL_INITIALIZER, l2;
    gasnet_hsl_init(&l2);
    gasnet_hsl_lock(&l);
    GT_CHECK(gasnet_hsl_trylock(&l2) == GASNET_OK, "trylock of a free lock");
    gasnet_hsl_unlock(&l2);
    gasnet_hsl_unlock(&l);
    gasnet_hsl_destroy(&l2);
    GASNET_BEGIN_FUNCTION();
    gasnet_hold_interrupts();
    gasnet_resume_interrupts();
    gt_end("init");
    return 0;
}
