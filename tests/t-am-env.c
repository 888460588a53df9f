/*
 * t-am-env: bad GASNET_PSHMNET_QUEUE_DEPTH / _MEMORY values make pshm_init or
 * pshm_attach fail with a message naming the variable (each in a child, so
 * nothing leaks between cases); good values give the documented size.
 */
#include "amtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In a child: init+attach must fail naming `var`. Returns 1 if it did. */
static int bad_value(const char *var, const char *val)
{
    pid_t pid = fork();
    int st;
    if (pid == 0) {
        pshm_ctx_t *ctx;
        setenv(var, val, 1);
        int rc = pshm_init(&ctx, NULL);
        if (rc == 0) {
            rc = pshm_attach(ctx, 0);
            if (rc == 0) {
                fprintf(stderr, "FAIL: %s=\"%s\" was accepted\n", var, val);
                _exit(1);
            }
        }
        if (strstr(pshm_last_error(), var) == NULL) {
            fprintf(stderr, "FAIL: %s=\"%s\": message does not name it: %s\n", var, val,
                    pshm_last_error());
            _exit(1);
        }
        printf("  %s=\"%s\": %s\n", var, val, pshm_last_error());
        fflush(stdout);
        _exit(0);
    }
    return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(void)
{
    static const char *depth[] = {"0", "65537", "abc", "5abc", "-1", "", "99999999999999999999"};
    static const char *mem[] = {"64K", "1X", "abc", "-1M", "", "0", "99999999999T"};
    int before = th_count_objects(NULL), ok = 1;
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    unsetenv("GASNET_PSHMNET_QUEUE_MEMORY");
    for (unsigned i = 0; i < sizeof depth / sizeof *depth; i++)
        ok &= bad_value("GASNET_PSHMNET_QUEUE_DEPTH", depth[i]);
    for (unsigned i = 0; i < sizeof mem / sizeof *mem; i++)
        ok &= bad_value("GASNET_PSHMNET_QUEUE_MEMORY", mem[i]);
    CHECK(ok);

    /* Good values: the size is the documented formula. For P = 1, depth 1,
     * 128K pools: page_up(64 + 1*2*(2+1)*64) + 2*128K, plus the header page. */
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "1", 1);
    setenv("GASNET_PSHMNET_QUEUE_MEMORY", "128K", 1);
    uint64_t want = 4096 + 2 * 131072 + 4096, n = 0, envsz = 0;
    CHECK_OK(pshm_am_network_size(1, 1, 131072, &n));
    CHECK(n == want);
    CHECK_OK(pshm_am_network_size(1, 0, 0, &envsz));
    CHECK(envsz == want);
    /* P = 3, depth 64, 1 MiB: R = 2 rounds, rows of 2 P + 1 lines, a
     * consumer line per queue. */
    CHECK_OK(pshm_am_network_size(3, 64, 1 << 20, &n));
    uint64_t q = 64 + 64 * 3 * 2 + 3ull * 65 * (2 * 3 + 1) * 64;
    CHECK(n == ((q + 4095) & ~4095ull) + 6ull * (1 << 20) + 4096);
    /* P = 4, depth 64, 1 MiB: the same. */
    CHECK_OK(pshm_am_network_size(4, 64, 1 << 20, &n));
    q = 64 + 64 * 4 * 2 + 4ull * 65 * (2 * 4 + 1) * 64;
    CHECK(n == ((q + 4095) & ~4095ull) + 8ull * (1 << 20) + 4096);
    /* P = 8, a wide layout: a receiver's block has a bell line, a line of
     * bell words, a line of packed consumer counts, then the queues. */
    CHECK_OK(pshm_am_network_size(8, 64, 1 << 20, &n));
    q = 64 + 64 * 8 * 3 + 8ull * (3 * 64 + 64 * (2 * 8 + 1) * 64);
    CHECK(n == ((q + 4095) & ~4095ull) + 16ull * (1 << 20) + 4096);
    /* The parts add up to that size; the pools are 2 per process of
     * page_up(memory); 0 takes the environment's depth and memory. */
    pshm_am_network_parts_t pp;
    for (unsigned p = 1; p <= 256; p *= 4) {
        CHECK_OK(pshm_am_network_size(p, 64, 1 << 20, &n));
        CHECK_OK(pshm_am_network_parts(p, 64, 1 << 20, &pp));
        CHECK(pp.total == n && pp.queues + pp.pools + pp.other == n && pp.queues > 0 && pp.other > 0);
        CHECK(pp.pools == 2ull * p * (1 << 20) && pp.depth == 64 && pp.memory == 1 << 20);
    }
    CHECK_OK(pshm_am_network_parts(1, 0, 0, &pp));
    CHECK(pp.total == want && pp.depth == 1 && pp.memory == 131072 && pp.pools == 2 * 131072);
    pshm_ctx_t *ctx = am_setup(0, 0);
    CHECK_OK(pshm_am_memory(ctx, &n));
    CHECK(n == want);
    CHECK_OK(pshm_finalize(ctx));
    CHECK(th_count_objects(NULL) == before);
    printf("bad values refused naming the variable; sizes follow the formula\n");
    return T_PASS;
}
