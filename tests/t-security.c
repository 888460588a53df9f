/*
 * t-security: what another user and another job can do to a job's objects.
 *  1. While a job is inside attach (paused in its first exchange, when every
 *     object exists), under umask 0: each object is mode 0600 and owned by
 *     the user; another user (a child that setuid()s to 65534, root only)
 *     can neither open, map nor remove any of them (EACCES / EPERM).
 *  2. An object planted at the exact name the job will use makes every
 *     rank's attach fail with -EEXIST naming it; the planted object is still
 *     there, byte for byte, and nothing of the job is left.
 *  3. File backend: a symlink or a FIFO at the name is refused the same way,
 *     at once (no hang), and the symlink's target is untouched.
 *  4. Two jobs of the same user at the same time (two pshmrun jobs), each
 *     all-to-all AM traffic marked with its job: every message is handled in
 *     its own job, counted exactly once.
 */
#include "internal.h"
#include "tests/forkjob.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>


#define NP 2
#define PLANT_LEN 4096

static int fails;
#define FAIL(...) do { printf("FAIL: " __VA_ARGS__); printf("\n"); fails++; } while (0)

/* ------------------------------------------------ objects by name */

static const char *tmpdir(void)
{
    const char *d = getenv("GASNET_TMPDIR");
    if (!d || !*d) d = getenv("TMPDIR");
    return d && *d ? d : "/tmp";
}

static void obj_name(char *out, size_t n, const char *tag, char kind, int index)
{
    snprintf(out, n, "pshm.%u.%s.%c%d", (unsigned)geteuid(), tag, kind, index);
}

static void obj_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", PSHM_BACKEND_FILE ? tmpdir() : "/dev/shm", name);
}

/* segment/sysv.c: FNV-1a of the name, never 0 nor -1. */
static key_t sysv_key(const char *name)
{
    uint32_t h = 2166136261u;
    for (const char *p = name; *p; p++) h = (h ^ (uint8_t)*p) * 16777619u;
    if (h == 0 || h == UINT32_MAX) h = 0x70736d31u;
    return (key_t)h;
}

/* Mode bits and owner of an existing object; -1 if it does not exist. */
static int obj_stat(const char *name, unsigned *mode, unsigned *uid, int *shmid)
{
    if (PSHM_BACKEND_SYSV) {
        struct shmid_ds ds;
        int id = shmget(sysv_key(name), 0, 0);
        if (id < 0 || shmctl(id, IPC_STAT, &ds) < 0) return -1;
        *mode = ds.shm_perm.mode & 0777;
        *uid = ds.shm_perm.uid;
        *shmid = id;
        return 0;
    }
    char path[PSHM_PATH_MAX];
    struct stat st;
    obj_path(path, sizeof path, name);
    if (lstat(path, &st) < 0) return -1;
    *mode = st.st_mode & 0777;
    *uid = st.st_uid;
    *shmid = -1;
    return 0;
}

static void pattern(unsigned char *b) { for (int i = 0; i < PLANT_LEN; i++) b[i] = (unsigned char)(i * 13 + 5); }

/* Creates an object of PLANT_LEN pattern bytes at `name`. */
static void obj_plant(const char *name)
{
    unsigned char b[PLANT_LEN];
    pattern(b);
    if (PSHM_BACKEND_SYSV) {
        int id = shmget(sysv_key(name), PLANT_LEN, IPC_CREAT | IPC_EXCL | 0600);
        CHECK(id >= 0);
        void *p = shmat(id, NULL, 0);
        CHECK(p != (void *)-1);
        memcpy(p, b, PLANT_LEN);
        shmdt(p);
        return;
    }
    char path[PSHM_PATH_MAX];
    obj_path(path, sizeof path, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CHECK(fd >= 0 && write(fd, b, PLANT_LEN) == PLANT_LEN);
    close(fd);
}

/* 1 if the planted object is there with its bytes; removes it. */
static int obj_check_remove(const char *name)
{
    unsigned char want[PLANT_LEN], got[PLANT_LEN + 1];
    int same = 0;
    pattern(want);
    if (PSHM_BACKEND_SYSV) {
        struct shmid_ds ds;
        int id = shmget(sysv_key(name), 0, 0);
        if (id < 0) return 0;
        void *p = shmat(id, NULL, SHM_RDONLY);
        if (p != (void *)-1) {
            same = shmctl(id, IPC_STAT, &ds) == 0 && ds.shm_segsz == PLANT_LEN &&
                   memcmp(p, want, PLANT_LEN) == 0;
            shmdt(p);
        }
        shmctl(id, IPC_RMID, NULL);
        return same;
    }
    char path[PSHM_PATH_MAX];
    obj_path(path, sizeof path, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    same = read(fd, got, sizeof got) == PLANT_LEN && memcmp(got, want, PLANT_LEN) == 0;
    close(fd);
    unlink(path);
    return same;
}

/* ---------------------------------- 1. modes and other users, during attach */

#define NOBJ 3   /* s0, s1, q0 */
typedef struct seen {
    int checked;
    unsigned mode[NOBJ], uid[NOBJ];
    int found[NOBJ];
    int other_open[NOBJ], other_remove[NOBJ];   /* errno the other user got, 0 = success */
    int other_ran;
} seen_t;
static const char kinds[NOBJ] = { 's', 's', 'q' };
static const int idx[NOBJ] = { 0, 1, 0 };

/* In a child that has become user 65534: try to open, map and remove. */
static void as_other_user(const char *tag, const int *shmid, seen_t *s)
{
    char names[NOBJ][128];

    /* The names carry the job owner's uid: made before changing user. */
    for (int i = 0; i < NOBJ; i++)
        obj_name(names[i], sizeof names[i], tag, kinds[i], idx[i]);
    if (setgid(65534) < 0 || setuid(65534) < 0)
        _exit(2);
    for (int i = 0; i < NOBJ; i++) {
        char *name = names[i], path[PSHM_PATH_MAX];
        errno = 0;
        if (PSHM_BACKEND_SYSV) {
            void *p = shmat(shmid[i], NULL, 0);
            s->other_open[i] = p == (void *)-1 ? errno : 0;
            /* Asking for no permission finds the id; asking for any is refused. */
            if (shmget(sysv_key(name), 0, 0400) >= 0) s->other_open[i] = 0;
            s->other_remove[i] = shmctl(shmid[i], IPC_RMID, NULL) < 0 ? errno : 0;
        } else {
            obj_path(path, sizeof path, name);
            int fd = PSHM_BACKEND_POSIX ? shm_open(name, O_RDONLY, 0) : open(path, O_RDONLY);
            s->other_open[i] = fd < 0 ? errno : 0;
            s->other_remove[i] = unlink(path) < 0 ? errno : 0;
        }
    }
    s->other_ran = 1;
    _exit(0);
}

/* Rank 0, in the exchange of attach that follows its creating its own
 * objects: every object exists now or soon. (Earlier exchanges of attach,
 * before anything is created, are let through.) */
static void inspect(fj_rt_t *rt)
{
    seen_t *s = (seen_t *)rt->hub->user;
    int shmid[NOBJ] = { -1, -1, -1 }, all = 0;
    unsigned mode, uid;
    char mine[128];

    if (rt->rank != 0 || s->checked)
        return;
    obj_name(mine, sizeof mine, rt->tag, kinds[0], idx[0]);
    if (obj_stat(mine, &mode, &uid, &shmid[0]) < 0)
        return;
    for (double give_up = fj_now() + 10; !all && fj_now() < give_up; usleep(1000)) {
        all = 1;
        for (int i = 0; i < NOBJ; i++) {
            char name[128];
            obj_name(name, sizeof name, rt->tag, kinds[i], idx[i]);
            s->found[i] = obj_stat(name, &s->mode[i], &s->uid[i], &shmid[i]) == 0;
            all &= s->found[i];
        }
    }
    s->checked = 1;
    if (!all || geteuid() != 0)
        return;
    pid_t pid = fork();
    if (pid == 0)
        as_other_user(rt->tag, shmid, s);
    int st;
    waitpid(pid, &st, 0);
}

static int attach_rank(fj_rt_t *rt, void *arg)
{
    pshm_bootstrap_t b = fj_boot(rt);
    pshm_init_attr_t attr = { 0, &b };
    pshm_ctx_t *ctx;
    int *want = arg, rc;

    CHECK_OK(pshm_init(&ctx, &attr));
    /* Only the job that must succeed is inspected (not those that find
     * something planted at a name). */
    rt->on_exchange = *want == 0 ? inspect : NULL;
    rc = pshm_attach(ctx, 1 << 16);
    rt->on_exchange = NULL;
    if (rc != *want) {
        printf("rank %d: attach returned %d (want %d): %s\n", rt->rank, rc, *want,
               pshm_last_error());
        return 1;
    }
    if (rc < 0) {
        snprintf((char *)rt->hub->user + 1024 + 512 * rt->rank, 512, "%s", pshm_last_error());
        return pshm_finalize(ctx) == 0 ? 0 : 1;
    }
    return pshm_finalize(ctx) == 0 ? 0 : 1;
}

static void modes_and_other_users(fj_hub_t *h)
{
    seen_t *s = (seen_t *)h->user;
    int st[NP], want = 0;
    char tag[17];
    mode_t old = umask(0);

    snprintf(tag, sizeof tag, "sec%d", (int)getpid() % 1000000);
    memset(s, 0, sizeof *s);
    double took = fj_run(h, NP, tag, attach_rank, &want, st, 30, NULL, NULL);
    umask(old);
    if (took < 0 || !fj_exited(st[0], 0) || !fj_exited(st[1], 0))
        FAIL("job under umask 0: status %#x %#x, %.1f s", st[0], st[1], took);
    for (int i = 0; i < NOBJ; i++) {
        if (!s->found[i] || s->mode[i] != 0600 || s->uid[i] != geteuid())
            FAIL("object %c%d: found %d, mode %03o, owner %u (want 0600, owner %u)", kinds[i],
                 idx[i], s->found[i], s->mode[i], s->uid[i], (unsigned)geteuid());
        if (geteuid() == 0 &&
            (s->other_open[i] != EACCES ||
             (s->other_remove[i] != EACCES && s->other_remove[i] != EPERM)))
            FAIL("object %c%d: user 65534 opening got %s, removing got %s (want EACCES, "
                 "EACCES/EPERM)", kinds[i], idx[i], strerror(s->other_open[i]),
                 strerror(s->other_remove[i]));
    }
    if (geteuid() == 0 && !s->other_ran)
        FAIL("the child as user 65534 did not run");
    if (th_count_objects(tag) != 0)
        FAIL("objects of job %s left behind", tag);
    if (!fails)
        printf("ok: under umask 0 every object is mode 0600, owned by uid %u; %s\n",
               (unsigned)geteuid(), geteuid() == 0 ? "user 65534 cannot open, map or "
               "remove any (EACCES/EPERM)" : "skipped the other-user part (not root)");
}

/* ---------------------------------- 2, 3. something already at the name */

typedef void (*planter_t)(const char *name);

static void plant_symlink(const char *name)
{
    char path[PSHM_PATH_MAX], target[PSHM_PATH_MAX];
    obj_path(path, sizeof path, name);
    snprintf(target, sizeof target, "%s/%s.target", tmpdir(), name);
    obj_plant(strrchr(target, '/') + 1);          /* a file of mine with the pattern */
    CHECK(symlink(target, path) == 0);
}

static void plant_fifo(const char *name)
{
    char path[PSHM_PATH_MAX];
    obj_path(path, sizeof path, name);
    CHECK(mkfifo(path, 0600) == 0);
}

/* An object of another user (65534) at the name: pshm-cleanup could not
 * remove it, so the message must not send the user there. */
static void plant_other_user(const char *name)
{
    obj_plant(name);
    if (PSHM_BACKEND_SYSV) {
        struct shmid_ds ds;
        int id = shmget(sysv_key(name), 0, 0);
        CHECK(id >= 0 && shmctl(id, IPC_STAT, &ds) == 0);
        ds.shm_perm.uid = 65534;
        CHECK(shmctl(id, IPC_SET, &ds) == 0);
        return;
    }
    char path[PSHM_PATH_MAX];
    obj_path(path, sizeof path, name);
    CHECK(chown(path, 65534, 65534) == 0);
}

static void preexisting(fj_hub_t *h, const char *what, planter_t plant, int n)
{
    int st[NP], want = -EEXIST, nf = fails;
    char tag[17], name[128], path[PSHM_PATH_MAX];

    snprintf(tag, sizeof tag, "pre%d%d", (int)getpid() % 1000000, n);
    obj_name(name, sizeof name, tag, 's', 1);   /* rank 1's segment */
    plant(name);
    memset(h->user, 0, 2048);
    double took = fj_run(h, NP, tag, attach_rank, &want, st, 30, NULL, NULL);
    if (took < 0 || took > 10 || !fj_exited(st[0], 0) || !fj_exited(st[1], 0))
        FAIL("%s at the name: ranks ended %#x %#x after %.1f s (want both -EEXIST, at once)",
             what, st[0], st[1], took);
    for (int r = 0; r < NP; r++) {
        const char *msg = (const char *)h->user + 1024 + 512 * r;
        if (strstr(msg, "already exists") == NULL || strstr(msg, name) == NULL ||
            strstr(msg, "rank 1") == NULL)
            FAIL("%s: rank %d's message \"%s\" does not name rank 1 and %s", what, r, msg, name);
        if (plant == plant_other_user &&
            (strstr(msg, "belongs to uid 65534") == NULL || strstr(msg, "pshm-cleanup") != NULL))
            FAIL("%s: rank %d's message \"%s\" does not say that uid 65534 owns it, or sends "
                 "the user to pshm-cleanup, which cannot remove it", what, r, msg);
        /* pshm-cleanup skips links and FIFOs: the advice is to remove it by hand. */
        if ((plant == plant_fifo || plant == plant_symlink) && !PSHM_BACKEND_SYSV &&
            (strstr(msg, plant == plant_fifo ? "is a FIFO" : "is a symbolic link") == NULL ||
             strstr(msg, "pshm-cleanup leaves such things alone: remove it by hand") == NULL))
            FAIL("%s: rank %d's message \"%s\" does not say what is there and that "
                 "pshm-cleanup will not remove it", what, r, msg);
    }
    obj_path(path, sizeof path, name);
    if (plant == obj_plant || plant == plant_other_user) {
        if (!obj_check_remove(name))
            FAIL("%s: the planted object is gone or changed", what);
    } else {
        struct stat sb;
        char target[PSHM_PATH_MAX];
        if (lstat(path, &sb) < 0 || (plant == plant_fifo ? !S_ISFIFO(sb.st_mode)
                                                         : !S_ISLNK(sb.st_mode)))
            FAIL("%s: no longer at %s", what, path);
        unlink(path);
        if (plant == plant_symlink) {
            snprintf(target, sizeof target, "%s.target", name);
            if (!obj_check_remove(target))
                FAIL("%s: the link's target changed", what);
        }
    }
    if (th_count_objects(tag) != 0)
        FAIL("%s: objects of job %s left behind", what, tag);
    if (fails == nf)
        printf("ok: %s at %s: both ranks' attach -EEXIST in %.2f s, planted thing unchanged: "
               "%s\n", what, name, took, (const char *)h->user + 1024);
}

/* ---------------------------------- 4. two jobs at once */

enum { H_MARK = 9 };
#define PER_PEER 200000
static uint32_t job_mark;
static long from[8], wrong;

static void h_mark(pshm_token_t *t, void *b, size_t n, const uint32_t *a, unsigned na)
{
    (void)b, (void)n, (void)na;
    int src = pshm_token_source(t);
    if (a[0] != job_mark || src < 0 || src >= 8 || a[1] != (uint32_t)from[src])
        wrong++;
    else
        from[src]++;
}

/* arg: { ranks, my rank }. */
static int all_in(void *arg)
{
    const int *a = arg;
    for (int r = 0; r < a[0]; r++)
        if (r != a[1] && from[r] < PER_PEER)
            return 0;
    return 1;
}

static int job_rank(const char *mark)
{
    pshm_ctx_t *ctx;
    pshm_handler_entry_t tab = { H_MARK, h_mark, 2 };
    long sent[8] = { 0 };

    job_mark = (uint32_t)strtoul(mark, NULL, 10);
    CHECK_OK(pshm_init(&ctx, NULL));
    CHECK_OK(pshm_am_register(ctx, &tab, 1));
    CHECK_OK(pshm_attach(ctx, 1 << 16));
    int me = pshm_rank(ctx), n = pshm_size(ctx), arg[2] = { n, me };
    CHECK(n <= 8);
    for (int k = 0; k < PER_PEER; k++)
        for (int d = 0; d < n; d++)
            if (d != me) {
                uint32_t a[2] = { job_mark, (uint32_t)sent[d]++ };
                CHECK_OK(pshm_am_request_short(ctx, d, H_MARK, 0, 2, a));
            }
    CHECK_OK(pshm_wait_until(ctx, all_in, arg));
    CHECK_OK(pshm_barrier(ctx));
    for (int r = 0; r < n; r++)
        if (r != me && from[r] != PER_PEER) {
            printf("FAIL job %u rank %d: %ld messages from rank %d, want %d\n", job_mark, me,
                   from[r], r, PER_PEER);
            return 1;
        }
    if (wrong) {
        printf("FAIL job %u rank %d: %ld messages of another job or out of order\n", job_mark,
               me, wrong);
        return 1;
    }
    printf("job %u rank %d: %d messages from each of %d peers\n", job_mark, me, PER_PEER, n - 1);
    CHECK_OK(pshm_finalize(ctx));
    return 0;
}

static void two_jobs(const char *self)
{
    char cmd[5 * PSHM_PATH_MAX], out[4096];
    const char *run = th_tool("pshmrun");
    char runbuf[PSHM_PATH_MAX];

    snprintf(runbuf, sizeof runbuf, "%s", run);
    snprintf(cmd, sizeof cmd,
             "%s -n 3 -- %s --job 1111 & a=$!; %s -n 3 -- %s --job 2222 & b=$!; "
             "wait $a; ra=$?; wait $b; rb=$?; echo \"status $ra $rb\"",
             runbuf, self, runbuf, self);
    double t0 = fj_now();
    int rc = th_run(cmd, out, sizeof out);
    if (rc != 0 || strstr(out, "status 0 0") == NULL ||
        !strstr(out, "job 1111 rank 2: 200000 messages from each of 2 peers") ||
        !strstr(out, "job 2222 rank 0: 200000 messages from each of 2 peers"))
        FAIL("two jobs at once: %d, output:\n%s", rc, out);
    else
        printf("ok: two 3-rank jobs at once, %d messages per pair each, every one handled in "
               "its own job exactly once, in order (%.2f s)\n", PER_PEER, fj_now() - t0);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--job") == 0)
        return job_rank(argv[2]);
    if (PSHM_BACKEND_NONE) {
        printf("skip: --disable-pshm creates no shared object\n");
        return T_SKIP;
    }
    char self[PSHM_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(n > 0);
    self[n] = '\0';
    int before = th_count_objects(NULL);
    fj_hub_t *h = fj_hub_new();

    modes_and_other_users(h);
    preexisting(h, "a planted object", obj_plant, 0);
    if (geteuid() == 0)
        preexisting(h, "another user's object", plant_other_user, 3);
    else
        printf("skip part: another user's object at the name needs root\n");
    if (PSHM_BACKEND_FILE) {
        preexisting(h, "a symlink", plant_symlink, 1);
        preexisting(h, "a FIFO", plant_fifo, 2);
    }
    two_jobs(self);
    if (th_count_objects(NULL) != before)
        FAIL("%d pshm objects before, %d after", before, th_count_objects(NULL));
    return fails ? T_FAIL : T_PASS;
}
