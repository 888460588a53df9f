/*
 * bench_verify.h - the payload pshm-pingpong moves is checked, outside the
 * timed loops: the sender fills it with a pattern of its own for each test,
 * size, repetition and direction, and the receiver compares what arrived
 * with the pattern it computes itself, so that a lost, stale or corrupted
 * byte is named (offset, expected, got).
 */
#ifndef PSHM_TOOLS_BENCH_VERIFY_H
#define PSHM_TOOLS_BENCH_VERIFY_H

#include <stddef.h>
#include <stdint.h>

/* The pattern's seed: differs for every test, size, repetition and direction. */
uint32_t bench_pattern_seed(const char *test, size_t size, int rep, int dir);
/* Byte i of the pattern `seed`. */
static inline unsigned char bench_pattern_byte(uint32_t seed, size_t i)
{
    uint32_t x = seed + (uint32_t)i * 0x9e3779b1u;
    x ^= x >> 15;
    return (unsigned char)(x ^ (x >> 8));
}
void bench_pattern_fill(void *buf, size_t n, uint32_t seed);

typedef struct bench_mismatch {
    int bad;
    size_t off;
    unsigned char want, got;
} bench_mismatch_t;

/* The first byte of buf that differs from the pattern; .bad = 0 if none. */
bench_mismatch_t bench_pattern_check(const void *buf, size_t n, uint32_t seed);

/* Test only: PSHM_PINGPONG_TEST_CORRUPT=TEST makes the sender of TEST flip
 * the byte in the middle of its payload after filling it, so that a test
 * can see the check fail. Returns whether it flipped. */
int bench_corrupt_hook(const char *test, void *buf, size_t n);

#endif
