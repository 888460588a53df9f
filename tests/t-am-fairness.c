/*
 * t-am-fairness: when several senders have messages waiting, the sender a
 * pshm_poll serves first moves with the rotation; the lowest-numbered busy
 * sender does not go first in every poll. Every message runs once, in order.
 */
#include "amtest.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

enum { H_MSG = 3, NMSG = 60, NPROC = 3, MAXPOLLS = 64 };

static int first_src[MAXPOLLS]; /* sender of the first handler of poll i, or -1 */
static int both_busy[MAXPOLLS]; /* both senders had messages when poll i began */
static int cur_poll;
static int next_seq[NPROC];
static int errors, handled;

static void on_msg(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    (void)p; (void)n; (void)na;
    if (first_src[cur_poll] < 0)
        first_src[cur_poll] = src;
    if (src < 1 || src >= NPROC || (int)a[0] != next_seq[src]++)
        errors++;
    handled++;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, NPROC);
    if (st >= 0)
        return st;
    pshm_ctx_t *ctx = am_setup(0, 4096);
    int me = pshm_rank(ctx);
    pshm_seginfo_t si;
    pshm_handler_entry_t tab[] = { { H_MSG, on_msg, 1 } };

    CHECK(pshm_size(ctx) == NPROC && pshm_node_size(ctx) == NPROC);
    CHECK_OK(pshm_am_register(ctx, tab, 1));
    CHECK_OK(pshm_segment_info(ctx, 0, &si));
    CHECK_OK(pshm_barrier(ctx));
    if (me != 0) {
        /* Rank 0 may still wait in a later round of the barrier after this
         * rank left it, and polls there when a message is pending: it would
         * serve these messages before its loop of polls (the run then
         * shows "1(alone)"). They go once it says it is out (word 0 of this
         * rank's segment). */
        pshm_seginfo_t mine;
        CHECK_OK(pshm_segment_info(ctx, me, &mine));
        volatile int *go = mine.local_base;
        for (long i = 0; !go[0]; i++) {
            CHECK(i < 2000000000L);
            sched_yield();
        }
        atomic_thread_fence(memory_order_acquire);
        /* Fewer than the queue depth: no send waits, nothing runs early. */
        for (uint32_t i = 0; i < NMSG; i++)
            CHECK_OK(pshm_am_request_short(ctx, 0, H_MSG, 0, 1, &i));
        int one = 1;
        atomic_thread_fence(memory_order_release); /* the sends before the flag */
        CHECK_OK(pshm_put(ctx, 0, (int *)si.owner_base + me, &one, sizeof one));
    } else {
        volatile int *ready = si.local_base;
        int one = 1;
        for (int r = 1; r < NPROC; r++) {
            pshm_seginfo_t sr;
            CHECK_OK(pshm_segment_info(ctx, r, &sr));
            CHECK_OK(pshm_put(ctx, r, (void *)sr.owner_base, &one, sizeof one));
        }
        for (long i = 0; !(ready[1] && ready[2]); i++) {
            CHECK(i < 2000000000L);
            sched_yield();
        }
        atomic_thread_fence(memory_order_acquire);
        for (cur_poll = 0; handled < 2 * NMSG && cur_poll < MAXPOLLS; cur_poll++) {
            first_src[cur_poll] = -1;
            both_busy[cur_poll] = next_seq[1] < NMSG && next_seq[2] < NMSG;
            CHECK_OK(pshm_poll(ctx));
        }
        CHECK(handled == 2 * NMSG && errors == 0);
        /* Nothing ran before the first poll of the loop. */
        CHECK(both_busy[0]);
        CHECK(next_seq[1] == NMSG && next_seq[2] == NMSG);
        int firsts[NPROC] = { 0 };
        printf("first sender served by each poll:");
        for (int i = 0; i < cur_poll; i++) {
            printf(" %d%s", first_src[i], both_busy[i] ? "" : "(alone)");
            if (both_busy[i])
                firsts[first_src[i]]++;
        }
        printf("\n");
        /* Both senders stay busy for at least three polls (at most 32 of
         * each per poll), so the rotation's start visits both. */
        CHECK(firsts[1] > 0 && firsts[2] > 0);
    }
    CHECK_OK(pshm_barrier(ctx));
    CHECK_OK(pshm_finalize(ctx));
    printf("rank %d: every busy sender was served first in some poll; %d messages once each\n",
           me, me == 0 ? 2 * NMSG : NMSG);
    return T_PASS;
}
