/*
 * proc.c - see proc.h.
 */
#include "common/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads the state (field 3) and start time (field 22) of /proc/PID/stat.
 * Returns 0, -ENOENT (no such process), -EIO (unparsable) or -errno. */
static int proc_stat(pid_t pid, char *state, uint64_t *start)
{
    char path[64], buf[1024];
    unsigned long long v = 0;
    char c = 0;
    int fd;
    ssize_t n;

    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -ENOENT; /* vanished while we read */
    buf[n] = 0;
    /* The command name (field 2) may hold spaces and ')': skip to the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p || sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
                            "%*d %*d %*d %*d %llu", &c, &v) != 2)
        return -EIO;
    *state = c;
    *start = v;
    return 0;
}

int proc_pid_start(pid_t pid, uint64_t *start)
{
    char state;
    int rc = proc_stat(pid, &state, start);

    return rc == -ENOENT ? -ESRCH : rc;
}

uint64_t proc_pidns(void)
{
    struct stat st;
    return stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

int proc_pid_state(pid_t pid, uint64_t start)
{
    uint64_t now_start = 0;
    char state = 0;
    int rc;

    if (pid <= 0)
        return PROC_PID_DEAD;
    rc = proc_stat(pid, &state, &now_start);
    if (rc == -ENOENT)
        return PROC_PID_DEAD;
    if (rc == -EIO)
        return PROC_PID_ALIVE; /* cannot tell: never act on a guess */
    if (rc < 0) /* no /proc: the pid alone decides (EPERM: someone's live pid) */
        return kill(pid, 0) < 0 && errno == ESRCH ? PROC_PID_DEAD : PROC_PID_ALIVE;
    if (state == 'Z' || state == 'X')
        return PROC_PID_DEAD; /* a zombie has released its mappings */
    if (start != 0 && now_start != start)
        return PROC_PID_REUSED;
    return PROC_PID_ALIVE;
}
