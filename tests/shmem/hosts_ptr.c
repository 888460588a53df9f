/*
 * hosts_ptr.c - shmem_ptr across supernodes: a direct pointer for every PE
 * that shares memory with the caller (and it is one: a store through it is
 * what the owner reads), NULL for every other, heap and statics alike;
 * shmem_pe_accessible and shmem_addr_accessible stay true for every PE.
 * Which PEs share memory comes from the layout the driver ran the job in
 * (SHMEM_TEST_SUPERNODES, check.h), which must be set: a split job.
 */
#include "check.h"

static long svar[64];

int main(void)
{
    int me, npes, nlocal = 0, nremote = 0;
    long *hvar, stackvar = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    CHECK(npes <= 64, "%d PEs: at most 64", npes);
    CHECK(getenv("SHMEM_TEST_SUPERNODES") != NULL, "SHMEM_TEST_SUPERNODES is not set");
    hvar = shmem_calloc(64, sizeof *hvar);
    CHECK(hvar != NULL, "shmem_calloc");
    for (int pe = 0; pe < npes; pe++) {
        int shared = test_shares_memory(pe);
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
        int shared = test_shares_memory(pe);
        CHECK(svar[pe] == (shared ? 1000 + pe : 0) && hvar[pe] == (shared ? 2000 + pe : 0),
              "stores through shmem_ptr from PE %d: static %ld, heap %ld", pe, svar[pe], hvar[pe]);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("hosts_ptr: PE 0 has pointers to %d PEs, NULL for %d\n", nlocal, nremote);
    shmem_finalize();
    return 0;
}
