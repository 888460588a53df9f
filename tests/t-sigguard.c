/*
 * t-sigguard: a process that dies by a signal inside pshm_attach, after its
 * objects were created and before their names were removed, leaves nothing
 * behind; the application's own handler still runs; the process still dies
 * by its signal when the application had the default action; an ignored
 * signal stays ignored.
 *
 * The fault is injected through the embedding bootstrap: attach's first
 * exchange happens exactly inside that window.
 */
#include "pshm.h"
#include "tests/helpers.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tag;
static int crash_sig;
static int marker_fd = -1;

static int exchange(void *arg, const void *mine, size_t len, void *all)
{
    (void)arg;
    memcpy(all, mine, len);
    /* Inside attach once this job's objects exist. */
    if (crash_sig != 0 && th_count_objects(tag) > 0)
        raise(crash_sig);
    return 0;
}

static int barrier(void *arg) { (void)arg; return 0; }

static void app_handler(int sig)
{
    char c = 'H';
    if (write(marker_fd, &c, 1) != 1)
        _exit(99);
    _exit(40 + sig % 20);
}

/* Child: sets the disposition, attaches with a fault at `sig`. */
static int child(int sig, int disposition)
{
    pshm_bootstrap_t b = { .rank = 0, .size = 1, .exchange = exchange, .barrier = barrier,
                           .arg = NULL, .job_tag = tag };
    pshm_init_attr_t attr = { .flags = 0, .bootstrap = &b };
    pshm_ctx_t *ctx;

    if (disposition == 1)
        signal(sig, app_handler);
    else if (disposition == 2)
        signal(sig, SIG_IGN);
    if (pshm_init(&ctx, &attr) < 0)
        return 90;
    crash_sig = sig;
    if (pshm_attach(ctx, 1 << 20) < 0)
        return 91;
    crash_sig = 0;
    /* Only reached when the signal was ignored. */
    return pshm_finalize(ctx) < 0 ? 92 : 0;
}

static int run_case(const char *name, int sig, int disposition, int want_sig, int want_exit,
                    int want_marker)
{
    int pfd[2], status;
    char c = 0;
    pid_t pid;
    ssize_t got;

    CHECK(pipe(pfd) == 0);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(pfd[0]);
        marker_fd = pfd[1];
        _exit(child(sig, disposition));
    }
    close(pfd[1]);
    got = read(pfd[0], &c, 1);
    close(pfd[0]);
    CHECK(waitpid(pid, &status, 0) == pid);
    if (want_sig ? !(WIFSIGNALED(status) && WTERMSIG(status) == want_sig)
                 : !(WIFEXITED(status) && WEXITSTATUS(status) == want_exit)) {
        fprintf(stderr, "FAIL %s: status %#x, expected %s %d\n", name, status,
                want_sig ? "death by signal" : "exit", want_sig ? want_sig : want_exit);
        return 1;
    }
    if ((got == 1 && c == 'H') != want_marker) {
        fprintf(stderr, "FAIL %s: application handler %s\n", name,
                want_marker ? "did not run" : "ran unexpectedly");
        return 1;
    }
    if (th_count_objects(tag) != 0) {
        fprintf(stderr, "FAIL %s: objects of job %s were left behind\n", name, tag);
        return 1;
    }
    printf("ok: %s\n", name);
    return 0;
}

int main(void)
{
    static char tagbuf[17];
    int fails = 0;

    if (strstr(pshm_version(), "(none backend)") != NULL) {
        printf("skip: --disable-pshm creates no named object\n");
        return T_SKIP;
    }
    snprintf(tagbuf, sizeof tagbuf, "sg%d", (int)getpid() % 100000000);
    tag = tagbuf;
    fails += run_case("SIGSEGV, default action: dies by SIGSEGV", SIGSEGV, 0, SIGSEGV, 0, 0);
    fails += run_case("SIGBUS, default action: dies by SIGBUS", SIGBUS, 0, SIGBUS, 0, 0);
    fails += run_case("SIGTERM, application handler runs", SIGTERM, 1, 0, 40 + SIGTERM % 20, 1);
    fails += run_case("SIGABRT, application handler runs", SIGABRT, 1, 0, 40 + SIGABRT % 20, 1);
    fails += run_case("SIGINT ignored: attach completes", SIGINT, 2, 0, 0, 0);
    return fails ? T_FAIL : T_PASS;
}
