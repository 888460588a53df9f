/*
 * posix.c - objects from shm_open(), named "/pshm.<uid>.<tag>.<kind><index>".
 * On Linux they are files of the tmpfs at /dev/shm, which is also where
 * seg_be_avail() and seg_be_remove_tag() look.
 */
#include "segment/backend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SHM_DIR "/dev/shm"

const char seg_be_name[] = "posix";

const char *seg_be_store_advice(const pshm_cfg_t *cfg, char *buf, size_t n)
{
    struct statvfs v;
    char a[32];

    (void)cfg;
    if (statvfs(SHM_DIR, &v) == 0)
        snprintf(buf, n, "free space in /dev/shm, or enlarge it beyond its %s by what is short "
                 "(mount -o remount,size=<bytes> /dev/shm; Docker: --shm-size)",
                 pshm_fmt_size(a, sizeof a, (uint64_t)v.f_blocks * v.f_frsize));
    else
        snprintf(buf, n, "free space in /dev/shm, or enlarge it by what is short (mount -o "
                 "remount,size=<bytes> /dev/shm; Docker: --shm-size)");
    return buf;
}

static const char advice[] =
    "enlarge /dev/shm (mount -o remount,size=<bytes> /dev/shm; in Docker: --shm-size), "
    "or ask for a smaller segment or lower GASNET_MAX_SEGSIZE";

int seg_be_create(seg_obj_t *o, const pshm_cfg_t *cfg, const char *name, size_t len,
                  const seg_meta_t *hdr)
{
    char pname[SEG_NAME_MAX];
    int fd, rc;

    if (snprintf(pname, sizeof pname, "/%s", name[0] == '/' ? name + 1 : name) >=
        (int)sizeof pname)
        return pshm_err(-ENAMETOOLONG, "object name %s is too long", name);
    sigset_t mask;
    seg_create_begin(o, &mask);
    fd = shm_open(pname, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        memcpy(o->ref.name, pname, sizeof pname);
        seg_fd_created(o, fd);
    }
    seg_create_end(o, &mask);
    if (fd < 0) {
        if (errno == EEXIST) {
            struct stat st;
            char path[SEG_NAME_MAX + 16];
            snprintf(path, sizeof path, SHM_DIR "%s", pname);
            int known = lstat(path, &st) == 0;
            return seg_exists_err("shared memory object", path, known ? (long)st.st_uid : -1,
                                  known ? (unsigned)st.st_mode : 0);
        }
        return pshm_err(-errno, "cannot create shared memory object %s in " SHM_DIR ": %s; %s",
                        pname, strerror(errno),
                        seg_open_advice(errno, "check that " SHM_DIR " is a writable tmpfs"));
    }
    if ((rc = seg_fd_setup(o, fd, pname, SHM_DIR, len, advice, hdr, cfg->huge_advise)) < 0) {
        /* Name first: the guard may run until `named` is cleared below. */
        shm_unlink(pname);
        close(fd);
        memset(o, 0, sizeof *o);
        o->fd = -1;
        return rc;
    }
    return 0;
}

int seg_be_attach(seg_obj_t *o, const pshm_cfg_t *cfg, const seg_ref_t *ref)
{
    int rc, fd;
    (void)cfg;
    if ((rc = seg_name_check(ref->name, ref->name)) < 0) return rc;
    /* O_NONBLOCK: a FIFO planted at the name must not hang us. */
    fd = shm_open(ref->name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
    if (fd < 0)
        return pshm_err(-errno, "cannot open shared memory object %s of a peer: %s; %s",
                        ref->name, strerror(errno),
                        seg_open_advice(errno, "was it removed by another program?"));
    return seg_fd_map_peer(o, fd, ref, ref->name);
}

int seg_be_unlink(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)cfg;
    return seg_fd_unlink(o, SHM_DIR);
}

void seg_be_unlink_signal(const seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)cfg;
    if (o->owner && o->named)
        (void)seg_fd_unlink_quiet(o, SHM_DIR);
}

void seg_be_release(seg_obj_t *o, const pshm_cfg_t *cfg) { seg_fd_release(o, cfg); }

int seg_be_avail(const pshm_cfg_t *cfg, uint64_t *bytes)
{
    (void)cfg;
    return seg_fs_avail(SHM_DIR, bytes);
}

uint64_t seg_be_obj_max(const pshm_cfg_t *cfg)
{
    (void)cfg;
    return UINT64_MAX;
}

int seg_be_remove_tag(const pshm_cfg_t *cfg, const char *tag, uint32_t nranks)
{
    (void)cfg;
    (void)nranks;
    return seg_dir_remove_tag(SHM_DIR, tag);
}
