/*
 * gtest.h - what the GASNet layer's test programs share: checks that name
 * the node, and the start every program makes.
 */
#ifndef GTEST_H
#define GTEST_H

#include <gasnet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gt_fails;

#define GT_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "FAIL node %u: %s:%d: ", (unsigned)gasnet_mynode(), \
                    __FILE__, __LINE__);                                      \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            if (++gt_fails > 20)                                              \
                gasnet_exit(1);                                               \
        }                                                                     \
    } while (0)

#define GT_SAFE(call)                                                         \
    do {                                                                      \
        int rc_ = (call);                                                     \
        if (rc_ != GASNET_OK) {                                               \
            fprintf(stderr, "FAIL: %s returned %s (%s)\n", #call,             \
                    gasnet_ErrorName(rc_), gasnet_ErrorDesc(rc_));            \
            gasnet_exit(1);                                                   \
        }                                                                     \
    } while (0)

static inline void gt_barrier(void)
{
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    GT_SAFE(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

/* The end of a test: the failures of every node decide the job's status. */
static inline void gt_end(const char *what)
{
    gt_barrier();
    if (gt_fails)
        gasnet_exit(1);
    if (gasnet_mynode() == 0)
        printf("ok: %s on %u nodes\n", what, (unsigned)gasnet_nodes());
    gt_barrier();
    gasnet_exit(0);
}

#endif
