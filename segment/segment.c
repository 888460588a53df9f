/*
 * segment.c - what every backend shares: names, headers, size limits, and the
 * helpers of the descriptor-based backends (posix, file).
 */
#include "segment/backend.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

static uint64_t page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (uint64_t)p : 4096;
}

int seg_fs_avail(const char *dir, uint64_t *bytes)
{
    struct statvfs sv;
    if (statvfs(dir, &sv) < 0)
        return pshm_err(-errno, "cannot query the free space of %s: %s", dir, strerror(errno));
    *bytes = (uint64_t)sv.f_bavail * (uint64_t)sv.f_frsize;
    return 0;
}

int seg_exists_err(const char *what, const char *name, long owner, unsigned mode)
{
    const char *kind = S_ISLNK(mode) ? "a symbolic link" : S_ISFIFO(mode) ? "a FIFO"
                     : S_ISDIR(mode) ? "a directory" : S_ISSOCK(mode) ? "a socket"
                     : S_ISCHR(mode) || S_ISBLK(mode) ? "a device node" : NULL;

    /* pshm-cleanup removes only the caller's objects: for another user's, its
     * advice would be wrong. Names carry our uid, so such an object was put
     * there on purpose, at a name that could be foreseen. */
    if (owner == SEG_OWNER_OTHER || (owner >= 0 && (uid_t)owner != geteuid())) {
        char who[32] = "another user";
        if (owner >= 0) snprintf(who, sizeof who, "uid %ld", owner);
        return pshm_err(-EEXIST,
                        "%s %s already exists and belongs to %s, not to this user (uid %u): "
                        "someone put it at a name of this job; it was not touched. Ask %s or "
                        "root to remove it, and use an unpredictable job tag (let pshm draw "
                        "one)", what, name, who, (unsigned)geteuid(), who);
    }
    if (kind != NULL)
        return pshm_err(-EEXIST,
                        "%s already exists at the name of %s and is %s, not a pshm object; it "
                        "was not touched, and pshm-cleanup leaves such things alone: remove it "
                        "by hand (rm %s) if nothing of yours needs it, or use another job tag",
                        name, what, kind, name);
    return pshm_err(-EEXIST,
                    "%s %s already exists (left by a job that died, or a job tag in use "
                    "twice); it was not touched: remove stale objects with pshm-cleanup",
                    what, name);
}

bool seg_meta_ok(const seg_meta_t *m, const char *tag)
{
    return !memcmp(m->magic, SEG_MAGIC, sizeof m->magic) && m->uid == (uint32_t)geteuid() &&
           strnlen(m->tag, sizeof m->tag) < sizeof m->tag && !strcmp(m->tag, tag);
}

int seg_name_check(const char *name, const char *shown)
{
    const char *base = name[0] == '/' ? name + 1 : name;
    if (strnlen(name, SEG_NAME_MAX) >= SEG_NAME_MAX || strncmp(base, "pshm", 4) ||
        strchr(base, '/'))
        return pshm_err(-EINVAL, "refusing to attach \"%.*s\": not the name of a pshm object",
                        SEG_NAME_MAX, shown);
    return 0;
}

/* ---------------------------------------------------------------- names */

int seg_make_name(char *out, size_t n, const char *tag, int kind, int index)
{
    if (!tag || !tag_valid(tag))
        return pshm_err(-EINVAL, "job tag \"%s\" is not valid: expected 1 to %d characters "
                        "of [a-z0-9]", tag ? tag : "(null)", PSHM_TAG_MAX);
    if ((kind != SEG_KIND_SEGMENT && kind != SEG_KIND_REGION && kind != SEG_KIND_RANGE) || index < 0)
        return pshm_err(-EINVAL, "bad object kind '%c' or index %d", kind, index);
    int len = snprintf(out, n, "pshm.%u.%s.%c%d", (unsigned)geteuid(), tag, kind, index);
    if (len < 0 || (size_t)len >= n)
        return pshm_err(-ENAMETOOLONG, "object name for tag %s does not fit %zu bytes", tag, n);
    return 0;
}

/* --------------------------------------------------------------- create */

int seg_create(seg_obj_t *o, const pshm_cfg_t *cfg, const char *tag, int kind, int index,
               int rank, uint32_t nranks, uint64_t user_len)
{
    char name[SEG_NAME_MAX], buf[32];
    uint64_t pg = page_size(), start = 0;
    int rc;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->ref.shmid = -1;
    if (user_len > (uint64_t)SIZE_MAX - SEG_HDR_SIZE - pg)
        return pshm_err(-ENOMEM, "a segment of %s cannot be mapped in this address space",
                        pshm_fmt_size(buf, sizeof buf, user_len));
    size_t len = SEG_HDR_SIZE + PSHM_ALIGN_UP(user_len, pg);
    if ((rc = seg_make_name(name, sizeof name, tag, kind, index)) < 0) return rc;
    if (seg_pid_start(getpid(), &start) < 0) { /* /proc missing: no recycled-pid check */
        start = 0;
        pshm_err_clear();
    }

    /* The header goes in before the storage is reserved (see seg_be_create);
     * name and magic are the backend's to fill. */
    seg_meta_t m;
    memset(&m, 0, sizeof m);
    m.version = SEG_META_VERSION;
    m.kind = (uint32_t)kind;
    m.uid = (uint32_t)geteuid();
    m.rank = rank;
    m.pid = (int32_t)getpid();
    m.nranks = nranks;
    m.pid_start = start;
    m.pidns = proc_pidns();
    m.created = (uint64_t)time(NULL);
    m.len = len;
    snprintf(m.tag, sizeof m.tag, "%s", tag);
    return seg_be_create(o, cfg, name, len, &m);
}

int seg_check_mapped(const seg_obj_t *o, const char *tag, int kind, uint64_t want_len)
{
    const seg_meta_t *m = o->addr;
    char a[32], b[32];

    if (!seg_meta_ok(m, tag) || m->kind != (uint32_t)kind)
        return pshm_err(-EINVAL, "%.*s carries no header of this job (tag %s): something "
                        "else is at its name", SEG_NAME_MAX, o->ref.name, tag);
    if (m->len != o->len)
        return pshm_err(-EINVAL, "%.*s is mapped with %s but its creator recorded %s",
                        SEG_NAME_MAX, o->ref.name, pshm_fmt_size(a, sizeof a, o->len),
                        pshm_fmt_size(b, sizeof b, m->len));
    /* A hugetlbfs file is sized in whole huge pages: the tail is unused. */
    if (want_len != 0 && o->len != (o->huge ? PSHM_ALIGN_UP(want_len, o->huge) : want_len))
        return pshm_err(-EINVAL, "%.*s holds %s where this process expects %s: the ranks "
                        "size it differently", SEG_NAME_MAX, o->ref.name,
                        pshm_fmt_size(a, sizeof a, o->len),
                        pshm_fmt_size(b, sizeof b, want_len));
    return 0;
}

/* The header to write: `hdr` named `name`, magic still zero. */
static void meta_named(seg_meta_t *out, const seg_meta_t *hdr, const char *name)
{
    *out = *hdr;
    memset(out->magic, 0, sizeof out->magic);
    snprintf(out->name, sizeof out->name, "%s", name);
}

void seg_meta_put(void *dst, const seg_meta_t *hdr, const char *name)
{
    seg_meta_t m;
    meta_named(&m, hdr, name);
    memcpy(dst, &m, sizeof m);
    /* pshm-cleanup may read the page at any time: the magic, which makes the
     * header valid, becomes visible after the fields it vouches for. */
    atomic_thread_fence(memory_order_release);
    memcpy(((seg_meta_t *)dst)->magic, SEG_MAGIC, sizeof m.magic);
}

/* ----------------------------------------------------------- size limit */

int seg_room_read(const pshm_cfg_t *cfg, seg_room_t *room)
{
    int rc;

    memset(room, 0, sizeof *room);
    if ((rc = seg_be_avail(cfg, &room->store)) < 0) return rc;
    room->obj_max = seg_be_obj_max(cfg);
    if (!cgroup_mem_room(&room->mem, &room->mem_limit, room->mem_where, sizeof room->mem_where))
        room->mem = UINT64_MAX;
    return 0;
}

int seg_max_size(const pshm_cfg_t *cfg, int node_size, int host_size, uint64_t reserved,
                 uint64_t *max)
{
    return seg_max_size_why(cfg, node_size, host_size, reserved, max, NULL, 0);
}

int seg_max_size_why(const pshm_cfg_t *cfg, int node_size, int host_size, uint64_t reserved,
                     uint64_t *max, char *why, size_t whylen)
{
    seg_room_t room;
    int rc = seg_room_read(cfg, &room);
    return rc < 0 ? rc : seg_max_size_room(cfg, node_size, host_size, reserved, &room, max, NULL,
                                           why, whylen);
}

/* Each of n processes' share of `total` once `reserved` is taken, less
 * its header page; UINT64_MAX stays "no limit". */
static uint64_t share(uint64_t total, uint64_t reserved, int n)
{
    if (total == UINT64_MAX) return UINT64_MAX;
    uint64_t each = total > reserved ? (total - reserved) / (uint64_t)n : 0;
    return each > SEG_HDR_SIZE ? each - SEG_HDR_SIZE : 0;
}

/* The limits on one process's segment, tightest first once sorted by
 * seg_max_size_room; each says what it is and how to raise it. */
enum { LIM_AS, LIM_ENV, LIM_OBJ, LIM_MEM, LIM_STORE, LIM_COUNT };

static void lim_why(int which, const pshm_cfg_t *cfg, const seg_room_t *room, uint64_t as,
                    uint64_t by_env, char *why, size_t n)
{
    char a[32], b[32], adv[PSHM_PATH_MAX + 160];
    switch (which) {
    case LIM_AS:
        snprintf(why, n, "the address space limit of the process (ulimit -v: %s, for every "
                 "segment of the supernode and the message queues); raise it (ulimit -v)",
                 pshm_fmt_size(a, sizeof a, as));
        break;
    case LIM_ENV:
        snprintf(why, n, "GASNET_MAX_SEGSIZE (%s each); raise it",
                 pshm_fmt_size(a, sizeof a, by_env));
        break;
    case LIM_OBJ:
        snprintf(why, n, "kernel.shmmax=%llu bytes, the largest SysV segment (header page "
                 "included); raise it (sysctl -w kernel.shmmax=<bytes>)",
                 (unsigned long long)room->obj_max);
        break;
    case LIM_MEM:
        snprintf(why, n, "the memory limit of the process's control group (%s in %s, %s of "
                 "it free), which shared memory is charged to; raise it",
                 pshm_fmt_size(a, sizeof a, room->mem_limit), room->mem_where,
                 pshm_fmt_size(b, sizeof b, room->mem));
        break;
    default:
        snprintf(why, n, "the room in the %s backend's store (%s free); %s", seg_be_name,
                 pshm_fmt_size(a, sizeof a, room->store),
                 seg_be_store_advice(cfg, adv, sizeof adv));
        break;
    }
}

int seg_max_size_room(const pshm_cfg_t *cfg, int node_size, int host_size, uint64_t reserved,
                      const seg_room_t *room, uint64_t *max, int *err, char *why, size_t whylen)
{
    char a[32], b[32], w[PSHM_PATH_MAX + 400];
    uint64_t pg = page_size(), phys = sys_phys_mem(), as = UINT64_MAX, each[LIM_COUNT];
    struct rlimit rl;
    int bind = LIM_ENV;

    if (node_size < 1 || host_size < node_size)
        return pshm_err(-EINVAL, "seg_max_size: node size %d, host size %d", node_size,
                        host_size);
    const segsize_spec_t *s = &cfg->max_segsize;
    each[LIM_ENV] = s->bytes ? s->bytes : (uint64_t)(s->fraction * (double)phys);
    /* "/h" is the host's budget: all its processes share it, whatever the
     * supernodes GASNET_SUPERNODE_MAXSIZE cuts the host into. */
    if (s->per == 'h') each[LIM_ENV] /= (uint64_t)host_size;
    /* Every process maps every segment of its supernode and the AM region. */
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) as = (uint64_t)rl.rlim_cur;
    each[LIM_AS] = share(as, reserved, node_size);
    /* SysV: shmmax bounds one segment (header page included), not the sum. */
    each[LIM_OBJ] = room->obj_max == UINT64_MAX ? UINT64_MAX
                    : room->obj_max > SEG_HDR_SIZE ? room->obj_max - SEG_HDR_SIZE : 0;
    /* A memory cgroup is charged for the pages of shared memory its processes
     * reserve: the supernode's segments and region (assumed in one cgroup). */
    each[LIM_MEM] = share(room->mem, reserved, node_size);
    each[LIM_STORE] = share(room->store, reserved, node_size);
    /* A hugetlbfs sizes every object in whole huge pages: the region's and
     * each segment's rounding come out of the store too. */
    uint64_t huge = PSHM_BACKEND_FILE ? sys_hugetlbfs_dir(cfg->tmpdir) : 0;
    if (huge != 0 && room->store != UINT64_MAX) {
        uint64_t e = share(room->store, PSHM_ALIGN_UP(reserved, huge), node_size) + SEG_HDR_SIZE;
        each[LIM_STORE] = e >= huge ? e - e % huge - SEG_HDR_SIZE : 0;
    }

    if (reserved > room->obj_max) {
        lim_why(LIM_OBJ, cfg, room, as, each[LIM_ENV], w, sizeof w);
        return pshm_err(-ENOSPC, "the message queues of %d processes take one object of %s, "
                        "more than %s; or lower GASNET_PSHMNET_QUEUE_DEPTH or "
                        "GASNET_PSHMNET_QUEUE_MEMORY", node_size,
                        pshm_fmt_size(a, sizeof a, reserved), w);
    }
    /* The binding limit, in the order a user would look when two tie. */
    static const int order[] = { LIM_AS, LIM_ENV, LIM_OBJ, LIM_MEM, LIM_STORE };
    for (size_t i = 0; i < PSHM_ARRAY_LEN(order); i++)
        if (each[order[i]] < each[bind]) bind = order[i];
    uint64_t m = each[bind] - each[bind] % pg;
    if (err != NULL) *err = bind == LIM_AS || bind == LIM_MEM ? -ENOMEM : -ENOSPC;
    lim_why(bind, cfg, room, as, each[LIM_ENV], w, sizeof w);
    if (m < pg) {
        /* The other limits too, only those that are set ("no limit" is no figure). */
        static const char *const names[LIM_COUNT] = {
            "the address space (ulimit -v)", "GASNET_MAX_SEGSIZE", "kernel.shmmax",
            "the memory cgroup", "the store" };
        char others[400] = "", *o = others;
        for (int i = 0; i < LIM_COUNT; i++) {
            if (i == bind || each[i] == UINT64_MAX) continue;
            o += snprintf(o, (size_t)(others + sizeof others - o), "%s%s %s each",
                          others[0] ? ", " : "; otherwise ", names[i],
                          pshm_fmt_size(a, sizeof a, each[i]));
            if (o >= others + sizeof others) break;
        }
        return pshm_err(bind == LIM_AS || bind == LIM_MEM ? -ENOMEM : -ENOSPC,
                        "no room for a segment of even one page for each of %d processes "
                        "(%s of the room goes to the message queues): the limit is %s%s",
                        node_size, pshm_fmt_size(b, sizeof b, reserved), w, others);
    }
    if (why != NULL) snprintf(why, whylen, "%s", w);
    *max = m;
    return 0;
}

/* ------------------------------------------------------------ pid start */

int seg_pid_start(pid_t pid, uint64_t *start)
{
    int rc = proc_pid_start(pid, start);

    if (rc == -ESRCH)
        return pshm_err(-ESRCH, "process %d does not exist (/proc/%d/stat)", (int)pid, (int)pid);
    if (rc < 0)
        return pshm_err(rc, "cannot read the start time of process %d from /proc/%d/stat: %s",
                        (int)pid, (int)pid, strerror(-rc));
    return 0;
}

/* ---------------------------------------------- descriptor-based objects */

static int map_fd(seg_obj_t *o, int fd, size_t len, const char *name)
{
    char buf[32];
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return pshm_err(-errno, "cannot map %s of %s: %s; check the address space limit "
                        "(ulimit -v) or ask for a smaller segment",
                        pshm_fmt_size(buf, sizeof buf, len), name, strerror(errno));
    o->addr = p;
    o->len = len;
    return 0;
}

static int reserve_err(int err, const char *name, const char *dir, uint64_t len, uint64_t avail,
                       const char *advice)
{
    char a[32], b[32];
    pshm_fmt_size(a, sizeof a, len);
    pshm_fmt_size(b, sizeof b, avail);
    if (err == -ENOSPC || err == -EFBIG || err == -EDQUOT)
        return pshm_err(-ENOSPC, "cannot reserve %s for %s in %s: only %s free; %s", a, name, dir,
                        b, advice);
    return pshm_err(err, "cannot reserve %s for %s in %s (%s free): %s", a, name, dir, b,
                    strerror(-err));
}

/* Sizes the new file to its header page and writes the header there: body,
 * then magic (two writes, in this order, so a reader never sees a magic
 * vouching for fields not yet written). */
static int write_header_fd(int fd, const char *name, const char *dir, const seg_meta_t *hdr,
                           const char *ref_name)
{
    seg_meta_t m;
    meta_named(&m, hdr, ref_name);
    if (ftruncate(fd, SEG_HDR_SIZE) < 0 || pwrite(fd, &m, sizeof m, 0) != (ssize_t)sizeof m ||
        pwrite(fd, SEG_MAGIC, sizeof m.magic, 0) != (ssize_t)sizeof m.magic)
        return pshm_err(errno == ENOSPC ? -ENOSPC : -(errno ? errno : EIO),
                        "cannot write the header page of %s in %s: %s", name, dir,
                        strerror(errno ? errno : EIO));
    return 0;
}

/*
 * A file on a hugetlbfs (GASNET_TMPDIR there): sized in whole huge pages,
 * and written through its mapping only (it takes no write()). Mapping it
 * shared reserves every page in the pool, so a short pool is ENOSPC here
 * and never a SIGBUS later; the pages are zeroed at first touch. The
 * reservation is one count, taken at once: the header follows it (a
 * creator killed in between leaves a header-less file, which pshm-cleanup
 * removes once nobody holds it).
 */
static int setup_hugetlbfs(seg_obj_t *o, int fd, const char *name, const char *dir, size_t len,
                           uint64_t huge, const seg_meta_t *hdr)
{
    char a[32], b[32], c[32];
    seg_meta_t m = *hdr;

    if (hdr->kind == SEG_KIND_RANGE)
        return pshm_err(-EOPNOTSUPP, "cannot share a range through %s: GASNET_TMPDIR (%s) is a "
                        "hugetlbfs, whose mappings cannot be moved over a range of 4 KiB pages; "
                        "set GASNET_TMPDIR to a tmpfs for pshm_attach_range", name, dir);
    if (len > SIZE_MAX - huge)
        return pshm_err(-ENOMEM, "%s of %s cannot be mapped in this address space", name,
                        pshm_fmt_size(a, sizeof a, len));
    len = PSHM_ALIGN_UP(len, huge);
    m.len = len; /* what peers map and check */
    uint64_t avail = sys_hugetlb_free(huge);
    void *p = MAP_FAILED;
    if (ftruncate(fd, (off_t)len) == 0)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        pshm_fmt_size(a, sizeof a, len);
        pshm_fmt_size(b, sizeof b, huge);
        pshm_fmt_size(c, sizeof c, avail);
        if (e == ENOMEM || e == ENOSPC)
            return pshm_err(-ENOSPC, "cannot reserve %s of %s huge pages for %s in the "
                            "hugetlbfs %s: the pool has %s free (or the mount's size= is "
                            "smaller); raise vm.nr_hugepages (sysctl -w vm.nr_hugepages=<pages>), "
                            "or set GASNET_TMPDIR to a tmpfs", a, b, name, dir, c);
        return pshm_err(-e, "cannot size and map %s of %s in the hugetlbfs %s: %s", name, a, dir,
                        strerror(e));
    }
    seg_meta_put(p, &m, o->ref.name);
    o->addr = p;
    o->len = len;
    o->huge = huge;
    o->fd = fd;
    o->ref.len = len;
    o->owner = true;
    o->named = true;
    return 0;
}

int seg_fd_setup(seg_obj_t *o, int fd, const char *name, const char *dir, size_t len,
                 const char *advice, const seg_meta_t *hdr, bool huge_advise)
{
    uint64_t avail = 0;
    int rc = 0;

    /* The umask may have removed bits from 0600 but never added any; set it
     * exactly so that the creator can always reopen it (and nobody else). */
    if (fchmod(fd, 0600) < 0)
        return pshm_err(-errno, "cannot set mode 0600 on %s: %s", name, strerror(errno));
    uint64_t huge = sys_hugetlbfs_fd(fd);
    if (huge != 0)
        return setup_hugetlbfs(o, fd, name, dir, len, huge, hdr);
    if ((rc = write_header_fd(fd, name, dir, hdr, o->ref.name)) < 0) return rc;
    (void)seg_fs_avail(dir, &avail);  /* for the message: before we take any */
    pshm_err_clear();

    bool reserved = false;
#if PSHM_HAVE_POSIX_FALLOCATE && defined(MADV_POPULATE_WRITE)
    /* A tmpfs mounted huge=advise gives huge pages to advised mappings
     * only, and fallocate has none: advise, then fault every page in. */
    if (!huge_advise)
#endif
    {
#if PSHM_HAVE_POSIX_FALLOCATE
    /* Allocates every block now so that a full file system is ENOSPC here and
     * never a SIGBUS on first touch. Returns the error, not -1/errno. */
    do rc = posix_fallocate(fd, 0, (off_t)len);
    while (rc == EINTR);
    if (rc != 0 && rc != EOPNOTSUPP && rc != ENOSYS)
        return reserve_err(-rc, name, dir, len, avail, advice);
    reserved = rc == 0;
#endif
    }
    /* No fallocate here: size the object, then fault every page in below. */
    if (!reserved && ftruncate(fd, (off_t)len) < 0)
        return reserve_err(-errno, name, dir, len, avail, advice);
    if ((rc = map_fd(o, fd, len, name)) < 0) return rc;
    if (huge_advise)
        (void)madvise(o->addr, len, MADV_HUGEPAGE); /* a refusal only costs speed */
#ifdef MADV_POPULATE_WRITE
    /* Populating turns a short store into an error now (EFAULT where a touch
     * would have been SIGBUS); EINVAL: kernel older than 5.14, nothing to do. */
    if (!reserved && madvise(o->addr, len, MADV_POPULATE_WRITE) < 0 && errno != EINVAL) {
        int e = errno == EFAULT || errno == ENOMEM ? -ENOSPC : -errno;
        munmap(o->addr, len);
        o->addr = NULL;
        return reserve_err(e, name, dir, len, avail, advice);
    }
#endif
    o->fd = fd;
    o->ref.len = len;
    o->owner = true;
    o->named = true;
    return 0;
}

int seg_fd_map_peer(seg_obj_t *o, int fd, const seg_ref_t *ref, const char *shown)
{
    char a[32], b[32];
    struct stat st;
    int rc = 0, fl;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (fstat(fd, &st) < 0)
        rc = pshm_err(-errno, "cannot stat %s: %s", shown, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = pshm_err(-EINVAL, "refusing to attach %s: not a regular file (mode 0%o); "
                      "something else was put at its name", shown, (unsigned)st.st_mode);
    else if (st.st_uid != geteuid())
        rc = pshm_err(-EPERM, "refusing to attach %s: owned by uid %u, not by this user (uid %u)",
                      shown, (unsigned)st.st_uid, (unsigned)geteuid());
    else if ((uint64_t)st.st_size != ref->len)
        rc = pshm_err(-EINVAL, "refusing to attach %s: it holds %s, its creator announced %s",
                      shown, pshm_fmt_size(a, sizeof a, (uint64_t)st.st_size),
                      pshm_fmt_size(b, sizeof b, ref->len));
    /* Opened O_NONBLOCK so that a FIFO could not hang the open; not needed now. */
    else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
        rc = pshm_err(-errno, "cannot clear O_NONBLOCK on %s: %s", shown, strerror(errno));
    else if ((rc = map_fd(o, fd, ref->len, shown)) == 0) {
        o->ref = *ref;
        o->huge = sys_hugetlbfs_fd(fd);
    }
    close(fd);
    return rc;
}

const char *seg_open_advice(int err, const char *otherwise)
{
    if (err == EMFILE)
        return "every process holds a descriptor per object while it attaches: raise the "
               "limit on open files (ulimit -n)";
    if (err == ENFILE)
        return "the system's table of open files is full: raise fs.file-max (sysctl -w)";
    return otherwise;
}

/*
 * Removes the name of an object we created, only if it still leads to the
 * object behind o->fd: compared by lstat of the path, so that no descriptor
 * is needed (a process out of descriptors must still be able to clean up).
 */
int seg_fd_unlink_quiet(const seg_obj_t *o, const char *dir)
{
    char path[PSHM_PATH_MAX + SEG_NAME_MAX + 2];
    const char *name = o->ref.name[0] == '/' ? o->ref.name + 1 : o->ref.name;
    size_t dl = strlen(dir), nl = strnlen(name, SEG_NAME_MAX - 1);
    struct stat a, b;

    /* "dir/name" by hand: snprintf is not async-signal-safe. */
    if (dl + 1 + nl + 1 > sizeof path)
        return -ENAMETOOLONG;
    memcpy(path, dir, dl);
    path[dl] = '/';
    memcpy(path + dl + 1, name, nl);
    path[dl + 1 + nl] = '\0';
    if (o->fd >= 0 && fstat(o->fd, &a) == 0 && lstat(path, &b) == 0 && S_ISREG(b.st_mode) &&
        a.st_dev == b.st_dev && a.st_ino == b.st_ino && unlink(path) < 0 && errno != ENOENT)
        return -errno;
    return 0;
}

void seg_create_begin(seg_obj_t *o, sigset_t *old)
{
    sigset_t all;

    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, old);
    o->creating = 1;
    /* A handler on another thread reads `creating` before the name. */
    atomic_thread_fence(memory_order_seq_cst);
}

void seg_create_end(seg_obj_t *o, const sigset_t *old)
{
    int e = errno;

    /* The record (named, fd, name) is seen before `creating` clears. */
    atomic_thread_fence(memory_order_seq_cst);
    o->creating = 0;
    pthread_sigmask(SIG_SETMASK, old, NULL);
    errno = e;
}

void seg_wait_created(const seg_obj_t *o)
{
    while (o->creating)
        atomic_thread_fence(memory_order_seq_cst);
}

void seg_fd_created(seg_obj_t *o, int fd)
{
    o->fd = fd;
    o->owner = true;
    /* The guard's handler, on this thread, sees name and fd before `named`. */
    atomic_signal_fence(memory_order_seq_cst);
    o->named = true;
}

int seg_fd_unlink(seg_obj_t *o, const char *dir)
{
    int rc;

    if (o->owner && o->named) {
        if ((rc = seg_fd_unlink_quiet(o, dir)) < 0)
            return pshm_err(rc, "cannot remove %s from %s: %s", o->ref.name, dir,
                            strerror(-rc));
        o->named = false;
    }
    if (o->fd >= 0) {
        close(o->fd);
        o->fd = -1;
    }
    return 0;
}

void seg_fd_release(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)seg_be_unlink(o, cfg);
    if (o->fd >= 0)
        close(o->fd); /* the name could not be removed */
    o->fd = -1;
    if (o->addr)
        munmap(o->addr, o->len);
    o->addr = NULL;
    o->len = 0;
}

bool seg_meta_unwritten(const seg_meta_t *m)
{
    static const char zero[sizeof m->magic];
    return memcmp(m->magic, zero, sizeof zero) == 0;
}

uint32_t seg_sysv_key(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    if (h == 0 || h == UINT32_MAX) h = 0x70736d31u; /* "psm1" */
    return h;
}

/* True if /proc/<pid>/maps maps the file (dev, ino). */
static bool mapped_by(const char *pid, dev_t dev, ino_t ino)
{
    char path[64], line[512];
    bool found = false;
    snprintf(path, sizeof path, "/proc/%.20s/maps", pid);
    FILE *f = fopen(path, "re");
    if (f == NULL) return false;
    /* "start-end perms offset major:minor inode path" */
    while (!found && fgets(line, sizeof line, f) != NULL) {
        unsigned maj, mnr;
        unsigned long long i;
        found = sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &mnr, &i) == 3 && i == ino &&
                maj == major(dev) && mnr == minor(dev);
        /* A line longer than the buffer: skip the rest of it. */
        while (strchr(line, '\n') == NULL && fgets(line, sizeof line, f) != NULL) {}
    }
    fclose(f);
    return found;
}

/* Descriptors first, then mappings: a creator maps before it closes, so one
 * of the two scans sees it whatever it does meanwhile. */
bool seg_file_in_use(dev_t dev, ino_t ino)
{
    DIR *proc = opendir("/proc"), *fds;
    struct dirent *p, *f;
    char path[64];
    struct stat st;
    bool held = proc == NULL;  /* cannot tell: assume it is in use */

    while (!held && proc != NULL && (p = readdir(proc)) != NULL) {
        if (p->d_name[0] < '1' || p->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%.20s/fd", p->d_name);
        if ((fds = opendir(path)) != NULL) {
            while (!held && (f = readdir(fds)) != NULL)
                held = f->d_name[0] != '.' && fstatat(dirfd(fds), f->d_name, &st, 0) == 0 &&
                       st.st_dev == dev && st.st_ino == ino;
            closedir(fds);
        }
        held = held || mapped_by(p->d_name, dev, ino);
    }
    if (proc != NULL) closedir(proc);
    return held;
}

/* Opens dfd/name without following links or blocking and checks that it is a
 * regular file of ours whose header carries `tag`, or whose header was never
 * written and that nobody holds (its creator died between creating and
 * writing it: the name, with the job's unique tag, is the only mark).
 * Returns the fd or -1. */
static int open_tagged(int dfd, const char *name, const char *tag)
{
    seg_meta_t m;
    struct stat st;
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()) {
        bool full = st.st_size >= (off_t)sizeof m &&
                    pread(fd, &m, sizeof m, 0) == (ssize_t)sizeof m;
        if (full && seg_meta_ok(&m, tag)) return fd;
        /* Our own descriptor does not count: close it before looking. */
        if (!full || seg_meta_unwritten(&m)) {
            close(fd);
            if (seg_file_in_use(st.st_dev, st.st_ino)) return -1;
            fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
            return fd;  /* the caller checks it is still the same file */
        }
    }
    close(fd);
    return -1;
}

int seg_dir_remove_tag(const char *dir, const char *tag)
{
    char prefix[SEG_NAME_MAX];
    int count = 0, rc;
    if ((rc = seg_make_name(prefix, sizeof prefix, tag, SEG_KIND_SEGMENT, 0)) < 0) return rc;
    prefix[strlen(prefix) - 2] = 0; /* "pshm.<uid>.<tag>." */
    DIR *d = opendir(dir);
    /* No such directory (a bad GASNET_TMPDIR the job already refused): no
     * object of the job can be in it. */
    if (!d && (errno == ENOENT || errno == ENOTDIR)) return 0;
    if (!d) return pshm_err(-errno, "cannot list %s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix))) continue;
        int fd = open_tagged(dirfd(d), e->d_name, tag);
        if (fd < 0) continue;
        /* Unlink only if the name still leads to the file we checked. */
        struct stat st, now;
        if (fstat(fd, &st) == 0 && fstatat(dirfd(d), e->d_name, &now, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_ino == now.st_ino && st.st_dev == now.st_dev &&
            unlinkat(dirfd(d), e->d_name, 0) == 0)
            count++;
        close(fd);
    }
    closedir(d);
    return count;
}

int seg_move_over(seg_obj_t *o, void *addr, size_t len)
{
    char *body = seg_user_base(o);
    void *p;

    /* Nothing between the copy and the move may write the range: the
     * caller's contract (no other thread), and nothing here does. */
    memcpy(body, addr, len);
    p = mremap(body, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, addr);
    if (p == MAP_FAILED)
        return pshm_err(-errno, "cannot map the shared copy of [%p, +%zu) over the original: "
                        "mremap: %s", addr, len, strerror(errno));
    o->len = SEG_HDR_SIZE;
    return 0;
}

void seg_range_release(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    if (o->addr != NULL && o->len > SEG_HDR_SIZE) {
        /* The backend unmaps the header page only (SysV's shmdt stops at the
         * first page too, but munmap of the rest is what frees it here). */
        munmap(seg_user_base(o), o->len - SEG_HDR_SIZE);
        o->len = SEG_HDR_SIZE;
    }
    seg_be_release(o, cfg);
}
