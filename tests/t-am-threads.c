/*
 * t-am-threads: PSHM_INIT_THREADS, 3 threads per process, each sending
 * requests to every process (itself included) and polling; handlers reply
 * from whichever thread polls; every count must be exact.
 */
#include "amtest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define NP 3
#define NT 3
#define N 3000                 /* requests per thread per destination */
enum { H_REQ = 1, H_REP = 2 };

static pshm_ctx_t *ctx;
static atomic_long recv_req[NP], recv_rep[NP];
static atomic_int bad;

static void req(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    if (n != a[1] || (n && am_diff(p, n, a[0]) >= 0)) atomic_fetch_add(&bad, 1);
    atomic_fetch_add(&recv_req[pshm_token_source(t)], 1);
    if (pshm_am_reply_medium(t, H_REP, p, n, 0, 2, a) != 0) atomic_fetch_add(&bad, 1);
}
static void rep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)na;
    if (n != a[1] || (n && am_diff(p, n, a[0]) >= 0)) atomic_fetch_add(&bad, 1);
    atomic_fetch_add(&recv_rep[pshm_token_source(t)], 1);
}
static int all_replies(void *arg)
{
    (void)arg;
    for (int r = 0; r < NP; r++)
        if (atomic_load(&recv_rep[r]) < (long)NT * N) return 0;
    return 1;
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg, me = pshm_rank(ctx);
    uint8_t buf[2048];
    for (int i = 0; i < N * NP; i++) {
        int d = (i + id) % NP;
        uint32_t a[2] = {(uint32_t)(me * 1000000 + id * 100000 + i), (uint32_t)(i % 3 ? (i * 13) % 2048 : 0)};
        am_fill(buf, a[1], a[0]);
        int rc = pshm_am_request_medium(ctx, d, H_REQ, buf, a[1], 0, 2, a);
        if (rc != 0) {
            fprintf(stderr, "thread %d: %s\n", id, pshm_last_error());
            atomic_fetch_add(&bad, 1);
            break;
        }
        if (i % 7 == 0 && pshm_poll(ctx) < 0) atomic_fetch_add(&bad, 1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (am_no_peers())
        return T_SKIP;
    int st = th_launch(argc, argv, NP);
    if (st >= 0) return st;
    ctx = am_setup(PSHM_INIT_THREADS, 4096);
    pshm_handler_entry_t tab[] = {{H_REQ, req, 2}, {H_REP, rep, 2}};
    CHECK_OK(pshm_am_register(ctx, tab, 2));
    pthread_t th[NT];
    for (int i = 0; i < NT; i++) CHECK(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) == 0);
    for (int i = 0; i < NT; i++) pthread_join(th[i], NULL);
    CHECK_OK(pshm_wait_until(ctx, all_replies, NULL));
    CHECK_OK(pshm_barrier(ctx));
    CHECK(atomic_load(&bad) == 0);
    for (int r = 0; r < NP; r++)
        if (recv_req[r] != (long)NT * N || recv_rep[r] != (long)NT * N) {
            fprintf(stderr, "FAIL rank %d: from %d: %ld requests, %ld replies, expected %d each\n",
                    pshm_rank(ctx), r, (long)recv_req[r], (long)recv_rep[r], NT * N);
            return T_FAIL;
        }
    printf("rank %d: %d threads x %d requests, every request and reply counted once\n",
           pshm_rank(ctx), NT, N * NP);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}
