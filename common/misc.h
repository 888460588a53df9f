/*
 * misc.h - small things the library and the tools both want: array length, a
 * path buffer's size, a spin-wait pause, human sizes, a monotonic clock.
 * common/ is libc only: each side compiles it apart (docs/HACKING.md).
 */
#ifndef PSHM_COMMON_MISC_H
#define PSHM_COMMON_MISC_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((uint64_t)(a)-1))
#define TOOL_PATH_MAX 4096

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* "12.0 MiB", "512 bytes": as the library's messages write sizes. */
const char *fmt_size(char *buf, size_t n, uint64_t bytes);
/* CLOCK_MONOTONIC in nanoseconds. Inline: the wait loops' paced checks read
 * it, and their instruction counts (pshm-pingpong --instructions) take the
 * paced check whole, callees included only when inlined. */
static inline uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
