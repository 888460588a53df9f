/*
 * t-am-pack-wide: t-am-pack with 8 processes, a wide layout: cells and
 * slots mixed, run once each and in order per sender, stamps wrapping past
 * 2^32 on every queue.
 */
#define NP 8
#include "t-am-pack.c"
