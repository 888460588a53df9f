/*
 * t-segment-unit - the segment backend in one process (and a forked child):
 * create, header, mode 0600 under umask 0, exclusive names, attach through a
 * ref, unlink, refusal of planted links/FIFOs/foreign files, remove_tag, and
 * seg_max_size against GASNET_MAX_SEGSIZE. Leaves nothing behind.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


#define USER_LEN 10000u

static pshm_cfg_t cfg;
static char tag[PSHM_TAG_MAX + 1], tag2[PSHM_TAG_MAX + 1];
static const bool is_fd = PSHM_BACKEND_POSIX || PSHM_BACKEND_FILE;
static int checks;

static const char *store_dir(void) { return PSHM_BACKEND_POSIX ? "/dev/shm" : cfg.tmpdir; }

/* Path of a posix/file object in the file system. */
static const char *path_of(const char *name)
{
    static char p[PSHM_PATH_MAX + SEG_NAME_MAX];
    snprintf(p, sizeof p, "%s/%s", store_dir(), name[0] == '/' ? name + 1 : name);
    return p;
}

static bool exists(const seg_obj_t *o)
{
    struct stat st;
    if (PSHM_BACKEND_SYSV) return shmget((key_t)o->ref.key, 0, 0) >= 0;
    return lstat(path_of(o->ref.name), &st) == 0;
}

static unsigned mode_of(const seg_obj_t *o)
{
    struct stat st;
    struct shmid_ds ds;
    if (PSHM_BACKEND_SYSV) return shmctl(o->ref.shmid, IPC_STAT, &ds) == 0 ? ds.shm_perm.mode & 0777 : 0;
    return stat(path_of(o->ref.name), &st) == 0 ? st.st_mode & 07777 : 0;
}

/* A dead job: the mapping and descriptor go, the name stays. */
static void abandon(seg_obj_t *o)
{
    if (PSHM_BACKEND_SYSV) shmdt(o->addr);
    else munmap(o->addr, o->len);
    if (o->fd >= 0) close(o->fd);
    o->addr = NULL;
    o->fd = -1;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed);
}

static bool same(const unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(i * 31 + seed)) return false;
    return true;
}

/* In a child: attaches `ref`, checks the first half is the parent's pattern
 * and writes its own into the second half. Returns the child's rc. */
static int child_attach(const seg_ref_t *ref, int *child_rc)
{
    pid_t pid = fork();
    if (pid == 0) {
        seg_obj_t c;
        int rc = seg_be_attach(&c, &cfg, ref);
        if (rc < 0 && rc != -ENOENT) {
            fprintf(stderr, "  child attach: %d %s\n", rc, pshm_last_error());
        }
        if (rc < 0) _exit(rc == -ENOENT ? 3 : 2);
        unsigned char *u = seg_user_base(&c);
        const seg_meta_t *m = c.addr;
        bool ok = !memcmp(m->magic, SEG_MAGIC, 8) && m->pid == (int32_t)getppid() &&
                  same(u, USER_LEN / 2, 1);
        fill(u + USER_LEN / 2, USER_LEN / 2, 2);
        seg_be_release(&c, &cfg);
        _exit(ok ? 0 : 1);
    }
    int st;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st));
    *child_rc = WEXITSTATUS(st);
    return 0;
}

static void test_create_attach(void)
{
    seg_obj_t o, o2;
    uint64_t start;
    long pg = sysconf(_SC_PAGESIZE);

    umask(0);
    CHECK_OK(seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 0, 5, 8, USER_LEN));
    umask(022);
    CHECK(o.addr && o.owner && o.len == SEG_HDR_SIZE + PSHM_ALIGN_UP(USER_LEN, (uint64_t)pg));
    CHECK(o.ref.len == o.len);
    const seg_meta_t *m = o.addr;
    CHECK_OK(seg_pid_start(getpid(), &start));
    CHECK(!memcmp(m->magic, SEG_MAGIC, 8) && m->version == SEG_META_VERSION);
    CHECK(m->kind == SEG_KIND_SEGMENT && m->uid == geteuid() && m->rank == 5);
    CHECK(m->pid == getpid() && m->nranks == 8 && m->pid_start == start && start > 0);
    CHECK(m->len == o.len && !strcmp(m->tag, tag) && m->created > 0);
    char want[SEG_NAME_MAX];
    CHECK_OK(seg_make_name(want, sizeof want, tag, SEG_KIND_SEGMENT, 0));
    CHECK(strstr(o.ref.name, want) != NULL);
    CHECK(!strncmp(want, "pshm.", 5));
    checks += 8;

    unsigned char *u = seg_user_base(&o);
    fill(u, USER_LEN / 2, 1);
    if (PSHM_BACKEND_NONE) {
        CHECK_ERR(seg_be_attach(&o2, &cfg, &o.ref), -ENOTSUP);
        CHECK_OK(seg_be_unlink(&o, &cfg));
        seg_be_release(&o, &cfg);
        checks += 2;
        return;
    }

    /* Visible, private. */
    CHECK(exists(&o) && o.named);
    CHECK(mode_of(&o) == 0600);

    /* A second create at the same name fails and leaves the first intact. */
    pshm_err_clear();
    CHECK_ERR(seg_create(&o2, &cfg, tag, SEG_KIND_SEGMENT, 0, 5, 8, 3 * USER_LEN), -EEXIST);
    CHECK(strstr(pshm_last_error(), "pshm-cleanup") != NULL);
    CHECK(exists(&o) && same(u, USER_LEN / 2, 1) && m->pid == getpid());
    if (is_fd) {
        struct stat st;
        CHECK(stat(path_of(o.ref.name), &st) == 0 && (uint64_t)st.st_size == o.len);
    }
    checks += 4;

    /* A forked process maps it through the ref: bytes cross both ways. */
    int crc;
    child_attach(&o.ref, &crc);
    CHECK(crc == 0);
    CHECK(same(u + USER_LEN / 2, USER_LEN / 2, 2));
    checks += 2;

    /* Unlink: the name goes, the mapping stays. */
    CHECK_OK(seg_be_unlink(&o, &cfg));
    CHECK(!o.named && !exists(&o));
    fill(u, USER_LEN, 9);
    CHECK(same(u, USER_LEN, 9));
    fill(u, USER_LEN / 2, 1);
    child_attach(&o.ref, &crc);
    /* SysV peers attach by shmid even after IPC_RMID; named objects are gone. */
    CHECK(crc == (PSHM_BACKEND_SYSV ? 0 : 3));
    seg_be_release(&o, &cfg);
    CHECK(o.addr == NULL);
    checks += 5;
}

/* Planted objects at a peer's name are refused, quickly (posix, file). */
static void test_planted(void)
{
    char name[SEG_NAME_MAX], target[PSHM_PATH_MAX + SEG_NAME_MAX], victim[PSHM_PATH_MAX + 64];
    seg_obj_t good, o;
    seg_ref_t ref;
    int fd;

    if (!is_fd) return;
    CHECK_OK(seg_create(&good, &cfg, tag, SEG_KIND_SEGMENT, 20, 0, 1, USER_LEN));
    snprintf(target, sizeof target, "%s", path_of(good.ref.name));
    alarm(20); /* a FIFO must not hang attach */

    /* 21: a symlink to a perfectly good object. */
    memset(&ref, 0, sizeof ref);
    ref.len = good.len;
    CHECK_OK(seg_make_name(name, sizeof name, tag, SEG_KIND_SEGMENT, 21));
    snprintf(ref.name, sizeof ref.name, "%s%.62s", PSHM_BACKEND_POSIX ? "/" : "", name);
    CHECK(symlink(target, path_of(name)) == 0);
    CHECK(seg_be_attach(&o, &cfg, &ref) < 0);
    unlink(path_of(name));

    /* 22: a FIFO. */
    CHECK_OK(seg_make_name(name, sizeof name, tag, SEG_KIND_SEGMENT, 22));
    snprintf(ref.name, sizeof ref.name, "%s%.62s", PSHM_BACKEND_POSIX ? "/" : "", name);
    CHECK(mkfifo(path_of(name), 0600) == 0);
    CHECK_ERR(seg_be_attach(&o, &cfg, &ref), -EINVAL);
    unlink(path_of(name));

    /* 23: a regular file of the wrong size. */
    CHECK_OK(seg_make_name(name, sizeof name, tag, SEG_KIND_SEGMENT, 23));
    snprintf(ref.name, sizeof ref.name, "%s%.62s", PSHM_BACKEND_POSIX ? "/" : "", name);
    CHECK((fd = open(path_of(name), O_RDWR | O_CREAT | O_EXCL, 0600)) >= 0);
    CHECK(ftruncate(fd, (off_t)ref.len / 2) == 0);
    CHECK_ERR(seg_be_attach(&o, &cfg, &ref), -EINVAL);

    /* ... and of the right size, but another user's (needs root to plant). */
    CHECK(ftruncate(fd, (off_t)ref.len) == 0);
    if (geteuid() == 0) {
        CHECK(fchown(fd, 65534, 65534) == 0);
        CHECK_ERR(seg_be_attach(&o, &cfg, &ref), -EPERM);
        checks++;
    }
    close(fd);
    unlink(path_of(name));

    /* 25: create never follows a link planted at its name. */
    snprintf(victim, sizeof victim, "%s/t-segment-victim.%d", store_dir(), (int)getpid());
    CHECK((fd = open(victim, O_RDWR | O_CREAT | O_EXCL, 0600)) >= 0);
    close(fd);
    CHECK_OK(seg_make_name(name, sizeof name, tag, SEG_KIND_SEGMENT, 25));
    CHECK(symlink(victim, path_of(name)) == 0);
    CHECK_ERR(seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 25, 0, 1, USER_LEN), -EEXIST);
    struct stat st;
    CHECK(stat(victim, &st) == 0 && st.st_size == 0 && (st.st_mode & 0777) == 0600);
    unlink(path_of(name));
    unlink(victim);
    alarm(0);

    /* A name that is not a pshm object's is refused before any open. */
    snprintf(ref.name, sizeof ref.name, "%s", PSHM_BACKEND_POSIX ? "/etc" : "../passwd");
    CHECK_ERR(seg_be_attach(&o, &cfg, &ref), -EINVAL);

    seg_be_release(&good, &cfg);
    CHECK(!exists(&good));
    checks += 6;
}

static void test_remove_tag(void)
{
    seg_obj_t a, b, q, other, nomagic;
    char lname[SEG_NAME_MAX];

    if (PSHM_BACKEND_NONE) {
        CHECK(seg_be_remove_tag(&cfg, tag, 4) == 0);
        return;
    }
    CHECK_OK(seg_create(&a, &cfg, tag, SEG_KIND_SEGMENT, 0, 0, 4, USER_LEN));
    CHECK_OK(seg_create(&b, &cfg, tag, SEG_KIND_SEGMENT, 3, 3, 4, USER_LEN));
    CHECK_OK(seg_create(&q, &cfg, tag, SEG_KIND_REGION, 0, 0, 4, USER_LEN));
    CHECK_OK(seg_create(&other, &cfg, tag2, SEG_KIND_SEGMENT, 0, 0, 1, USER_LEN));
    /* Named like the job's, but no header: not pshm's to remove. */
    CHECK_OK(seg_create(&nomagic, &cfg, tag, SEG_KIND_SEGMENT, 2, 2, 4, USER_LEN));
    memset(nomagic.addr, 0, sizeof(seg_meta_t));
    abandon(&a);
    abandon(&b);
    abandon(&q);
    abandon(&other);
    if (is_fd) { /* a link named like the job's is never followed nor removed */
        CHECK_OK(seg_make_name(lname, sizeof lname, tag, SEG_KIND_SEGMENT, 1));
        char to[PSHM_PATH_MAX + SEG_NAME_MAX];
        snprintf(to, sizeof to, "%s", path_of(other.ref.name));
        CHECK(symlink(to, path_of(lname)) == 0);
    }

    int n = seg_be_remove_tag(&cfg, tag, 4);
    if (n != 3) {
        fprintf(stderr, "FAIL: seg_be_remove_tag removed %d objects, expected 3 (%s)\n", n,
                pshm_last_error());
        exit(T_FAIL);
    }
    CHECK(!exists(&a) && !exists(&b) && !exists(&q));
    CHECK(exists(&other) && exists(&nomagic));
    if (is_fd) {
        struct stat st;
        CHECK(lstat(path_of(lname), &st) == 0 && S_ISLNK(st.st_mode));
        unlink(path_of(lname));
    }
    CHECK(seg_be_remove_tag(&cfg, tag, 4) == 0);
    CHECK(seg_be_remove_tag(&cfg, tag2, 1) == 1);
    CHECK(!exists(&other));
    seg_be_release(&nomagic, &cfg);
    CHECK(!exists(&nomagic));
    CHECK(seg_be_remove_tag(&cfg, "BAD", 1) == -EINVAL);
    checks += 8;
}

static void load_with_segsize(const char *v)
{
    setenv("GASNET_MAX_SEGSIZE", v, 1);
    CHECK_OK(env_load(&cfg));
}

static void test_max_size(void)
{
    uint64_t max, avail, phys = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
    CHECK_OK(seg_be_avail(&cfg, &avail));
    CHECK(avail > (8u << 20)); /* the checks below need a little room */

    load_with_segsize("1M/p");
    CHECK_OK(seg_max_size(&cfg, 1, 1, 0, &max));
    CHECK(max == 1u << 20);
    CHECK_OK(seg_max_size(&cfg, 4, 4, 0, &max));
    CHECK(max == 1u << 20);
    load_with_segsize("1M/h");
    CHECK_OK(seg_max_size(&cfg, 4, 4, 0, &max));
    CHECK(max == 256u << 10);
    load_with_segsize("0.5/p");
    CHECK_OK(seg_max_size(&cfg, 2, 2, 0, &max));
    CHECK(max > 0 && max <= phys / 2 && max <= avail / 2 && max % sysconf(_SC_PAGESIZE) == 0);
    /* Nothing left for segments once the region takes the whole store (twice
     * what it has: others may free some meanwhile); the message names the
     * store and the share the other limits would allow. */
    pshm_err_clear();
    CHECK_ERR(seg_max_size(&cfg, 1, 1, avail * 2, &max), -ENOSPC);
    CHECK(strstr(pshm_last_error(), "GASNET_MAX_SEGSIZE") != NULL);
    CHECK(strstr(pshm_last_error(), "no limit") == NULL);
    /* SysV: a region larger than kernel.shmmax is named as such. */
    if (PSHM_BACKEND_SYSV) {
        CHECK_ERR(seg_max_size(&cfg, 1, 1, UINT64_MAX, &max), -ENOSPC);
        CHECK(strstr(pshm_last_error(), "kernel.shmmax") != NULL);
    }
    CHECK_ERR(seg_max_size(&cfg, 0, 0, 0, &max), -EINVAL);
    /* "/h" is shared by the host's processes, not by the supernode's. */
    load_with_segsize("1M/h");
    CHECK_OK(seg_max_size(&cfg, 2, 4, 0, &max));
    CHECK(max == 256u << 10);
    CHECK_ERR(seg_max_size(&cfg, 4, 2, 0, &max), -EINVAL);
    unsetenv("GASNET_MAX_SEGSIZE");
    CHECK_OK(env_load(&cfg));
    checks += 8;
}

/* On a failed check: removes what the job tags left (headers intact). */
static void cleanup(void)
{
    seg_be_remove_tag(&cfg, tag, 32);
    seg_be_remove_tag(&cfg, tag2, 32);
}

int main(void)
{
    int rc;
    snprintf(tag, sizeof tag, "tu%d", (int)getpid());
    snprintf(tag2, sizeof tag2, "tv%d", (int)getpid());
    unsetenv("GASNET_MAX_SEGSIZE");
    if ((rc = env_load(&cfg)) < 0) {
        fprintf(stderr, "env_load: %s\n", pshm_last_error());
        return T_FAIL;
    }
    atexit(cleanup);
    char nm[SEG_NAME_MAX];
    CHECK_ERR(seg_make_name(nm, sizeof nm, "Bad", SEG_KIND_SEGMENT, 0), -EINVAL);
    CHECK_ERR(seg_make_name(nm, sizeof nm, tag, 'x', 0), -EINVAL);
    CHECK_ERR(seg_make_name(nm, 8, tag, SEG_KIND_SEGMENT, 0), -ENAMETOOLONG);

    test_create_attach();
    test_planted();
    test_remove_tag();
    test_max_size();
    CHECK(th_count_objects(tag) == 0 && th_count_objects(tag2) == 0);
    printf("t-segment-unit (%s backend): %d checks passed\n", seg_be_name, checks + 4);
    return T_PASS;
}
