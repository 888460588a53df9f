/*
 * pshmrun - starts the N processes of a job on this host and serves their
 * bootstrap (protocol in pshm/launch.h).
 *
 * One AF_UNIX socketpair per process; one poll loop over the sockets and a
 * signalfd (SIGCHLD, SIGINT, SIGTERM, SIGHUP are blocked and read from it, so
 * no handler runs at an awkward moment). The first failure decides the exit
 * status; the others are told, then terminated, then killed.
 *
 * A watchdog process, forked first, outlives pshmrun only if pshmrun dies
 * abruptly (SIGKILL, OOM killer): it then makes sure the job's processes are
 * gone and removes the objects they left (see watchdog()).
 */
#include "pshm.h"
#include "pshm/launch.h"
#include "common/misc.h"
#include "common/proc.h"
#include "tools/util/cli.h"
#include "tools/util/pshmrun_bind.h"
#include "tools/util/taglines.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SECONDS_MAX_MS 4000000000u   /* about 46 days */

typedef struct proc {
    pid_t pid;            /* 0 once reaped */
    int fd;               /* -1 once closed */
    bool hello, finish, contributed;
    char *xbuf;           /* its contribution to the current exchange */
    uint32_t xlen;
    launch_msg_t hdr;     /* message being received */
    size_t hgot;
    char *payload;
    size_t pgot;
    taglines_t out[2];    /* --tag-output: its stdout and stderr */
} proc_t;

static struct {
    int n, hosts, verbose;
    bool tag_output, report_bindings;
    bind_mode_t bind;
    cpu_set_t *cpus;           /* --bind-to: each rank's CPUs (NULL: unbound) */
    uint32_t timeout_ms, exit_timeout_ms, boot_timeout_ms;
    char **argv;
    char tag[PSHM_TAG_MAX + 1];
    proc_t *p;
    struct { int rank, status; } *reaped;   /* one reap pass, job.n entries */
    int alive;                 /* not yet reaped */
    int count;                 /* contributions to the current exchange */
    /* The first failure; ending = SIGTERM sent, kill_at = when SIGKILL goes. */
    bool failed, ending;
    launch_failed_t why;
    char init_msg[600];      /* LAUNCH_FAIL_INIT: the library's message */
    char abort_msg[PSHM_ABORT_REASON_MAX + 1]; /* LAUNCH_FAIL_ABORT: its reason, if told */
    const char *label;       /* --label: what a process is called ("rank") */
    uint64_t kill_at_ns, timeout_at_ns;
    uint64_t first_signal_ns;   /* first SIGINT/SIGTERM/SIGHUP received */
    /* Start-up: when the ranks that said HELLO stop waiting for the others
     * (0: every rank has joined, or no limit). */
    uint64_t boot_at_ns;
    int joined;                 /* ranks that have said HELLO */
    int32_t miss[LAUNCH_NOJOIN_LIST_MAX]; /* with LAUNCH_FAIL_NOJOIN: who never joined */
    int nmiss;
} job;

/* The watchdog (see watchdog()): its pid (0: none) and pshmrun's end of its socket. */
static struct { pid_t pid; int fd; } wd = { 0, -1 };

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "pshmrun: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

static void usage(void)
{
    printf("Usage: pshmrun -n N [options] [--] PROGRAM [ARGS...]\n"
           "Starts N processes of PROGRAM on this host as one pshm job.\n\n"
           "  -n, -np, --np N      number of processes, 1 to %d\n"
           "      --hosts K        simulate K hosts: rank r is on host r %% K\n"
           "                       (sets PSHM_SIM_HOSTS=K in the processes)\n"
           "      --timeout SEC    end the job after SEC seconds (exit status 124)\n"
           "      --exit-timeout SEC  grace between SIGTERM and SIGKILL when the job\n"
           "                       ends early (default GASNET_EXITTIMEOUT, else 2)\n"
           "  -x VAR[=VALUE]       set VAR to VALUE in the processes, or pass on\n"
           "                       pshmrun's own VAR (repeatable; as mpirun -x)\n"
           "      --tag-output     prefix every line of the processes' stdout and\n"
           "                       stderr with [RANK]; lines are never mixed\n"
           "      --bind-to WHAT   none (default), core: rank r on every thread of\n"
           "                       the (r mod C)-th core of pshmrun's CPUs, hwthread:\n"
           "                       on the (r mod T)-th CPU\n"
           "      --report-bindings  tell on stderr where each rank is bound\n"
           "      --label WORD     call a process WORD in messages (default rank;\n"
           "                       oshrun says PE)\n"
           "      --boot-timeout SEC  end the job when a process has not called\n"
           "                       pshm_init SEC seconds after the first one did\n"
           "                       (default PSHM_BOOT_TIMEOUT, else 120; 0: no limit)\n"
           "  -v, --verbose        tell what happens on stderr\n"
           "  -h, --help           show this help\n"
           "      --version        show the version\n\n"
           "Each process gets PSHM_RANK, PSHM_SIZE, PSHM_JOB_TAG and PSHM_BOOT_FD.\n"
           "SIGINT, SIGTERM and SIGHUP are forwarded; a second one kills the job.\n\n"
           "Exit status:\n"
           "  0    every process exited 0 (after pshm_finalize if it called pshm_init)\n"
           "  N    the first process to fail exited with status N, or called\n"
           "       pshm_abort(N) (N & 255, so 0 too), or exited without pshm_finalize (1)\n"
           "  128+S  the first process to fail was killed by signal S\n"
           "  2    bad command line\n"
           "  124  --timeout expired\n"
           "  126  PROGRAM is not executable;  127  PROGRAM not found\n",
           LAUNCH_MAX_PROCS);
}

/* A misspelt variable would leave the job on a default without a word. */
static void warn_env(void)
{
    char w[8192], *line, *save = NULL;

    if (pshm_env_warnings(w, sizeof w) <= 0)
        return;
    for (line = strtok_r(w, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save))
        say("warning: %s", line);
}

/* --------------------------------------------------------- command line */

/* -x VAR[=VALUE]: set in pshmrun's environment, which the processes inherit
 * (and pshmrun's own cleanup then looks where the job puts its objects). */
static void export_var(const char *v)
{
    static const char *const reserved[] = { LAUNCH_ENV_RANK, LAUNCH_ENV_SIZE, LAUNCH_ENV_TAG,
                                            LAUNCH_ENV_FD };
    const char *eq = strchr(v, '=');
    size_t n = eq ? (size_t)(eq - v) : strlen(v);
    char name[256];

    if (n == 0 || n >= sizeof name || (v[0] >= '0' && v[0] <= '9') ||
        strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") < n)
        cli_usage_error("-x \"%s\" is not valid: expected VAR or VAR=VALUE, VAR made of "
                        "letters, digits and _ (not starting with a digit)", v);
    memcpy(name, v, n);
    name[n] = 0;
    for (size_t i = 0; i < ARRAY_LEN(reserved); i++)
        if (strcmp(name, reserved[i]) == 0)
            cli_usage_error("-x %s: pshmrun sets %s for each process itself", name, name);
    if (eq == NULL) {
        if (getenv(name) == NULL)
            cli_usage_error("-x %s: %s is not set in pshmrun's environment; give its value "
                            "with -x %s=VALUE", name, name, name);
        return;   /* inherited as it is */
    }
    if (setenv(name, eq + 1, 1) < 0)
        cli_usage_error("-x %s: cannot set it: %s", v, strerror(errno));
}

static void parse_args(int argc, char **argv)
{
    static const char *const n_names[] = { "-n", "-np", "--np", "--n", NULL };
    static const char *const hosts_names[] = { "--hosts", NULL };
    static const char *const timeout_names[] = { "--timeout", NULL };
    static const char *const exit_names[] = { "--exit-timeout", NULL };
    static const char *const x_names[] = { "-x", NULL };
    static const char *const boot_names[] = { "--boot-timeout", NULL };
    static const char *const bind_names[] = { "--bind-to", "-bind-to", NULL };
    static const char *const label_names[] = { "--label", NULL };
    const char *v, *e;
    int i;

    /* The library's parser and range: what pshmrun accepts, its processes do. */
    job.label = "rank";
    job.exit_timeout_ms = PSHM_EXIT_TIMEOUT_DEFAULT_MS;
    if ((e = getenv("GASNET_EXITTIMEOUT")) != NULL)
        job.exit_timeout_ms = cli_seconds_ms("GASNET_EXITTIMEOUT", e, PSHM_EXIT_TIMEOUT_MIN_MS,
                                             PSHM_EXIT_TIMEOUT_MAX_MS);
    job.boot_timeout_ms = PSHM_BOOT_TIMEOUT_DEFAULT_MS;
    if ((e = getenv(LAUNCH_ENV_BOOT_TIMEOUT)) != NULL)
        job.boot_timeout_ms = cli_seconds_ms(LAUNCH_ENV_BOOT_TIMEOUT, e, 0,
                                             PSHM_BOOT_TIMEOUT_MAX_MS);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0')
            break;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage();
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("pshmrun (pshm) %s, %s backend\n", pshm_build_info()->version,
                   pshm_build_info()->backend);
            exit(0);
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            job.verbose++;
        } else if (strcmp(a, "--tag-output") == 0) {
            job.tag_output = true;
        } else if (cli_flag_value(argc, argv, &i, x_names, &v)) {
            export_var(v);
        } else if (cli_flag_value(argc, argv, &i, n_names, &v)) {
            job.n = (int)cli_u64("-n", v, 1, LAUNCH_MAX_PROCS);
        } else if (cli_flag_value(argc, argv, &i, hosts_names, &v)) {
            job.hosts = (int)cli_u64("--hosts", v, 1, LAUNCH_MAX_PROCS);
        } else if (cli_flag_value(argc, argv, &i, timeout_names, &v)) {
            job.timeout_ms = cli_seconds_ms("--timeout", v, 0, SECONDS_MAX_MS);
            if (job.timeout_ms == 0)
                cli_usage_error("--timeout=\"%s\" is not valid: expected more than 0 seconds",
                                v);
        } else if (cli_flag_value(argc, argv, &i, exit_names, &v)) {
            job.exit_timeout_ms = cli_seconds_ms("--exit-timeout", v, PSHM_EXIT_TIMEOUT_MIN_MS,
                                                 PSHM_EXIT_TIMEOUT_MAX_MS);
        } else if (cli_flag_value(argc, argv, &i, label_names, &v)) {
            if (v[0] == '\0' || strlen(v) > 16 || strpbrk(v, " \t\n%") != NULL)
                cli_usage_error("--label '%s' is not a word of 1 to 16 characters", v);
            job.label = v;
        } else if (cli_flag_value(argc, argv, &i, bind_names, &v)) {
            if (bind_parse(v, &job.bind) < 0)
                cli_usage_error("--bind-to '%s' is not a binding: give none, core or hwthread", v);
        } else if (strcmp(a, "--report-bindings") == 0 || strcmp(a, "-report-bindings") == 0) {
            job.report_bindings = true;
        } else if (cli_flag_value(argc, argv, &i, boot_names, &v)) {
            job.boot_timeout_ms = cli_seconds_ms("--boot-timeout", v, 0,
                                                 PSHM_BOOT_TIMEOUT_MAX_MS);
        } else {
            cli_usage_error("unknown option '%s'", a);
        }
    }
    if (job.n == 0)
        cli_usage_error("the number of processes is missing: give -n N");
    if (i >= argc)
        cli_usage_error("the program to run is missing: pshmrun -n %d PROGRAM [ARGS...]",
                        job.n);
    job.argv = argv + i;
}

/* -------------------------------------------------------------- failure */

static void signal_all(int sig)
{
    for (int r = 0; r < job.n; r++)
        if (job.p[r].pid > 0)
            kill(job.p[r].pid, sig);
}

static void end_job(void)
{
    if (job.ending)
        return;
    job.ending = true;
    signal_all(SIGTERM);
    job.kill_at_ns = now_ns() + (uint64_t)job.exit_timeout_ms * 1000000u;
}

/* Records the first failure, tells the others (FAILED), ends the job.
 * Returns true if this was the first failure (and so was reported). */
static bool fail(int rank, int how, int detail, int status)
{
    launch_msg_t h = { .type = LAUNCH_FAILED, .len = sizeof(launch_failed_t) };
    char buf[sizeof h + sizeof(launch_failed_t) + sizeof job.miss];
    char why[PSHM_ABORT_REASON_MAX + 64];

    if (job.failed)
        return false;
    job.failed = true;
    job.why = (launch_failed_t){ .rank = rank, .status = status, .how = how,
                                 .detail = detail };
    launch_describe(&job.why, why, sizeof why);
    if (how == LAUNCH_FAIL_ABORT && job.abort_msg[0])
        snprintf(why, sizeof why, "%s", job.abort_msg);
    if (how == LAUNCH_FAIL_EXEC)
        say("cannot execute '%s': %s; ending the job", job.argv[0], strerror(detail));
    else if (how == LAUNCH_FAIL_INIT && job.init_msg[0])
        say("%s %d (pid %d) failed to start: %s; ending the job", job.label, rank,
            (int)job.p[rank].pid, job.init_msg);
    else if (rank >= 0 && job.p[rank].pid > 0)
        say("%s %d (pid %d) %s; ending the job", job.label, rank, (int)job.p[rank].pid, why);
    else if (rank >= 0)
        say("%s %d %s; ending the job", job.label, rank, why);
    else
        say("%s; ending the job", why);
    /* Best effort and never blocking: a process blocked in an exchange reads
     * it now, any other at its next exchange. */
    if (how == LAUNCH_FAIL_NOJOIN) {
        memcpy(buf + sizeof h + sizeof job.why, job.miss, (size_t)job.nmiss * 4);
        h.len += (uint32_t)job.nmiss * 4;
    }
    memcpy(buf, &h, sizeof h);
    memcpy(buf + sizeof h, &job.why, sizeof job.why);
    for (int r = 0; r < job.n; r++)
        if (job.p[r].fd >= 0 && r != rank)
            (void)send(job.p[r].fd, buf, sizeof h + h.len, MSG_NOSIGNAL | MSG_DONTWAIT);
    end_job();
    return true;
}

/* A rank that exited without contributing strands the others in an
 * exchange. (A closed socket alone is not enough: its exit status, read
 * later, is the better reason.) */
static void check_stranded(void)
{
    if (job.count == 0)
        return;
    for (int r = 0; r < job.n; r++)
        if (!job.p[r].contributed && job.p[r].pid == 0) {
            fail(r, LAUNCH_FAIL_STRANDED, 0, 1);
            return;
        }
}

/* ------------------------------------------------------------- messages */

static void send_all_blocking(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return;   /* the process died: its exit is handled by the loop */
        p += k;
        n -= (size_t)k;
    }
}

/* The rank that broke a round of unequal lengths: the first that differs
 * from rank 0, or rank 0 itself when all the others agree. */
static int odd_rank_out(void)
{
    int first = -1;

    for (int r = 1; r < job.n; r++)
        if (job.p[r].xlen != job.p[0].xlen) {
            if (first < 0)
                first = r;
            if (r > 1 && job.p[r].xlen != job.p[1].xlen)
                return first;   /* ranks 1.. disagree among themselves */
        }
    return first == 1 && job.n > 2 && job.p[1].xlen == job.p[2].xlen ? 0 : first;
}

/* Every rank has contributed: check the lengths, send the concatenation. */
static void complete_round(void)
{
    uint32_t len = job.p[0].xlen;
    launch_msg_t h = { .type = LAUNCH_EXCHANGE, .len = len * (uint32_t)job.n };
    int odd = odd_rank_out();
    char *all = NULL;

    if (odd >= 0) {
        int ref = odd == 0 ? 1 : 0;
        say("rank %d contributed %u bytes to an exchange where rank %d contributed %u; every "
            "rank must give the same length", odd, job.p[odd].xlen, ref, job.p[ref].xlen);
        fail(odd, LAUNCH_FAIL_PROTOCOL, 0, 1);
    } else if ((uint64_t)len * (uint64_t)job.n > UINT32_MAX ||
               (all = malloc((size_t)h.len + 1)) == NULL) {
        say("cannot gather an exchange of %u bytes from each of %d ranks", len, job.n);
        fail(0, LAUNCH_FAIL_PROTOCOL, 0, 1);
    } else {
        for (int r = 0; r < job.n; r++)
            memcpy(all + (size_t)r * len, job.p[r].xbuf, len);
        for (int r = 0; r < job.n; r++)
            if (job.p[r].fd >= 0) {
                send_all_blocking(job.p[r].fd, &h, sizeof h);
                send_all_blocking(job.p[r].fd, all, h.len);
            }
    }
    for (int r = 0; r < job.n; r++) {
        free(job.p[r].xbuf);
        job.p[r].xbuf = NULL;
        job.p[r].contributed = false;
    }
    free(all);
    job.count = 0;
}

static void on_exchange(int r, proc_t *p)
{
    if (p->contributed) {
        say("rank %d sent a second exchange before the first one completed", r);
        fail(r, LAUNCH_FAIL_PROTOCOL, 0, 1);
        return;
    }
    /* Keep the contribution until all are in: only then is it known who
     * broke the round if the lengths differ. */
    p->xbuf = p->payload;
    p->xlen = p->hdr.len;
    p->payload = NULL;
    p->contributed = true;
    if (++job.count == job.n && !job.failed)
        complete_round();
    else
        check_stranded();
}

static void on_message(int r, proc_t *p)
{
    switch (p->hdr.type) {
    case LAUNCH_HELLO:
        if (!p->hello && ++job.joined == job.n)
            job.boot_at_ns = 0;   /* everyone is in: the start-up is over */
        else if (job.joined == 1 && job.boot_timeout_ms)
            job.boot_at_ns = now_ns() + (uint64_t)job.boot_timeout_ms * 1000000u;
        p->hello = true;
        p->finish = false;   /* a new pshm_init after a finalize */
        if (job.verbose)
            say("rank %d (pid %d) joined", r, (int)p->pid);
        break;
    case LAUNCH_EXCHANGE:
        on_exchange(r, p);
        break;
    case LAUNCH_FINISH:
        p->finish = true;
        if (job.verbose)
            say("rank %d finalized", r);
        break;
    case LAUNCH_ABORT: {
        int32_t code = 0;
        if (p->hdr.len >= sizeof code)
            memcpy(&code, p->payload, sizeof code);
        /* What ended the job, in the program's words (pshm_abort_reason). */
        if (!job.failed && p->hdr.len > sizeof code)
            snprintf(job.abort_msg, sizeof job.abort_msg, "%.*s",
                     (int)(p->hdr.len - sizeof code), (const char *)p->payload + sizeof code);
        fail(r, LAUNCH_FAIL_ABORT, code, code & 0xff);
        break;
    }
    case LAUNCH_INITFAIL:
        /* Its pshm_init failed: what the library said, not an abort. */
        if (!job.failed)
            snprintf(job.init_msg, sizeof job.init_msg, "%.*s", (int)p->hdr.len,
                     (const char *)p->payload);
        fail(r, LAUNCH_FAIL_INIT, 0, 1);
        break;
    default:
        say("rank %d sent an unknown message (type %u)", r, p->hdr.type);
        fail(r, LAUNCH_FAIL_PROTOCOL, 0, 1);
        break;
    }
}

static void close_proc_fd(proc_t *p)
{
    if (p->fd >= 0)
        close(p->fd);
    p->fd = -1;
    free(p->payload);
    p->payload = NULL;
}

/* Reads what is available on rank r's socket without blocking. */
static void drain(int r)
{
    proc_t *p = &job.p[r];

    while (p->fd >= 0) {
        char *dst;
        size_t want;
        ssize_t k;

        if (p->hgot < sizeof p->hdr) {
            dst = (char *)&p->hdr + p->hgot;
            want = sizeof p->hdr - p->hgot;
        } else {
            dst = p->payload + p->pgot;
            want = p->hdr.len - p->pgot;
        }
        k = recv(p->fd, dst, want, MSG_DONTWAIT);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (k <= 0) {   /* EOF or error: the process closed or died */
            close_proc_fd(p);
            return;
        }
        if (p->hgot < sizeof p->hdr) {
            p->hgot += (size_t)k;
            if (p->hgot < sizeof p->hdr)
                continue;
            if (p->hdr.len > LAUNCH_MAX_EXCHANGE) {
                say("rank %d sent a message of %u bytes (the limit is %u)", r, p->hdr.len,
                    LAUNCH_MAX_EXCHANGE);
                fail(r, LAUNCH_FAIL_PROTOCOL, 0, 1);
                close_proc_fd(p);
                return;
            }
            free(p->payload);
            p->payload = malloc(p->hdr.len ? p->hdr.len : 1);
            p->pgot = 0;
            if (p->payload == NULL) {
                say("cannot allocate %u bytes for rank %d's message", p->hdr.len, r);
                fail(r, LAUNCH_FAIL_PROTOCOL, 0, 1);
                close_proc_fd(p);
                return;
            }
        } else {
            p->pgot += (size_t)k;
        }
        if (p->hgot == sizeof p->hdr && p->pgot == p->hdr.len) {
            p->hgot = 0;
            on_message(r, p);
        }
    }
}

/* --------------------------------------------------------------- exits */

static int find_rank(pid_t pid)
{
    for (int r = 0; r < job.n; r++)
        if (job.p[r].pid == pid)
            return r;
    return -1;
}

static void on_exit_status(int r, int st)
{
    proc_t *p = &job.p[r];
    bool reported = false;

    drain(r);   /* its last messages (FINISH, ABORT) are still in the socket */
    /* A process that ends on another's abort does not tell: that abort was
     * sent before it could know, so read it before blaming this exit. */
    if (!job.failed && (WIFSIGNALED(st) || WEXITSTATUS(st) != 0))
        for (int q = 0; q < job.n; q++)
            if (q != r)
                drain(q);
    if (WIFSIGNALED(st))
        reported = fail(r, LAUNCH_FAIL_SIGNAL, WTERMSIG(st), 128 + WTERMSIG(st));
    else if (WEXITSTATUS(st) != 0)
        reported = fail(r, LAUNCH_FAIL_EXIT, WEXITSTATUS(st), WEXITSTATUS(st));
    else if (p->hello && !p->finish)
        reported = fail(r, LAUNCH_FAIL_NOFINISH, 0, 1);
    /* Each end is told once: the failure that ends the job says it already. */
    if (job.verbose && !reported)
        say("rank %d (pid %d) %s %d", r, (int)p->pid,
            WIFSIGNALED(st) ? "was killed by signal" : "exited with status",
            WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
    p->pid = 0;
    job.alive--;
    close_proc_fd(p);
    check_stranded();
}

/*
 * Collects every process that has ended, then reports deaths by signal
 * first: when one rank crashes, the others notice and exit with an error at
 * once, and waitpid returns the oldest child first, so the crash would
 * otherwise be blamed on a rank that only reacted to it.
 */
static void reap(void)
{
    int n = 0, st;
    pid_t pid;

    while (n < job.n && (pid = waitpid(-1, &st, WNOHANG)) > 0) {
        int r = find_rank(pid);
        if (pid == wd.pid)
            wd.pid = 0;   /* it died early: never signal that pid again */
        if (r >= 0) {
            job.reaped[n].rank = r;
            job.reaped[n].status = st;
            n++;
        }
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++)
            if ((pass == 0) == (WIFSIGNALED(job.reaped[i].status) != 0))
                on_exit_status(job.reaped[i].rank, job.reaped[i].status);
}

/* Signals within this time of the first count as the same one: a signal
 * sent to the process group (timeout(1), kill -- -PGID) reaches pshmrun
 * more than once. */
#define SIGNAL_REPEAT_NS 300000000ull

static void on_signal(const struct signalfd_siginfo *si)
{
    int sig = (int)si->ssi_signo;
    uint64_t now = now_ns();

    if (sig == SIGCHLD) {
        reap();
        return;
    }
    if (job.first_signal_ns && now - job.first_signal_ns >= SIGNAL_REPEAT_NS) {
        say("received %s again; killing the job", strsignal(sig));
        signal_all(SIGKILL);
        return;
    }
    if (job.first_signal_ns == 0)
        job.first_signal_ns = now;
    /* From the terminal (SI_KERNEL) it reached the whole foreground group,
     * the processes included; else forward it. A process killed by it
     * reports its own status; one that handles it may still end cleanly. */
    if (si->ssi_code == SI_KERNEL)
        return;
    if (job.verbose)
        say("received %s; forwarding it to the job", strsignal(sig));
    signal_all(sig);
}

/* Removes whatever objects of the job remain (`who`: how the message starts) (a process killed between
 * creating and unlinking its segment leaves them). */
static void cleanup_objects(const char *who)
{
    int rc = pshm_job_remove(job.tag, (unsigned)job.n);

    if (rc < 0)
        say("could not remove the objects of job %s: %s", job.tag, pshm_last_error());
    else if (rc > 0)
        say("%sremoved %d object%s job %s left behind", who, rc, rc > 1 ? "s" : "", job.tag);
}

/* ------------------------------------------------------------- watchdog */

/* pshmrun -> watchdog, one per rank started, and one "done" at a normal end. */
typedef struct wd_msg {
    int32_t pid;
    uint32_t done;
    uint64_t start;   /* start time of pid (seg_pid_start), 0 if unknown */
} wd_msg_t;


#define WATCHDOG_WAIT_NS 10000000000ull   /* dying ranks: up to 10 s */

/*
 * The watchdog. It reads the ranks' (pid, start) as pshmrun starts them.
 * "done": pshmrun ended normally and removed the objects itself; exit.
 * End of file without "done": pshmrun died. Its ranks die with it
 * (PR_SET_PDEATHSIG) but may still be inside pshm_attach for a moment, and
 * a rank could have escaped the death signal: kill them, wait (bounded)
 * until none runs, so none can create anything more, then remove every
 * object of the job by its tag, and exit.
 */
static void watchdog(int fd) __attribute__((noreturn));
static void watchdog(int fd)
{
    wd_msg_t *ranks = calloc((size_t)job.n, sizeof *ranks), m;
    int known = 0, dn = open("/dev/null", O_RDWR | O_CLOEXEC);
    size_t got = 0;

    prctl(PR_SET_NAME, "pshmrun-watch");
    /* A terminal's ^C reaches the whole group: pshmrun handles it and says
     * "done"; the watchdog must not die of it first. SIGKILL still works. */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    if (dn >= 0) {   /* stderr stays, for the message below */
        dup2(dn, 0);
        dup2(dn, 1);
        close(dn);
    }
    for (;;) {
        ssize_t k = read(fd, (char *)&m + got, sizeof m - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;   /* pshmrun is gone */
        if ((got += (size_t)k) < sizeof m)
            continue;
        got = 0;
        if (m.done)
            _exit(0);
        if (ranks != NULL && known < job.n)
            ranks[known++] = m;
    }
    for (uint64_t end = now_ns() + WATCHDOG_WAIT_NS;;) {
        int alive = 0;
        for (int i = 0; i < known; i++)
            if (ranks[i].pid > 0 && proc_pid_state(ranks[i].pid, ranks[i].start) == PROC_PID_ALIVE) {
                kill(ranks[i].pid, SIGKILL);
                alive++;
            } else {
                ranks[i].pid = 0;   /* gone: never signalled again */
            }
        if (alive == 0 || now_ns() >= end)
            break;
        struct timespec ts = { 0, 5000000 };
        nanosleep(&ts, NULL);
    }
    cleanup_objects("pshmrun was killed; its watchdog ");
    _exit(0);
}

/* What to do when descriptors ran out ("" for other errors): pshmrun keeps
 * one socket per process, and needs a socket and a pipe while starting one. */
static const char *fd_advice(int e)
{
    static char buf[200];
    struct rlimit rl;

    if (e == ENFILE)
        return "; the system's table of open files is full: raise fs.file-max (sysctl -w)";
    if (e != EMFILE)
        return "";
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    {
        /* A socket per process, and its two output pipes with --tag-output. */
        int per = job.tag_output ? 3 : 1;
        snprintf(buf, sizeof buf, "; pshmrun keeps %d descriptor%s per process and needs %d or "
                 "more for %d processes, but may open %llu: raise the limit (ulimit -n %d)",
                 per, per > 1 ? "s" : "", per * job.n + 16, job.n,
                 (unsigned long long)rl.rlim_cur,
                 per * job.n + 64 > 1024 ? per * job.n + 64 : 1024);
    }
    else
        snprintf(buf, sizeof buf, "; raise the limit on open files (ulimit -n)");
    return buf;
}

/* Forks the watchdog; pshmrun keeps the write end. Without one (fork or
 * socket failure) the job still runs: only the SIGKILL case loses. */
static void watchdog_start(int sfd)
{
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        int e = errno;
        say("cannot create the watchdog's socket: %s; a SIGKILL of pshmrun would leave "
            "objects behind%s", strerror(e), fd_advice(e));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        close(sfd);
        watchdog(sv[1]);
    }
    close(sv[1]);
    if (pid < 0) {
        say("cannot start the watchdog: fork: %s; a SIGKILL of pshmrun would leave objects "
            "behind", strerror(errno));
        close(sv[0]);
        return;
    }
    wd.pid = pid;
    wd.fd = sv[0];
}

static void watchdog_send(const wd_msg_t *m)
{
    if (wd.fd >= 0)
        send_all_blocking(wd.fd, m, sizeof *m);   /* fails only if it died */
}

/* A normal end: the watchdog exits at "done"; collect it (bounded). */
static void watchdog_finish(void)
{
    wd_msg_t m = { .done = 1 };
    int st;

    watchdog_send(&m);
    if (wd.fd >= 0)
        close(wd.fd);
    wd.fd = -1;
    for (int i = 0; wd.pid > 0 && i < 2000; i++) {
        pid_t k = waitpid(wd.pid, &st, WNOHANG);
        if (k == wd.pid || (k < 0 && errno != EINTR))
            wd.pid = 0;
        else if (k == 0) {
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
    }
    if (wd.pid > 0) {   /* stopped or stuck: it has no duty left */
        kill(wd.pid, SIGKILL);
        while (waitpid(wd.pid, &st, 0) < 0 && errno == EINTR) {}
        wd.pid = 0;
    }
}

/* --------------------------------------------------------------- launch */

/* In the child: dies with pshmrun, gets the job's environment, execs. The
 * exec failure (errno) goes back through the close-on-exec pipe `errfd`. */
static void child(int r, int sock, int errfd, const int *outfd, pid_t parent,
                  const sigset_t *mask) __attribute__((noreturn));
static void child(int r, int sock, int errfd, const int *outfd, pid_t parent,
                  const sigset_t *mask)
{
    char num[32];
    int e;

    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        _exit(127);   /* pshmrun already died (or cannot arrange to) */
    /* --tag-output: stdout and stderr go to pshmrun, which prefixes lines;
     * SIGPIPE, ignored by pshmrun for that, is the program's as usual. */
    if (outfd != NULL && (dup2(outfd[0], STDOUT_FILENO) < 0 || dup2(outfd[1], STDERR_FILENO) < 0 ||
                          signal(SIGPIPE, SIG_DFL) == SIG_ERR))
        _exit(127);
    sigprocmask(SIG_SETMASK, mask, NULL);
    /* Bound before the exec, so the program's first instruction runs there. */
    if (job.cpus != NULL && sched_setaffinity(0, sizeof job.cpus[r], &job.cpus[r]) < 0)
        _exit(127);
    fcntl(sock, F_SETFD, 0);   /* this end only survives the exec */
    snprintf(num, sizeof num, "%d", r);
    setenv(LAUNCH_ENV_RANK, num, 1);
    snprintf(num, sizeof num, "%d", job.n);
    setenv(LAUNCH_ENV_SIZE, num, 1);
    setenv(LAUNCH_ENV_TAG, job.tag, 1);
    snprintf(num, sizeof num, "%d", sock);
    setenv(LAUNCH_ENV_FD, num, 1);
    if (job.hosts > 0) {
        snprintf(num, sizeof num, "%d", job.hosts);
        setenv("PSHM_SIM_HOSTS", num, 1);
    }
    execvp(job.argv[0], job.argv);
    e = errno;
    (void)!write(errfd, &e, sizeof e);
    _exit(127);
}

/* Starts rank r; returns 0, the errno of a failed exec, or -errno when the
 * process could not be created. */
static int spawn(int r, const sigset_t *mask)
{
    int sv[2], ep[2], op[2] = { -1, -1 }, xp[2] = { -1, -1 }, e = 0;
    pid_t pid, self = getpid();
    ssize_t k;

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
        pipe2(ep, O_CLOEXEC) < 0 ||
        (job.tag_output && (pipe2(op, O_CLOEXEC) < 0 || pipe2(xp, O_CLOEXEC) < 0))) {
        e = errno;
        say("cannot create the socket or pipes for rank %d: %s%s", r, strerror(e), fd_advice(e));
        return -e;
    }
    int outw[2] = { op[1], xp[1] };
    pid = fork();
    if (pid == 0)
        child(r, sv[1], ep[1], job.tag_output ? outw : NULL, self, mask);
    e = errno;
    close(sv[1]);
    close(ep[1]);
    if (job.tag_output) {
        close(op[1]);
        close(xp[1]);
        taglines_open(&job.p[r].out[0], op[0], r, STDOUT_FILENO);
        taglines_open(&job.p[r].out[1], xp[0], r, STDERR_FILENO);
    }
    if (pid < 0) {
        close(sv[0]);
        close(ep[0]);
        say("cannot start rank %d: fork: %s", r, strerror(e));
        return -e;
    }
    job.p[r].pid = pid;
    job.p[r].fd = sv[0];
    job.alive++;
    /* Unreaped, the pid is still this child's: its start time is exact. */
    wd_msg_t m = { .pid = (int32_t)pid };
    if (proc_pid_start(pid, &m.start) < 0)
        m.start = 0;
    watchdog_send(&m);
    /* EOF: the exec succeeded; 4 bytes: its errno. */
    do
        k = read(ep[0], &e, sizeof e);
    while (k < 0 && errno == EINTR);
    close(ep[0]);
    if (k != (ssize_t)sizeof e)
        return 0;
    if (job.verbose)
        say("rank %d: exec failed: %s", r, strerror(e));
    return e;
}

/* ------------------------------------------------------------------ loop */

static int poll_timeout_ms(void)
{
    uint64_t now = now_ns(), at = UINT64_MAX;

    if (job.ending && job.kill_at_ns)
        at = job.kill_at_ns;
    if (job.timeout_at_ns && job.timeout_at_ns < at)
        at = job.timeout_at_ns;
    if (job.boot_at_ns && job.boot_at_ns < at)
        at = job.boot_at_ns;
    if (at == UINT64_MAX)
        return -1;
    return at <= now ? 0 : (int)((at - now) / 1000000u + 1);
}

/* --tag-output: what the processes wrote and pshmrun did not read yet. Once
 * every process has ended, the rest in the pipes (nothing more can come
 * from them; a process they left behind is not waited for). */
static void flush_outputs(void)
{
    for (int r = 0; r < job.n; r++)
        for (int s = 0; s < 2; s++)
            taglines_finish(&job.p[r].out[s]);
}

/* The ranks still running that never said HELLO (or, with `exchange`, that
 * have not contributed to the current exchange) into job.miss, the first
 * LAUNCH_NOJOIN_LIST_MAX of them; returns how many there are. */
static int collect_missing(bool exchange)
{
    int total = 0;

    job.nmiss = 0;
    for (int r = 0; r < job.n; r++)
        if (!(exchange ? job.p[r].contributed : job.p[r].hello) && job.p[r].pid > 0) {
            if (job.nmiss < LAUNCH_NOJOIN_LIST_MAX)
                job.miss[job.nmiss++] = r;
            total++;
        }
    return total;
}

/* PSHM_BOOT_TIMEOUT expired with ranks that never called pshm_init. */
static void fail_nojoin(void)
{
    char list[LAUNCH_NOJOIN_LIST_MAX * 12 + 32];
    int total = collect_missing(false);

    if (total == 0)
        return;
    say("rank%s %s never called pshm_init, %.3g s after the first rank did (%s, or "
        "--boot-timeout; 0: no limit)", total > 1 ? "s" : "",
        launch_rank_list(job.miss, job.nmiss, total, list, sizeof list),
        job.boot_timeout_ms / 1000.0, LAUNCH_ENV_BOOT_TIMEOUT);
    fail(job.miss[0], LAUNCH_FAIL_NOJOIN, total, 1);
}

/* At --timeout: names the ranks that never called pshm_init, or that the
 * others wait for in a bootstrap exchange. */
static void say_missing(void)
{
    char list[LAUNCH_NOJOIN_LIST_MAX * 12 + 32];
    int total = collect_missing(false);

    if (total > 0) {
        say("rank%s %s never called pshm_init", total > 1 ? "s" : "",
            launch_rank_list(job.miss, job.nmiss, total, list, sizeof list));
        return;
    }
    if (job.count > 0 && (total = collect_missing(true)) > 0)
        say("%d rank%s wait%s in a bootstrap exchange for rank%s %s", job.count,
            job.count > 1 ? "s" : "", job.count > 1 ? "" : "s", total > 1 ? "s" : "",
            launch_rank_list(job.miss, job.nmiss, total, list, sizeof list));
}

static void run_loop(int sfd)
{
    struct pollfd *pfd = calloc(3 * (size_t)job.n + 1, sizeof *pfd);
    int *rank_of = calloc(3 * (size_t)job.n + 1, sizeof *rank_of);

    if (pfd == NULL || rank_of == NULL) {
        say("out of memory; killing the job");
        signal_all(SIGKILL);
    }
    while (job.alive > 0) {
        int np = 0, k;
        uint64_t now;

        if (pfd != NULL) {
            pfd[np++] = (struct pollfd){ .fd = sfd, .events = POLLIN };
            for (int r = 0; r < job.n; r++) {
                if (job.p[r].fd >= 0) {
                    rank_of[np] = r;
                    pfd[np++] = (struct pollfd){ .fd = job.p[r].fd, .events = POLLIN };
                }
                /* Output streams: rank_of is -1 - (2 * r + stream). */
                for (int s = 0; s < 2; s++)
                    if (job.p[r].out[s].fd >= 0) {
                        rank_of[np] = -1 - (2 * r + s);
                        pfd[np++] = (struct pollfd){ .fd = job.p[r].out[s].fd,
                                                     .events = POLLIN };
                    }
            }
            k = poll(pfd, (nfds_t)np, poll_timeout_ms());
        } else {
            struct pollfd one = { .fd = sfd, .events = POLLIN };
            k = poll(&one, 1, -1);
            np = 0;
        }
        if (k < 0 && errno != EINTR) {
            say("poll: %s; killing the job", strerror(errno));
            signal_all(SIGKILL);
        }
        for (int i = 1; k > 0 && i < np; i++)
            if (pfd[i].revents && rank_of[i] >= 0)
                drain(rank_of[i]);
            else if (pfd[i].revents) {
                int o = -1 - rank_of[i];
                taglines_read(&job.p[o / 2].out[o % 2]);
            }
        if (k > 0) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si)
                on_signal(&si);
        }
        reap();   /* SIGCHLDs coalesce: reaping here misses none */
        now = now_ns();
        if (job.boot_at_ns && now >= job.boot_at_ns) {
            job.boot_at_ns = 0;
            fail_nojoin();
        }
        if (job.timeout_at_ns && now >= job.timeout_at_ns) {
            job.timeout_at_ns = 0;
            say_missing();
            fail(-1, LAUNCH_FAIL_LAUNCHER, 0, 124);
        }
        if (job.ending && job.kill_at_ns && now >= job.kill_at_ns) {
            if (job.alive > 0)
                say("%d process%s still running %.3g s after SIGTERM; killing %s", job.alive,
                    job.alive > 1 ? "es" : "", job.exit_timeout_ms / 1000.0,
                    job.alive > 1 ? "them" : "it");
            signal_all(SIGKILL);
            job.kill_at_ns = 0;
        }
    }
    flush_outputs();
    free(pfd);
    free(rank_of);
}

int main(int argc, char **argv)
{
    sigset_t block, old;
    int sfd, status, rc;

    cli_init("pshmrun");
    parse_args(argc, argv);
    warn_env();
    /* --tag-output: a reader of pshmrun's output that goes away loses the
     * output (EPIPE), not the job. */
    if (job.tag_output)
        signal(SIGPIPE, SIG_IGN);
    if ((rc = launch_random_tag(job.tag, sizeof job.tag)) < 0) {
        say("cannot draw a random job tag: getrandom: %s", strerror(-rc));
        return 1;
    }
    job.p = calloc((size_t)job.n, sizeof *job.p);
    job.reaped = calloc((size_t)job.n, sizeof *job.reaped);
    if (job.p == NULL || job.reaped == NULL) {
        say("cannot allocate the table of %d processes", job.n);
        return 1;
    }
    for (int r = 0; r < job.n; r++)
        job.p[r].fd = job.p[r].out[0].fd = job.p[r].out[1].fd = -1;
    if ((rc = bind_plan(job.bind, job.n, &job.cpus)) < 0) {
        say("--bind-to: cannot read this process's CPUs: %s", strerror(-rc));
        return 1;
    }
    if (job.report_bindings) {
        char list[256];

        for (int r = 0; r < job.n; r++) {
            if (job.cpus == NULL) {
                say("%s %d is not bound (--bind-to none)", job.label, r);
                continue;
            }
            bind_format(&job.cpus[r], list, sizeof list);
            say("%s %d bound to CPU %s%s", job.label, r, list,
                r >= rc ? " (shared: more ranks than places)" : "");
        }
    }

    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, &old);
    sfd = signalfd(-1, &block, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) {
        say("signalfd: %s", strerror(errno));
        return 1;
    }
    if (job.verbose)
        say("job %s: %d process%s of %s", job.tag, job.n, job.n > 1 ? "es" : "",
            job.argv[0]);

    watchdog_start(sfd);
    for (int r = 0; r < job.n; r++) {
        int e = spawn(r, &old);
        if (e > 0)
            fail(r, LAUNCH_FAIL_EXEC, e, (e == ENOENT || e == ENOTDIR) ? 127 : 126);
        else if (e < 0)
            fail(-1, LAUNCH_FAIL_LAUNCHER, -1, 1);
        if (e != 0)
            break;
    }
    if (job.timeout_ms)
        job.timeout_at_ns = now_ns() + (uint64_t)job.timeout_ms * 1000000u;
    run_loop(sfd);
    cleanup_objects("");
    watchdog_finish();

    status = job.failed ? job.why.status : 0;
    /* Never 0 when the job failed, unless a pshm_abort asked for it (an
     * early successful end, as shmem_global_exit(0)). */
    if (job.failed && status == 0 && job.why.how != LAUNCH_FAIL_ABORT)
        status = 1;
    if (job.verbose)
        say("job %s ended with status %d", job.tag, status);
    return status;
}
