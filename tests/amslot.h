/*
 * amslot.h - for the tests that corrupt a message on purpose: the slot a
 * process's last request to itself went into (internal layout).
 */
#ifndef PSHM_TESTS_AMSLOT_H
#define PSHM_TESTS_AMSLOT_H

#include "amqueue/amq_internal.h"

/* The slot before the send cursor of my request queue to myself. */
static inline amq_slot_t *am_last_slot(pshm_ctx_t *ctx, int me)
{
    amq_sq_t *sq = ctx->req_sq[me];
    char *s = sq->slot == sq->end - sq->ring ? sq->end - sq->row : sq->slot - sq->row;
    return (amq_slot_t *)s;
}

#endif
