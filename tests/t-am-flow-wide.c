/*
 * t-am-flow-wide: t-am-flow with 8 processes, a wide layout (bells, packed
 * consumer counts; amqueue/amq_internal.h): depth 1 and the smallest pool,
 * an all-to-all flood of maximum Mediums each answered with one, must
 * finish; PSHM_IMMEDIATE refuses a full queue, then a full pool.
 */
#define NP 8
#include "t-am-flow.c"
