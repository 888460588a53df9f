/*
 * bench_startup.c - the floor of pshm-pingpong --startup: reserving the
 * storage of P segments with the backend's bare system calls, by one
 * process and by one process per CPU, and the time since pshmrun started.
 * Where pshm takes huge pages the floor takes them alike: a tmpfs gives
 * them to both, a hugetlbfs or SHM_HUGETLB reserves them in the pool.
 *
 * With 4 KiB pages the kernel allocates, charges and inserts every page
 * one by one (tmpfs: fallocate leaves them to be zeroed at first touch;
 * SysV: populating faults them in, zeroed): this is what pshm's attach
 * cannot go below, whatever it does around it.
 */
#include "common/proc.h"
#include "pshm.h"
#include "tools/util/bench_startup.h"
#include "tools/util/bench_sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define HUGETLBFS_MAGIC_ 0x958458f6

/* The library's backend, as it reports it. */
static int backend_is(const char *name)
{
    return strcmp(pshm_build_info()->backend, name) == 0;
}

/* Page size of the hugetlbfs holding fd, 0 if another file system. */
static uint64_t hugetlbfs_page(int fd)
{
    struct statfs sf;
    return fstatfs(fd, &sf) == 0 && (unsigned long)sf.f_type == HUGETLBFS_MAGIC_
               ? (uint64_t)sf.f_bsize : 0;
}

int bench_since_launch(uint64_t *ns)
{
    char path[64], comm[64] = "";
    uint64_t start;
    struct timespec now;
    pid_t pp = getppid();
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/comm", (int)pp);
    if ((f = fopen(path, "re")) == NULL) return -1;
    if (fgets(comm, sizeof comm, f) == NULL) comm[0] = 0;
    fclose(f);
    if (strcmp(comm, "pshmrun\n") != 0) return -1;
    long hz = sysconf(_SC_CLK_TCK);
    if (proc_pid_start(pp, &start) < 0 || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) < 0)
        return -1;
    /* The start time counts clock ticks after boot, as CLOCK_BOOTTIME does. */
    uint64_t now_ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
    uint64_t start_ns = start * (1000000000ull / (uint64_t)hz);
    if (now_ns < start_ns) return -1;
    *ns = now_ns - start_ns;
    return 0;
}

uint64_t bench_shmem_bytes(void)
{
    char line[256];
    unsigned long long kb = 0, total = 0, free_ = 0, hkb = 0, v;
    FILE *f = fopen("/proc/meminfo", "re");
    if (f == NULL) return 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "Shmem: %llu kB", &v) == 1) kb = v;
        if (sscanf(line, "HugePages_Total: %llu", &v) == 1) total = v;
        if (sscanf(line, "HugePages_Free: %llu", &v) == 1) free_ = v;
        if (sscanf(line, "Hugepagesize: %llu kB", &v) == 1) hkb = v;
    }
    fclose(f);
    /* Shmem leaves out the hugetlb pool's pages in use. */
    return ((uint64_t)kb + (uint64_t)(total - free_) * hkb) * 1024;
}

int bench_shmem_wait(uint64_t bytes, double timeout_s)
{
    uint64_t t0 = bench_now_ns();
    while (bench_shmem_bytes() > bytes) {
        if ((double)(bench_now_ns() - t0) > timeout_s * 1e9) return -1;
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

/* One object of `bytes`, nameless, its storage reserved; stays until exit.
 * 0 or an errno. */
static int reserve_one(const char *dir, uint64_t bytes, int hugetlb)
{
    if (backend_is("sysv")) {
        /* SHM_HUGETLB reserves the pool's pages at shmget, as pshm does. */
        int id = shmget(IPC_PRIVATE, (size_t)bytes, IPC_CREAT | 0600 | (hugetlb ? SHM_HUGETLB : 0));
        if (id < 0) return errno;
        void *p = shmat(id, NULL, 0);
        int e = p == (void *)-1 ? errno : 0;
        shmctl(id, IPC_RMID, NULL); /* goes with the last detach: our exit */
        if (e == 0 && !hugetlb && madvise(p, (size_t)bytes, MADV_POPULATE_WRITE) < 0) e = errno;
        return e;
    }
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        /* No O_TMPFILE here: a unique name, removed at once. */
        char path[4096];
        static int seq;
        snprintf(path, sizeof path, "%s/pshm-floor.%d.%d", dir, (int)getpid(), seq++);
        fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0) return errno;
        unlink(path);
    }
    uint64_t huge = hugetlbfs_page(fd);
    if (huge != 0) {
        /* hugetlbfs: a shared mapping reserves the pages, as pshm does. */
        bytes = (bytes + huge - 1) / huge * huge;
        if (ftruncate(fd, (off_t)bytes) < 0 ||
            mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED)
            return errno;
        return 0;
    }
    int e = posix_fallocate(fd, 0, (off_t)bytes);
    return e; /* fd stays open: the storage is freed at exit */
}

uint64_t bench_cpu_ns(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) < 0) return 0;
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
           ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
}

/* What a worker reports: its error, and the CPU time it took. */
typedef struct worker_rep { int err; uint64_t cpu_ns; } worker_rep_t;

static void worker(int w, int workers, const char *dir, int nobj, uint64_t bytes, int hugetlb,
                   int done, int go)
{
    worker_rep_t rep = {0, 0};
    char c;
    uint64_t cpu0 = bench_cpu_ns();
    for (int i = w; i < nobj && rep.err == 0; i += workers)
        rep.err = reserve_one(dir, bytes, hugetlb);
    rep.cpu_ns = bench_cpu_ns() - cpu0;
    /* One write below PIPE_BUF: the reports of the workers never mix. */
    if (write(done, &rep, sizeof rep) != (ssize_t)sizeof rep) _exit(1);
    /* Hold everything until the parent has stopped its clock. */
    while (read(go, &c, 1) < 0 && errno == EINTR) {}
    _exit(0);
}

int bench_reserve_floor(const char *dir, int nobj, uint64_t bytes, int workers, int hugetlb,
                        uint64_t *ns, uint64_t *cpu_ns, char *why, size_t whylen)
{
    int done[2], go[2], started = 0, failed = 0;
    pid_t *pid = calloc((size_t)workers, sizeof *pid);

    if (backend_is("none")) {
        free(pid);
        snprintf(why, whylen, "built with --disable-pshm: nothing is reserved");
        return -1;
    }
    if (pid == NULL || pipe2(done, O_CLOEXEC) < 0 || pipe2(go, O_CLOEXEC) < 0) {
        free(pid);
        snprintf(why, whylen, "cannot start: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    uint64_t t0 = bench_now_ns();
    for (; started < workers; started++) {
        if ((pid[started] = fork()) < 0) break;
        if (pid[started] == 0) {
            close(done[0]);
            close(go[1]);
            worker(started, workers, dir, nobj, bytes, hugetlb, done[1], go[0]);
        }
    }
    close(done[1]);
    close(go[0]);
    *cpu_ns = 0;
    for (int i = 0; i < started; i++) {
        worker_rep_t rep;
        ssize_t r;
        while ((r = read(done[0], &rep, sizeof rep)) < 0 && errno == EINTR) {}
        if (r != (ssize_t)sizeof rep) rep.err = EIO; /* a worker died */
        else *cpu_ns += rep.cpu_ns;
        int err = rep.err;
        if (err != 0 && !failed) {
            failed = 1;
            snprintf(why, whylen, "reserving %d x %llu bytes%s%s: %s", nobj,
                     (unsigned long long)bytes, backend_is("sysv") ? "" : " in ",
                     backend_is("sysv") ? "" : dir, strerror(err));
        }
    }
    *ns = bench_now_ns() - t0;
    /* Freeing is not timed: the workers drop everything as they exit. */
    close(go[1]);
    close(done[0]);
    for (int i = 0; i < started; i++) waitpid(pid[i], NULL, 0);
    free(pid);
    if (started < workers && !failed) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        failed = 1;
    }
    return failed ? -1 : 0;
}

uint64_t bench_page_of(const void *addr)
{
    char line[256];
    unsigned long lo, hi;
    unsigned long long kb;
    int in = 0;
    uint64_t page = 0;
    FILE *f = fopen("/proc/self/smaps", "re");

    if (f == NULL) return 0;
    while (page == 0 && fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
        else if (in && sscanf(line, "KernelPageSize: %llu kB", &kb) == 1)
            page = (uint64_t)kb << 10;
    }
    fclose(f);
    return page;
}
