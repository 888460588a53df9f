/*
 * constants.c - the library constants of OpenSHMEM 1.6 (library_constants,
 * the session and context sections), teams aside: each exists with the
 * type the specification gives (integer constant expressions where it says
 * so: used here in _Static_assert and case labels), the option and hint
 * sets are distinct bits, the version is 1.6 in the macros and in
 * shmem_info_get_version, and the vendor string fits SHMEM_MAX_NAME_LEN
 * and is what shmem_info_get_name gives.
 */
#include "check.h"

#include <string.h>

#define IS_LONG(x) _Generic((x), long: 1, default: 0)
#define IS_INT(x) _Generic((x), int: 1, default: 0)

_Static_assert(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 6, "OpenSHMEM 1.6");
_Static_assert(_SHMEM_MAJOR_VERSION == 1 && _SHMEM_MINOR_VERSION == 6, "deprecated spellings");
_Static_assert(sizeof(SHMEM_VENDOR_STRING) <= SHMEM_MAX_NAME_LEN, "vendor string fits");
_Static_assert(sizeof(_SHMEM_VENDOR_STRING) == sizeof(SHMEM_VENDOR_STRING), "same string");
_Static_assert(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED &&
               SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
               SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE, "thread levels ordered");
_Static_assert((SHMEM_CTX_PRIVATE & SHMEM_CTX_SERIALIZED) == 0 &&
               (SHMEM_CTX_PRIVATE & SHMEM_CTX_NOSTORE) == 0 &&
               (SHMEM_CTX_SERIALIZED & SHMEM_CTX_NOSTORE) == 0, "context options: bits");
_Static_assert((SHMEM_MALLOC_ATOMICS_REMOTE & SHMEM_MALLOC_SIGNAL_REMOTE) == 0 &&
               SHMEM_MALLOC_ATOMICS_REMOTE != 0 && SHMEM_MALLOC_SIGNAL_REMOTE != 0,
               "malloc hints: bits");
_Static_assert(SHMEM_CTX_SESSION_BATCH != 0 && SHMEM_CTX_SESSION_TOTAL_OPS != 0,
               "session option and mask bits");
_Static_assert(SHMEM_SIGNAL_SET != SHMEM_SIGNAL_ADD, "signal operations");
_Static_assert(SHMEM_SYNC_SIZE >= SHMEM_BARRIER_SYNC_SIZE && SHMEM_SYNC_SIZE >= SHMEM_BCAST_SYNC_SIZE &&
               SHMEM_SYNC_SIZE >= SHMEM_COLLECT_SYNC_SIZE && SHMEM_SYNC_SIZE >= SHMEM_REDUCE_SYNC_SIZE &&
               SHMEM_SYNC_SIZE >= SHMEM_ALLTOALL_SYNC_SIZE &&
               SHMEM_SYNC_SIZE >= SHMEM_ALLTOALLS_SYNC_SIZE, "SHMEM_SYNC_SIZE serves every one");
_Static_assert(SHMEM_REDUCE_MIN_WRKDATA_SIZE > 0 && _SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE,
               "work data and sync value");
_Static_assert(_Generic(SHMEM_CTX_INVALID, shmem_ctx_t: 1, default: 0), "SHMEM_CTX_INVALID type");
_Static_assert(_Generic(((shmem_ctx_session_config_t *)0)->total_ops, size_t: 1, default: 0),
               "total_ops is a size_t");
_Static_assert(IS_LONG(SHMEM_CTX_SESSION_BATCH) && IS_LONG(SHMEM_CTX_SESSION_TOTAL_OPS) &&
               IS_LONG(SHMEM_CTX_PRIVATE) && IS_LONG(SHMEM_MALLOC_SIGNAL_REMOTE),
               "option and hint sets are longs, as the routines take them");
_Static_assert(IS_INT(SHMEM_CMP_EQ) && IS_INT(SHMEM_SIGNAL_ADD) && IS_INT(SHMEM_THREAD_MULTIPLE),
               "comparisons, signal operations, thread levels are ints");

/* The comparisons are distinct integer constant expressions: case labels. */
static int cmp_index(int cmp)
{
    switch (cmp) {
    case SHMEM_CMP_EQ: return 0;
    case SHMEM_CMP_NE: return 1;
    case SHMEM_CMP_GT: return 2;
    case SHMEM_CMP_GE: return 3;
    case SHMEM_CMP_LT: return 4;
    case SHMEM_CMP_LE: return 5;
    default: return -1;
    }
}

int main(void)
{
    int major = 0, minor = 0;
    char name[SHMEM_MAX_NAME_LEN];

    shmem_init();
    shmem_info_get_version(&major, &minor);
    CHECK(major == 1 && minor == 6, "shmem_info_get_version: %d.%d", major, minor);
    memset(name, 'x', sizeof name);
    shmem_info_get_name(name);
    CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "shmem_info_get_name: '%.40s'", name);
    CHECK(cmp_index(SHMEM_CMP_LE) == 5 && cmp_index(_SHMEM_CMP_GE) == 3, "comparisons");
    if (shmem_my_pe() == 0)
        printf("constants: OpenSHMEM %d.%d, every 1.6 constant (teams aside) checked\n", major,
               minor);
    shmem_finalize();
    return 0;
}
