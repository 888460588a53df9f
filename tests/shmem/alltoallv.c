/*
 * alltoallv: shmemx_alltoallv over active sets (the whole job, every other
 * PE, all but PE 0) and shmemx_team_alltoallv over SHMEM_TEAM_WORLD and a
 * strided team, three rounds each on two alternating pSyncs. Member i
 * sends member j cnt(i, j, round) longs (0 to 6, so some sends are empty),
 * its blocks laid out in its source in reverse order; member j receives
 * member i's at t_offsets[i] = slot i of 8 longs (with i's reversed too).
 * Checked element by element against the same computation: every received
 * long, every t_sizes entry, and the untouched filler around each block.
 * With an argument, a misuse (see misuse()).
 */
#include <shmemx.h>

#include "check.h"

#include <string.h>

enum { SLOT = 8, FILL = -7 };

static long psync[2][SHMEM_ALLTOALL_SYNC_SIZE];
/* Room for the whole job, allocated once by every PE (shmem_malloc is
 * collective): a round over n members uses the first n slots. */
static long *src, *dst;
static size_t *tbl;
static int cap;

static size_t cnt(int i, int j, int r)
{
    return (size_t)((i * 3 + j * 5 + r) % 7);
}

static long val(int i, int j, size_t e, int r)
{
    return (long)i * 100000 + (long)j * 1000 + (long)e * 10 + r;
}

/* One round over the n members; me is my index, team or set the group. */
static void round_of(const char *what, int n, int me, shmem_team_t team, int start, int lstride,
                     int r)
{
    size_t *t_off = tbl, *t_size = tbl + cap, *s_off = tbl + 2 * cap, *s_size = tbl + 3 * cap;
    size_t at = 0;

    for (int j = n - 1; j >= 0; j--) { /* blocks in reverse order */
        s_off[j] = at * sizeof(long);
        s_size[j] = cnt(me, j, r) * sizeof(long);
        for (size_t e = 0; e < cnt(me, j, r); e++)
            src[at++] = val(me, j, e, r);
    }
    for (int i = 0; i < n; i++) {
        t_off[i] = (size_t)(n - 1 - i) * SLOT * sizeof(long);
        t_size[i] = 999;
    }
    for (int k = 0; k < n * SLOT; k++)
        dst[k] = FILL;
    if (team != SHMEM_TEAM_INVALID)
        shmemx_team_alltoallv(dst, t_off, t_size, src, s_off, s_size, team, psync[r % 2]);
    else
        shmemx_alltoallv(dst, t_off, t_size, src, s_off, s_size, start, lstride, n,
                         psync[r % 2]);
    for (int i = 0; i < n; i++) {
        const long *blk = dst + (size_t)(n - 1 - i) * SLOT;
        size_t c = cnt(i, me, r);

        CHECK(t_size[i] == c * sizeof(long), "%s round %d: t_sizes[%d] = %zu, expected %zu",
              what, r, i, t_size[i], c * sizeof(long));
        for (size_t e = 0; e < SLOT; e++) {
            long want = e < c ? val(i, me, e, r) : FILL;
            CHECK(blk[e] == want, "%s round %d: from member %d, element %zu = %ld, expected %ld",
                  what, r, i, e, blk[e], want);
        }
    }
    /* The next round's tables and buffers may be written only when every
     * member is done reading these. */
    if (team != SHMEM_TEAM_INVALID)
        shmem_team_sync(team);
    else
        shmem_sync((int)start, lstride, n, psync[(r + 1) % 2]);
}

/* alltoallv badoffset: member 0 names a source range past the heap for
 * member 1; alltoallv badset: PE_size 0. Both end the job with the call's
 * message. */
static void misuse(const char *how, int npes)
{
    size_t *t_off = tbl, *t_size = tbl + cap, *s_off = tbl + 2 * cap, *s_size = tbl + 3 * cap;

    for (int j = 0; j < npes; j++) {
        s_off[j] = t_off[j] = 0;
        s_size[j] = sizeof(long);
    }
    if (strcmp(how, "badoffset") == 0 && shmem_my_pe() == 0)
        s_off[1] = (size_t)1 << 40;
    shmem_barrier_all();
    shmemx_alltoallv(dst, t_off, t_size, src, s_off, s_size, 0, 0,
                     strcmp(how, "badset") == 0 ? 0 : npes, psync[0]);
    printf("FAIL: PE %d: shmemx_alltoallv returned from %s\n", shmem_my_pe(), how);
    shmem_global_exit(1);
}

int main(int argc, char **argv)
{
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes(), sets = 0, teams = 0;
    for (int k = 0; k < 2 * SHMEM_ALLTOALL_SYNC_SIZE; k++)
        psync[k / SHMEM_ALLTOALL_SYNC_SIZE][k % SHMEM_ALLTOALL_SYNC_SIZE] = SHMEM_SYNC_VALUE;
    cap = npes;
    src = shmem_malloc((size_t)cap * SLOT * sizeof(long));
    dst = shmem_malloc((size_t)cap * SLOT * sizeof(long));
    tbl = shmem_malloc(4 * (size_t)cap * sizeof(size_t));
    CHECK(src && dst && tbl, "no heap for %d PEs", npes);
    shmem_barrier_all();
    if (argc > 1)
        misuse(argv[1], npes);

    /* Active sets: the whole job; every other PE from 0; all but PE 0. */
    for (int r = 0; r < 3; r++) {
        round_of("whole job", npes, me, SHMEM_TEAM_INVALID, 0, 0, r);
        sets++;
        int half = (npes + 1) / 2;
        if (me % 2 == 0)
            round_of("even PEs", half, me / 2, SHMEM_TEAM_INVALID, 0, 1, r);
        shmem_barrier_all();
        if (npes > 1 && me > 0)
            round_of("PEs 1..", npes - 1, me - 1, SHMEM_TEAM_INVALID, 1, 0, r);
        shmem_barrier_all();
    }
    /* Teams: WORLD, and the odd PEs in reverse (stride -2 from the last). */
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    int last_odd = npes % 2 == 0 ? npes - 1 : npes - 2;
    if (npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, last_odd, -2, (last_odd + 1) / 2, NULL, 0, &odd);
    for (int r = 0; r < 3; r++) {
        round_of("SHMEM_TEAM_WORLD", npes, me, SHMEM_TEAM_WORLD, 0, 0, r);
        teams++;
        if (odd != SHMEM_TEAM_INVALID)
            round_of("odd PEs, reversed", shmem_team_n_pes(odd), shmem_team_my_pe(odd), odd, 0, 0, r);
        shmem_barrier_all();
    }
    if (odd != SHMEM_TEAM_INVALID)
        shmem_team_destroy(odd);
    shmem_free(tbl);
    shmem_free(dst);
    shmem_free(src);
    if (me == 0)
        printf("alltoallv: %d PEs: %d rounds over active sets, %d over teams, every element as "
               "sent\n", npes, sets, teams);
    shmem_finalize();
    return 0;
}
