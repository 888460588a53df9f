/*
 * t-am-flow-narrow: t-am-flow with 3 processes, the layout below
 * PSHM_AM_WIDE_MIN (the scan of 2 (P - 1) stamps); t-am-flow's 4 processes
 * are a wide layout.
 */
#define NP 3
#include "t-am-flow.c"
