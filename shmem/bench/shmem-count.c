/*
 * shmem-count: fixed loops of one operation from PE 0 to a peer, for
 * counting the instructions per call under callgrind (shmem/bench/
 * compare-mpi.sh --instructions), with collection on the called function
 * only (under its profiling name, pshmem_X: callgrind reports the routine
 * under that name, shmem_X being its alias):
 *
 *   valgrind --tool=callgrind --collect-atstart=no \
 *       --toggle-collect=pshmem_long_p --toggle-collect=pshmem_quiet ... \
 *       ./shmem-count p 10000 PEER
 *
 *   p     shmem_long_p then shmem_quiet, to the peer's heap
 *   g     shmem_long_g from the peer's heap
 *   fadd  shmem_long_atomic_fetch_add on the peer's heap
 *   pingpong  shmem_long_p to the peer, shmem_long_wait_until for its
 *         answer (the peer answers each)
 *   barrier_all  shmem_barrier_all, on every PE
 *   barrier      shmem_barrier over every PE on one pSync, on every PE
 *   team_sync    shmem_team_sync on SHMEM_TEAM_WORLD, on every PE
 *
 * The other PEs wait in shmem_barrier_all. PE 0 checks what it left.
 * A fourth argument, microseconds, makes PE 0 sleep that long before each
 * barrier or sync: the others are then in it first, and PE 0, entering
 * last, never waits (shmem/bench/barrier-count.sh).
 * Under callgrind the counted PE is the slow one: the others' signals are
 * there when it looks, so a wait's count is its fast path.
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    const char *op = argc > 3 ? argv[1] : "";
    long n = argc > 3 ? atol(argv[2]) : 0, acc = 0, *word, *psync;
    int peer = argc > 3 ? atoi(argv[3]) : 0, me;
    long settle_us = argc > 4 ? atol(argv[4]) : 0;

    shmem_init();
    me = shmem_my_pe();
    word = shmem_calloc(1, sizeof *word);
    psync = shmem_malloc(SHMEM_BARRIER_SYNC_SIZE * sizeof *psync);
    if (n < 1 || peer < 1 || peer >= shmem_n_pes() || word == NULL || psync == NULL ||
        (strcmp(op, "p") && strcmp(op, "g") && strcmp(op, "fadd") && strcmp(op, "pingpong") &&
         strcmp(op, "barrier_all") && strcmp(op, "barrier") && strcmp(op, "team_sync"))) {
        if (me == 0)
            fprintf(stderr, "usage: shmem-count p|g|fadd|pingpong|barrier_all|barrier|team_sync CALLS "
                            "PEER (1..n_pes-1)\n");
        shmem_global_exit(2);
    }
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (!strcmp(op, "barrier_all") || !strcmp(op, "barrier") || !strcmp(op, "team_sync")) {
        for (long i = 0; i < n; i++) {
            if (me == 0 && settle_us > 0) {
                struct timespec ts = {settle_us / 1000000, settle_us % 1000000 * 1000};
                nanosleep(&ts, NULL);
            }
            if (op[0] == 't')
                shmem_team_sync(SHMEM_TEAM_WORLD);
            else if (op[7] == '_')
                shmem_barrier_all();
            else
                shmem_barrier(0, 0, shmem_n_pes(), psync);
        }
        shmem_barrier_all();
        if (me == 0)
            printf("shmem-count: %ld x %s over %d PEs\n", n, op, shmem_n_pes());
        shmem_finalize();
        return 0;
    }
    if (!strcmp(op, "pingpong")) {
        for (long i = 1; i <= n && (me == 0 || me == peer); i++) {
            if (me == 0) {
                shmem_long_p(word, i, peer);
                shmem_long_wait_until(word, SHMEM_CMP_EQ, i);
            } else {
                shmem_long_wait_until(word, SHMEM_CMP_EQ, i);
                shmem_long_p(word, i, 0);
            }
        }
        shmem_barrier_all();
        if (me == 0)
            printf("shmem-count: %ld x pingpong, PE 0 <-> PE %d\n", n, peer);
        shmem_finalize();
        return 0;
    }
    if (me == 0) {
        for (long i = 1; i <= n; i++) {
            if (op[0] == 'p') {
                shmem_long_p(word, i, peer);
                shmem_quiet();
            } else if (op[0] == 'g') {
                acc += shmem_long_g(word, peer);
            } else {
                acc += shmem_long_atomic_fetch_add(word, 1, peer);
            }
        }
        long got = shmem_long_g(word, peer), want = op[0] == 'g' ? 0 : n;
        if (got != want || acc != (op[0] == 'f' ? n * (n - 1) / 2 : 0)) {
            fprintf(stderr, "shmem-count: %s left %ld at PE %d, expected %ld\n", op, got, peer,
                    want);
            shmem_global_exit(1);
        }
        printf("shmem-count: %ld x %s, PE 0 -> PE %d (%s)\n", n, op, peer,
               shmem_ptr(word, peer) ? "shared memory" : "no shared memory");
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
