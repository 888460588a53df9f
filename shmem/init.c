/*
 * init.c - shmem_init and shmem_finalize, the queries, global exit.
 *
 * shmem_init: pshm_init (started by oshrun, or a job of one), every PE must
 * be in this PE's supernode, pshm_attach of the symmetric heap (our segment),
 * the executable's data and bss made symmetric (statics.c), the translation
 * tables, the collectives' setup, a barrier. A program that returns from main
 * without shmem_finalize is finalized from atexit, as the specification asks.
 */
#include "shmem_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int thread_level = SHMEM_THREAD_SINGLE;
static int atexit_armed;

/* Every PE must be reachable through shared memory: in this PE's supernode.
 * When one is not, every PE finds one that is not, so PE 0 tells it. */
static void check_local(void)
{
    for (int pe = 0; pe < shm.npes; pe++) {
        if (pshm_is_local(shm.ctx, pe) == 1)
            continue;
        if (pshm_host_count(shm.ctx) > 1)
            shm_fatal_all("shmem_init", "PE %d is on another host (the job spans %d hosts): this "
                          "OpenSHMEM layer reaches only the PEs of one host; run all PEs on one "
                          "host (oshrun -n N)", pe, pshm_host_count(shm.ctx));
        if (strstr(pshm_version(), "(none backend)") != NULL)
            shm_fatal_all("shmem_init", "PE %d shares no memory with PE %d: pshm was built "
                          "without shared memory (configure --disable-pshm), so a job has one PE; "
                          "run with oshrun -n 1 or rebuild with a shared-memory backend", pe,
                          shm.me);
        shm_fatal_all("shmem_init", "PE %d shares no memory with PE %d although they run on one "
                      "host: the host is split into supernodes of %d processes; unset "
                      "GASNET_SUPERNODE_MAXSIZE or raise it to %d", pe, shm.me,
                      pshm_node_size(shm.ctx), shm.npes);
    }
}

/* base[a][pe] for every PE, from pshm's tables. */
static void build_tables(void)
{
    pshm_seginfo_t info;

    for (int a = 0; a < SHM_NAREAS; a++) {
        shm_sym.base[a] = calloc((size_t)shm.npes, sizeof(char *));
        if (shm_sym.base[a] == NULL)
            shm_fatal("shmem_init", "out of memory for the address tables of %d PEs", shm.npes);
    }
    for (int pe = 0; pe < shm.npes; pe++) {
        if (pshm_segment_info(shm.ctx, pe, &info) < 0)
            shm_fatal("shmem_init", "%s", pshm_last_error());
        shm_sym.base[SHM_HEAP][pe] = (char *)info.local_base;
        if (pe == shm.me) {
            shm_sym.mine[SHM_HEAP] = (uintptr_t)info.local_base;
            shm_sym.size[SHM_HEAP] = info.size;
        }
    }
    shm_statics_tables();
}

static void finalize_at_exit(void)
{
    if (shm.initialized)
        shmem_finalize();
}

/* pshm_flags: PSHM_INIT_THREADS when PEs call in from several threads. */
static void init_with(unsigned pshm_flags)
{
    pshm_init_attr_t attr = {.flags = pshm_flags, .bootstrap = NULL};
    shm_env_t env;
    int rc;

    if (shm.initialized)
        return;
    shm_env_load(&env);
    rc = pshm_init(&shm.ctx, &attr);
    if (rc < 0)
        shm_fatal("shmem_init", "%s", pshm_last_error());
    shm.me = pshm_rank(shm.ctx);
    shm.npes = pshm_size(shm.ctx);
    shm_sym.debug = env.debug;
    check_local();
    rc = pshm_attach(shm.ctx, env.heap_size + SHM_SCRATCH_SIZE);
    /* The default, not the user's size, gives way to a small backing store.
     * A failed attach fails alike in every PE, so all retry alike. */
    while (rc == -ENOSPC && !env.heap_set && env.heap_size > SHM_HEAP_DEFAULT_MIN) {
        env.heap_size /= 2;
        rc = pshm_attach(shm.ctx, env.heap_size + SHM_SCRATCH_SIZE);
    }
    if (rc < 0)   /* pshm agrees on the outcome: every PE fails alike */
        shm_fatal_all("shmem_init", "cannot create the symmetric heap of %zu bytes per PE "
                      "(SHMEM_SYMMETRIC_SIZE): %s", env.heap_size, pshm_last_error());
    shm_statics_attach();
    build_tables();
    shm_scratch = (void *)shm_sym.mine[SHM_HEAP];
    memset(shm_scratch, 0, SHM_SCRATCH_SIZE);
    shm_heap_init((char *)shm_scratch + SHM_SCRATCH_SIZE, env.heap_size);
    shm.initialized = 1;
    if (shm_coll_init)
        shm_coll_init();
    if (!atexit_armed && atexit(finalize_at_exit) == 0)
        atexit_armed = 1;
    if ((env.info || env.version) && shm.me == 0)
        shm_env_print(&env);
    shm_barrier();
}

void shmem_init(void) { init_with(0); }

int shmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        shm_fatal("shmem_init_thread", "requested thread level %d is not one of "
                  "SHMEM_THREAD_SINGLE (0) .. SHMEM_THREAD_MULTIPLE (3)", requested);
    /* Puts, gets and atomics are loads, stores and atomic instructions,
     * safe from any thread; waits poll pshm, which must then be told that
     * several threads may poll at once. */
    if (!shm.initialized) {
        init_with(requested == SHMEM_THREAD_MULTIPLE ? PSHM_INIT_THREADS : 0);
        thread_level = requested;
    }
    if (provided != NULL)
        *provided = thread_level;
    return 0;
}

void shmem_query_thread(int *provided)
{
    shm_check_init("shmem_query_thread");
    if (provided == NULL)
        shm_fatal("shmem_query_thread", "provided is NULL");
    *provided = thread_level;
}

void shmem_finalize(void)
{
    int rc;

    if (!shm.initialized)
        return;
    /* Collective: every PE is done with every other's memory after this. */
    shm_barrier();
    if (shm_coll_fini)
        shm_coll_fini();
    shm.initialized = 0;
    shm_heap_fini();
    for (int a = 0; a < SHM_NAREAS; a++) {
        free(shm_sym.base[a]);
        shm_sym.base[a] = NULL;
        shm_sym.size[a] = 0;
    }
    shm.npes = 0;
    rc = pshm_finalize(shm.ctx);
    shm.ctx = NULL;
    if (rc < 0)
        shm_fatal("shmem_finalize", "%s", pshm_last_error());
}

void shmem_global_exit(int status)
{
    fflush(NULL);
    pshm_abort(shm.ctx, status);
}

int shmem_my_pe(void) { return shm.initialized ? shm.me : -1; }
int shmem_n_pes(void) { return shm.initialized ? shm.npes : -1; }

int shmem_pe_accessible(int pe)
{
    return shm.initialized && pe >= 0 && pe < shm.npes;
}

int shmem_addr_accessible(const void *addr, int pe)
{
    return shmem_pe_accessible(pe) && shm_xlate(addr, pe) != NULL;
}

void *shmem_ptr(const void *dest, int pe)
{
    return shm.initialized ? shm_ptr_of(dest, pe) : NULL;
}

void shmem_info_get_version(int *major, int *minor)
{
    if (major != NULL) *major = SHMEM_MAJOR_VERSION;
    if (minor != NULL) *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name)
{
    if (name != NULL)
        snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

/* Legacy SGI names. */
void start_pes(int npes)
{
    (void)npes; /* the job's size comes from oshrun, as everywhere */
    shmem_init();
}
int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }
