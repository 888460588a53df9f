/*
 * bench_verify.c - pshm-pingpong's payload patterns and their check.
 */
#include "tools/util/bench_verify.h"

#include <stdlib.h>
#include <string.h>

uint32_t bench_pattern_seed(const char *test, size_t size, int rep, int dir)
{
    uint32_t h = 2166136261u; /* FNV-1a over the test name, then the numbers */
    for (const char *p = test; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    h = (h ^ (uint32_t)size) * 16777619u;
    h = (h ^ (uint32_t)(size >> 32)) * 16777619u;
    h = (h ^ (uint32_t)rep) * 16777619u;
    return (h ^ (uint32_t)dir) * 16777619u;
}

void bench_pattern_fill(void *buf, size_t n, uint32_t seed)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++) b[i] = bench_pattern_byte(seed, i);
}

bench_mismatch_t bench_pattern_check(const void *buf, size_t n, uint32_t seed)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != bench_pattern_byte(seed, i))
            return (bench_mismatch_t){1, i, bench_pattern_byte(seed, i), b[i]};
    return (bench_mismatch_t){0, 0, 0, 0};
}

int bench_corrupt_hook(const char *test, void *buf, size_t n)
{
    const char *t = getenv("PSHM_PINGPONG_TEST_CORRUPT");
    if (!t || strcmp(t, test) != 0 || n == 0) return 0;
    ((unsigned char *)buf)[n / 2] ^= 0x5a;
    return 1;
}
