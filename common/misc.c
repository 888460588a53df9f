/*
 * misc.c - see misc.h.
 */
#include "common/misc.h"

#include <stdio.h>

const char *fmt_size(char *buf, size_t n, uint64_t bytes)
{
    static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double v = (double)bytes;
    unsigned u = 0;

    if (bytes < 1024) {
        snprintf(buf, n, "%llu bytes", (unsigned long long)bytes);
        return buf;
    }
    for (; v >= 1024.0 && u + 1 < ARRAY_LEN(unit); u++)
        v /= 1024.0;
    snprintf(buf, n, "%.1f %s", v, unit[u]);
    return buf;
}
