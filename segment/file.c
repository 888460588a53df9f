/*
 * file.c - objects as files "pshm.<uid>.<tag>.<kind><index>" in the
 * temporary directory (GASNET_TMPDIR, else TMPDIR, else /tmp), mapped shared.
 * Every open is relative to a descriptor of that directory and never follows
 * a link; attach also refuses FIFOs, devices and files of other users.
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

const char seg_be_name[] = "file";

const char *seg_be_store_advice(const pshm_cfg_t *cfg, char *buf, size_t n)
{
    if (sys_hugetlbfs_dir(cfg->tmpdir) != 0)
        snprintf(buf, n, "GASNET_TMPDIR (%s) is a hugetlbfs: free huge pages in the pool "
                 "(sysctl -w vm.nr_hugepages=<pages>), or set GASNET_TMPDIR to a tmpfs",
                 cfg->tmpdir);
    else
        snprintf(buf, n, "free space in GASNET_TMPDIR (%s), or set it to a larger file system",
                 cfg->tmpdir);
    return buf;
}

static const char advice[] =
    "free space there, set GASNET_TMPDIR to a larger file system (a tmpfs is fastest), "
    "or ask for a smaller segment or lower GASNET_MAX_SEGSIZE";

static int open_dir(const pshm_cfg_t *cfg)
{
    int dfd = open(cfg->tmpdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return pshm_err(-errno, "cannot open the temporary directory %s: %s; %s", cfg->tmpdir,
                        strerror(errno),
                        seg_open_advice(errno, "set GASNET_TMPDIR to a writable directory"));
    return dfd;
}

int seg_be_create(seg_obj_t *o, const pshm_cfg_t *cfg, const char *name, size_t len,
                  const seg_meta_t *hdr)
{
    char shown[PSHM_PATH_MAX + SEG_NAME_MAX];
    int dfd, fd, rc;

    if (name[0] == '/' || strlen(name) >= SEG_NAME_MAX)
        return pshm_err(-EINVAL, "bad object name \"%s\"", name);
    snprintf(shown, sizeof shown, "%s/%s", cfg->tmpdir, name);
    if ((dfd = open_dir(cfg)) < 0) return dfd;
    sigset_t mask;
    seg_create_begin(o, &mask);
    fd = openat(dfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) {
        snprintf(o->ref.name, sizeof o->ref.name, "%s", name);
        seg_fd_created(o, fd);
    }
    seg_create_end(o, &mask);
    if (fd < 0) {
        struct stat st;
        int known = errno == EEXIST && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
        rc = errno == EEXIST ? seg_exists_err("file", shown, known ? (long)st.st_uid : -1,
                                              known ? (unsigned)st.st_mode : 0)
                             : pshm_err(-errno, "cannot create %s: %s; %s", shown,
                                        strerror(errno),
                                        seg_open_advice(errno, "set GASNET_TMPDIR to a "
                                                               "writable directory"));
        close(dfd);
        return rc;
    }
    if ((rc = seg_fd_setup(o, fd, shown, cfg->tmpdir, len, advice, hdr, cfg->huge_advise)) < 0) {
        /* Name first: the guard may run until `named` is cleared below. */
        unlinkat(dfd, name, 0);
        close(fd);
        memset(o, 0, sizeof *o);
        o->fd = -1;
    }
    close(dfd);
    return rc;
}

int seg_be_attach(seg_obj_t *o, const pshm_cfg_t *cfg, const seg_ref_t *ref)
{
    char shown[PSHM_PATH_MAX + SEG_NAME_MAX];
    int dfd, fd, rc;

    snprintf(shown, sizeof shown, "%s/%.*s", cfg->tmpdir, SEG_NAME_MAX, ref->name);
    if ((rc = seg_name_check(ref->name, shown)) < 0) return rc;
    if (ref->name[0] == '/') return pshm_err(-EINVAL, "bad file object name \"%s\"", ref->name);
    if ((dfd = open_dir(cfg)) < 0) return dfd;
    /* O_NOFOLLOW: never a link; O_NONBLOCK: a FIFO must not hang the open. */
    fd = openat(dfd, ref->name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    close(dfd);
    if (fd < 0)
        return pshm_err(-errno, "cannot open %s of a peer: %s; %s", shown, strerror(errno),
                        seg_open_advice(errno, "was it removed by another program?"));
    return seg_fd_map_peer(o, fd, ref, shown);
}

int seg_be_unlink(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    return seg_fd_unlink(o, cfg->tmpdir);
}

void seg_be_unlink_signal(const seg_obj_t *o, const pshm_cfg_t *cfg)
{
    if (o->owner && o->named)
        (void)seg_fd_unlink_quiet(o, cfg->tmpdir);
}

void seg_be_release(seg_obj_t *o, const pshm_cfg_t *cfg) { seg_fd_release(o, cfg); }

int seg_be_avail(const pshm_cfg_t *cfg, uint64_t *bytes)
{
    uint64_t huge = sys_hugetlbfs_dir(cfg->tmpdir);
    struct statvfs sv;

    if (huge == 0)
        return seg_fs_avail(cfg->tmpdir, bytes);
    /* A hugetlbfs holds what the pool has free; its size= (f_blocks, 0 when
     * unset) may bound it further. */
    *bytes = sys_hugetlb_free(huge);
    if (statvfs(cfg->tmpdir, &sv) == 0 && sv.f_blocks != 0 &&
        (uint64_t)sv.f_bavail * sv.f_frsize < *bytes)
        *bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
    return 0;
}

uint64_t seg_be_obj_max(const pshm_cfg_t *cfg)
{
    (void)cfg;
    return UINT64_MAX;
}

int seg_be_remove_tag(const pshm_cfg_t *cfg, const char *tag, uint32_t nranks)
{
    (void)nranks;
    return seg_dir_remove_tag(cfg->tmpdir, tag);
}
