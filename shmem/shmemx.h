/*
 * shmemx.h - the extensions beyond OpenSHMEM that programs probe for, as
 * Cray SHMEM names them (docs/shmem.md "Extensions (shmemx.h)"). Includes
 * shmem.h: a program that includes this alone has the whole interface.
 */
#ifndef PSHMEM_SHMEMX_H
#define PSHMEM_SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* PSHMEM_SHMEMX_H */
