/*
 * t-am-scale: the AM network at 16 and at 64 processes, far more than this
 * machine's CPUs, with a queue depth of 1 (GASNET_PSHMNET_QUEUE_DEPTH=1):
 * every process sends every process (itself included), interleaved, in
 * each of ROUNDS rounds, a Short of a count that changes with the round,
 * a Medium of the largest payload (answered by a Medium reply of the
 * largest payload) and a Long into a region of the receiver's segment of
 * its own. Every message is counted once per sender, comes in its sender's
 * order (one sequence number over a sender's requests, another over its
 * replies), and every argument and payload byte is compared. Then
 * barriers: before barrier i each process writes i into its segment, after
 * it reads a different peer's word with pshm_get, which must be at least i.
 */
#include "amtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2
#define LONG_BYTES 8192
#define BARRIERS 20
#define MAXP 64 /* the segment holds the Longs of this many senders */
enum { H_SHORT = 10, H_MED, H_LONG, H_MREP };

static pshm_ctx_t *ctx;
static int me, np;
static size_t maxmed;
static uint8_t *pat[4];     /* my Medium payloads: seed me * 8 + k */
static uint32_t *next_req;  /* per sender: the request sequence expected next */
static uint32_t *next_rep;  /* per replier: the reply sequence expected next */
static long *kinds;         /* per sender: Shorts, Mediums, Longs, replies seen (4 each) */
static long bad;
static char why[256];
static char *seg;           /* my segment (local view) */

static void fail(const char *fmt, int src, uint32_t seq, long off)
{
    if (bad++ == 0) snprintf(why, sizeof why, fmt, src, seq, off);
}

/* Sender src's request number seq: in order, and each counted once. */
static void request_seen(int src, uint32_t seq, int kind)
{
    if (src < 0 || src >= np) {
        fail("a request from rank %d (out of range), seq %u%.0ld", src, seq, 0);
        return;
    }
    if (seq != next_req[src]) fail("rank %d's request %u came out of order (%ld expected)", src,
                                   seq, (long)next_req[src]);
    next_req[src] = seq + 1;
    kinds[4 * src + kind]++;
}

static uint32_t short_arg(int src, uint32_t seq, unsigned i) { return (uint32_t)src * 7919u + seq * 31u + i; }

static void h_short(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    (void)p, (void)n;
    int src = pshm_token_source(t);
    if (na < 2 || a[0] != (uint32_t)src) {
        fail("a Short from rank %d without its rank in args[0] (seq %u, %ld args)", src,
             na ? a[0] : 0, (long)na);
        return;
    }
    if (na != 2 + a[1] % (PSHM_AM_MAX_ARGS - 1))
        fail("rank %d's Short %u has %ld arguments", src, a[1], (long)na);
    for (unsigned i = 2; i < na; i++)
        if (a[i] != short_arg(src, a[1], i)) fail("rank %d's Short %u: argument %ld is wrong", src, a[1], i);
    request_seen(src, a[1], 0);
}

static void h_med(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    long off;
    (void)na;
    if (n != maxmed) fail("rank %d's Medium %u: %ld bytes", src, a[1], (long)n);
    else if ((off = am_diff(p, n, (uint32_t)src * 8 + a[1] % 4)) >= 0)
        fail("rank %d's Medium %u: byte %ld is wrong", src, a[1], off);
    request_seen(src, a[1], 1);
    /* args: my rank and my reply sequence to src (counted by kinds) */
    uint32_t r[2] = {(uint32_t)me, (uint32_t)kinds[4 * src + 1] - 1};
    int rc = pshm_am_reply_medium(t, H_MREP, pat[r[1] % 4], maxmed, 0, 2, r);
    if (rc < 0) fail("the Medium reply to rank %d failed (%u, %ld)", src, 0, rc);
}

static void h_mrep(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    long off;
    (void)na;
    if (src < 0 || src >= np || a[0] != (uint32_t)src) {
        fail("a reply from rank %d names rank %u%.0ld", src, a[0], 0);
        return;
    }
    if (a[1] != next_rep[src]) fail("rank %d's reply %u came out of order (%ld expected)", src, a[1],
                                    (long)next_rep[src]);
    next_rep[src] = a[1] + 1;
    if (n != maxmed) fail("rank %d's reply %u: %ld bytes", src, a[1], (long)n);
    else if ((off = am_diff(p, n, (uint32_t)src * 8 + a[1] % 4)) >= 0)
        fail("rank %d's reply %u: byte %ld is wrong", src, a[1], off);
    kinds[4 * src + 3]++;
}

/* The Long of round r from src lands in region r * np + src of my segment. */
static size_t long_off(int src, uint32_t round) { return ((size_t)round * (size_t)np + (size_t)src) * LONG_BYTES; }

static void h_long(pshm_token_t *t, void *p, size_t n, const uint32_t *a, unsigned na)
{
    int src = pshm_token_source(t);
    long off;
    (void)na;
    if (n != LONG_BYTES || (char *)p != seg + long_off(src, a[2]))
        fail("rank %d's Long %u landed at the wrong place or size (%ld bytes)", src, a[1], (long)n);
    else if ((off = am_diff(p, n, (uint32_t)src * 1000 + a[2])) >= 0)
        fail("rank %d's Long %u: byte %ld is wrong", src, a[1], off);
    request_seen(src, a[1], 2);
}

static int all_seen(void *arg)
{
    (void)arg;
    for (int s = 0; s < np; s++)
        if (kinds[4 * s] < ROUNDS || kinds[4 * s + 1] < ROUNDS || kinds[4 * s + 2] < ROUNDS ||
            kinds[4 * s + 3] < ROUNDS)
            return bad != 0;
    return 1;
}

static int job(void)
{
    ctx = am_setup(0, (size_t)ROUNDS * MAXP * LONG_BYTES + 4096);
    me = pshm_rank(ctx), np = pshm_size(ctx);
    CHECK(np <= MAXP);
    maxmed = pshm_am_max_medium(ctx);
    pshm_handler_entry_t tab[] = {{H_SHORT, h_short, PSHM_AM_ANY_NARGS}, {H_MED, h_med, 2},
                                  {H_LONG, h_long, 3}, {H_MREP, h_mrep, 2}};
    CHECK_OK(pshm_am_register(ctx, tab, 4));
    next_req = calloc((size_t)np, sizeof *next_req);
    next_rep = calloc((size_t)np, sizeof *next_rep);
    kinds = calloc(4 * (size_t)np, sizeof *kinds);
    uint8_t *lsrc = malloc((size_t)ROUNDS * LONG_BYTES);
    CHECK(next_req && next_rep && kinds && lsrc);
    for (int k = 0; k < 4; k++) {
        CHECK((pat[k] = malloc(maxmed)) != NULL);
        am_fill(pat[k], maxmed, (uint32_t)me * 8 + (uint32_t)k);
    }
    for (uint32_t r = 0; r < ROUNDS; r++) am_fill(lsrc + r * LONG_BYTES, LONG_BYTES, (uint32_t)me * 1000 + r);
    pshm_seginfo_t si;
    CHECK_OK(pshm_segment_info(ctx, me, &si));
    seg = si.local_base;
    CHECK_OK(pshm_barrier(ctx));

    /* One sequence over my requests to each destination. */
    uint32_t *seq = calloc((size_t)np, sizeof *seq);
    CHECK(seq != NULL);
    for (uint32_t r = 0; r < ROUNDS; r++)
        for (int k = 0; k < np; k++) {
            int d = (me + k) % np;
            pshm_seginfo_t di;
            uint32_t a[PSHM_AM_MAX_ARGS] = {(uint32_t)me, seq[d]};
            unsigned na = 2 + seq[d] % (PSHM_AM_MAX_ARGS - 1);
            for (unsigned i = 2; i < na; i++) a[i] = short_arg(me, seq[d], i);
            CHECK_OK(pshm_am_request_short(ctx, d, H_SHORT, 0, na, a));
            seq[d]++;
            a[1] = seq[d];
            CHECK_OK(pshm_am_request_medium(ctx, d, H_MED, pat[seq[d] % 4], maxmed, 0, 2, a));
            seq[d]++;
            a[1] = seq[d], a[2] = r;
            CHECK_OK(pshm_segment_info(ctx, d, &di));
            CHECK_OK(pshm_am_request_long(ctx, d, H_LONG, lsrc + r * LONG_BYTES, LONG_BYTES,
                                          (char *)di.owner_base + long_off(me, r), 0, 3, a));
            seq[d]++;
        }
    CHECK_OK(pshm_wait_until(ctx, all_seen, NULL));
    CHECK_OK(pshm_barrier(ctx));
    if (bad) {
        fprintf(stderr, "FAIL rank %d of %d: %ld wrong messages; the first: %s\n", me, np, bad, why);
        return T_FAIL;
    }
    for (int s = 0; s < np; s++)
        for (int k = 0; k < 4; k++)
            if (kinds[4 * s + k] != ROUNDS) {
                fprintf(stderr, "FAIL rank %d of %d: %ld %s from rank %d, expected %d\n", me, np,
                        kinds[4 * s + k], (const char *[]){"Shorts", "Mediums", "Longs", "replies"}[k],
                        s, ROUNDS);
                return T_FAIL;
            }
    if (me == 0)
        printf("%d processes, queue depth 1: %d Shorts, Mediums of %zu bytes (each with a reply of "
               "as many) and Longs of %d bytes from every process to every process, each counted "
               "once, in order, every byte right\n", np, ROUNDS, maxmed, LONG_BYTES);

    /* Barriers: nobody leaves barrier i before everybody wrote i. */
    volatile uint64_t *word = (volatile uint64_t *)(seg + (size_t)ROUNDS * (size_t)np * LONG_BYTES);
    for (uint64_t i = 1; i <= BARRIERS; i++) {
        *word = i;
        CHECK_OK(pshm_barrier(ctx));
        int peer = (me + (int)i) % np;
        uint64_t got;
        pshm_seginfo_t pi;
        CHECK_OK(pshm_segment_info(ctx, peer, &pi));
        CHECK_OK(pshm_get(ctx, peer, &got, (char *)pi.owner_base + (size_t)ROUNDS * (size_t)np * LONG_BYTES,
                          sizeof got));
        if (got < i) {
            fprintf(stderr, "FAIL rank %d of %d: left barrier %llu while rank %d had written %llu\n", me,
                    np, (unsigned long long)i, peer, (unsigned long long)got);
            return T_FAIL;
        }
    }
    CHECK_OK(pshm_barrier(ctx));
    if (me == 0) printf("%d processes: %d barriers, nobody left one early\n", np, BARRIERS);
    CHECK_OK(pshm_finalize(ctx));
    return T_PASS;
}

/* SysV: a job of P takes P + 1 segment ids (a segment per process and the
 * AM region) of the machine's SHMMNI; those already in use are not free. */
static int sysv_ids_free(void)
{
    FILE *f = fopen("/proc/sys/kernel/shmmni", "r");
    long mni = -1, used = -1;
    char line[512];
    if (f) {
        if (fscanf(f, "%ld", &mni) != 1) mni = -1;
        fclose(f);
    }
    if ((f = fopen("/proc/sysvipc/shm", "r")) != NULL) {
        while (fgets(line, sizeof line, f)) used++; /* less the header */
        fclose(f);
    }
    return mni < 0 || used < 0 ? -1 : (int)(mni - used);
}

int main(int argc, char **argv)
{
    static const int sizes[] = {16, 64};
    if (am_no_peers()) return T_SKIP;
    if (!getenv("PSHM_RANK") && strcmp(pshm_build_info()->backend, "sysv") == 0) {
        int free_ids = sysv_ids_free();
        if (free_ids >= 0 && free_ids < 64 + 1) {
            printf("skip: the job of 64 processes needs 65 SysV segment ids, %d are free "
                   "(kernel.shmmni less those in use: ipcs -l, ipcs -m)\n", free_ids);
            return T_SKIP;
        }
    }
    if (getenv("PSHM_RANK")) return job();
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "1", 1);
    (void)argc;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int rc = th_launch(1, argv, sizes[i]);
        if (rc != T_PASS) {
            fprintf(stderr, "FAIL: the job of %d processes ended with %d\n", sizes[i], rc);
            return T_FAIL;
        }
    }
    return T_PASS;
}
