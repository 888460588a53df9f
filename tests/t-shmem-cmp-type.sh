#!/bin/bash
# t-shmem-cmp-type - programs written for other implementations name the
# comparison's type shmem_cmp_t (a helper taking one and passing it on to
# shmem_test or shmem_wait_until, in C and with the type-generic forms):
# they build with oshcc, warning-free under -std=c11 -Wall -Wextra, and run.
. "$(dirname "$0")/shmem/driver.sh"
n=${PES%% *}

cat >"$T/cmp.c" <<'PROG'
#include <shmem.h>
#include <stdio.h>

static long flags[8];

/* Index of an entry of v[0..n) for which (v[i] cmp value) holds. */
static int first_match(long *v, int n, shmem_cmp_t cmp, long value)
{
    for (int i = 0;; i = (i + 1) % n)
        if (shmem_test(&v[i], cmp, value))
            return i;
}

int main(void)
{
    shmem_cmp_t ne = SHMEM_CMP_NE;
    int me, npes, i;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes > 8)
        shmem_global_exit(2);
    shmem_long_p(&flags[me], me + 1, (me + 1) % npes);
    i = first_match(flags, npes, ne, 0);
    shmem_long_wait_until(&flags[i], (shmem_cmp_t)SHMEM_CMP_EQ, i + 1);
    if (i != (me + npes - 1) % npes) {
        printf("PE %d: entry %d set, expected %d\n", me, i, (me + npes - 1) % npes);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
    if (me == 0)
        printf("cmp ok\n");
    shmem_finalize();
    return 0;
}
PROG
if "$B/shmem/oshcc" -std=c11 -Wall -Wextra -Werror -o "$T/cmp" "$T/cmp.c" 2>"$T/cc.err"; then
    ok "a program using shmem_cmp_t builds"
    job 0 "$n" "$T/cmp" && grep -qx "cmp ok" "$T/out" && ok "and runs" ||
        bad "no 'cmp ok' from the program: $(cat "$T/out")"
else
    bad "a program using shmem_cmp_t does not build:"
    sed 's/^/    /' "$T/cc.err"
fi
finish
