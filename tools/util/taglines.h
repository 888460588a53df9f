/*
 * taglines.h - pshmrun --tag-output: reads what a process writes to one of
 * its output streams and writes it on, line by line, each line prefixed with
 * "[RANK] " and written whole, so that lines of different processes never
 * mix. Only pshmrun's one thread writes, so whole writes are enough.
 */
#ifndef PSHM_TOOLS_TAGLINES_H
#define PSHM_TOOLS_TAGLINES_H

#include <stddef.h>

/* A line longer than this is written in pieces, each one prefixed. */
#define TAGLINES_MAX 65536

typedef struct taglines {
    int fd;          /* read end of the process's stream; -1 when closed */
    int out;         /* where its lines go (STDOUT_FILENO, STDERR_FILENO) */
    int rank;
    size_t len;      /* bytes of an unfinished line in buf */
    char *buf;       /* TAGLINES_MAX bytes, allocated on the first read */
} taglines_t;

/* Takes over the read end `fd` (made non-blocking). */
void taglines_open(taglines_t *t, int fd, int rank, int out);
/* Reads what is available without blocking and writes every complete line;
 * at end of file, writes an unfinished last line (with a newline) and closes. */
void taglines_read(taglines_t *t);
/* The process has ended: takes what is left in the stream, writes it, closes
 * (a no-op when already closed). */
void taglines_finish(taglines_t *t);

#endif
