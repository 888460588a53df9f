/*
 * sysv.c - System V shared memory (shmget/shmat).
 *
 * The key of an object is a hash of its name "pshm.<uid>.<tag>.<kind><index>"
 * (seg_sysv_key), so pshmrun can find a dead job's objects again; peers attach through the
 * shmid passed in seg_ref_t, which keeps working after IPC_RMID (Linux).
 */
#include "segment/backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

const char seg_be_name[] = "sysv";

/* The store is what kernel.shmall (pages, for all segments) leaves. */
const char *seg_be_store_advice(const pshm_cfg_t *cfg, char *buf, size_t n)
{
    (void)cfg;
    snprintf(buf, n, "that is what kernel.shmall=%llu pages leaves; raise it (sysctl -w "
             "kernel.shmall=<pages>), or remove stale segments (ipcs -m)",
             (unsigned long long)sys_read_u64("/proc/sys/kernel/shmall"));
    return buf;
}

/* Segments and pages in use in this IPC namespace. */
struct usage { uint64_t segs, pages, pg; };

static int count_usage(const sysv_ent_t *e, void *arg)
{
    struct usage *u = arg;
    u->segs++;
    u->pages += (e->size + u->pg - 1) / u->pg;
    return 0;
}

static void sysv_usage(uint64_t *segs, uint64_t *pages)
{
    struct usage u = { 0, 0, (uint64_t)sysconf(_SC_PAGESIZE) };
    (void)sysv_each(count_usage, &u);
    *segs = u.segs;
    *pages = u.pages;
}

/* Owner of the segment with `key`, or -1 if it cannot be read. */
static long sysv_owner(uint32_t key)
{
    struct shmid_ds ds;
    int id = shmget((key_t)key, 0, 0);
    if (id < 0 && errno == EACCES)
        return SEG_OWNER_OTHER; /* not even readable by us: not ours */
    return id >= 0 && shmctl(id, IPC_STAT, &ds) == 0 ? (long)ds.shm_perm.uid : -1;
}

static int create_err(int e, const char *shown, uint32_t shown_key, size_t len)
{
    char a[32], b[32];
    uint64_t segs, pages, pg = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t shmmax = sys_read_u64("/proc/sys/kernel/shmmax");
    uint64_t shmall = sys_read_u64("/proc/sys/kernel/shmall");
    uint64_t shmmni = sys_read_u64("/proc/sys/kernel/shmmni");
    pshm_fmt_size(a, sizeof a, len);
    sysv_usage(&segs, &pages);
    if (e == EEXIST) return seg_exists_err("SysV segment", shown, sysv_owner(shown_key), 0);
    if (e == EINVAL)
        return pshm_err(-EINVAL, "cannot create SysV segment %s of %s: exceeds kernel.shmmax=%llu "
                        "bytes; raise it with sysctl -w kernel.shmmax=%zu, or ask for a smaller "
                        "segment or lower GASNET_MAX_SEGSIZE", shown, a,
                        (unsigned long long)shmmax, len);
    if (e == ENOSPC && shmmni && segs >= shmmni)
        return pshm_err(-ENOSPC, "cannot create SysV segment %s of %s: all kernel.shmmni=%llu "
                        "segments are in use; raise it with sysctl -w kernel.shmmni=<count> or "
                        "remove stale ones (pshm-cleanup, ipcrm)", shown, a,
                        (unsigned long long)shmmni);
    if (e == ENOSPC)
        return pshm_err(-ENOSPC, "cannot create SysV segment %s of %s: exceeds kernel.shmall=%llu "
                        "pages (%s free of it); raise it with sysctl -w kernel.shmall=%llu, or ask "
                        "for a smaller segment or lower GASNET_MAX_SEGSIZE", shown, a,
                        (unsigned long long)shmall,
                        pshm_fmt_size(b, sizeof b, shmall > pages ? (shmall - pages) * pg : 0),
                        (unsigned long long)(pages + (len + pg - 1) / pg));
    return pshm_err(-e, "cannot create SysV segment %s of %s: %s", shown, a, strerror(e));
}

/* shmget with SHM_HUGETLB failed: the pool, or the right to use it. */
static int hugetlb_err(int e, const char *shown, uint32_t key, size_t len, uint64_t page)
{
    char a[32], b[32], c[32];
    pshm_fmt_size(a, sizeof a, len);
    pshm_fmt_size(b, sizeof b, page);
    if (e == ENOMEM)
        return pshm_err(-ENOSPC, "cannot reserve %s of %s huge pages for SysV segment %s: the "
                        "hugetlb pool has %s free; raise vm.nr_hugepages (sysctl -w "
                        "vm.nr_hugepages=<pages>), or set PSHM_HUGEPAGES=auto (4 KiB pages when "
                        "the pool runs short)", a, b, shown,
                        pshm_fmt_size(c, sizeof c, sys_hugetlb_free(page)));
    if (e == EPERM)
        return pshm_err(-EPERM, "not allowed to create SysV segment %s of %s from the hugetlb "
                        "pool: it needs CAP_IPC_LOCK or the group of vm.hugetlb_shm_group; or "
                        "set PSHM_HUGEPAGES=auto or no", shown, a);
    return create_err(e, shown, key, len);
}

int seg_be_create(seg_obj_t *o, const pshm_cfg_t *cfg, const char *name, size_t len,
                  const seg_meta_t *hdr)
{
    char shown[SEG_NAME_MAX + 24], hname[SEG_NAME_MAX], a[32];
    struct shmid_ds ds;
    uint32_t key = seg_sysv_key(name);
    int rc = 0;
    void *p;

    snprintf(shown, sizeof shown, "%s (key 0x%08x)", name, key);
    /* From the hugetlb pool (PSHM_HUGEPAGES, hugepages.c): shmget reserves
     * every page there at once. Not for ranges, moved over 4 KiB pages. */
    bool tlb = cfg->huge_tlb != 0 && hdr->kind != SEG_KIND_RANGE;
    sigset_t mask;
    seg_create_begin(o, &mask);
    int id = shmget((key_t)key, len, IPC_CREAT | IPC_EXCL | 0600 | (tlb ? SHM_HUGETLB : 0));
    if (id < 0 && tlb && (errno == ENOMEM || errno == EPERM) && cfg->hugepages == HUGE_AUTO) {
        tlb = false; /* "auto": the pool ran short, 4 KiB pages then */
        id = shmget((key_t)key, len, IPC_CREAT | IPC_EXCL | 0600);
    }
    if (id >= 0) {
        /* Ours and named from now on: the signal guard removes it. */
        o->ref.shmid = id;
        o->fd = -1;
        o->owner = true;
        atomic_signal_fence(memory_order_seq_cst);
        o->named = true;
    }
    seg_create_end(o, &mask);
    if (id < 0 && tlb) return hugetlb_err(errno, shown, key, len, cfg->huge_tlb);
    if (id < 0) return create_err(errno, shown, key, len);
    /* SysV modes ignore the umask; check that nobody else may map it. */
    if (shmctl(id, IPC_STAT, &ds) < 0 || (ds.shm_perm.mode & 0777) != 0600) {
        rc = pshm_err(-EPERM, "SysV segment %s does not have mode 0600", shown);
        goto fail;
    }
    if ((p = shmat(id, NULL, 0)) == (void *)-1) {
        rc = pshm_err(-errno, "cannot attach SysV segment %s of %s: %s; check the address space "
                      "limit (ulimit -v)", shown, pshm_fmt_size(a, sizeof a, len), strerror(errno));
        goto fail;
    }
    /* The size is fixed at shmget: the header goes in now, before the slow
     * commit below, so a creator killed there leaves a segment that says
     * whose it is (a header-less one cannot be told from anybody's). */
    snprintf(hname, sizeof hname, "key 0x%08x", key);
    seg_meta_put(p, hdr, hname);
    /* shmem_enabled "advise": huge pages only where asked for, before the
     * pages are committed (PSHM_HUGEPAGES; a refusal only costs speed). */
    if (cfg->huge_advise)
        (void)madvise(p, len, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
    /* Commits every page now: a memory limit is an error here, not a fault
     * later. EINVAL: kernel older than 5.14, nothing to do. A hugetlb
     * segment's pages are reserved already. */
    if (!tlb && madvise(p, len, MADV_POPULATE_WRITE) < 0 && errno != EINVAL) {
        char b[32];
        uint64_t avail = 0;
        (void)seg_be_avail(cfg, &avail);
        rc = pshm_err(-ENOSPC, "cannot commit %s of memory for SysV segment %s: %s (%s "
                      "available); ask for a smaller segment or lower GASNET_MAX_SEGSIZE",
                      pshm_fmt_size(a, sizeof a, len), shown, strerror(errno),
                      pshm_fmt_size(b, sizeof b, avail));
        shmdt(p);
        goto fail;
    }
#endif
    o->addr = p;
    o->len = len;
    o->fd = -1;
    o->ref.len = len;
    o->ref.shmid = id;
    o->ref.key = key;
    snprintf(o->ref.name, sizeof o->ref.name, "%s", name);
    o->owner = true;
    o->named = true;
    return 0;
fail:
    shmctl(id, IPC_RMID, NULL);
    /* After the removal: the id may be reused by another segment. */
    atomic_signal_fence(memory_order_seq_cst);
    o->named = false;
    return rc;
}

int seg_be_attach(seg_obj_t *o, const pshm_cfg_t *cfg, const seg_ref_t *ref)
{
    char a[32], b[32];
    struct shmid_ds ds;
    void *p;
    (void)cfg;

    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (shmctl(ref->shmid, IPC_STAT, &ds) < 0)
        return pshm_err(errno == EINVAL || errno == EIDRM ? -ENOENT : -errno,
                        "cannot find SysV segment %.*s (shmid %d) of a peer: %s", SEG_NAME_MAX,
                        ref->name, ref->shmid, strerror(errno));
    if (ds.shm_perm.uid != geteuid() || ds.shm_perm.cuid != geteuid())
        return pshm_err(-EPERM, "refusing to attach SysV segment shmid %d: owned by uid %u, not "
                        "by this user (uid %u)", ref->shmid, (unsigned)ds.shm_perm.uid,
                        (unsigned)geteuid());
    if ((uint64_t)ds.shm_segsz != ref->len)
        return pshm_err(-EINVAL, "refusing to attach SysV segment shmid %d: it holds %s, its "
                        "creator announced %s", ref->shmid,
                        pshm_fmt_size(a, sizeof a, (uint64_t)ds.shm_segsz),
                        pshm_fmt_size(b, sizeof b, ref->len));
    if ((p = shmat(ref->shmid, NULL, 0)) == (void *)-1)
        return pshm_err(-errno, "cannot attach SysV segment shmid %d (%s): %s", ref->shmid,
                        pshm_fmt_size(a, sizeof a, ref->len), strerror(errno));
    o->addr = p;
    o->len = ref->len;
    o->ref = *ref;
    return 0;
}

int seg_be_unlink(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)cfg;
    if (o->owner && o->named) {
        /* Attachments stay valid; the segment goes with the last detach. */
        if (shmctl(o->ref.shmid, IPC_RMID, NULL) < 0 && errno != EINVAL && errno != EIDRM)
            return pshm_err(-errno, "cannot remove SysV segment shmid %d: %s", o->ref.shmid,
                            strerror(errno));
        o->named = false;
    }
    return 0;
}

void seg_be_unlink_signal(const seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)cfg;
    if (o->owner && o->named)
        (void)shmctl(o->ref.shmid, IPC_RMID, NULL);
}

void seg_be_release(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)seg_be_unlink(o, cfg);
    if (o->addr) shmdt(o->addr);
    o->addr = NULL;
    o->len = 0;
}

int seg_be_avail(const pshm_cfg_t *cfg, uint64_t *bytes)
{
    uint64_t segs, pages, pg = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t shmall = sys_read_u64("/proc/sys/kernel/shmall");
    uint64_t phys = sys_phys_mem(), room;
    (void)cfg;
    sysv_usage(&segs, &pages);
    /* shmall * page size saturates: the default is near 2^64 pages. */
    room = shmall <= pages ? 0 : (shmall - pages > UINT64_MAX / pg ? UINT64_MAX : (shmall - pages) * pg);
    if (phys && phys < room) room = phys; /* SysV memory is RAM all the same */
    *bytes = room;
    return 0;
}

uint64_t seg_be_obj_max(const pshm_cfg_t *cfg)
{
    uint64_t shmmax = sys_read_u64("/proc/sys/kernel/shmmax");
    (void)cfg;
    /* kernel.shmmax bounds each segment; shmall (seg_be_avail) their sum. */
    return shmmax ? shmmax : UINT64_MAX;
}

int seg_be_remove_tag(const pshm_cfg_t *cfg, const char *tag, uint32_t nranks)
{
    static const int kinds[] = {SEG_KIND_SEGMENT, SEG_KIND_REGION, SEG_KIND_RANGE};
    char name[SEG_NAME_MAX];
    int count = 0, rc;
    (void)cfg;
    for (int k = 0; k < (int)PSHM_ARRAY_LEN(kinds); k++) {
        for (uint32_t i = 0; i < nranks; i++) {
            struct shmid_ds ds;
            if ((rc = seg_make_name(name, sizeof name, tag, kinds[k], (int)i)) < 0) return rc;
            int id = shmget((key_t)seg_sysv_key(name), 0, 0);
            if (id < 0 || shmctl(id, IPC_STAT, &ds) < 0 || ds.shm_perm.uid != geteuid() ||
                ds.shm_segsz < SEG_HDR_SIZE)
                continue;
            const seg_meta_t *m = shmat(id, NULL, SHM_RDONLY);
            if (m == (void *)-1) continue;
            /* Header never written: its creator died at once; nobody uses it. */
            bool ours = seg_meta_ok(m, tag) || (seg_meta_unwritten(m) && ds.shm_nattch == 0);
            shmdt(m);
            if (ours && shmctl(id, IPC_RMID, NULL) == 0) count++;
        }
    }
    return count;
}
