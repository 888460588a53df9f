/*
 * sysvscan.c - see sysvscan.h.
 */
#include "common/sysvscan.h"

#include <errno.h>
#include <stdio.h>

int sysv_each(int (*fn)(const sysv_ent_t *e, void *arg), void *arg)
{
    char line[512];
    FILE *f = fopen("/proc/sysvipc/shm", "re");
    int rc = 0;

    if (f == NULL)
        return -errno;
    /*       key      shmid perms      size  cpid  lpid nattch   uid ... */
    while (rc == 0 && fgets(line, sizeof line, f)) {
        long long key;
        int shmid, cpid, lpid;
        unsigned perms, uid;
        unsigned long long size;
        unsigned long nattch;
        if (sscanf(line, "%lld %d %o %llu %d %d %lu %u", &key, &shmid, &perms, &size, &cpid,
                   &lpid, &nattch, &uid) != 8)
            continue; /* the title line */
        sysv_ent_t e = { key, shmid, perms, size, (pid_t)cpid, nattch, (uid_t)uid };
        rc = fn(&e, arg);
    }
    fclose(f);
    return rc;
}
