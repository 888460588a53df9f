/*
 * statics.c - the program's global and static variables after shmem_init:
 * initialized data keeps its values (the copy into the shared object),
 * library variables copied into the executable's bss keep working (stdout,
 * environ), a large bss array is reachable to its last byte on every PE
 * (shmem_ptr and put/get at both ends); the stack and the code are not.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

#define BIG (4u << 20)
static int answer = 12345;                  /* .data */
static double table[5] = {1.5, 2.5, 3.5, 4.5, 5.5};
int global_counter = 7;                     /* a global, not static */
static unsigned char big[BIG];              /* .bss */
static const char *greeting = "hello";      /* a pointer relocated at load */

int main(void)
{
    int me, npes, right, left;
    unsigned char b = 0;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    CHECK(answer == 12345 && table[4] == 5.5 && global_counter == 7, "initialized data changed");
    CHECK(strcmp(greeting, "hello") == 0, "a relocated pointer changed");
    CHECK(environ != NULL && getenv("PATH") != NULL, "environ lost");
    CHECK(setenv("SHMEM_TEST_VAR", "x", 1) == 0 && strcmp(getenv("SHMEM_TEST_VAR"), "x") == 0,
          "setenv after init");
    CHECK(fprintf(stdout, "%s", "") == 0 && fflush(stdout) == 0, "stdout lost");

    /* every PE's copy, through shmem_ptr where it shares memory (a get
     * elsewhere): the values are everyone's the same */
    for (int pe = 0; pe < npes; pe++) {
        int *a = shmem_ptr(&answer, pe), shares = test_shares_memory(pe);
        CHECK(shares ? a != NULL && *a == 12345 : a == NULL && shmem_int_g(&answer, pe) == 12345,
              "shmem_ptr(&answer, %d)", pe);
        CHECK((shmem_ptr(&big[BIG - 1], pe) != NULL) == shares, "shmem_ptr(&big[last], %d)", pe);
    }
    /* both ends of a 4 MiB bss array */
    big[0] = (unsigned char)(me + 1);
    big[BIG - 1] = (unsigned char)(me + 101);
    global_counter = 0;
    shmem_barrier_all();
    shmem_getmem(&b, &big[BIG - 1], 1, right);
    CHECK(b == (unsigned char)(right + 101), "big[last] of PE %d is %d", right, b);
    shmem_getmem(&b, &big[0], 1, left);
    CHECK(b == (unsigned char)(left + 1), "big[0] of PE %d is %d", left, b);
    shmem_int_atomic_add(&global_counter, me + 1, 0);
    shmem_barrier_all();
    if (me == 0)
        CHECK(global_counter == npes * (npes + 1) / 2, "global counter %d", global_counter);
    shmem_barrier_all();
    /* a local variable and the program's code are not symmetric */
    CHECK(!shmem_addr_accessible(&b, right), "a stack variable is accessible");
    CHECK(!shmem_addr_accessible((const void *)(uintptr_t)main, right), "code is accessible");
    if (me == 0)
        printf("statics: data, bss, globals and copied library variables intact on %d PEs\n",
               npes);
    shmem_finalize();
    return 0;
}
