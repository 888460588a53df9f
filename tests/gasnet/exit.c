/*
 * exit.c - the ways a GASNet job ends (gasnet_exit is not collective):
 *   exit.c MODE [CODE]
 *   collective    every node: a line, a barrier, gasnet_exit(CODE)
 *   one           the last node calls gasnet_exit(CODE), the others wait in
 *                 a barrier it never joins
 *   spin          the last node calls gasnet_exit(CODE), the others compute
 *                 without polling, for ever
 *   blockuntil    the last node calls gasnet_exit(CODE), the others wait in
 *                 GASNET_BLOCKUNTIL for what never comes
 *   handler       node 0 asks the last node by an AM, whose handler calls
 *                 gasnet_exit(CODE); the others wait in a barrier
 *   return        every node returns CODE from main
 *   two           nodes 0 and the last exit at once, CODE and CODE + 1
 *   sigint        the last node gets SIGINT; its SIGQUIT handler (GASNet
 *                 runs it on a terminating signal) calls gasnet_exit(CODE)
 *   sigint-plain  the same without a SIGQUIT handler: SIGINT ends it
 *   atexit        every node registers an atexit handler that makes a
 *                 barrier (as an OpenSHMEM over GASNet does), then calls
 *                 gasnet_exit(CODE): as in GASNet, the process ends there
 *                 and the handler never runs
 *   atexit-one    the same handler; the last node calls gasnet_exit(CODE)
 *                 while the others wait in a barrier
 *   atexit-return the same handler; every node returns CODE from main: the
 *                 handler runs first, with the layer up, and says so
 *   lost          node 0 sends a request to a node outside the job, does
 *                 not check the error (as GASNet clients do not), and waits
 *                 for its reply; the others wait in a barrier. The layer
 *                 ends the job after 10 s without a message.
 * Every node first prints "node N of M before" without flushing: the
 * driver checks that each line reached stdout.
 */
#include "gtest.h"

#include <signal.h>
#include <sched.h>
#include <unistd.h>

static volatile int never;
static int code;

static void bye(gasnet_token_t t) { (void)t; gasnet_exit(code); }
static void on_quit(int sig) { (void)sig; gasnet_exit(code); }
static int late_ok; /* the atexit handler may run (atexit-return) */
static void late(void)
{
    if (!late_ok)
        fprintf(stderr, "node %u: an atexit handler ran after gasnet_exit\n",
                (unsigned)gasnet_mynode());
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    int rc = gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    printf("node %u: the atexit barrier gave %s\n", (unsigned)gasnet_mynode(),
           gasnet_ErrorName(rc));
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t tab[] = {{150, (gasnetc_handler_fn_t)bye}};
    GT_SAFE(gasnet_init(&argc, &argv));
    if (argc < 2) {
        fprintf(stderr, "usage: exit MODE [CODE]\n");
        return 2;
    }
    const char *mode = argv[1];
    code = argc > 2 ? atoi(argv[2]) : 0;
    GT_SAFE(gasnet_attach(tab, 1, 4096, 0));
    unsigned me = gasnet_mynode(), n = gasnet_nodes(), last = n - 1;
    printf("node %u of %u before\n", me, n); /* not flushed: a file is block-buffered */
    gt_barrier();
    if (!strncmp(mode, "atexit", 6)) {
        late_ok = !strcmp(mode, "atexit-return");
        atexit(late);
        if (late_ok)
            return code;
        mode = !strcmp(mode, "atexit") ? "collective" : "one";
    }
    if (!strcmp(mode, "lost")) {
        if (me == 0) {
            (void)gasnet_AMRequestShort0(n, 150);
            GASNET_BLOCKUNTIL(never);
        } else {
            gt_barrier();
        }
    } else if (!strcmp(mode, "collective")) {
        gt_barrier();
        gasnet_exit(code);
    } else if (!strcmp(mode, "return")) {
        gt_barrier();
        return code;
    } else if (!strcmp(mode, "two")) {
        if (me == 0 || me == last)
            gasnet_exit(me == 0 ? code : code + 1);
        gt_barrier();
    } else if (!strncmp(mode, "sigint", 6)) {
        if (!strcmp(mode, "sigint"))
            signal(SIGQUIT, on_quit);
        if (me == last) {
            kill(getpid(), SIGINT);
            for (;;)
                sched_yield();
        }
        gt_barrier();
    } else if (me == last && strcmp(mode, "handler") != 0) {
        gasnet_exit(code);
    } else if (!strcmp(mode, "one")) {
        gt_barrier();
    } else if (!strcmp(mode, "spin")) {
        while (!never)
            ;
    } else if (!strcmp(mode, "blockuntil")) {
        GASNET_BLOCKUNTIL(never);
    } else if (!strcmp(mode, "handler")) {
        if (me == 0)
            GT_SAFE(gasnet_AMRequestShort0(last, 150));
        if (me != last)
            gt_barrier();
        else
            GASNET_BLOCKUNTIL(never);
    } else {
        fprintf(stderr, "exit: unknown mode %s\n", mode);
        gasnet_exit(2);
    }
    fprintf(stderr, "node %u: still running after mode %s\n", me, mode);
    return 99;
}
