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
 *   sync_all     shmem_sync_all, on every PE
 *   barrier      shmem_barrier over every PE on one pSync, on every PE
 *   sync         shmem_sync over every PE on one pSync
 *   barrier_s2, sync_s2  the same over every other PE (0, 2, ...: the
 *                set (0, 1, ceil(n/2)); PE 0 alone with 2 PEs), on its members
 *   team_sync    shmem_team_sync on SHMEM_TEAM_WORLD
 *   team_sync_s2 shmem_team_sync on the team of every other PE
 *                (shmem_team_split_strided), on its members
 * (shmem/bench/barrier-count.sh counts them all.)
 *
 * The other PEs wait in shmem_barrier_all. PE 0 checks what it left.
 * Under callgrind the counted PE is the slow one: the others' signals are
 * there when it looks, so a wait's count is its fast path.
 */
#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const forms[] = {"barrier_all", "sync_all", "barrier", "sync", "barrier_s2",
                                    "sync_s2", "team_sync", "team_sync_s2"};

/* The index of a barrier form in forms[], -1 for another op. */
static int barrier_form(const char *op)
{
    for (int i = 0; i < (int)(sizeof forms / sizeof forms[0]); i++)
        if (!strcmp(op, forms[i]))
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    const char *op = argc > 3 ? argv[1] : "";
    long n = argc > 3 ? atol(argv[2]) : 0, acc = 0, *word, *psync;
    int peer = argc > 3 ? atoi(argv[3]) : 0, me;

    shmem_init();
    me = shmem_my_pe();
    word = shmem_calloc(1, sizeof *word);
    psync = shmem_malloc(SHMEM_BARRIER_SYNC_SIZE * sizeof *psync);
    if (n < 1 || peer < 1 || peer >= shmem_n_pes() || word == NULL || psync == NULL ||
        (strcmp(op, "p") && strcmp(op, "g") && strcmp(op, "fadd") && strcmp(op, "pingpong") &&
         barrier_form(op) < 0)) {
        if (me == 0)
            fprintf(stderr, "usage: shmem-count p|g|fadd|pingpong|barrier_all|sync_all|barrier|"
                            "sync|barrier_s2|sync_s2|team_sync|team_sync_s2 CALLS PEER "
                            "(1..n_pes-1)\n");
        shmem_global_exit(2);
    }
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    if (barrier_form(op) >= 0) {
        int npes = shmem_n_pes(), half = (npes + 1) / 2, in2 = me % 2 == 0, form = barrier_form(op);
        shmem_team_t t2;

        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, half, NULL, 0, &t2);
        for (long i = 0; i < n; i++) {
            switch (form) {
            case 0: shmem_barrier_all(); break;
            case 1: shmem_sync_all(); break;
            case 2: shmem_barrier(0, 0, npes, psync); break;
            case 3: shmem_sync(0, 0, npes, psync); break;
            case 4: if (in2) shmem_barrier(0, 1, half, psync); break;
            case 5: if (in2) shmem_sync(0, 1, half, psync); break;
            case 6: shmem_team_sync(SHMEM_TEAM_WORLD); break;
            default: if (in2) shmem_team_sync(t2); break;
            }
        }
        shmem_barrier_all();
        for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
            if (psync[i] != SHMEM_SYNC_VALUE) {
                fprintf(stderr, "shmem-count: %s left pSync[%d] at %ld\n", op, i, psync[i]);
                shmem_global_exit(1);
            }
        if (me == 0)
            printf("shmem-count: %ld x %s over %d PEs\n", n, op, npes);
        if (t2 != SHMEM_TEAM_INVALID)
            shmem_team_destroy(t2);
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
