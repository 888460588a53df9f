/*
 * boot.c - how the processes of a job find each other.
 *
 * Three bootstraps, all behind boot_t's exchange/barrier pair so that the
 * rest of the library never asks which one it has:
 *   BOOT_CALLBACKS  the embedding runtime's own collectives (pshm_bootstrap_t)
 *   BOOT_LAUNCHER   a socket to pshmrun (protocol in launch.h)
 *   BOOT_SINGLE     a job of one process
 * The launcher's socket is used by boot_exchange() directly, so a boot_t may
 * be copied by value.
 */
#include "internal.h"
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ tags */

/* A fresh random tag, with the message set on failure. */
static int random_tag(char *out, size_t n)
{
    int rc = launch_random_tag(out, n);

    if (rc < 0)
        return pshm_err(rc, "cannot draw a random job tag: getrandom: %s", strerror(-rc));
    return 0;
}

/* ---------------------------------------------------------------- single */

static int single_exchange(void *arg, const void *mine, size_t len, void *all)
{
    (void)arg;
    if (len > 0)
        memmove(all, mine, len);
    return 0;
}

static int single_barrier(void *arg)
{
    (void)arg;
    return 0;
}

/* -------------------------------------------------------------- launcher */

/* Sends every byte of iov (header + payload) to pshmrun; never raises SIGPIPE. */
static int send_all(int fd, struct iovec *iov, int iovcnt)
{
    while (iovcnt > 0) {
        struct msghdr mh = { .msg_iov = iov, .msg_iovlen = (size_t)iovcnt };
        ssize_t k = sendmsg(fd, &mh, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EPIPE || errno == ECONNRESET))
            return pshm_err(-ECONNRESET, "lost the connection to pshmrun (it exited or was "
                            "killed); the job is over");
        if (k < 0)
            return pshm_err(-errno, "cannot write to pshmrun's socket (descriptor %d): %s",
                            fd, strerror(errno));
        /* Skip what was written, possibly ending inside an iovec. */
        while (iovcnt > 0 && (size_t)k >= iov->iov_len) {
            k -= (ssize_t)iov->iov_len;
            iov++;
            iovcnt--;
        }
        if (iovcnt > 0) {
            iov->iov_base = (char *)iov->iov_base + k;
            iov->iov_len -= (size_t)k;
        }
    }
    return 0;
}

static int send_msg(int fd, uint32_t type, const void *data, uint32_t len)
{
    launch_msg_t h = { .type = type, .len = len };
    struct iovec iov[2] = { { &h, sizeof h }, { (void *)data, len } };
    return send_all(fd, iov, len > 0 ? 2 : 1);
}

/* Reads exactly n bytes; EOF means pshmrun is gone (or closed us out). */
static int recv_all(int fd, void *buf, size_t n)
{
    char *p = buf;

    while (n > 0) {
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k == 0 || (k < 0 && errno == ECONNRESET))
            return pshm_err(-ECONNRESET, "lost the connection to pshmrun (it exited or was "
                            "killed); the job is over");
        if (k < 0)
            return pshm_err(-errno, "cannot read pshmrun's socket (descriptor %d): %s", fd,
                            strerror(errno));
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int launcher_exchange(int fd, int size, const void *mine, size_t len, void *all)
{
    launch_msg_t h;
    int rc;

    if (len > LAUNCH_MAX_EXCHANGE)
        return pshm_err(-EMSGSIZE, "bootstrap exchange of %zu bytes per rank exceeds the "
                        "launcher's limit of %u bytes", len, LAUNCH_MAX_EXCHANGE);
    rc = send_msg(fd, LAUNCH_EXCHANGE, mine, (uint32_t)len);
    if (rc < 0)
        return rc;
    rc = recv_all(fd, &h, sizeof h);
    if (rc < 0)
        return rc;
    if (h.type == LAUNCH_FAILED && h.len >= sizeof(launch_failed_t) &&
        h.len <= sizeof(launch_failed_t) + 4 * LAUNCH_NOJOIN_LIST_MAX) {
        launch_failed_t f;
        int32_t miss[LAUNCH_NOJOIN_LIST_MAX];
        int nmiss = (int)((h.len - sizeof f) / 4);
        char why[160], list[LAUNCH_NOJOIN_LIST_MAX * 12 + 32];
        rc = recv_all(fd, &f, sizeof f);
        if (rc == 0 && nmiss > 0)
            rc = recv_all(fd, miss, (size_t)nmiss * 4);
        if (rc < 0)
            return rc;
        if (f.how == LAUNCH_FAIL_NOJOIN && nmiss > 0)
            return pshm_err(-ETIMEDOUT, "the job is over: rank%s %s never called pshm_init; "
                            "pshmrun waited %s for %s (raise it for a slow start; 0 waits "
                            "forever)", f.detail > 1 ? "s" : "",
                            launch_rank_list(miss, nmiss, f.detail, list, sizeof list),
                            LAUNCH_ENV_BOOT_TIMEOUT, f.detail > 1 ? "them" : "it");
        launch_describe(&f, why, sizeof why);
        if (f.rank >= 0)
            return pshm_err(-ECONNRESET, "the job is over: rank %d failed (%s)",
                            (int)f.rank, why);
        return pshm_err(-ECONNRESET, "the job is over: pshmrun ended it (%s)", why);
    }
    if (h.type != LAUNCH_EXCHANGE)
        return pshm_err(-EPROTO, "unexpected message type %u from pshmrun during a bootstrap "
                        "exchange; is pshmrun from the same version of pshm?", h.type);
    if (h.len != (uint64_t)size * len)
        return pshm_err(-EPROTO, "pshmrun answered a bootstrap exchange of %zu bytes per rank "
                        "with %u bytes instead of %llu; is pshmrun from the same version of "
                        "pshm?", len, h.len, (unsigned long long)size * len);
    return recv_all(fd, all, h.len);
}

/* Strictly parses one of pshmrun's variables; the message names it. */
static int env_int(const char *var, uint64_t min, uint64_t max, int *out)
{
    const char *s = getenv(var);
    uint64_t v;
    int rc;

    if (s == NULL)
        return pshm_err(-EINVAL, "%s is not set but %s is: the environment of pshmrun is "
                        "incomplete; start the program with pshmrun or unset %s",
                        var, LAUNCH_ENV_FD, LAUNCH_ENV_FD);
    rc = env_parse_u64(var, s, min, max, &v);
    if (rc < 0)
        return rc;
    *out = (int)v;
    return 0;
}

static int open_launcher(boot_t *b)
{
    const char *tag = getenv(LAUNCH_ENV_TAG);
    int32_t pid = (int32_t)getpid();
    struct stat st;
    int fd, rc, fl;

    if ((rc = env_int(LAUNCH_ENV_SIZE, 1, LAUNCH_MAX_PROCS, &b->size)) < 0 ||
        (rc = env_int(LAUNCH_ENV_RANK, 0, (uint64_t)b->size - 1, &b->rank)) < 0 ||
        (rc = env_int(LAUNCH_ENV_FD, 0, INT32_MAX, &fd)) < 0)
        return rc;
    if (!tag_valid(tag))
        return pshm_err(-EINVAL, "%s=\"%s\" is not a job tag (1 to %d characters a-z, 0-9); "
                        "start the program with pshmrun", LAUNCH_ENV_TAG, tag ? tag : "",
                        PSHM_TAG_MAX);
    if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode))
        return pshm_err(-EINVAL, "%s=%d is not a socket in this process (%s); was the "
                        "program started by pshmrun, or did it inherit pshmrun's environment?",
                        LAUNCH_ENV_FD, fd, errno == EBADF ? "no such descriptor" : "another "
                        "kind of file");
    /* Programs this one starts must not inherit the job's socket. */
    fl = fcntl(fd, F_GETFD);
    if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
        return pshm_err(-errno, "cannot set close-on-exec on %s=%d: %s", LAUNCH_ENV_FD, fd,
                        strerror(errno));
    strcpy(b->tag, tag);
    b->kind = BOOT_LAUNCHER;
    b->fd = fd;
    /* exchange/barrier stay NULL: boot_exchange() talks to the socket. */
    return send_msg(fd, LAUNCH_HELLO, &pid, sizeof pid);
}

/* ------------------------------------------------------------- callbacks */

/* Everyone contributes a candidate tag; all take rank 0's (one exchange). */
static int agree_tag(boot_t *b)
{
    enum { W = PSHM_TAG_MAX + 1 };
    char mine[W] = { 0 };
    char *all;
    int rc;

    rc = random_tag(mine, sizeof mine);
    if (rc < 0)
        return rc;
    all = calloc((size_t)b->size, W);
    if (all == NULL)
        return pshm_err(-ENOMEM, "cannot allocate %zu bytes to agree on a job tag",
                        (size_t)b->size * W);
    rc = boot_exchange(b, mine, W, all);
    if (rc < 0)
        pshm_err_prefix(rc, "agreeing on a job tag");
    else if (all[W - 1] != '\0' || !tag_valid(all)) {
        rc = pshm_err(-EPROTO, "the bootstrap's exchange returned a malformed job tag from "
                      "rank 0: check that it gathers `len` bytes per rank in rank order");
    } else {
        strcpy(b->tag, all);
    }
    free(all);
    return rc;
}

static int open_callbacks(boot_t *b, const pshm_bootstrap_t *u)
{
    if (u->size < 1 || u->size > INT32_MAX / 2)
        return pshm_err(-EINVAL, "bootstrap: size %d is not a job size (1 or more)", u->size);
    if (u->rank < 0 || u->rank >= u->size)
        return pshm_err(-EINVAL, "bootstrap: rank %d is outside 0..%d (size %d)", u->rank,
                        u->size - 1, u->size);
    if (u->exchange == NULL || u->barrier == NULL)
        return pshm_err(-EINVAL, "bootstrap: the %s callback is NULL; both exchange and "
                        "barrier are required", u->exchange == NULL ? "exchange" : "barrier");
    if (u->job_tag != NULL && !tag_valid(u->job_tag))
        return pshm_err(-EINVAL, "bootstrap: job_tag \"%.32s\" is not 1 to %d characters "
                        "a-z, 0-9; pass such a tag or NULL to let rank 0 draw one",
                        u->job_tag, PSHM_TAG_MAX);
    b->kind = BOOT_CALLBACKS;
    b->rank = u->rank;
    b->size = u->size;
    b->exchange = u->exchange;
    b->barrier = u->barrier;
    b->arg = u->arg;
    if (u->job_tag != NULL) {
        strcpy(b->tag, u->job_tag);
        return 0;
    }
    return agree_tag(b);
}

/* ------------------------------------------------------------------ API */

int boot_open(boot_t *b, const pshm_bootstrap_t *user)
{
    int rc;

    memset(b, 0, sizeof *b);
    b->fd = -1;
    if (user != NULL)
        rc = open_callbacks(b, user);
    else if (getenv(LAUNCH_ENV_FD) != NULL)
        rc = open_launcher(b);
    else {
        b->kind = BOOT_SINGLE;
        b->size = 1;
        b->exchange = single_exchange;
        b->barrier = single_barrier;
        rc = random_tag(b->tag, sizeof b->tag);
    }
    if (rc < 0) {
        memset(b, 0, sizeof *b);
        b->fd = -1;
    }
    return rc;
}

int boot_exchange(boot_t *b, const void *mine, size_t len, void *all)
{
    int rc;

    if ((uint64_t)len * (uint64_t)b->size > UINT32_MAX)
        return pshm_err(-EMSGSIZE, "bootstrap exchange of %zu bytes from each of %d ranks "
                        "exceeds 4 GiB in total", len, b->size);
    if (b->kind == BOOT_LAUNCHER)
        return launcher_exchange(b->fd, b->size, mine, len, all);
    pshm_err_clear();
    rc = b->exchange(b->arg, mine, len, all);
    if (rc < 0 && b->kind == BOOT_CALLBACKS && pshm_last_error()[0] == '\0')
        pshm_err(rc, "the bootstrap's exchange callback failed (%s) for %zu bytes per rank",
                 strerror(-rc), len);
    else if (rc > 0)
        rc = pshm_err(-EPROTO, "the bootstrap's exchange callback returned %d; it must "
                      "return 0 or a negative errno", rc);
    return rc;
}

int boot_barrier(boot_t *b)
{
    int rc;

    if (b->kind == BOOT_LAUNCHER)
        return launcher_exchange(b->fd, b->size, NULL, 0, NULL);
    pshm_err_clear();
    rc = b->barrier(b->arg);
    if (rc < 0 && b->kind == BOOT_CALLBACKS && pshm_last_error()[0] == '\0')
        pshm_err(rc, "the bootstrap's barrier callback failed (%s)", strerror(-rc));
    else if (rc > 0)
        rc = pshm_err(-EPROTO, "the bootstrap's barrier callback returned %d; it must "
                      "return 0 or a negative errno", rc);
    return rc;
}

void boot_finish(boot_t *b)
{
    if (b->kind == BOOT_LAUNCHER && b->fd >= 0)
        (void)send_msg(b->fd, LAUNCH_FINISH, NULL, 0);
}

void boot_init_failed(boot_t *b, const char *msg)
{
    if (b->kind == BOOT_LAUNCHER && b->fd >= 0)
        (void)send_msg(b->fd, LAUNCH_INITFAIL, msg, (uint32_t)strlen(msg) + 1);
}

void boot_abort(boot_t *b, int code, const char *reason)
{
    char msg[sizeof(int32_t) + PSHM_ABORT_REASON_MAX + 1];
    int32_t c = code;
    size_t n = 0;

    if (b->kind != BOOT_LAUNCHER || b->fd < 0)
        return;
    memcpy(msg, &c, sizeof c);
    if (reason != NULL) {
        n = strnlen(reason, PSHM_ABORT_REASON_MAX);
        memcpy(msg + sizeof c, reason, n);
        msg[sizeof c + n++] = '\0';
    }
    (void)send_msg(b->fd, LAUNCH_ABORT, msg, (uint32_t)(sizeof c + n));
}

/* The launcher's socket stays open: it is the process's link to pshmrun
 * until it exits (a later pshm_init says HELLO again on it), and its EOF is
 * how pshmrun learns the process is gone. */
void boot_close(boot_t *b)
{
    b->fd = -1;
    b->kind = BOOT_SINGLE;
}
