/*
 * rma_fn.c - rma.c's checks through the library's functions (what a
 * client reaches by &gasnet_put or (gasnet_put)(...)) instead of gasnet.h's
 * inline forms.
 */
#define GT_RMA_FN 1
#include "rma.c"
