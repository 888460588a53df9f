/* mpp/shmem.h - the include path of SGI SHMEM programs. */
#include "../shmem.h"
