/*
 * embed_fork.c - a "host runtime" that starts its own processes and gives
 * pshm its own collectives (see docs/embedding.md).
 *
 * The runtime here is small on purpose: the parent forks N ranks and serves
 * their exchanges over pipes (gather N contributions, send the concatenation
 * to all), which is what a real runtime does over its network. A rank that
 * dies closes its pipe: the parent sees EOF and ends the job, so no rank
 * waits forever.
 *
 * Build and run from the top of the build tree:
 *     cc -std=c11 -D_GNU_SOURCE -Ipshm -o embed_fork docs/examples/embed_fork.c libpshm.a -lpthread
 *     ./embed_fork 4
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pshm.h"

#define MAX_RANKS 64

typedef struct link {
    int up;     /* rank -> runtime */
    int down;   /* runtime -> rank */
    int size;
} link_t;

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -EPIPE;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t k = read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return k == 0 ? -ECONNRESET : -errno;   /* EOF: the other side is gone */
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* ---- the callbacks pshm calls: collective over all ranks ---- */

/* Sends (length, bytes) up, then waits for the runtime's reply: a length
 * word, sent only once every rank has arrived, then the concatenation. The
 * reply word is what makes a call wait for the others even when it carries
 * no data (a barrier). */
static int rt_exchange(void *arg, const void *mine, size_t len, void *all)
{
    link_t *l = arg;
    uint32_t n = (uint32_t)len, total;
    int rc;

    if ((rc = write_all(l->up, &n, sizeof n)) < 0 || (rc = write_all(l->up, mine, len)) < 0 ||
        (rc = read_all(l->down, &total, sizeof total)) < 0)
        return rc;
    if (total != len * (size_t)l->size)
        return -EPROTO;
    return read_all(l->down, all, total);
}

/* A barrier is an exchange of nothing: it returns once every rank's request
 * reached the runtime, because the reply is sent only then. */
static int rt_barrier(void *arg)
{
    return rt_exchange(arg, NULL, 0, NULL);
}

/* ---- one rank: an application on top of the runtime ---- */

static int run_rank(int rank, int size, link_t *l)
{
    pshm_bootstrap_t boot = { .rank = rank, .size = size, .exchange = rt_exchange,
                              .barrier = rt_barrier, .arg = l, .job_tag = NULL };
    pshm_init_attr_t attr = { .bootstrap = &boot };
    pshm_seginfo_t mine, peer;
    pshm_ctx_t *ctx;
    int right = (rank + 1) % size, got = -1, rc;

    if ((rc = pshm_init(&ctx, &attr)) < 0) {
        fprintf(stderr, "rank %d: pshm_init: %s\n", rank, pshm_last_error());
        return 1;
    }
    if ((rc = pshm_attach(ctx, 1 << 20)) < 0) {
        fprintf(stderr, "rank %d: pshm_attach: %s\n", rank, pshm_last_error());
        pshm_abort(ctx, 1);
    }
    /* Each rank writes its number at the start of its segment... */
    pshm_segment_info(ctx, rank, &mine);
    *(int *)mine.local_base = 1000 + rank;
    if ((rc = pshm_barrier(ctx)) < 0)
        goto fail;
    /* ...and reads its right neighbour's through shared memory, naming it by
     * the address the neighbour itself uses (owner_base). */
    bool local = pshm_is_local(ctx, right) == 1;
    if (local) {
        pshm_segment_info(ctx, right, &peer);
        if ((rc = pshm_get(ctx, right, &got, (void *)peer.owner_base, sizeof got)) < 0)
            goto fail;
        printf("rank %d of %d: rank %d's segment says %d\n", rank, size, right, got);
    } else {   /* another host (or --disable-pshm): the runtime's network reaches it */
        printf("rank %d of %d: rank %d is not on this host's shared memory\n", rank, size,
               right);
    }
    if ((rc = pshm_barrier(ctx)) < 0 || (rc = pshm_finalize(ctx)) < 0)
        goto fail;
    return !local || got == 1000 + right ? 0 : 1;
fail:
    fprintf(stderr, "rank %d: %s (%s)\n", rank, pshm_strerror(rc), pshm_last_error());
    return 1;
}

/* ---- the runtime: start the ranks, serve their exchanges ---- */

int main(int argc, char **argv)
{
    int size = argc > 1 ? atoi(argv[1]) : 4, status = 0;
    int up[MAX_RANKS], down[MAX_RANKS];
    pid_t pid[MAX_RANKS];
    char *all = NULL;

    if (size < 1 || size > MAX_RANKS) {
        fprintf(stderr, "usage: %s [1..%d]\n", argv[0], MAX_RANKS);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    for (int r = 0; r < size; r++) {
        int u[2], d[2];
        if (pipe(u) < 0 || pipe(d) < 0)
            return perror("pipe"), 1;
        fflush(NULL);
        pid[r] = fork();
        if (pid[r] < 0)
            return perror("fork"), 1;
        if (pid[r] == 0) {
            link_t l = { u[1], d[0], size };
            close(u[0]);
            close(d[1]);
            for (int q = 0; q < r; q++) {   /* not the earlier ranks' pipes */
                close(up[q]);
                close(down[q]);
            }
            int st = run_rank(r, size, &l);
            fflush(stdout);
            _exit(st);
        }
        close(u[1]);
        close(d[0]);
        up[r] = u[0];
        down[r] = d[1];
    }

    /* Rounds: every rank sends (length, bytes); once all have, each gets
     * (total length, concatenation), so no rank leaves a round early.
     * EOF from rank 0 at the start of a round with every rank done is the
     * normal end; EOF anywhere else means a rank died. */
    for (;;) {
        uint32_t len = 0, l;
        int eof = 0;
        for (int r = 0; r < size; r++) {
            int rc = read_all(up[r], &l, sizeof l);
            if (rc < 0) {
                eof++;
                continue;
            }
            if (r > 0 && eof == 0 && l != len) {
                fprintf(stderr, "runtime: ranks disagree on the exchange length\n");
                goto kill_all;
            }
            len = l;
        }
        if (eof == size)
            break;   /* everyone finished */
        free(all);
        all = malloc((size_t)len * size + 1);
        if (eof > 0 || all == NULL)
            goto kill_all;
        for (int r = 0; r < size; r++)
            if (read_all(up[r], all + (size_t)r * len, len) < 0)
                goto kill_all;
        uint32_t total = len * (uint32_t)size;
        for (int r = 0; r < size; r++)
            if (write_all(down[r], &total, sizeof total) < 0 || write_all(down[r], all, total) < 0)
                goto kill_all;
    }
    goto wait_all;
kill_all:
    fprintf(stderr, "runtime: a rank failed; ending the job\n");
    for (int r = 0; r < size; r++)
        kill(pid[r], SIGKILL);
wait_all:
    free(all);
    for (int r = 0; r < size; r++) {
        int st;
        waitpid(pid[r], &st, 0);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            status = 1;
    }
    return status;
}
