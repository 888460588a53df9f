/*
 * sysvscan.h - the SysV shared-memory segments of this IPC namespace, as
 * /proc/sysvipc/shm lists them (the sysv backend and pshm-info count them,
 * pshm-cleanup looks for pshm's among them).
 */
#ifndef PSHM_COMMON_SYSVSCAN_H
#define PSHM_COMMON_SYSVSCAN_H

#include <stdint.h>
#include <sys/types.h>

typedef struct sysv_ent {
    int64_t key;
    int shmid;
    unsigned perms;           /* mode bits, and SHM_DEST once removed */
    uint64_t size;
    pid_t cpid;               /* creator */
    unsigned long nattch;
    uid_t uid;
} sysv_ent_t;
/* Calls fn for every segment; stops at fn's first non-zero return and
 * returns it. Returns 0 after the last, or -errno if the list cannot be read. */
int sysv_each(int (*fn)(const sysv_ent_t *e, void *arg), void *arg);

#endif
