/*
 * bench_plot.h - pshm-pingpong's plots: latency and bandwidth against
 * message size on log axes, each test next to its limit, as SVG (written
 * here) or PNG (through gnuplot).
 */
#ifndef PSHM_TOOLS_BENCH_PLOT_H
#define PSHM_TOOLS_BENCH_PLOT_H

#include <stddef.h>

#include "tools/util/bench_stats.h"

/* Does `file` ask for PNG (a .png name), which needs gnuplot? */
int bench_plot_is_png(const char *file);

/* Before the run: can both plots be written? 0, or -1 after a message. */
int bench_plot_check(const char *file);

/* `file` gets the latency results ("us"), `file` with "-bw" before the
 * extension the bandwidth ones ("GB/s"); a panel no test filled is not
 * written (told on stderr). 0, or -1 after a message on stderr. */
int bench_write_plots(const char *file, const bench_result_t *res, size_t nres);

#endif
