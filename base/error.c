/*
 * error.c - error codes and the per-thread explanation of the last failure.
 *
 * The explanation is thread-local so that threads of a PSHM_INIT_THREADS
 * process do not overwrite each other's messages; it is the only state of
 * the library that is not in the context.
 */
#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define ERRMSG_MAX PSHM_ERRMSG_MAX

static _Thread_local char errmsg[ERRMSG_MAX];

int pshm_err(int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof errmsg, fmt, ap);
    va_end(ap);
    return err;
}

int pshm_err_prefix(int err, const char *fmt, ...)
{
    char old[ERRMSG_MAX];
    size_t n, m;
    va_list ap;

    memcpy(old, errmsg, sizeof old);
    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof errmsg, fmt, ap);
    va_end(ap);
    n = strlen(errmsg);
    m = strlen(old);
    /* "<prefix>: <old>", cut to the buffer (copied by hand: the cut is meant). */
    if (m > 0 && n + 3 < sizeof errmsg) {
        memcpy(errmsg + n, ": ", 2);
        n += 2;
        if (m > sizeof errmsg - 1 - n)
            m = sizeof errmsg - 1 - n;
        memcpy(errmsg + n, old, m);
        errmsg[n + m] = '\0';
    }
    return err;
}

void pshm_err_clear(void) { errmsg[0] = '\0'; }

const char *pshm_last_error(void) { return errmsg; }

int pshm_set_error(int err, const char *fmt, ...)
{
    va_list ap;

    if (fmt == NULL)
        return pshm_err(err, "(a bootstrap callback set no text)");
    va_start(ap, fmt);
    vsnprintf(errmsg, sizeof errmsg, fmt, ap);
    va_end(ap);
    return err;
}

const char *pshm_fmt_size(char *buf, size_t n, uint64_t bytes)
{
    return fmt_size(buf, n, bytes);
}

/* The library's own meanings of the codes it returns, where strerror's text
 * would mislead (ESRCH is "No such process" there). */
const char *pshm_strerror(int err)
{
    if (err < 0)
        err = -err;
    switch (err) {
    case 0: return "success";
    case ESRCH: return "a peer process died";
    case ECANCELED: return "the job was aborted";
    case ECONNRESET: return "the job is over (the launcher ended it or went away)";
    case ETIMEDOUT: return "timed out: other processes of the job did not arrive in time";
    case EHOSTUNREACH: return "rank is not reachable through shared memory";
    case EAGAIN: return "no room now (PSHM_IMMEDIATE)";
    case EALREADY: return "already initialized";
    case EPROTO: return "malformed or unexpected active message";
    case ENOSPC: return "not enough space in the backing store";
    case EFAULT: return "address outside the segment";
    case EXDEV: return "processes of one host are in different namespaces";
    default: return strerror(err);
    }
}
