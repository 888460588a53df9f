/*
 * amslot.h - for the tests that corrupt a message on purpose: the cell or
 * slot a process's last request to itself went into (internal layout:
 * amqueue/amq_internal.h).
 */
#ifndef PSHM_TESTS_AMSLOT_H
#define PSHM_TESTS_AMSLOT_H

#include "amqueue/amq_internal.h"

/* The message before the send cursor of my request queue to myself: the
 * cell before it in an open line; else the previous line's slot, or its
 * last cell when that line holds cells. */
static inline amq_slot_t *am_last_slot(pshm_ctx_t *ctx, int me)
{
    amq_sq_t *sq = ctx->req_sq[me];
    char *line;

    if (amq_mid(sq))
        return (amq_slot_t *)(sq->slot - AMQ_CELL);
    line = sq->slot == sq->end - sq->ring ? sq->end - sq->row : sq->slot - sq->row;
    if (AMQ_META_IS_CELL(((amq_slot_t *)line)->meta))
        return (amq_slot_t *)(line + AMQ_LINE - AMQ_CELL);
    return (amq_slot_t *)line;
}

#endif
