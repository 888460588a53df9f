/*
 * launch.c - helpers of the launcher protocol (pshm/launch.h) that both
 * sides use: the library (pshm/boot.c) and pshmrun. Like all of common/, it
 * is compiled into each apart, so that neither calls into the other; hence
 * no pshm_err here: callers say what failed.
 */
#include "pshm/launch.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>

int launch_random_tag(char *out, size_t n)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char r[LAUNCH_TAG_LEN];
    size_t got = 0;

    if (out == NULL || n <= LAUNCH_TAG_LEN)
        return -EINVAL;
    while (got < sizeof r) {
        ssize_t k = getrandom(r + got, sizeof r - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -errno;
        got += (size_t)k;
    }
    /* 256 % 36 leaves a small bias; tags need uniqueness, not uniformity. */
    for (size_t i = 0; i < LAUNCH_TAG_LEN; i++)
        out[i] = alphabet[r[i] % 36];
    out[LAUNCH_TAG_LEN] = '\0';
    return 0;
}

const char *launch_rank_list(const int32_t *ranks, int n, int total, char *buf, size_t len)
{
    size_t k = 0;

    buf[0] = '\0';
    for (int i = 0; i < n && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%d", i ? ", " : "", (int)ranks[i]);
    if (total > n && k < len)
        snprintf(buf + k, len - k, " and %d more", total - n);
    return buf;
}

const char *launch_describe(const launch_failed_t *f, char *buf, size_t n)
{
    int d = (int)f->detail;

    switch (f->how) {
    case LAUNCH_FAIL_EXIT: snprintf(buf, n, "exited with status %d", d); break;
    case LAUNCH_FAIL_SIGNAL:
        snprintf(buf, n, "killed by signal %d (%s)", d, strsignal(d));
        break;
    case LAUNCH_FAIL_ABORT: snprintf(buf, n, "called pshm_abort(%d)", d); break;
    case LAUNCH_FAIL_NOFINISH:
        snprintf(buf, n, "exited with status 0 without calling pshm_finalize");
        break;
    case LAUNCH_FAIL_STRANDED:
        snprintf(buf, n, "ended while the others wait for it in a bootstrap exchange");
        break;
    case LAUNCH_FAIL_PROTOCOL:
        snprintf(buf, n, "broke the bootstrap protocol (unequal exchange lengths or a "
                 "malformed message)");
        break;
    case LAUNCH_FAIL_LAUNCHER:
        if (d > 0)
            snprintf(buf, n, "pshmrun received signal %d (%s)", d, strsignal(d));
        else if (d == 0)
            snprintf(buf, n, "the job ran longer than pshmrun's --timeout");
        else
            snprintf(buf, n, "pshmrun could not start every process");
        break;
    case LAUNCH_FAIL_EXEC:
        snprintf(buf, n, "could not execute the program: %s", strerror(d));
        break;
    case LAUNCH_FAIL_INIT: snprintf(buf, n, "failed to start: its pshm_init failed"); break;
    case LAUNCH_FAIL_NOJOIN:
        snprintf(buf, n, "never called pshm_init while the others waited %s for it",
                 LAUNCH_ENV_BOOT_TIMEOUT);
        break;
    default: snprintf(buf, n, "failed with status %d", (int)f->status); break;
    }
    return buf;
}
