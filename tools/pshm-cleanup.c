/*
 * pshm-cleanup - finds the shared-memory objects pshm left behind (a job that
 * was killed never removes its names) and removes those whose creator is dead.
 *
 * An object is pshm's only if three things hold: its name has the pshm
 * pattern (files), it is a regular file opened without following links (or a
 * SysV segment), and its first page carries the pshm header. Anything else is
 * left alone. The creator is alive if its pid exists with the start time
 * recorded in the header, so a recycled pid does not keep a leak alive; a
 * creator of another PID namespace cannot be judged by its pid, and its
 * objects are never removed. Every removal re-checks that the name still
 * leads to the object examined: two runs at once, or an object vanishing
 * meanwhile, are harmless.
 */
#include "pshm.h"
#include "pshm/launch.h"
#include "tools/util/cli.h"
#include "common/misc.h"
#include "common/proc.h"
#include "common/sysvscan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Exit codes (documented in --help and pshm-cleanup(1)): 0 is a job done,
 * whether or not something was removed; 1 only with --status. */
enum { EXIT_DONE = 0, EXIT_FOUND = 1, EXIT_USAGE = 2, EXIT_FAILED = 3 };

#define SHM_DIR "/dev/shm"
#define SYSV_LIST "/proc/sysvipc/shm"
#define MAX_DIRS 16

static struct {
    bool dry_run, list, all_users, status;
    int verbose;             /* -1 quiet, 0 normal, 1 verbose */
    const char *job;         /* --job TAG, or NULL */
    uint64_t older_than;     /* seconds; 0: any age */
    const char *dirs[MAX_DIRS];
    int ndirs;
} opt;

static struct {
    int stale;      /* objects whose creator is dead (removed or to remove) */
    int skipped;    /* things at pshm names that were listed as skipped */
    int removed;
    int in_use;
    int young;      /* stale but younger than --older-than */
    int unjudged;   /* creator in another PID namespace: never removed */
    int failed;
    bool header;    /* table header printed */
} tally;

static uid_t me;
static time_t now;
static uint64_t my_pidns;

/* The jobs whose headers were seen: a SysV segment without a header is
 * recognized by a key derived from one of their names (see sysv_headerless). */
typedef struct known_job {
    char tag[24];
    uid_t uid;
    uint32_t nranks;
} known_job_t;
static known_job_t known[256];
static int nknown;

static void know_job(const char *tag, uid_t uid, uint32_t nranks)
{
    for (int i = 0; i < nknown; i++)
        if (known[i].uid == uid && !strcmp(known[i].tag, tag)) {
            if (nranks > known[i].nranks) known[i].nranks = nranks;
            return;
        }
    if (nknown == (int)ARRAY_LEN(known)) return;
    snprintf(known[nknown].tag, sizeof known[nknown].tag, "%s", tag);
    known[nknown].uid = uid;
    known[nknown++].nranks = nranks;
}

/* ------------------------------------------------------------ liveness */

/* The creator's state (seg_pid_state): pid plus start time, so that a
 * recycled pid is not mistaken for the creator. */
/* Object kinds (pshm_object_info_t.kind). */
enum { KIND_SEGMENT = 's', KIND_REGION = 'q', KIND_RANGE = 'r' };

enum { CREATOR_ALIVE = PROC_PID_ALIVE, CREATOR_DEAD = PROC_PID_DEAD, CREATOR_REUSED = PROC_PID_REUSED,
       CREATOR_UNKNOWN = -1 /* of another PID namespace */ };

static int creator_state(const pshm_object_info_t *m) { return proc_pid_state(m->pid, m->pid_start); }

/* ------------------------------------------------------------ printing */

static void fmt_age(char *buf, size_t n, uint64_t s)
{
    if (s < 120) snprintf(buf, n, "%llus", (unsigned long long)s);
    else if (s < 7200) snprintf(buf, n, "%llum", (unsigned long long)(s / 60));
    else if (s < 172800) snprintf(buf, n, "%lluh", (unsigned long long)(s / 3600));
    else snprintf(buf, n, "%llud", (unsigned long long)(s / 86400));
}

static const char *user_name(uid_t uid, char *buf, size_t n)
{
    struct passwd *pw = getpwuid(uid);
    if (pw && strlen(pw->pw_name) < n) snprintf(buf, n, "%s", pw->pw_name);
    else snprintf(buf, n, "%u", (unsigned)uid);
    return buf;
}

static void print_header(void)
{
    if (tally.header) return;
    tally.header = true;
    printf("%-12s %-5s %-7s %-8s %9s %5s %-16s %4s %-12s %s\n", "STATUS", "TYPE", "KIND",
           "OWNER", "SIZE", "AGE", "JOB", "RANK", "CREATOR", "OBJECT");
}

/* One table row for a pshm object. */
static void print_obj(const char *status, const char *type, uid_t owner, const pshm_object_info_t *m,
                      int cstate, const char *shown, const char *note)
{
    char user[32], size[32], age[24], creator[32];
    if (opt.verbose < 0) return;
    uint64_t a = (uint64_t)now > m->created ? (uint64_t)now - m->created : 0;
    fmt_age(age, sizeof age, a);
    if (m->pid <= 0) /* no header: the creator is unknown */
        snprintf(creator, sizeof creator, "-");
    else
        snprintf(creator, sizeof creator, "%d %s", (int)m->pid,
                 cstate == CREATOR_UNKNOWN ? "?" : cstate == CREATOR_ALIVE ? "alive" : "dead");
    print_header();
    printf("%-12s %-5s %-7s %-8s %9s %5s %-16s %4d %-12s %s%s%s\n", status, type,
           m->kind == KIND_REGION ? "region" : m->kind == KIND_RANGE ? "range" : "segment",
           user_name(owner, user, sizeof user),
           fmt_size(size, sizeof size, m->len), age, m->tag, (int)m->rank, creator, shown,
           note ? "  " : "", note ? note : "");
}

/* Something with a pshm name that is not (or no longer) a pshm object. */
static void print_skip(bool always, const char *shown, const char *why)
{
    if (opt.verbose < 0 || (!always && opt.verbose < 1)) return;
    tally.skipped++;
    print_header();
    printf("%-12s %-5s %-7s %-8s %9s %5s %-16s %4s %-12s %s  (%s)\n", "skipped", "-", "-", "-",
           "-", "-", "-", "-", "-", shown, why);
}

static void fail(const char *shown, int err)
{
    tally.failed++;
    fflush(stdout); /* the row first, then why */
    fprintf(stderr, "%s: cannot remove %s: %s%s\n", cli_prog, shown, strerror(err),
            err == EPERM || err == EACCES ? " (it belongs to another user or the directory "
                                             "is not writable: run as its owner or root)"
                                          : "");
}

/* ----------------------------------------------------------- decisions */

enum { ACT_KEEP, ACT_REMOVE };

/*
 * Classifies a valid object and prints its row unless it will be removed
 * (the caller prints that row after trying). Returns ACT_REMOVE when the
 * caller should remove it now.
 */
static int decide(const char *type, uid_t owner, const pshm_object_info_t *m, bool attached,
                  const char *shown, int *cstate)
{
    know_job(m->tag, owner, m->nranks);
    if (opt.job && strcmp(opt.job, m->tag)) {
        if (opt.verbose > 0) print_skip(false, shown, "another job");
        return ACT_KEEP;
    }
    /* A pid is only meaningful in its own PID namespace (a container's pid 7
     * is some other process, or none, here): never judge it from another. */
    if (m->pidns == 0 || my_pidns == 0 || m->pidns != my_pidns) {
        tally.unjudged++;
        print_obj("not-judged", type, owner, m, CREATOR_UNKNOWN, shown,
                  "(creator in another PID namespace: run pshm-cleanup in the job's)");
        return ACT_KEEP;
    }
    *cstate = creator_state(m);
    if (*cstate == CREATOR_ALIVE || attached) {
        tally.in_use++;
        print_obj("in-use", type, owner, m, *cstate, shown,
                  attached && *cstate != CREATOR_ALIVE ? "(still attached)" : NULL);
        return ACT_KEEP;
    }
    uint64_t age = (uint64_t)now > m->created ? (uint64_t)now - m->created : 0;
    if (opt.older_than && age < opt.older_than) {
        tally.young++;
        print_obj("too-young", type, owner, m, *cstate, shown, NULL);
        return ACT_KEEP;
    }
    tally.stale++;
    if (opt.list || opt.dry_run) {
        print_obj(opt.list ? "stale" : "would-remove", type, owner, m, *cstate, shown,
                  *cstate == CREATOR_REUSED && opt.verbose > 0 ? "(pid reused since)" : NULL);
        return ACT_KEEP;
    }
    return ACT_REMOVE;
}

/* --------------------------------------------------- files: /dev/shm, tmp */

/* "pshm.<uid>.<tag>.<s|q><index>": the names seg_make_name() builds. Also
 * true if the tag is not `job` (when given). */
static bool name_is_pshm(const char *s, const char *job, bool *other_job)
{
    const char *p = s;
    if (strncmp(p, "pshm.", 5)) return false;
    p += 5;
    const char *q = p;
    while (*p >= '0' && *p <= '9') p++;
    if (p == q || *p++ != '.') return false;
    q = p;
    while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) p++;
    if (p == q || p - q > PSHM_TAG_MAX || *p != '.') return false;
    *other_job = job && (strlen(job) != (size_t)(p - q) || strncmp(job, q, (size_t)(p - q)));
    p++;
    if (*p != KIND_SEGMENT && *p != KIND_REGION) return false;
    q = ++p;
    while (*p >= '0' && *p <= '9') p++;
    return p != q && *p == 0;
}

/* Removes the name only while it still leads to the file examined (st).
 * Returns 0, or -1 after printing why not. */
static int unlink_checked(int dfd, const char *name, const char *shown, const struct stat *st,
                          const char *type, const pshm_object_info_t *m, int cstate)
{
    struct stat cur;
    if (fstatat(dfd, name, &cur, AT_SYMLINK_NOFOLLOW) < 0 || cur.st_ino != st->st_ino ||
        cur.st_dev != st->st_dev) {
        tally.stale--;
        print_skip(false, shown, "vanished or replaced before removal: left alone");
        return -1;
    }
    if (unlinkat(dfd, name, 0) < 0) {
        if (errno == ENOENT) {
            tally.stale--;
            print_skip(false, shown, "vanished before removal");
        } else {
            int e = errno;
            print_obj("FAILED", type, st->st_uid, m, cstate, shown, NULL);
            fail(shown, e);
        }
        return -1;
    }
    return 0;
}

/*
 * A pshm-named regular file without a (complete) header: a file of someone
 * else's with a pshm-like name, or one whose creator was killed within
 * microseconds of creating it (the header is written first). Nothing in it
 * names a creator, so nothing can show it is a leftover: it is left alone
 * and shown, with how to remove it by hand.
 */
static void scan_headerless(const char *shown, const char *name)
{
    char why[200];
    unsigned uid;
    char tag[24];
    if (sscanf(name, "pshm.%u.%23[a-z0-9].", &uid, tag) == 2)
        snprintf(why, sizeof why, "no pshm header: not judged, left alone; if no job %s is "
                 "running, remove it by hand", tag);
    else
        snprintf(why, sizeof why, "no pshm header: left alone");
    print_skip(true, shown, why);
}

static void scan_file(int dfd, const char *dir, const char *type, const char *name)
{
    char shown[TOOL_PATH_MAX + 256];
    struct stat st, fst;
    pshm_object_info_t m;
    int cstate = CREATOR_DEAD;

    snprintf(shown, sizeof shown, "%s/%s", dir, name);
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) return; /* vanished */
    bool mine = st.st_uid == me || opt.all_users;
    bool other_job = false;
    if (!name_is_pshm(name, opt.job, &other_job)) {
        print_skip(false, shown, "not a pshm object: not a pshm name");
        return;
    }
    if (other_job) return;
    if (S_ISLNK(st.st_mode)) {
        print_skip(mine, shown, "symbolic link: not followed");
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        print_skip(mine, shown, "not a regular file");
        return;
    }
    if (!mine) {
        char b[96];
        snprintf(b, sizeof b, "belongs to uid %u; only root may use --all-users",
                 (unsigned)st.st_uid);
        print_skip(false, shown, b);
        return;
    }
    /* O_NOFOLLOW: the name may have become a link since the lstat; O_NONBLOCK:
     * a FIFO put there must not hang us. */
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT) print_skip(true, shown, errno == ELOOP ? "symbolic link: not followed"
                                                                    : strerror(errno));
        return;
    }
    if (fstat(fd, &fst) < 0 || fst.st_ino != st.st_ino || fst.st_dev != st.st_dev ||
        !S_ISREG(fst.st_mode)) {
        print_skip(true, shown, "changed while examined: left alone");
        goto out;
    }
    static unsigned char hdr[PSHM_OBJECT_HEADER_SIZE];
    ssize_t got = pread(fd, hdr, sizeof hdr, 0);
    if (got < 0) {
        print_skip(false, shown, strerror(errno));
        goto out;
    }
    int rc = pshm_object_inspect(hdr, (size_t)got, &m);
    if (rc == -ENODATA) {
        scan_headerless(shown, name);
        goto out;
    }
    if (rc < 0) {
        print_skip(false, shown, pshm_last_error());
        goto out;
    }
    if (decide(type, fst.st_uid, &m, false, shown, &cstate) != ACT_REMOVE) goto out;

    if (unlink_checked(dfd, name, shown, &fst, type, &m, cstate) < 0) goto out;
    tally.removed++;
    print_obj("removed", type, fst.st_uid, &m, cstate, shown, NULL);
out:
    close(fd);
}

typedef struct seen_dir {
    dev_t dev;
    ino_t ino;
} seen_dir_t;

static seen_dir_t seen[MAX_DIRS + 4];
static int nseen;

/* Scans each directory once, whatever the number of names it goes by. */
static void scan_dir(const char *dir, const char *type, bool must_exist)
{
    struct stat st;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || fstat(dfd, &st) < 0) {
        if (must_exist) {
            fprintf(stderr, "%s: cannot list %s: %s\n", cli_prog, dir, strerror(errno));
            tally.failed++;
        } else if (opt.verbose > 0) {
            printf("# not scanned: %s (%s)\n", dir, strerror(errno));
        }
        if (dfd >= 0) close(dfd);
        return;
    }
    for (int i = 0; i < nseen; i++)
        if (seen[i].dev == st.st_dev && seen[i].ino == st.st_ino) {
            close(dfd);
            return;
        }
    if (nseen < (int)ARRAY_LEN(seen)) seen[nseen++] = (seen_dir_t){st.st_dev, st.st_ino};
    if (opt.verbose > 0) printf("# scanning %s\n", dir);

    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, "pshm", 4)) scan_file(dirfd(d), dir, type, e->d_name);
    closedir(d);
}

/* ------------------------------------------------------------------ SysV */

/* Removes a stale segment unless, since the listing, it vanished, was
 * attached or is not the one examined (another creator). */
static void remove_sysv(int shmid, pid_t cpid, uid_t owner, const pshm_object_info_t *m, int cstate,
                        const char *full, const char *note)
{
    struct shmid_ds ds;

    if (shmctl(shmid, IPC_STAT, &ds) < 0) {
        tally.stale--;
        print_skip(false, full, "vanished before removal");
        return;
    }
    if (ds.shm_cpid != cpid || ds.shm_nattch > 0 || (ds.shm_perm.mode & SHM_DEST)) {
        tally.stale--;
        print_skip(false, full, "attached or changed before removal: left alone");
        return;
    }
    if (shmctl(shmid, IPC_RMID, NULL) < 0) {
        if (errno == EINVAL || errno == EIDRM) {
            tally.stale--;
            print_skip(false, full, "vanished before removal");
            return;
        }
        int e = errno;
        print_obj("FAILED", "sysv", owner, m, cstate, full, note);
        fail(full, e);
        return;
    }
    tally.removed++;
    print_obj("removed", "sysv", owner, m, cstate, full, note);
}

/* SysV segments of ours whose header was never written, examined once every
 * job's tag has been seen. */
typedef struct bare_seg {
    int shmid;
    uint32_t key;
    pid_t cpid;
    unsigned long nattch;
    uid_t owner;
    uint64_t size;
} bare_seg_t;
static bare_seg_t bare[256];
static int nbare;

static void scan_sysv_one(int shmid, uint32_t key, unsigned mode, uint64_t size, pid_t cpid,
                          unsigned long nattch, uid_t owner)
{
    char shown[64];
    pshm_object_info_t m;
    int cstate = CREATOR_DEAD;

    snprintf(shown, sizeof shown, "sysv shmid %d", shmid);
    /* Marked for removal already: it goes away with its last mapping. */
    if (mode & SHM_DEST) return;
    if (owner != me && !opt.all_users) return;
    /* A pshm object starts with a whole header page. */
    if (size < PSHM_OBJECT_HEADER_SIZE) return;
    void *p = shmat(shmid, NULL, SHM_RDONLY);
    if (p == (void *)-1) {
        if (errno != EINVAL && errno != EIDRM && opt.verbose > 0)
            print_skip(false, shown, strerror(errno));
        return;
    }
    int rc = pshm_object_inspect(p, PSHM_OBJECT_HEADER_SIZE, &m);
    shmdt(p);
    if (rc == -ENODATA) {
        if (nbare < (int)ARRAY_LEN(bare))
            bare[nbare++] = (bare_seg_t){shmid, key, cpid, nattch, owner, size};
        return;
    }
    if (rc < 0) {
        print_skip(false, shown, pshm_last_error());
        return;
    }
    /* A header copied into someone else's segment would not name its creator
     * and its key. The kernel shows creator pid 0 when the creator is in a
     * PID namespace this one cannot see: that creator cannot be judged. */
    unsigned hkey;
    if ((cpid != 0 && m.pid != (int32_t)cpid) ||
        (sscanf(m.name, "key 0x%x", &hkey) == 1 && hkey != key)) {
        print_skip(false, shown, "pshm header of another segment: left alone");
        return;
    }
    char full[160];
    snprintf(full, sizeof full, "sysv shmid %d (%s)", shmid, m.name);
    if (cpid == 0) {
        if (opt.job && strcmp(opt.job, m.tag)) return;
        tally.unjudged++;
        print_obj("not-judged", "sysv", owner, &m, CREATOR_UNKNOWN, full,
                  "(creator in another PID namespace: run pshm-cleanup in the job's)");
        return;
    }
    if (decide("sysv", owner, &m, nattch > 0, full, &cstate) != ACT_REMOVE) return;
    remove_sysv(shmid, cpid, owner, &m, cstate, full, NULL);
}

/* Fills m with the job, kind and index whose object name hashes to `key`
 * (among the jobs seen and --job); false if none does. */
static bool bare_owner_job(const bare_seg_t *b, pshm_object_info_t *m)
{
    char name[sizeof m->name];
    for (int j = -1; j < nknown; j++) {
        const char *tag = j < 0 ? opt.job : known[j].tag;
        uid_t uid = j < 0 ? b->owner : known[j].uid;
        /* --job: any rank a launcher allows; a job seen: its own size. */
        uint32_t n = j < 0 ? LAUNCH_MAX_PROCS : known[j].nranks;
        if (tag == NULL || uid != b->owner) continue;
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 2; k++) {
                char kind = k ? KIND_REGION : KIND_SEGMENT;
                snprintf(name, sizeof name, "pshm.%u.%s.%c%u", (unsigned)uid, tag, kind, i);
                if (pshm_object_sysv_key(name) != b->key) continue;
                memset(m, 0, sizeof *m);
                snprintf(m->tag, sizeof m->tag, "%s", tag);
                snprintf(m->name, sizeof m->name, "%s", name);
                m->kind = kind;
                m->rank = (int32_t)i;
                m->pid = (int32_t)b->cpid;
                m->len = b->size;
                m->created = (uint64_t)now;
                return true;
            }
    }
    return false;
}

/*
 * A SysV segment whose creator died between shmget and writing the header.
 * It is pshm's when its key is the hash of a pshm name of a job we know (from
 * --job, or from another object of that job with a header), the owner is the
 * name's uid, and its first page is still zero. It is stale when, further,
 * nobody has it attached and its creator, as the kernel recorded it, is dead
 * in this PID namespace (the kernel shows a creator of a namespace we cannot
 * see as pid 0: then it is not judged). Anything else is left alone.
 */
static void sysv_headerless(void)
{
    for (int i = 0; i < nbare; i++) {
        const bare_seg_t *b = &bare[i];
        pshm_object_info_t m;
        char full[160];
        if (!bare_owner_job(b, &m)) {
            char shown[64];
            snprintf(shown, sizeof shown, "sysv shmid %d", b->shmid);
            print_skip(false, shown, "not a pshm object: no pshm header");
            continue;
        }
        if (opt.job && strcmp(opt.job, m.tag)) continue;
        snprintf(full, sizeof full, "sysv shmid %d (%s, key 0x%08x)", b->shmid, m.name, b->key);
        if (b->cpid <= 0) {
            tally.unjudged++;
            print_obj("not-judged", "sysv", b->owner, &m, CREATOR_UNKNOWN, full,
                      "(no header; creator in another PID namespace)");
            continue;
        }
        int cstate = proc_pid_state(b->cpid, 0);
        if (cstate == CREATOR_ALIVE || b->nattch > 0) {
            tally.in_use++;
            print_obj("in-use", "sysv", b->owner, &m, cstate, full, "(no header yet)");
            continue;
        }
        tally.stale++;
        if (opt.list || opt.dry_run) {
            print_obj(opt.list ? "stale" : "would-remove", "sysv", b->owner, &m, cstate, full,
                      "(no header: its creator died creating it)");
            continue;
        }
        remove_sysv(b->shmid, b->cpid, b->owner, &m, cstate, full, "(no header)");
    }
}

static int scan_sysv_ent(const sysv_ent_t *e, void *arg)
{
    (void)arg;
    scan_sysv_one(e->shmid, (uint32_t)e->key, e->perms, e->size, e->cpid, e->nattch, e->uid);
    return 0;
}

static void scan_sysv(void)
{
    if (opt.verbose > 0) printf("# scanning SysV segments (%s)\n", SYSV_LIST);
    int rc = sysv_each(scan_sysv_ent, NULL);
    if (rc < 0 && opt.verbose > 0)
        printf("# not scanned: SysV segments (%s: %s)\n", SYSV_LIST, strerror(-rc));
}

/* ------------------------------------------------------------------ CLI */

static void usage(void)
{
    printf("Usage: %s [OPTION]...\n"
           "Finds the shared-memory objects that pshm jobs left behind (POSIX objects in\n"
           "/dev/shm, SysV segments, files in GASNET_TMPDIR, TMPDIR and /tmp) and removes\n"
           "those of the calling user whose creating process is dead. Objects of running\n"
           "jobs are listed as in-use and never touched; links, files without the pshm\n"
           "header and objects of other users are left alone.\n"
           "\n"
           "  -n, --dry-run        list what would be removed, remove nothing\n"
           "  -l, --list           list every object found, remove nothing\n"
           "  -j, --job TAG        only objects of job TAG\n"
           "      --older-than AGE only objects older than AGE: a whole number with the\n"
           "                       unit s, m, h or d (30s, 10m, 2h, 1d; no unit: seconds)\n"
           "      --dir DIR        also scan directory DIR for file-backend objects\n"
           "                       (repeatable, up to %d)\n"
           "  -a, --all-users      objects of every user (root only)\n"
           "  -s, --status         exit 1 if objects of dead jobs were found (for scripts)\n"
           "  -q, --quiet          print nothing but errors\n"
           "  -v, --verbose        also show what was skipped and why\n"
           "  -h, --help           show this help\n"
           "  -V, --version        show the version\n"
           "\n"
           "Exit status:\n"
           "  0  done: every object of a dead job found was removed (or there was none)\n"
           "  1  with --status only: objects of dead jobs were found (and removed, unless\n"
           "     --dry-run or --list)\n"
           "  2  bad usage\n"
           "  3  some objects could not be removed (permission, or a --dir unreadable)\n",
           cli_prog, MAX_DIRS);
}

/* "30s", "10m", "2h", "1d" or plain seconds, strictly. */
static uint64_t parse_age(const char *s)
{
    static const char units[] = "smhd";
    static const uint64_t mult[] = {1, 60, 3600, 86400};
    char num[32];
    size_t n = strlen(s);
    uint64_t m = 1, v;
    const char *u = n ? strchr(units, s[n - 1]) : NULL;
    if (u && *u) {
        m = mult[u - units];
        n--;
    }
    if (n == 0 || n >= sizeof num) goto bad;
    memcpy(num, s, n);
    num[n] = 0;
    if (pshm_parse(PSHM_PARSE_U64, "--older-than", num, 0, UINT64_MAX / m, &v) < 0) goto bad;
    return v * m;
bad:
    cli_usage_error("--older-than \"%s\" is not valid: expected a whole number followed by "
                    "s, m, h or d (e.g. 30s, 10m, 2h, 1d)", s);
}

static void parse_args(int argc, char **argv)
{
    static const char *const f_job[] = {"-j", "--job", NULL};
    static const char *const f_age[] = {"--older-than", NULL};
    static const char *const f_dir[] = {"--dir", NULL};
    const char *v;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-n") || !strcmp(a, "--dry-run")) opt.dry_run = true;
        else if (!strcmp(a, "-l") || !strcmp(a, "--list")) opt.list = true;
        else if (!strcmp(a, "-a") || !strcmp(a, "--all-users")) opt.all_users = true;
        else if (!strcmp(a, "-s") || !strcmp(a, "--status")) opt.status = true;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) opt.verbose = -1;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) opt.verbose = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            exit(0);
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("%s %s\n", cli_prog, pshm_version());
            exit(0);
        } else if (cli_flag_value(argc, argv, &i, f_job, &v)) {
            if (!pshm_tag_valid(v))
                cli_usage_error("--job \"%s\" is not valid: a job tag is 1 to %d characters "
                                "of [a-z0-9]", v, PSHM_TAG_MAX);
            opt.job = v;
        } else if (cli_flag_value(argc, argv, &i, f_age, &v)) {
            opt.older_than = parse_age(v);
        } else if (cli_flag_value(argc, argv, &i, f_dir, &v)) {
            struct stat st;
            if (opt.ndirs == MAX_DIRS) cli_usage_error("at most %d --dir options", MAX_DIRS);
            if (v[0] == 0) cli_usage_error("--dir needs a directory, not an empty string");
            if (stat(v, &st) < 0) cli_usage_error("--dir \"%s\": %s", v, strerror(errno));
            if (!S_ISDIR(st.st_mode)) cli_usage_error("--dir \"%s\": not a directory", v);
            opt.dirs[opt.ndirs++] = v;
        } else if (a[0] == '-') {
            cli_usage_error("unknown option '%s'", a);
        } else {
            cli_usage_error("unexpected argument '%s' (this program takes options only)", a);
        }
    }
    if (opt.all_users && geteuid() != 0)
        cli_usage_error("--all-users needs root: other users' objects can only be examined "
                        "and removed by root");
}

int main(int argc, char **argv)
{
    const char *e;

    cli_init("pshm-cleanup");
    parse_args(argc, argv);
    me = geteuid();
    now = time(NULL);
    my_pidns = proc_pidns();

    scan_dir(SHM_DIR, "posix", false);
    scan_sysv();
    if ((e = getenv("GASNET_TMPDIR")) && e[0] == '/') scan_dir(e, "file", false);
    if ((e = getenv("TMPDIR")) && e[0] == '/') scan_dir(e, "file", false);
    scan_dir("/tmp", "file", false);
    for (int i = 0; i < opt.ndirs; i++) scan_dir(opt.dirs[i], "file", true);
    sysv_headerless(); /* after every header was seen: the jobs it may belong to */

    if (opt.verbose >= 0) {
        if (tally.stale == 0 && tally.in_use == 0 && tally.young == 0 && tally.failed == 0 &&
            tally.unjudged == 0 && tally.skipped == 0)
            printf("no pshm objects found\n");
        else if (tally.stale == 0 && tally.in_use == 0 && tally.young == 0 && tally.failed == 0 &&
                 tally.unjudged == 0)
            /* What was listed is not pshm's to remove: not "none found". */
            printf("no pshm object to remove; %d skipped (listed above)\n", tally.skipped);
        else
            printf("%d stale object%s %s, %d in use, %d too young, %d could not be removed%s\n",
                   opt.list || opt.dry_run ? tally.stale : tally.removed,
                   (opt.list || opt.dry_run ? tally.stale : tally.removed) == 1 ? "" : "s",
                   opt.list ? "found" : opt.dry_run ? "would be removed" : "removed",
                   tally.in_use, tally.young, tally.failed,
                   tally.unjudged ? ", some not judged (another PID namespace)" : "");
    }
    fflush(stdout);
    if (tally.failed) return EXIT_FAILED;
    return opt.status && tally.stale ? EXIT_FOUND : EXIT_DONE;
}
