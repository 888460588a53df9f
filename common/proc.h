/*
 * proc.h - what /proc says about a process: its start time (recorded in an
 * object's header by the library), whether the one that created an object
 * still runs (pshm-cleanup, pshmrun's watchdog), this process's PID namespace.
 */
#ifndef PSHM_COMMON_PROC_H
#define PSHM_COMMON_PROC_H

#include <stdint.h>
#include <sys/types.h>

/* Start time of `pid` in clock ticks after boot (field 22 of /proc/PID/stat):
 * 0, -ESRCH (no such process) or -errno. */
int proc_pid_start(pid_t pid, uint64_t *start);
/* Is the process that started at `start` (0: unknown) still running as `pid`?
 * A zombie counts as dead; when /proc cannot tell, it counts as alive. */
enum { PROC_PID_ALIVE, PROC_PID_DEAD, PROC_PID_REUSED };
int proc_pid_state(pid_t pid, uint64_t start);
/* This process's PID namespace: the inode of /proc/self/ns/pid, 0 if unknown. */
uint64_t proc_pidns(void);

#endif
