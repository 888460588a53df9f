/*
 * t-cleanup - pshm-cleanup finds the objects of dead jobs, removes exactly
 * those, and leaves alone live jobs, other users, links and foreign files.
 *
 * Leaks are planted by child processes that create an object with the
 * library's seg_create() and end without removing it. Every object gets a
 * tag unique to this run; the file backend and the planted files live in a
 * private GASNET_TMPDIR, removed at the end.
 */
#include "internal.h"
#include "tests/helpers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUT_MAX 65536

/* The none backend creates nothing in the system: there is nothing to plant. */
#if PSHM_BACKEND_NONE
#define HAVE_OBJECTS 0
#else
#define HAVE_OBJECTS 1
#endif

static char tmpdir[256];
static char cmd[1024], out[OUT_MAX];
static unsigned checks;

enum { PLANT_DEAD, PLANT_LIVE, PLANT_REUSED, PLANT_ZOMBIE };

/* Runs pshm-cleanup with `args`; fails unless it exits `want`. */
static void cleanup_run(const char *args, int want)
{
    snprintf(cmd, sizeof cmd, "%s %s", th_tool("pshm-cleanup"), args);
    int rc = th_run(cmd, out, sizeof out);
    if (rc != want) {
        fprintf(stderr, "FAIL: '%s' exited %d, expected %d; output:\n%s\n", cmd, rc, want, out);
        exit(T_FAIL);
    }
    checks++;
}

/* The output line that mentions `what` (and `also`, if given), or NULL. */
static const char *line_with(const char *what, const char *also)
{
    static char line[1024];
    for (const char *p = out; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n >= sizeof line) n = sizeof line - 1;
        memcpy(line, p, n);
        line[n] = 0;
        if (strstr(line, what) && (!also || strstr(line, also))) return line;
        p += n + (e ? 1 : 0);
    }
    return NULL;
}

static void expect_line(const char *what, const char *also)
{
    if (!line_with(what, also)) {
        fprintf(stderr, "FAIL: after '%s' no line with \"%s\"%s%s%s; output:\n%s\n", cmd, what,
                also ? " and \"" : "", also ? also : "", also ? "\"" : "", out);
        exit(T_FAIL);
    }
    checks++;
}

static void expect_no_line(const char *what)
{
    if (line_with(what, NULL)) {
        fprintf(stderr, "FAIL: after '%s' unexpected line with \"%s\"; output:\n%s\n", cmd, what,
                out);
        exit(T_FAIL);
    }
    checks++;
}

static void expect_count(const char *tag, int want)
{
    int got = th_count_objects(tag);
    if (got != want) {
        fprintf(stderr, "FAIL: %d objects of job %s exist, expected %d (after '%s')\n", got, tag,
                want, cmd);
        exit(T_FAIL);
    }
    checks++;
}

/*
 * Forks a child that creates segment 0 of job `tag` and then: ends without
 * removing it (DEAD, reaped; ZOMBIE, left unreaped), or stays alive (LIVE), or
 * stays alive but rewrites the header's start time as if its pid had been
 * recycled (REUSED). uid >= 0: the child first becomes that user. Returns the
 * child's pid once the object exists.
 */
/* Forks a planting child; p[1] is its end of the pipe that says "planted". */
static pid_t fork_planter(int p[2])
{
    CHECK(pipe(p) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) close(p[0]);
    return pid;
}

static pid_t plant(const char *tag, int how, int uid)
{
    int p[2];
    char ok = 0;
    pid_t pid = fork_planter(p);
    if (pid == 0) {
        pshm_cfg_t cfg;
        seg_obj_t o;
        if (uid >= 0 && (setgid((gid_t)uid) < 0 || setuid((uid_t)uid) < 0)) _exit(3);
        if (env_load(&cfg) < 0 || seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 0, 0, 1, 4096) < 0) {
            fprintf(stderr, "plant %s: %s\n", tag, pshm_last_error());
            _exit(2);
        }
        if (how == PLANT_REUSED) {
            ((seg_meta_t *)o.addr)->pid_start += 12345;
#if PSHM_BACKEND_SYSV
            shmdt(o.addr); /* an attached segment counts as in use */
#endif
        }
        ok = 1;
        if (write(p[1], &ok, 1) != 1) _exit(4);
        if (how == PLANT_LIVE || how == PLANT_REUSED)
            for (;;) pause();
        _exit(0); /* no unlink: the object leaks */
    }
    close(p[1]);
    if (read(p[0], &ok, 1) != 1) ok = 0;
    close(p[0]);
    if (!ok) {
        int st;
        waitpid(pid, &st, 0);
        fprintf(stderr, "FAIL: planting job %s failed (child status %d)\n", tag, st);
        exit(T_FAIL);
    }
    if (how == PLANT_DEAD) waitpid(pid, NULL, 0);
    return pid;
}

static void end_child(pid_t pid)
{
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void write_file(const char *name, const void *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CHECK(fd >= 0);
    CHECK(write(fd, data, len) == (ssize_t)len);
    close(fd);
}

static bool exists(const char *name)
{
    char path[512];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return lstat(path, &st) == 0;
}

static void check_usage_errors(void)
{
    static const char *const bad[] = {
        "--older-than 5abc", "--older-than ''", "--older-than -1", "--older-than 1w",
        "--older-than 99999999999999999999s", "--job 'BAD!'", "--job ''", "--bogus", "extra",
        "--dir /nonexistent/dir", "--job",
    };
    for (size_t i = 0; i < PSHM_ARRAY_LEN(bad); i++) {
        cleanup_run(bad[i], 2);
        expect_line("pshm-cleanup: ", NULL);
    }
    if (geteuid() != 0) {
        cleanup_run("--all-users", 2);
        expect_line("root", NULL);
    }
    cleanup_run("--help", 0);
    expect_line("Exit status", NULL);
    expect_line("--dry-run", NULL);
    cleanup_run("--version", 0);
    expect_line(PSHM_VERSION, NULL);
}

/* A header of a dead creator, as seg_create() writes it. */
static void fake_meta(seg_meta_t *m, const char *tag, uint32_t uid)
{
    memset(m, 0, sizeof *m);
    memcpy(m->magic, SEG_MAGIC, sizeof m->magic);
    m->version = SEG_META_VERSION;
    m->kind = SEG_KIND_SEGMENT;
    m->uid = uid;
    m->pid = 0x7ffffff0; /* no such process */
    m->pidns = proc_pidns();
    m->len = SEG_HDR_SIZE;
    m->created = (uint64_t)time(NULL) - 3600;
    snprintf(m->tag, sizeof m->tag, "%s", tag);
}

/*
 * An object its owner cannot remove (the directory is not writable by it):
 * reported as failed, exit 3, and nothing else happens. Root only (the
 * cleanup runs as nobody).
 */
static void check_cannot_remove(const char *tag)
{
    char sub[512], name[128], path[700];
    seg_meta_t m;

    /* Also needs a build tree that nobody may run programs from. */
    snprintf(cmd, sizeof cmd, "setpriv --reuid=65534 --regid=65534 --clear-groups %s --version",
             th_tool("pshm-cleanup"));
    if (geteuid() != 0 || th_run(cmd, out, sizeof out) != 0) {
        printf("object that cannot be removed: skipped (needs root, setpriv and a build tree "
               "other users can read)\n");
        return;
    }
    snprintf(sub, sizeof sub, "%s/ro", tmpdir);
    CHECK(chmod(tmpdir, 0755) == 0 && mkdir(sub, 0755) == 0);
    fake_meta(&m, tag, 65534);
    snprintf(name, sizeof name, "pshm.65534.%s.s0", tag);
    snprintf(path, sizeof path, "%s/%s", sub, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CHECK(fd >= 0);
    CHECK(write(fd, &m, sizeof m) == (ssize_t)sizeof m);
    close(fd);
    CHECK(chown(path, 65534, 65534) == 0);
    char args[700];
    snprintf(args, sizeof args, "--dir %s --job %s", sub, tag);
    snprintf(cmd, sizeof cmd, "setpriv --reuid=65534 --regid=65534 --clear-groups %s %s",
             th_tool("pshm-cleanup"), args);
    int rc = th_run(cmd, out, sizeof out);
    if (rc != 3) {
        fprintf(stderr, "FAIL: '%s' exited %d, expected 3; output:\n%s\n", cmd, rc, out);
        exit(T_FAIL);
    }
    expect_line(name, "FAILED");
    expect_line("cannot remove", "Permission denied");
    struct stat st;
    CHECK(lstat(path, &st) == 0);
    CHECK(unlink(path) == 0 && rmdir(sub) == 0 && chmod(tmpdir, 0700) == 0);
    printf("object that cannot be removed: exit 3, left in place: ok\n");
}

/* Links and files that are not pshm's are reported and never touched. */
static void check_foreign_files(const char *tagx)
{
    char link[128], named[128], target[512], job[64], path[512];
    seg_meta_t m;

    /* A link to a file carrying a valid header of a dead creator: following
     * it would remove the target. */
    fake_meta(&m, tagx, (uint32_t)geteuid());
    write_file("target", &m, sizeof m);
    snprintf(target, sizeof target, "%s/target", tmpdir);
    snprintf(link, sizeof link, "pshm.%u.%s.s0", (unsigned)geteuid(), tagx);
    char lpath[512];
    snprintf(lpath, sizeof lpath, "%s/%s", tmpdir, link);
    CHECK(symlink(target, lpath) == 0);

    /* A pshm name without the header, and a file that only starts with "pshm". */
    static const char zeros[SEG_HDR_SIZE];
    snprintf(named, sizeof named, "pshm.%u.%s.s1", (unsigned)geteuid(), tagx);
    write_file(named, zeros, sizeof zeros);
    write_file("pshm.junk", "not pshm's\n", 11);
    /* A FIFO with a pshm name: opening it blocking would hang. */
    char fifo[128];
    snprintf(fifo, sizeof fifo, "pshm.%u.%s.q0", (unsigned)geteuid(), tagx);
    snprintf(path, sizeof path, "%s/%s", tmpdir, fifo);
    CHECK(mkfifo(path, 0600) == 0);

    snprintf(job, sizeof job, "-v --job %s", tagx);
    cleanup_run(job, 0);
    expect_line(link, "symbolic link");
    expect_line(named, "no pshm header"); /* named like ours, but nothing says so */
    expect_line("pshm.junk", "not a pshm object");
    cleanup_run(job + 3, 0);
    expect_line(link, "skipped");
    expect_line(fifo, "not a regular file");
    /* What it listed as skipped is not "none found". */
    expect_line("no pshm object to remove; 3 skipped (listed above)", NULL);
    CHECK(exists(link) && exists("target") && exists(named) && exists("pshm.junk") &&
          exists(fifo));
    checks++;

    unlink(lpath);
    snprintf(path, sizeof path, "%s/%s", tmpdir, fifo);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", tmpdir, named);
    unlink(path);
    snprintf(path, sizeof path, "%s/pshm.junk", tmpdir);
    unlink(path);
    unlink(target);
}

/* Creates `name` in tmpdir with `len` zero bytes, last modified `age` s ago. */
static void plant_headerless(const char *name, size_t len, time_t age)
{
    static const char zeros[SEG_HDR_SIZE];
    char path[512];
    write_file(name, zeros, len);
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    struct timespec t[2] = { { time(NULL) - age, 0 }, { time(NULL) - age, 0 } };
    CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

/*
 * pshm-named files without a header (another program's file, or a creator
 * killed before writing it): nothing names a creator, so they are left
 * alone, whatever their size, age or use, and shown without -v with how to
 * remove them by hand.
 */
static void check_headerless(const char *tag)
{
    char old[64], empty[64], shortf[64], args[64], path[512];
    unsigned u = (unsigned)geteuid();

    snprintf(old, sizeof old, "pshm.%u.%s.s0", u, tag);
    snprintf(empty, sizeof empty, "pshm.%u.%s.s1", u, tag);
    snprintf(shortf, sizeof shortf, "pshm.%u.%s.q0", u, tag);
    plant_headerless(old, SEG_HDR_SIZE, 3600);
    plant_headerless(empty, 0, 3600);     /* empty: killed before sizing it */
    write_file(shortf, "short, not pshm's\n", 18);
    snprintf(args, sizeof args, "--job %s", tag);
    cleanup_run(args, 0);
    expect_line(old, "no pshm header");
    expect_line(empty, "no pshm header");
    expect_line(shortf, "no pshm header");
    expect_line(old, "remove it by hand");
    expect_no_line("removed      "); /* a row, not the summary */
    CHECK(exists(old) && exists(empty) && exists(shortf));
    checks++;
    snprintf(args, sizeof args, "--status --job %s", tag);
    cleanup_run(args, 0); /* nothing of a dead job: status 0 */
    const char *names[] = {old, empty, shortf};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        CHECK(unlink(path) == 0);
    }
}

/* Forks a child that creates a SysV segment of `len` zero bytes with `key`
 * (no header: as if killed before writing it) and exits (live: pauses).
 * Returns its pid once the segment exists. */
static pid_t plant_bare_sysv(uint32_t key, bool live)
{
    int p[2];
    char ok = 0;
    pid_t pid = fork_planter(p);
    if (pid == 0) {
        ok = shmget((key_t)key, SEG_HDR_SIZE, IPC_CREAT | IPC_EXCL | 0600) >= 0;
        if (write(p[1], &ok, 1) != 1) _exit(4);
        if (live)
            for (;;) pause();
        _exit(0);
    }
    close(p[1]);
    if (read(p[0], &ok, 1) != 1) ok = 0;
    close(p[0]);
    if (!live || !ok) waitpid(pid, NULL, 0);
    CHECK(ok);
    return pid;
}

static bool sysv_exists(uint32_t key) { return shmget((key_t)key, 0, 0) >= 0; }

/*
 * SysV segments without a header: removed when the key is the hash of a
 * name of a job pshm-cleanup knows (--job, or another object of the job),
 * the creator is dead and nobody has it attached; in use while the creator
 * lives; another program's (a key of no pshm name) never touched.
 */
static void check_sysv_headerless(const char *tag)
{
    char s0[64], q0[64], foreign[64], args[96];
    unsigned u = (unsigned)geteuid();

    snprintf(s0, sizeof s0, "pshm.%u.%s.s0", u, tag);
    snprintf(q0, sizeof q0, "pshm.%u.%s.q0", u, tag);
    snprintf(foreign, sizeof foreign, "other.%u.%s", u, tag);
    uint32_t ks0 = seg_sysv_key(s0), kq0 = seg_sysv_key(q0), kf = seg_sysv_key(foreign);
    plant_bare_sysv(ks0, false);
    pid_t live = plant_bare_sysv(kq0, true);
    plant_bare_sysv(kf, false);

    snprintf(args, sizeof args, "--list --status --job %s", tag);
    cleanup_run(args, 1);
    expect_line(s0, "stale");
    expect_line(q0, "in-use");
    snprintf(args, sizeof args, "--job %s", tag);
    cleanup_run(args, 0);
    expect_line(s0, "removed");
    expect_line(q0, "in-use");
    CHECK(!sysv_exists(ks0) && sysv_exists(kq0) && sysv_exists(kf));
    checks++;

    /* Its creator dead, the job is known only from --job or a header. */
    end_child(live);
    cleanup_run("--list", 0);
    expect_no_line(q0);
    if (HAVE_OBJECTS) {
        plant(tag, PLANT_DEAD, -1); /* segment 0 of the job, with a header */
        cleanup_run("--list", 0);
        expect_line(q0, "stale");
    }
    cleanup_run(args, 0);
    expect_line(q0, "removed");
    CHECK(!sysv_exists(kq0) && sysv_exists(kf));
    expect_count(tag, 0);
    checks++;
    CHECK(shmctl(shmget((key_t)kf, 0, 0), IPC_RMID, NULL) == 0);
    printf("SysV segments without a header: removed only when of a known job, creator dead, "
           "unattached: ok\n");
}

/*
 * Run from another PID namespace, pshm-cleanup cannot see the creators of
 * this one: it must not take them for dead. Root only (unshare).
 */
static void check_pidns(const char *tag)
{
    char args[128];
    if (!th_can_unshare() || system("unshare --pid --fork --mount-proc true 2>/dev/null") != 0) {
        printf("another PID namespace: skipped (needs root and unshare --pid)\n");
        return;
    }
    pid_t pl = plant(tag, PLANT_LIVE, -1);
    snprintf(args, sizeof args, "--job %s", tag);
    snprintf(cmd, sizeof cmd, "unshare --pid --fork --mount-proc %s %s", th_tool("pshm-cleanup"),
             args);
    int rc = th_run(cmd, out, sizeof out);
    if (rc != 0) {
        fprintf(stderr, "FAIL: '%s' exited %d, expected 0; output:\n%s\n", cmd, rc, out);
        exit(T_FAIL);
    }
    expect_line(tag, "not-judged");
    expect_no_line("removed      "); /* a row, not the summary */
    expect_count(tag, 1);
    end_child(pl);
    cleanup_run(args, 0); /* from the creator's namespace: dead, removed */
    expect_line(tag, "removed");
    expect_count(tag, 0);
    printf("from another PID namespace, a live job's objects are not judged: ok\n");
}

/* Leaks planted through the library: listed, removed or kept as they should. */
static void check_leaks(unsigned id)
{
    char a[24], b[24], live[24], reused[24], zombie[24], other[24], pidbuf[32], job[64];

    /* Unique tags: concurrent runs and other jobs are never confused. */
    snprintf(a, sizeof a, "tca%u", id);
    snprintf(b, sizeof b, "tcb%u", id);
    snprintf(live, sizeof live, "tcl%u", id);
    snprintf(reused, sizeof reused, "tcr%u", id);
    snprintf(zombie, sizeof zombie, "tcz%u", id);
    snprintf(other, sizeof other, "tco%u", id);
    /* A dead job: listed with its tag, creator pid and "dead". */
    pid_t pa = plant(a, PLANT_DEAD, -1);
    pid_t pb = plant(b, PLANT_DEAD, -1);
    expect_count(a, 1);
    snprintf(pidbuf, sizeof pidbuf, " %d dead", (int)pa);
    snprintf(job, sizeof job, "--list --status --job %s", a);
    cleanup_run(job, 1); /* --status: found something */
    snprintf(job, sizeof job, "--list --job %s", a);
    cleanup_run(job, 0);
    expect_line(a, pidbuf);
    expect_line(a, "stale");
    expect_no_line(b);

    snprintf(job, sizeof job, "--dry-run --job %s", a);
    cleanup_run(job, 0);
    expect_line(a, "would-remove");
    expect_count(a, 1);

    /* Too young for --older-than: kept. */
    snprintf(job, sizeof job, "--older-than 1d --job %s", a);
    cleanup_run(job, 0);
    expect_line(a, "too-young");
    expect_count(a, 1);

    /* --job removes that job only; done is status 0, found is 1 with --status. */
    snprintf(job, sizeof job, "--status --job %s", a);
    cleanup_run(job, 1);
    expect_line(a, "removed");
    expect_count(a, 0);
    expect_count(b, 1);
    cleanup_run(job, 0);
    expect_line("no pshm objects found", NULL);
    snprintf(job, sizeof job, "--list --job %s", b);
    cleanup_run(job, 0);
    snprintf(pidbuf, sizeof pidbuf, " %d dead", (int)pb);
    expect_line(b, pidbuf);
    snprintf(job, sizeof job, "-q --job %s", b);
    cleanup_run(job, 0);
    CHECK(out[0] == 0);
    expect_count(b, 0);
    printf("dead job listed, dry run, --older-than, --job, removal: ok\n");

    /* A live job is in use and never removed, until its creator dies. */
    pid_t pl = plant(live, PLANT_LIVE, -1);
    snprintf(pidbuf, sizeof pidbuf, " %d alive", (int)pl);
    snprintf(job, sizeof job, "--job %s", live);
    cleanup_run(job, 0);
    expect_line(live, "in-use");
    expect_line(live, pidbuf);
    expect_count(live, 1);
    end_child(pl);
    cleanup_run(job, 0);
    expect_line(live, "removed");
    expect_count(live, 0);

    /* A live pid with another start time is a recycled pid: the creator is dead. */
    pid_t pr = plant(reused, PLANT_REUSED, -1);
    snprintf(job, sizeof job, "--job %s", reused);
    cleanup_run(job, 0);
    expect_line(reused, "removed");
    expect_count(reused, 0);
    end_child(pr);

    /* An exited but unreaped creator (zombie) is dead. */
    pid_t pz = plant(zombie, PLANT_ZOMBIE, -1);
    for (int i = 0; i < 1000 && kill(pz, 0) == 0; i++) {
        char st[64], buf[512];
        snprintf(st, sizeof st, "/proc/%d/stat", (int)pz);
        FILE *f = fopen(st, "r");
        bool z = f && fgets(buf, sizeof buf, f) && strstr(buf, ") Z ");
        if (f) fclose(f);
        if (z) break;
        usleep(1000);
    }
    snprintf(job, sizeof job, "--job %s", zombie);
    cleanup_run(job, 0);
    expect_line(zombie, "removed");
    waitpid(pz, NULL, 0);
    expect_count(zombie, 0);
    printf("live job kept, recycled pid and zombie seen as dead: ok\n");

    /* Another user's leak: left alone without --all-users (root only). */
    if (geteuid() == 0) {
        CHECK(chmod(tmpdir, 01777) == 0); /* the other user's file backend writes here */
        plant(other, PLANT_DEAD, 65534);
        expect_count(other, 1);
        snprintf(job, sizeof job, "--job %s", other);
        cleanup_run(job, 0);
        expect_no_line(other);
        expect_count(other, 1);
        snprintf(job, sizeof job, "--all-users --job %s", other);
        cleanup_run(job, 0);
        expect_line(other, "removed");
        expect_count(other, 0);
        printf("another user's leak: ok\n");
    } else {
        printf("another user's leak: skipped (needs root)\n");
    }

}


int main(void)
{
    char tagx[24];
    unsigned id = (unsigned)getpid();

    snprintf(tmpdir, sizeof tmpdir, "/tmp/t-cleanup.XXXXXX");
    CHECK(mkdtemp(tmpdir) != NULL);
    setenv("GASNET_TMPDIR", tmpdir, 1);
    unsetenv("TMPDIR");

    check_usage_errors();
    snprintf(tagx, sizeof tagx, "tcx%u", id);
    check_foreign_files(tagx);
    printf("usage errors, links and foreign files: ok\n");
    snprintf(tagx, sizeof tagx, "tcp%u", id);
    check_cannot_remove(tagx);
    snprintf(tagx, sizeof tagx, "tch%u", id);
    check_headerless(tagx);
    printf("files without a header: left alone and shown: ok\n");
    snprintf(tagx, sizeof tagx, "tcs%u", id);
    check_sysv_headerless(tagx);
    if (HAVE_OBJECTS) {
        check_leaks(id);
        snprintf(tagx, sizeof tagx, "tcn%u", id);
        check_pidns(tagx);
    }
    else printf("planted leaks: skipped (the %s backend creates no objects)\n", PSHM_BACKEND_NAME);

    CHECK(rmdir(tmpdir) == 0);
    printf("t-cleanup: %u checks passed (%s backend)\n", checks, PSHM_BACKEND_NAME);
    return T_PASS;
}
