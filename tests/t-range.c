/*
 * t-range: pshm_attach_range with 3 and 8 processes. Each process hands a
 * page-aligned static array (initialized data, so the copy is checked) to
 * pshm_attach_range; its bytes must be unchanged, at the same address; every
 * peer's copy is reached through pshm_range_info and written there, and the
 * owner sees the writes in its own array; atomic increments from every
 * process are counted exactly. The last rank gives an empty range. Also:
 * an unaligned address fails on every rank (-EINVAL, all ranks), a range
 * with a hole fails (-EFAULT), a second call fails (-EALREADY), the range
 * stays readable and writable after pshm_finalize, no name is left after
 * the call, nothing after the job.
 */
#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 3
#define PG 4096
#define NW (PAGES * PG / sizeof(uint64_t))

/* Initialized: lives in .data, so the copy into the shared object matters. */
static uint64_t area[NW] __attribute__((aligned(PG))) = { 0x1234567890abcdefull, 1, 2, 3 };

static int worker(void)
{
    pshm_ctx_t *ctx;
    pshm_seginfo_t info;
    const char *tag = getenv("PSHM_JOB_TAG");
    int n, rank, last;
    size_t len;
    void *hole;

    CHECK(tag != NULL);
    CHECK_OK(pshm_init(&ctx, NULL));
    rank = pshm_rank(ctx);
    n = pshm_size(ctx);
    last = n - 1;
    CHECK_OK(pshm_attach(ctx, 4096));
    for (size_t i = 4; i < NW; i++)
        area[i] = ((uint64_t)rank << 48) | i;

    /* Errors first: a failing rank makes every rank fail, with its reason. */
    CHECK_ERR(pshm_attach_range(ctx, (char *)area + (rank == n / 2 ? 8 : 0), sizeof area),
              -EINVAL);
    CHECK(strstr(pshm_last_error(), "not page aligned") != NULL);
    hole = mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(hole != MAP_FAILED);
    CHECK(munmap((char *)hole + PG, PG) == 0);
    CHECK_ERR(pshm_attach_range(ctx, rank == 0 ? hole : (void *)area, rank == 0 ? 3 * PG :
                                sizeof area), -EFAULT);
    CHECK(strstr(pshm_last_error(), "rank 0") != NULL);
    CHECK_OK(pshm_barrier(ctx)); /* every rank has removed its name by now */
    CHECK(th_count_objects(tag) == 0);
    CHECK_OK(pshm_barrier(ctx)); /* nobody creates the next objects while others count */
    CHECK_ERR(pshm_range_info(ctx, rank, &info), -ENOENT);

    /* rounded up to the pages; the last rank gives none (when not alone) */
    len = rank == last && n > 1 ? 0 : sizeof area - 100;
    CHECK_OK(pshm_attach_range(ctx, area, len));
    CHECK(th_count_objects(tag) == 0);
    CHECK_ERR(pshm_attach_range(ctx, area, sizeof area), -EALREADY);
    CHECK(area[0] == 0x1234567890abcdefull && area[1] == 1 && area[3] == 3);
    for (size_t i = 4; i < NW; i++)
        CHECK(area[i] == (((uint64_t)rank << 48) | i));
    CHECK_OK(pshm_range_info(ctx, rank, &info));
    CHECK(info.local_base == (void *)area && info.owner_base == (uintptr_t)area);
    CHECK(info.size == (rank == last && n > 1 ? 0 : sizeof area));
    CHECK_OK(pshm_barrier(ctx));

    /* Write word `rank + 8` of every peer's range; count on word 4. */
    for (int r = 0; r < (n > 1 ? last : 1); r++) {
        uint64_t *p;
        CHECK_OK(pshm_range_info(ctx, r, &info));
        CHECK(info.size == sizeof area);
        p = info.local_base;
        CHECK(p[0] == 0x1234567890abcdefull && p[5] == (((uint64_t)r << 48) | 5));
        p[8 + rank] = 0xfeed0000u + (uint64_t)rank;
        for (int k = 0; k < 1000; k++)
            __atomic_fetch_add(&p[4], 1, __ATOMIC_SEQ_CST);
    }
    CHECK_OK(pshm_range_info(ctx, last, &info));
    CHECK(info.size == (n > 1 ? 0 : sizeof area));
    CHECK_OK(pshm_barrier(ctx));
    if (rank != last || n == 1) {
        for (int r = 0; r < n; r++)
            CHECK(area[8 + r] == 0xfeed0000u + (uint64_t)r);
        CHECK(area[4] == (((uint64_t)rank << 48) | 4) + 1000u * (uint64_t)n);
    }
    CHECK_OK(pshm_finalize(ctx));
    /* The range is this process's memory still. */
    area[NW - 1] = 77;
    CHECK(area[NW - 1] == 77 && area[0] == 0x1234567890abcdefull);
    if (rank == 0)
        printf("%d processes: ranges kept in place, crossed, counted\n", n);
    return T_PASS;
}

int main(int argc, char **argv)
{
    static const int procs[] = { 3, 8 };

    if (getenv("PSHM_RANK") != NULL)
        return worker();
    if (strstr(pshm_version(), "(none backend)") != NULL) {
        int rc = th_launch(argc, argv, 1);
        return rc == 0 ? T_PASS : T_FAIL;
    }
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        int rc = th_launch(argc, argv, procs[i]);
        if (rc != 0) {
            fprintf(stderr, "FAIL: the job of %d processes exited with %d\n", procs[i], rc);
            return T_FAIL;
        }
    }
    return T_PASS;
}
