/*
 * t-am-deadpeer-wide: t-am-deadpeer with 8 processes, a wide layout (bells,
 * packed consumer counts; amqueue/amq_internal.h): rank 0 flooding the
 * killed rank 2 through its queue of depth 1, the others in the
 * barrier, must all get -ESRCH.
 */
#define NP 8
#include "t-am-deadpeer.c"
