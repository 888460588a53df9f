/*
 * control.h - the supernode's control line: the words every process of a
 * supernode shares and the base layer reads (liveness and waits), whichever
 * module places them. It is the first cache line of the supernode's shared
 * region (amqueue/ lays the region out and points ctx->control at it).
 */
#ifndef PSHM_CONTROL_H
#define PSHM_CONTROL_H

#include "config.h"

#include <stdatomic.h>
#include <stdint.h>

/*
 * Abort word: 0 = running; else bit 63 set, bits 32..62 the rank, bits 0..31
 * the code (any int: bit 63 tells an abort with code 0 from "running").
 * Written by compare-and-swap from 0 (the first abort wins), read with
 * acquire; the pair orders the word itself, nothing else is published.
 * The rest of the line is padding, so that no other word shares its line.
 */
typedef struct pshm_control {
    _Atomic uint64_t abort;             /* any process of the supernode, once */
    unsigned char pad[PSHM_CACHE_LINE - 8];
} pshm_control_t;
_Static_assert(sizeof(pshm_control_t) == PSHM_CACHE_LINE, "the control block is one line");

#define CONTROL_ABORT_FLAG (1ull << 63)

#endif /* PSHM_CONTROL_H */
