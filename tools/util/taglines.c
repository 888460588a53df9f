/*
 * taglines.c - see taglines.h.
 */
#include "tools/util/taglines.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <unistd.h>

void taglines_open(taglines_t *t, int fd, int rank, int out)
{
    t->fd = fd;
    t->out = out;
    t->rank = rank;
    t->len = 0;
    t->buf = NULL;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* One line, prefixed, in one write (a piece at most TAGLINES_MAX long). A
 * reader that went away (EPIPE) loses the output; the job goes on. */
static void put_line(const taglines_t *t, const char *line, size_t n)
{
    static char out[TAGLINES_MAX + 32];
    size_t len = (size_t)snprintf(out, 32, "[%d] ", t->rank);

    memcpy(out + len, line, n);
    len += n;
    if (out[len - 1] != '\n')
        out[len++] = '\n';
    for (size_t done = 0; done < len;) {
        ssize_t k = write(t->out, out + done, len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return;
        done += (size_t)k;
    }
}

/* Writes the complete lines of buf and keeps the rest; `all`: the rest too. */
static void put_lines(taglines_t *t, bool all)
{
    size_t start = 0;
    for (size_t i = 0; i < t->len; i++)
        if (t->buf[i] == '\n') {
            put_line(t, t->buf + start, i + 1 - start);
            start = i + 1;
        }
    if (start < t->len && (all || (start == 0 && t->len == TAGLINES_MAX))) {
        put_line(t, t->buf + start, t->len - start);
        start = t->len;
    }
    memmove(t->buf, t->buf + start, t->len - start);
    t->len -= start;
}

static void close_stream(taglines_t *t)
{
    if (t->buf != NULL && t->len > 0)
        put_lines(t, true);
    close(t->fd);
    t->fd = -1;
    free(t->buf);
    t->buf = NULL;
    t->len = 0;
}

void taglines_read(taglines_t *t)
{
    if (t->fd < 0)
        return;
    if (t->buf == NULL && (t->buf = malloc(TAGLINES_MAX)) == NULL) {
        close_stream(t);   /* out of memory: the stream is dropped, the job goes on */
        return;
    }
    for (;;) {
        ssize_t k = read(t->fd, t->buf + t->len, TAGLINES_MAX - t->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (k <= 0) {
            close_stream(t);
            return;
        }
        t->len += (size_t)k;
        put_lines(t, false);
    }
}

void taglines_finish(taglines_t *t)
{
    taglines_read(t);   /* to end of file, or to what a leftover process has not written */
    if (t->fd >= 0)
        close_stream(t);
}
