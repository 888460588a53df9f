/*
 * t-am-pack-narrow: t-am-pack with 3 processes, the layout below
 * PSHM_AM_WIDE_MIN: cells and slots mixed, order per sender, stamps
 * wrapping past 2^32; t-am-pack's 4 processes are a wide layout.
 */
#define NP 3
#include "t-am-pack.c"
