/*
 * nscheck.c - the processes of a supernode must see each other's pids (and,
 * with SysV, each other's segments): refuse a supernode that spans PID
 * namespaces, or IPC namespaces with the sysv backend.
 *
 * Containers that share /dev/shm and a boot id look like one host, yet a pid
 * from another PID namespace names another process here (or none): liveness
 * would watch the wrong process (a dead peer never noticed, a live one
 * declared dead). A mechanism that crosses namespaces (a lock or heartbeat
 * per process in shared memory) would cost every backend a second way of
 * watching peers for a placement that is rare and easy to fix at launch
 * time; so the job fails at init, on every rank, saying what to change.
 * SysV ids are per IPC namespace: a peer's shmid would attach whatever
 * segment has that id here.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct ns_rec {
    uint64_t pid_dev, pid_ino;  /* /proc/self/ns/pid; 0 if it cannot be read */
    uint64_t ipc_dev, ipc_ino;  /* /proc/self/ns/ipc */
} ns_rec_t;

static void ns_read(const char *path, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    *dev = *ino = 0;
    if (stat(path, &st) == 0) {
        *dev = (uint64_t)st.st_dev;
        *ino = (uint64_t)st.st_ino;
    }
}

static int ns_mismatch(const ns_rec_t *all, int a, int b, bool pid)
{
    uint64_t ia = pid ? all[a].pid_ino : all[a].ipc_ino, ib = pid ? all[b].pid_ino : all[b].ipc_ino;
    if (pid)
        return pshm_err(-EXDEV, "ranks %d and %d share a host but not a PID namespace "
                        "(pid:[%llu], pid:[%llu]): pshm cannot watch a peer across them; run "
                        "them in one (docker --pid=host or --pid=container:NAME) or give each "
                        "its own PSHM_HOST_ID", a, b, (unsigned long long)ia,
                        (unsigned long long)ib);
    return pshm_err(-EXDEV, "ranks %d and %d share a host but not an IPC namespace "
                    "(ipc:[%llu], ipc:[%llu]): their SysV segments are invisible to each "
                    "other; run them in one (docker --ipc=host or --ipc=container:NAME), use "
                    "the posix or file backend, or give each its own PSHM_HOST_ID", a, b,
                    (unsigned long long)ia, (unsigned long long)ib);
}

int ns_check(pshm_ctx_t *ctx)
{
    const nodemap_t *nm = &ctx->nm;
    ns_rec_t mine, *all;
    int rc, *first;

    if (nm->node_count == ctx->size)
        return 0; /* every supernode has one process: nothing to compare */
    ns_read("/proc/self/ns/pid", &mine.pid_dev, &mine.pid_ino);
    ns_read("/proc/self/ns/ipc", &mine.ipc_dev, &mine.ipc_ino);
    all = calloc((size_t)ctx->size, sizeof *all);
    first = malloc((size_t)nm->node_count * sizeof *first);
    if (all == NULL || first == NULL) {
        free(all);
        free(first);
        return pshm_err(-ENOMEM, "out of memory for the namespaces of %d ranks", ctx->size);
    }
    rc = boot_exchange(ctx->boot, &mine, sizeof mine, all);
    for (int i = 0; i < nm->node_count; i++)
        first[i] = -1;
    /* Every rank judges every supernode, so all fail alike, naming the same pair. */
    for (int r = 0; rc == 0 && r < ctx->size; r++) {
        int f = first[nm->node_of[r]];
        if (f < 0) {
            first[nm->node_of[r]] = r;
            continue;
        }
        if (all[r].pid_dev != all[f].pid_dev || all[r].pid_ino != all[f].pid_ino)
            rc = ns_mismatch(all, f, r, true);
        else if (PSHM_BACKEND_SYSV &&
                 (all[r].ipc_dev != all[f].ipc_dev || all[r].ipc_ino != all[f].ipc_ino))
            rc = ns_mismatch(all, f, r, false);
    }
    free(all);
    free(first);
    return rc;
}
