/*
 * hosts_ptr.c - shmem_ptr across supernodes: a direct pointer for every PE
 * that shares memory with the caller (and it is one: a store through it is
 * what the owner reads), NULL for every other, heap and statics alike;
 * shmem_pe_accessible and shmem_addr_accessible stay true for every PE.
 * Which PEs share memory comes from the layout the driver ran the job in:
 *   hosts K     PSHM_SIM_HOSTS=K: PE r is on host r % K, a supernode each
 *   maxsize 1   GASNET_SUPERNODE_MAXSIZE=1: every PE alone
 *   alone       a build without shared memory: every PE alone
 */
#include "check.h"

#include <string.h>

static long svar[64];

int main(int argc, char **argv)
{
    int me, npes, k = 0, nlocal = 0, nremote = 0;
    long *hvar, stackvar = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= 64, "%d PEs: at most 64", npes);
    if (argc > 2 && strcmp(argv[1], "hosts") == 0)
        k = atoi(argv[2]);
    else
        CHECK(argc > 1 && (strcmp(argv[1], "alone") == 0 ||
                           (strcmp(argv[1], "maxsize") == 0 && argc > 2 && atoi(argv[2]) == 1)),
              "usage: hosts_ptr hosts K | maxsize 1 | alone");
    hvar = shmem_calloc(64, sizeof *hvar);
    CHECK(hvar != NULL, "shmem_calloc");
    for (int pe = 0; pe < npes; pe++) {
        int shared = pe == me || (k > 0 && pe % k == me % k);
        long *sp = shmem_ptr(&svar[me], pe), *hp = shmem_ptr(&hvar[me], pe);

        CHECK(shmem_pe_accessible(pe), "shmem_pe_accessible(%d) is false", pe);
        CHECK(shmem_addr_accessible(&svar[1], pe) && shmem_addr_accessible(&hvar[1], pe),
              "shmem_addr_accessible of a symmetric address on PE %d is false", pe);
        CHECK(!shmem_addr_accessible(&stackvar, pe), "a stack address is accessible on PE %d", pe);
        CHECK((sp != NULL) == shared && (hp != NULL) == shared, "shmem_ptr for PE %d: static "
              "%p, heap %p; expected %s", pe, (void *)sp, (void *)hp,
              shared ? "pointers (same supernode)" : "NULL (another supernode)");
        if (shared) {
            *sp = 1000 + me;
            *hp = 2000 + me;
            nlocal++;
        } else {
            nremote++;
        }
    }
    shmem_barrier_all();
    for (int pe = 0; pe < npes; pe++) {
        int shared = pe == me || (k > 0 && pe % k == me % k);
        CHECK(svar[pe] == (shared ? 1000 + pe : 0) && hvar[pe] == (shared ? 2000 + pe : 0),
              "stores through shmem_ptr from PE %d: static %ld, heap %ld", pe, svar[pe], hvar[pe]);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("hosts_ptr: PE 0 has pointers to %d PEs, NULL for %d\n", nlocal, nremote);
    shmem_finalize();
    return 0;
}
