/*
 * pshm-info - what this build of pshm is, what the machine allows it, and what
 * the environment asks of it: build configuration, shared-memory limits, every
 * variable pshm reads (checked by the library's own parser), misspelt
 * variables, and the memory a job of P processes needs.
 *
 * Everything is gathered first, then printed as text or as JSON.
 */
#include "pshm.h"
#include "pshm/launch.h"
#include "tools/util/cli.h"
#include "common/misc.h"
#include "common/sysvscan.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PROCS_ROWS 16
#define MAX_WARNINGS 64
#define MSG_MAX 512

/* ------------------------------------------------------------ gathered */

typedef struct fs_info {
    char path[TOOL_PATH_MAX];
    bool ok;
    uint64_t size, avail;
    char err[128];
} fs_info_t;

typedef struct var_info {
    const pshm_env_var_t *d;
    const char *value;       /* NULL: unset */
    bool unused;             /* TMPDIR while GASNET_TMPDIR is set */
    char err[MSG_MAX];       /* "" if valid (or unset) */
} var_info_t;

typedef struct warning {
    char name[128];
    char suggest[128];       /* a variable pshm reads, or "" */
} warning_t;

typedef struct net_row {
    unsigned procs;          /* on the host */
    unsigned node_size, nodes;   /* GASNET_SUPERNODE_MAXSIZE cuts them into these */
    uint64_t am, seg;        /* bytes: one supernode's network, one segment */
    uint64_t queues, pools;  /* the network's queues and pools (0: not computed) */
    char err[MSG_MAX];       /* "" if both were computed */
} net_row_t;

static const struct {
    const char *name;
    int res;
} limits[] = {
    {"RLIMIT_AS", RLIMIT_AS},
    {"RLIMIT_NOFILE", RLIMIT_NOFILE},
    {"RLIMIT_MEMLOCK", RLIMIT_MEMLOCK},
    {"RLIMIT_FSIZE", RLIMIT_FSIZE},
};

static struct {
    fs_info_t shm, tmp;
    uint64_t shmmax, shmall, shmmni, sysv_segs, sysv_bytes;
    bool sysv_ok;
    uint64_t phys, page;
    int memcg;               /* 1: a memory cgroup limit applies */
    uint64_t memcg_free, memcg_limit;
    char memcg_file[200];
    long cpus_online, cpus_usable;
    struct rlimit rl[ARRAY_LEN(limits)];

    var_info_t vars[64];
    int nvars;
    bool env_ok;
    char env_err[MSG_MAX];
    pshm_host_plan_t plan;   /* the settings: the environment's, or the defaults if it is invalid */

    warning_t warn[MAX_WARNINGS];
    int nwarn;

    net_row_t net[MAX_PROCS_ROWS];
    int nnet;
} I;

/* ------------------------------------------------------------ machine */

static void fs_query(fs_info_t *f, const char *path)
{
    struct statvfs sv;
    snprintf(f->path, sizeof f->path, "%s", path);
    if (statvfs(path, &sv) < 0) {
        snprintf(f->err, sizeof f->err, "%s", strerror(errno));
        return;
    }
    f->ok = true;
    f->size = (uint64_t)sv.f_blocks * sv.f_frsize;
    f->avail = (uint64_t)sv.f_bavail * sv.f_frsize;
}

static bool read_u64(const char *path, uint64_t *v)
{
    unsigned long long x;
    FILE *f = fopen(path, "re");
    bool ok = f && fscanf(f, "%llu", &x) == 1;
    if (f) fclose(f);
    if (ok) *v = x;
    return ok;
}

static int count_sysv(const sysv_ent_t *e, void *arg)
{
    (void)arg;
    I.sysv_segs++;
    I.sysv_bytes += e->size;
    return 0;
}

static void gather_machine(void)
{

    fs_query(&I.shm, "/dev/shm");
    /* The file backend's directory, as the library chooses it. */
    const char *t = getenv("GASNET_TMPDIR");
    if (!t || t[0] != '/') t = getenv("TMPDIR");
    if (t && t[0] != '/') t = NULL;
    fs_query(&I.tmp, t ? t : "/tmp");

    I.sysv_ok = read_u64("/proc/sys/kernel/shmmax", &I.shmmax) &&
                read_u64("/proc/sys/kernel/shmall", &I.shmall) &&
                read_u64("/proc/sys/kernel/shmmni", &I.shmmni);
    (void)sysv_each(count_sysv, NULL);

    pshm_host_limits_t hl;
    (void)pshm_host_limits(&hl);
    I.phys = hl.phys_mem;
    I.memcg = hl.memcg;
    I.memcg_free = hl.memcg_room;
    I.memcg_limit = hl.memcg_limit;
    snprintf(I.memcg_file, sizeof I.memcg_file, "%s", hl.memcg_file);
    long pg = sysconf(_SC_PAGESIZE);
    I.page = pg > 0 ? (uint64_t)pg : 4096;
    I.cpus_online = sysconf(_SC_NPROCESSORS_ONLN);
    I.cpus_usable = hl.usable_cpus; /* what GASNET_WAIT_MODE=auto counts */
    for (size_t i = 0; i < ARRAY_LEN(limits); i++)
        if (getrlimit(limits[i].res, &I.rl[i]) < 0) I.rl[i].rlim_cur = I.rl[i].rlim_max = RLIM_INFINITY;
}

/* --------------------------------------------------------- environment */

/* Unsets every variable pshm reads, saving their values into saved[]
 * (restore_vars puts them back). */
static void unset_vars(char **saved)
{
    for (int i = 0; i < I.nvars; i++) {
        saved[i] = I.vars[i].value ? strdup(I.vars[i].value) : NULL;
        unsetenv(I.vars[i].d->name);
    }
}

static void restore_vars(char **saved)
{
    for (int i = 0; i < I.nvars; i++) {
        if (saved[i]) setenv(I.vars[i].d->name, saved[i], 1);
        free(saved[i]);
        I.vars[i].value = getenv(I.vars[i].d->name); /* setenv moved the strings */
    }
}

/*
 * Checks each set variable alone with the library's parser (pshm_env_check),
 * every other variable pshm reads unset for the moment, so each bad one is
 * named even when several are bad. The environment is restored afterwards.
 */
static void check_each_var(void)
{
    char *saved[64] = {0};

    unset_vars(saved);
    bool base_ok = pshm_env_check() == 0;
    for (int i = 0; base_ok && i < I.nvars; i++) {
        if (!saved[i] || I.vars[i].unused) continue;
        setenv(I.vars[i].d->name, saved[i], 1);
        if (pshm_env_check() < 0) snprintf(I.vars[i].err, MSG_MAX, "%s", pshm_last_error());
        unsetenv(I.vars[i].d->name);
    }
    restore_vars(saved);
}

/* The library's warnings, one a line: "NAME is not a variable pshm reads"
 * and "; did you mean OTHER?" when one of its variables is near. */
static void gather_warnings(void)
{
    static char text[MAX_WARNINGS * 300];
    static const char tail[] = " is not a variable pshm reads", mean[] = "; did you mean ";

    if (pshm_env_warnings(text, sizeof text) <= 0) return;
    for (char *line = text, *next; *line && I.nwarn < MAX_WARNINGS; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        else next = line + strlen(line);
        char *t = strstr(line, tail);
        if (!t) continue;
        warning_t *w = &I.warn[I.nwarn++];
        snprintf(w->name, sizeof w->name, "%.*s", (int)(t - line), line);
        char *m = strstr(t, mean);
        if (m) snprintf(w->suggest, sizeof w->suggest, "%.*s", (int)strcspn(m + sizeof mean - 1, "?"),
                        m + sizeof mean - 1);
    }
}

static void gather_env(void)
{
    const pshm_env_var_t *d;

    for (int i = 0; (d = pshm_env_var(i)) != NULL && i < (int)ARRAY_LEN(I.vars); i++) {
        var_info_t *v = &I.vars[I.nvars++];
        v->d = d;
        v->value = getenv(v->d->name);
    }
    for (int i = 0; i < I.nvars; i++)
        if (!strcmp(I.vars[i].d->name, "TMPDIR") && getenv("GASNET_TMPDIR"))
            I.vars[i].unused = true;

    I.env_ok = pshm_env_check() == 0;
    if (!I.env_ok) snprintf(I.env_err, sizeof I.env_err, "%s", pshm_last_error());
    check_each_var();
    gather_warnings();
}

/* --------------------------------------------------------------- network */

/* The network a job of `procs` processes on this host builds, as pshm_init
 * and pshm_attach do (pshm_host_plan). With an invalid environment, the
 * defaults' (every variable unset meanwhile), so that the report is useful. */
static void gather_net(const unsigned *procs, int n)
{
    char *saved[64] = {0};

    if (!I.env_ok) unset_vars(saved);
    (void)pshm_host_plan(1, &I.plan); /* the settings, whatever the room */
    for (int i = 0; i < n; i++) {
        net_row_t *r = &I.net[I.nnet++];
        pshm_host_plan_t p;
        int rc = pshm_host_plan(procs[i], &p);
        r->procs = procs[i];
        r->node_size = p.node_size;
        r->nodes = p.nodes;
        r->am = p.am_bytes;
        r->seg = p.seg_max;
        if (rc < 0) snprintf(r->err, sizeof r->err, "%s", pshm_last_error());
        pshm_am_network_parts_t parts;
        if (p.am_bytes && pshm_am_network_parts(p.node_size, p.queue_depth, p.queue_memory, &parts) == 0)
            r->queues = parts.queues, r->pools = parts.pools;
    }
    if (!I.env_ok) restore_vars(saved);
}

/* ------------------------------------------------------------ text output */

static const char *sz(char *buf, uint64_t v)
{
    return fmt_size(buf, 32, v);
}

static const char *rlim_str(char *buf, size_t n, rlim_t v, bool bytes)
{
    char s[32];
    if (v == RLIM_INFINITY) snprintf(buf, n, "unlimited");
    else if (bytes) snprintf(buf, n, "%s", sz(s, (uint64_t)v));
    else snprintf(buf, n, "%llu", (unsigned long long)v);
    return buf;
}

static void print_fs(const char *label, const fs_info_t *f)
{
    char a[32], b[32];
    if (f->ok)
        printf("  %-22s %s: %s, %s free\n", label, f->path, sz(a, f->size), sz(b, f->avail));
    else
        printf("  %-22s %s: cannot tell (%s)\n", label, f->path, f->err);
}

/* The OpenSHMEM layer's variables, as its own oshinfo tells them: the
 * oshinfo installed beside this program, or the build tree's. */
static void print_shmem(void)
{
    char self[TOOL_PATH_MAX], cand[TOOL_PATH_MAX + 32];
    static const char *const rel[] = {"oshinfo", "../shmem/tools/oshinfo"};
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char *slash;

    if (n <= 0)
        return;
    self[n] = '\0';
    if ((slash = strrchr(self, '/')) == NULL)
        return;
    *slash = '\0';
    for (size_t i = 0; i < ARRAY_LEN(rel); i++) {
        snprintf(cand, sizeof cand, "%s/%s", self, rel[i]);
        if (access(cand, X_OK) != 0)
            continue;
        printf("\nOpenSHMEM layer (%s --env)\n", cand);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            execl(cand, cand, "--env", (char *)NULL);
            _exit(127);
        }
        if (pid > 0)
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        return;
    }
}

static void print_text(void)
{
    char a[32], b[32], c[32];

    printf("pshm %s\n\nBuild\n", pshm_version());
    const pshm_build_info_t *bi = pshm_build_info();
    printf("  %-22s %s\n", "version", bi->version);
    printf("  %-22s %s\n", "backend", bi->backend);
    printf("  %-22s %u bytes\n", "cache line", bi->cache_line);
    printf("  %-22s %s\n", "debug", bi->debug ? "yes (internal checks)" : "no");
    printf("  %-22s %s\n", "prefix", bi->prefix);
    printf("  %-22s ./configure %s\n", "configured with", bi->configure_args);

    printf("\nMachine\n");
    print_fs("/dev/shm", &I.shm);
    print_fs("temporary directory", &I.tmp);
    if (I.sysv_ok)
        printf("  %-22s shmmax %s, shmall %llu pages (%s), shmmni %llu\n", "SysV limits",
               sz(a, I.shmmax), (unsigned long long)I.shmall,
               I.shmall > UINT64_MAX / I.page ? "no limit" : sz(b, I.shmall * I.page),
               (unsigned long long)I.shmmni);
    else
        printf("  %-22s cannot tell (/proc/sys/kernel/shm* unreadable)\n", "SysV limits");
    printf("  %-22s %llu segments, %s\n", "SysV in use", (unsigned long long)I.sysv_segs,
           sz(c, I.sysv_bytes));
    printf("  %-22s %s\n", "physical memory", sz(a, I.phys));
    if (I.memcg)
        printf("  %-22s %s, %s of it free (%s); shared memory counts\n", "memory cgroup limit",
               sz(a, I.memcg_limit), sz(b, I.memcg_free), I.memcg_file);
    else
        printf("  %-22s none\n", "memory cgroup limit");
    printf("  %-22s %ld online, %ld usable by this process\n", "CPUs", I.cpus_online,
           I.cpus_usable);
    for (size_t i = 0; i < ARRAY_LEN(limits); i++) {
        bool bytes = limits[i].res != RLIMIT_NOFILE;
        printf("  %-22s %s (hard %s)\n", limits[i].name,
               rlim_str(a, sizeof a, I.rl[i].rlim_cur, bytes),
               rlim_str(b, sizeof b, I.rl[i].rlim_max, bytes));
    }

    printf("\nEnvironment\n");
    for (int i = 0; i < I.nvars; i++) {
        const var_info_t *v = &I.vars[i];
        printf("  %-27s ", v->d->name);
        if (!v->value) printf("(unset)");
        else printf("\"%s\"", v->value);
        if (v->unused) printf("  not used: GASNET_TMPDIR is set");
        else if (v->err[0]) printf("  INVALID");
        printf("\n      default %s; accepts %s\n      %s\n", v->d->deflt, v->d->range, v->d->doc);
        if (v->err[0]) printf("      error: %s\n", v->err);
    }
    if (!I.env_ok)
        printf("  The environment is not valid: %s\n  (the figures below use the defaults)\n",
               I.env_err);
    for (int i = 0; i < I.nwarn; i++) {
        printf("  warning: %s is not a variable pshm reads", I.warn[i].name);
        if (I.warn[i].suggest[0]) printf("; did you mean %s?", I.warn[i].suggest);
        printf("\n");
    }

    char nodes[64];
    if (!strcmp(pshm_build_info()->backend, "none"))
        snprintf(nodes, sizeof nodes, "a supernode per process (--disable-pshm)");
    else if (I.plan.supernode_max)
        snprintf(nodes, sizeof nodes, "supernodes of at most %u", I.plan.supernode_max);
    else
        snprintf(nodes, sizeof nodes, "one supernode per host");
    char depth[80];
    if (getenv("GASNET_PSHMNET_QUEUE_DEPTH") != NULL)
        snprintf(depth, sizeof depth, "queue depth %u", I.plan.queue_depth);
    else
        snprintf(depth, sizeof depth, "queue depth %u, 256 / (P - 1) from 8 processes",
                 I.plan.queue_depth);
    printf("\nShared memory per job (%s, queue memory %s per process, %s)\n", depth,
           sz(a, I.plan.queue_memory), nodes);
    printf("  %6s  %-12s  %-28s  %-21s  %s\n", "PROCS", "SUPERNODES", "AM NETWORK EACH",
           "QUEUES + POOLS", "LARGEST SEGMENT EACH");
    for (int i = 0; i < I.nnet; i++) {
        const net_row_t *r = &I.net[i];
        char am[128], nodes[32], q[32], pl[32];
        snprintf(am, sizeof am, "%-28s  %-21s", "", "");
        int w = snprintf(am, sizeof am, "%s (%llu bytes)", sz(a, r->am), (unsigned long long)r->am);
        if (r->queues && w > 0 && w < 28)
            snprintf(am + w, sizeof am - (size_t)w, "%*s  %s + %s", 28 - w, "", sz(q, r->queues),
                     sz(pl, r->pools));
        snprintf(nodes, sizeof nodes, "%u x %u", r->nodes, r->node_size);
        if (r->err[0] && r->am == 0) printf("  %6u  %-12s  %s\n", r->procs, nodes, r->err);
        else if (r->err[0]) printf("  %6u  %-12s  %-51s  none: %s\n", r->procs, nodes, am, r->err);
        else
            printf("  %6u  %-12s  %-51s  %s (%llu bytes)\n", r->procs, nodes, am, sz(b, r->seg),
                   (unsigned long long)r->seg);
    }
    print_shmem();
}

/* ------------------------------------------------------------ JSON output */

static void jstr(const char *s)
{
    if (!s) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p == '\n') fputs("\\n", stdout);
        else if (*p == '\t') fputs("\\t", stdout);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

/* `"key": ` with the comma before every member but the first of its object. */
static void jkey(bool *first, const char *key)
{
    printf("%s", *first ? "" : ", ");
    *first = false;
    jstr(key);
    fputs(": ", stdout);
}

static void jnum(bool *first, const char *key, uint64_t v)
{
    jkey(first, key);
    printf("%llu", (unsigned long long)v);
}

static void jfs(bool *first, const char *key, const fs_info_t *f)
{
    bool k = true;
    jkey(first, key);
    putchar('{');
    jkey(&k, "path");
    jstr(f->path);
    if (f->ok) {
        jnum(&k, "size", f->size);
        jnum(&k, "free", f->avail);
    } else {
        jkey(&k, "error");
        jstr(f->err);
    }
    putchar('}');
}

static void jrlim(bool *first, const char *key, rlim_t v)
{
    jkey(first, key);
    if (v == RLIM_INFINITY) fputs("null", stdout);
    else printf("%llu", (unsigned long long)v);
}

static void print_json(void)
{
    bool top = true, m = true, f;

    putchar('{');
    jkey(&top, "version");
    jstr(pshm_build_info()->version);
    jkey(&top, "library");
    jstr(pshm_version());
    jkey(&top, "backend");
    jstr(pshm_build_info()->backend);
    jnum(&top, "cache_line", pshm_build_info()->cache_line);
    jkey(&top, "debug");
    fputs(pshm_build_info()->debug ? "true" : "false", stdout);
    jkey(&top, "prefix");
    jstr(pshm_build_info()->prefix);
    jkey(&top, "configure_args");
    jstr(pshm_build_info()->configure_args);

    jkey(&top, "machine");
    putchar('{');
    jfs(&m, "dev_shm", &I.shm);
    jfs(&m, "tmpdir", &I.tmp);
    jkey(&m, "sysv");
    f = true;
    putchar('{');
    if (I.sysv_ok) {
        jnum(&f, "shmmax", I.shmmax);
        jnum(&f, "shmall_pages", I.shmall);
        jnum(&f, "shmmni", I.shmmni);
    }
    jnum(&f, "segments", I.sysv_segs);
    jnum(&f, "bytes", I.sysv_bytes);
    putchar('}');
    jnum(&m, "physical_memory", I.phys);
    jkey(&m, "memory_cgroup");
    if (I.memcg) {
        f = true;
        putchar('{');
        jnum(&f, "limit", I.memcg_limit);
        jnum(&f, "free", I.memcg_free);
        jkey(&f, "file");
        jstr(I.memcg_file);
        putchar('}');
    } else {
        fputs("null", stdout);
    }
    jnum(&m, "page_size", I.page);
    jnum(&m, "cpus_online", (uint64_t)(I.cpus_online > 0 ? I.cpus_online : 0));
    jnum(&m, "cpus_usable", (uint64_t)(I.cpus_usable > 0 ? I.cpus_usable : 0));
    jkey(&m, "rlimits");
    f = true;
    putchar('{');
    for (size_t i = 0; i < ARRAY_LEN(limits); i++) {
        bool r = true;
        jkey(&f, limits[i].name);
        putchar('{');
        jrlim(&r, "soft", I.rl[i].rlim_cur);
        jrlim(&r, "hard", I.rl[i].rlim_max);
        putchar('}');
    }
    fputs("}}", stdout);

    jkey(&top, "environment");
    putchar('[');
    for (int i = 0; i < I.nvars; i++) {
        const var_info_t *v = &I.vars[i];
        bool e = true;
        printf("%s{", i ? ", " : "");
        jkey(&e, "name");
        jstr(v->d->name);
        jkey(&e, "value");
        jstr(v->value);
        jkey(&e, "default");
        jstr(v->d->deflt);
        jkey(&e, "accepts");
        jstr(v->d->range);
        jkey(&e, "doc");
        jstr(v->d->doc);
        jkey(&e, "used");
        fputs(v->unused ? "false" : "true", stdout);
        jkey(&e, "valid");
        fputs(v->err[0] ? "false" : "true", stdout);
        jkey(&e, "error");
        jstr(v->err[0] ? v->err : NULL);
        putchar('}');
    }
    putchar(']');
    jkey(&top, "environment_valid");
    fputs(I.env_ok ? "true" : "false", stdout);
    jkey(&top, "environment_error");
    jstr(I.env_ok ? NULL : I.env_err);
    jkey(&top, "warnings");
    putchar('[');
    for (int i = 0; i < I.nwarn; i++) {
        bool w = true;
        printf("%s{", i ? ", " : "");
        jkey(&w, "variable");
        jstr(I.warn[i].name);
        jkey(&w, "did_you_mean");
        jstr(I.warn[i].suggest[0] ? I.warn[i].suggest : NULL);
        putchar('}');
    }
    putchar(']');

    jnum(&top, "queue_depth", I.plan.queue_depth);
    jnum(&top, "queue_memory", I.plan.queue_memory);
    jkey(&top, "network");
    putchar('[');
    for (int i = 0; i < I.nnet; i++) {
        const net_row_t *r = &I.net[i];
        bool n = true;
        printf("%s{", i ? ", " : "");
        jnum(&n, "procs", r->procs);
        jnum(&n, "supernodes", r->nodes);
        jnum(&n, "supernode_size", r->node_size);
        jkey(&n, "am_network_bytes");
        if (r->am) printf("%llu", (unsigned long long)r->am);
        else fputs("null", stdout);
        jkey(&n, "am_queue_bytes");
        if (r->queues) printf("%llu", (unsigned long long)r->queues);
        else fputs("null", stdout);
        jkey(&n, "am_pool_bytes");
        if (r->queues) printf("%llu", (unsigned long long)r->pools);
        else fputs("null", stdout);
        jkey(&n, "max_segment_bytes");
        if (!r->err[0]) printf("%llu", (unsigned long long)r->seg);
        else fputs("null", stdout);
        jkey(&n, "error");
        jstr(r->err[0] ? r->err : NULL);
        putchar('}');
    }
    fputs("]}\n", stdout);
}

/* ------------------------------------------------------------------ main */

static void usage(void)
{
    printf("Usage: %s [OPTION]...\n"
           "Shows how pshm was built, the limits of this machine that matter to it, every\n"
           "environment variable it reads (value, default, accepted values, validity), and\n"
           "the shared memory a job of P processes on this host takes (in supernodes\n"
           "of at most GASNET_SUPERNODE_MAXSIZE).\n"
           "\n"
           "  -p, --procs P   show the figures for P processes (1..%d; repeatable, up\n"
           "                  to %d times; default: 2, 8 and 64)\n"
           "      --json      print one JSON object instead of text\n"
           "  -h, --help      show this help\n"
           "  -V, --version   show the version\n"
           "\n"
           "Exit status: 0 all is well; 1 an environment variable is not valid (the\n"
           "message names it); 2 bad usage.\n",
           cli_prog, LAUNCH_MAX_PROCS, MAX_PROCS_ROWS);
}

int main(int argc, char **argv)
{
    static const char *const f_procs[] = {"-p", "--procs", NULL};
    unsigned procs[MAX_PROCS_ROWS] = {2, 8, 64};
    int nprocs = 0;
    bool json = false;
    const char *v;

    cli_init("pshm-info");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) json = true;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("%s %s\n", cli_prog, pshm_version());
            return 0;
        } else if (cli_flag_value(argc, argv, &i, f_procs, &v)) {
            if (nprocs == MAX_PROCS_ROWS) cli_usage_error("at most %d --procs options", MAX_PROCS_ROWS);
            procs[nprocs++] = (unsigned)cli_u64("--procs", v, 1, LAUNCH_MAX_PROCS);
        } else if (a[0] == '-') {
            cli_usage_error("unknown option '%s'", a);
        } else {
            cli_usage_error("unexpected argument '%s' (this program takes options only)", a);
        }
    }
    if (nprocs == 0) nprocs = 3;

    gather_env();
    gather_machine();
    gather_net(procs, nprocs);
    if (json) print_json();
    else print_text();
    fflush(stdout);

    /* Errors on stderr as well, for scripts that keep only that. */
    bool named = false;
    for (int i = 0; i < I.nvars; i++)
        if (I.vars[i].err[0]) {
            fprintf(stderr, "%s: %s\n", cli_prog, I.vars[i].err);
            named = true;
        }
    if (!I.env_ok && !named) fprintf(stderr, "%s: %s\n", cli_prog, I.env_err);
    return I.env_ok && !named ? 0 : 1;
}
