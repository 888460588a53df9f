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
 *
 * The other PEs wait in shmem_barrier_all. PE 0 checks what it left.
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *op = argc > 3 ? argv[1] : "";
    long n = argc > 3 ? atol(argv[2]) : 0, acc = 0, *word;
    int peer = argc > 3 ? atoi(argv[3]) : 0;

    shmem_init();
    word = shmem_calloc(1, sizeof *word);
    if (n < 1 || peer < 1 || peer >= shmem_n_pes() || word == NULL ||
        (strcmp(op, "p") && strcmp(op, "g") && strcmp(op, "fadd"))) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "usage: shmem-count p|g|fadd CALLS PEER (1..n_pes-1)\n");
        shmem_global_exit(2);
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
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
