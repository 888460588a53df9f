#!/bin/bash
# t-shmem-sync-vector - the 1.6 forms of the array waits and tests: the
# _vector forms take their comparison values as const (a const array passes
# warning-free under -Werror, by name and through the C11 generic macros,
# which still select on ivars), and test_all / test_all_vector return 1 when
# the test set is empty (nelems 0, or every element excluded by status).
. "$(dirname "$0")/shmem/driver.sh"
n=${PES%% *}

cat >"$T/vec.c" <<'PROG'
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

static int flags[4];
static const int want[4] = {1, 1, 1, 1};
static const int none[4] = {1, 1, 1, 1};   /* status: every element excluded */
static int fails;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL: %s\n", what);
        fails++;
    }
}

int main(void)
{
    size_t idx[4];
    int me;

    shmem_init();
    me = shmem_my_pe();
    for (int i = 0; i < 4; i++)
        shmem_int_p(&flags[i], 1, (me + 1) % shmem_n_pes());
    shmem_barrier_all();
    /* const cmp_values, by name and through the generic macros */
    shmem_int_wait_until_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, want);
    shmem_wait_until_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, want);
    check(shmem_int_wait_until_any_vector(flags, 4, NULL, SHMEM_CMP_EQ, want) < 4, "wait_until_any_vector");
    check(shmem_wait_until_any_vector(flags, 4, NULL, SHMEM_CMP_EQ, want) < 4, "generic wait_until_any_vector");
    check(shmem_int_wait_until_some_vector(flags, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4, "wait_until_some_vector");
    check(shmem_wait_until_some_vector(flags, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4, "generic wait_until_some_vector");
    check(shmem_int_test_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, want) == 1, "test_all_vector");
    check(shmem_test_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, want) == 1, "generic test_all_vector");
    check(shmem_int_test_any_vector(flags, 4, NULL, SHMEM_CMP_EQ, want) < 4, "test_any_vector");
    check(shmem_test_any_vector(flags, 4, NULL, SHMEM_CMP_EQ, want) < 4, "generic test_any_vector");
    check(shmem_int_test_some_vector(flags, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4, "test_some_vector");
    check(shmem_test_some_vector(flags, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4, "generic test_some_vector");
    /* the generic macros select on ivars: a long array takes the long form */
    static long lflags[2] = {5, 5};
    static const long lwant[2] = {5, 5};
    check(shmem_test_all_vector(lflags, 2, NULL, SHMEM_CMP_EQ, lwant) == 1, "generic test_all_vector on long");
    /* an empty test set: test_all is 1 (nothing fails), any SIZE_MAX, some 0 */
    check(shmem_int_test_all(flags, 0, NULL, SHMEM_CMP_EQ, 7) == 1, "test_all, nelems 0");
    check(shmem_int_test_all(flags, 4, none, SHMEM_CMP_EQ, 7) == 1, "test_all, all excluded");
    check(shmem_int_test_all_vector(flags, 0, NULL, SHMEM_CMP_EQ, want) == 1, "test_all_vector, nelems 0");
    check(shmem_int_test_all_vector(flags, 4, none, SHMEM_CMP_NE, want) == 1, "test_all_vector, all excluded");
    check(shmem_int_test_all(flags, 4, NULL, SHMEM_CMP_EQ, 7) == 0, "test_all, none holds");
    check(shmem_int_test_any(flags, 4, none, SHMEM_CMP_EQ, 1) == SIZE_MAX, "test_any, all excluded");
    check(shmem_int_test_any_vector(flags, 0, NULL, SHMEM_CMP_EQ, want) == SIZE_MAX, "test_any_vector, nelems 0");
    check(shmem_int_test_some(flags, 4, idx, none, SHMEM_CMP_EQ, 1) == 0, "test_some, all excluded");
    check(shmem_int_wait_until_any(flags, 4, none, SHMEM_CMP_EQ, 7) == SIZE_MAX, "wait_until_any, all excluded");
    check(shmem_int_wait_until_some(flags, 0, idx, NULL, SHMEM_CMP_EQ, 7) == 0, "wait_until_some, nelems 0");
    shmem_int_wait_until_all(flags, 4, none, SHMEM_CMP_EQ, 7); /* returns at once */
    shmem_barrier_all();
    if (me == 0 && fails == 0)
        printf("vector ok\n");
    shmem_finalize();
    return fails != 0;
}
PROG
"$B/shmem/oshcc" -std=c11 -Wall -Wextra -Werror -o "$T/vec" "$T/vec.c" 2>"$T/cc.err" || {
    bad "a program passing const cmp_values does not build:"
    sed 's/^/    /' "$T/cc.err" | head -20
    finish
}
ok "const cmp_values build warning-free, by name and through the generic macros"
job 0 "$n" "$T/vec" || finish
grep -qx "vector ok" "$T/out" && ok "the calls and the empty sets give what 1.6 says" ||
    bad "no 'vector ok' from the program: $(cat "$T/out")"
finish
