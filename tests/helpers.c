/*
 * helpers.c - what the C tests share (see helpers.h).
 */
#include "tests/helpers.h"

#include "pshm.h"
#include "segment/segment.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <unistd.h>

static void th_print_error(int rc)
{
    const char *msg = pshm_last_error();
    if (rc < 0) fprintf(stderr, "  returned %d (%s)\n", rc, pshm_strerror(rc));
    if (msg && *msg) fprintf(stderr, "  last error: %s\n", msg);
}

void th_fail(const char *file, int line, const char *what, int rc)
{
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, what);
    th_print_error(rc);
    fflush(NULL);
    exit(T_FAIL);
}

void th_fail_err(const char *file, int line, const char *what, int got, int want)
{
    fprintf(stderr, "FAIL %s:%d: %s: expected %d (%s), got %d (%s)\n", file, line, what, want,
            pshm_strerror(want), got, got < 0 ? pshm_strerror(got) : "success");
    th_print_error(0);
    fflush(NULL);
    exit(T_FAIL);
}

/* Exit status as a shell reports it: the code, or 128+N for signal N. */
static int th_decode_status(int status)
{
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

const char *th_tool(const char *name)
{
    static char path[PATH_MAX];
    const char *top = getenv("PSHM_BUILD");
    if (!top || !*top) top = ".";
    snprintf(path, sizeof path, "%s/tools/%s", top, name);
    return path;
}

int th_launch(int argc, char **argv, int nprocs)
{
    if (getenv("PSHM_RANK")) return -1;

    static char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        fprintf(stderr, "th_launch: cannot resolve /proc/self/exe: %s\n", strerror(errno));
        return T_FAIL;
    }
    exe[n] = '\0';

    /* pshmrun -n N [flags...] -- exe args... */
    char *flags = strdup(getenv("PSHM_TEST_LAUNCH_FLAGS") ? getenv("PSHM_TEST_LAUNCH_FLAGS") : "");
    char **av = calloc((size_t)argc + strlen(flags ? flags : "") + 8, sizeof *av);
    char nbuf[16];
    char *pshmrun = strdup(th_tool("pshmrun"));
    if (!flags || !av || !pshmrun) {
        fprintf(stderr, "th_launch: out of memory\n");
        return T_FAIL;
    }
    snprintf(nbuf, sizeof nbuf, "%d", nprocs);
    int k = 0;
    av[k++] = pshmrun;
    av[k++] = "-n";
    av[k++] = nbuf;
    for (char *save = NULL, *w = strtok_r(flags, " \t\n", &save); w;
         w = strtok_r(NULL, " \t\n", &save))
        av[k++] = w;
    av[k++] = "--";
    av[k++] = exe;
    for (int i = 1; i < argc; i++) av[k++] = argv[i];
    av[k] = NULL;

    if (access(pshmrun, X_OK) != 0) {
        fprintf(stderr, "th_launch: %s is not built (set PSHM_BUILD to the build tree)\n", pshmrun);
        return T_FAIL;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "th_launch: fork: %s\n", strerror(errno));
        return T_FAIL;
    }
    if (pid == 0) {
        execv(pshmrun, av);
        fprintf(stderr, "th_launch: cannot run %s: %s\n", pshmrun, strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "th_launch: waitpid: %s\n", strerror(errno));
            return T_FAIL;
        }
    }
    free(av);
    free(flags);
    free(pshmrun);
    return th_decode_status(status);
}

int th_run(const char *cmd, char *out, size_t outsz)
{
    size_t len = strlen(cmd) + 16;
    char *full = malloc(len);
    if (!full) return -1;
    snprintf(full, len, "(%s) 2>&1", cmd);
    fflush(NULL);
    FILE *p = popen(full, "r");
    free(full);
    if (!p) return -1;
    size_t used = 0;
    char buf[4096];
    size_t got;
    /* Reads everything, so that the command never blocks on a full pipe. */
    while ((got = fread(buf, 1, sizeof buf, p)) > 0) {
        if (out && outsz > 1 && used < outsz - 1) {
            size_t take = got < outsz - 1 - used ? got : outsz - 1 - used;
            memcpy(out + used, buf, take);
            used += take;
        }
    }
    if (out && outsz > 0) out[used] = '\0';
    int status = pclose(p);
    return status < 0 ? -1 : th_decode_status(status);
}

static const char *th_tmpdir(void)
{
    const char *d = getenv("GASNET_TMPDIR");
    if (!d || !*d) d = getenv("TMPDIR");
    if (!d || !*d) d = "/tmp";
    return d;
}

/* Entries of `dir` named pshm* (and containing `tag` if given). */
static int th_count_dir(const char *dir, const char *tag)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "pshm", 4) == 0 && (!tag || strstr(e->d_name, tag))) count++;
    closedir(d);
    return count;
}

/* True if `key` is the SysV key of an object of job `tag` (any index below
 * 1024 of either kind). */
static int th_key_of_tag(const char *tag, uint32_t key)
{
    static const int kinds[] = {SEG_KIND_SEGMENT, SEG_KIND_REGION};
    char name[SEG_NAME_MAX];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 1024; i++)
            if (seg_make_name(name, sizeof name, tag, kinds[k], i) == 0 &&
                seg_sysv_key(name) == key)
                return 1;
    return 0;
}

/* SysV segments whose header is a pshm header (of job `tag` if given), or
 * was never written (creator killed before writing it): with a tag, such a
 * segment counts if its key is one of the job's; without, if it is ours.
 * Segments already removed (SHM_DEST) disappear with their last mapping. */
static int count_sysv_one(const sysv_ent_t *e, void *arg)
{
    struct { const char *tag; int count; } *c = arg;

    if ((e->perms & SHM_DEST) || e->size < sizeof(seg_meta_t))
        return 0;
    void *p = shmat(e->shmid, NULL, SHM_RDONLY);
    if (p == (void *)-1)
        return 0;
    const seg_meta_t *m = p;
    if (memcmp(m->magic, SEG_MAGIC, sizeof m->magic) == 0 &&
        (!c->tag || strncmp(m->tag, c->tag, sizeof m->tag) == 0))
        c->count++;
    else if (seg_meta_unwritten(m) && e->uid == geteuid() &&
             (c->tag ? th_key_of_tag(c->tag, (uint32_t)e->key) : e->nattch == 0))
        c->count++;
    shmdt(p);
    return 0;
}

static int th_count_sysv(const char *tag)
{
    struct { const char *tag; int count; } c = { tag, 0 };
    (void)sysv_each(count_sysv_one, &c);
    return c.count;
}

int th_count_objects(const char *tag)
{
    return th_count_dir("/dev/shm", tag) + th_count_dir(th_tmpdir(), tag) + th_count_sysv(tag);
}

int th_can_unshare(void)
{
    if (geteuid() != 0) return 0;
    char out[256];
    return th_run("unshare --mount --ipc true", out, sizeof out) == 0;
}
