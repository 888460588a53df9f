/*
 * init.c - shmem_init and shmem_finalize, the queries, global exit.
 *
 * shmem_init: pshm_init (started by oshrun, by mpirun through pshm's MPI
 * bootstrap, or a job of one), the PEs of my supernode, pshm_attach of the
 * symmetric heap (our segment), the executable's data and bss made
 * symmetric (statics.c), the translation tables, the MPI side when the job
 * spans supernodes (net.c), the collectives' setup, a barrier. Without MPI
 * every PE must be in this PE's supernode. A program that returns from main
 * without shmem_finalize is finalized from atexit, as the specification asks.
 *
 * OpenSHMEM 1.6: the initialization routines may be called again, each
 * call matched by a shmem_finalize. Only the first initializes (the thread
 * level stays the first call's) and only the last finalize releases;
 * another finalize is a shmem_barrier_all. After the last one, an
 * initialization starts the library anew.
 */
#include "shmem_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int thread_level = SHMEM_THREAD_SINGLE;
static int init_calls;      /* initializations not matched by a finalize yet */
static int atexit_armed;
static int env_told;        /* SHMEM_INFO / SHMEM_VERSION printed */
static pshm_bootstrap_t mpi_boot;   /* under MPI: pshm's bootstrap */

/* shm.node_pes: the PEs pshm reaches through shared memory, ascending. */
static void find_node(void)
{
    shm.node_pes = malloc((size_t)shm.npes * sizeof(int));
    if (shm.node_pes == NULL)
        shm_fatal("shmem_init", "out of memory for the list of %d PEs", shm.npes);
    shm.node_npes = 0;
    for (int pe = 0; pe < shm.npes; pe++)
        if (pshm_is_local(shm.ctx, pe) == 1)
            shm.node_pes[shm.node_npes++] = pe;
    shm.node_leader = shm.node_pes[0];
    shm.multi = shm.node_npes < shm.npes;
}

/* Without MPI every PE must be reachable through shared memory: in this
 * PE's supernode. When one is not, every PE finds one that is not, so PE 0
 * tells it. */
static void check_local(void)
{
    if (shm.mpi && PSHMEM_HAVE_MPI)
        return;
    for (int pe = 0; pe < shm.npes; pe++) {
        if (pshm_is_local(shm.ctx, pe) == 1)
            continue;
        if (pshm_host_count(shm.ctx) > 1 && PSHMEM_HAVE_MPI)
            shm_fatal_all("shmem_init", "PE %d is on another host (the job spans %d hosts): a "
                          "job started by pshmrun reaches only the PEs of one host; start it "
                          "with mpirun (oshrun --mpi) to span hosts", pe,
                          pshm_host_count(shm.ctx));
        if (pshm_host_count(shm.ctx) > 1)
            shm_fatal_all("shmem_init", "PE %d is on another host (the job spans %d hosts): this "
                          "OpenSHMEM layer was built without MPI and reaches only the PEs of one "
                          "host; run all PEs on one host (oshrun -n N), or rebuild pshm with "
                          "MPI (./configure --with-mpi)", pe, pshm_host_count(shm.ctx));
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

/* base[a][pe] and lim[a][pe] for every PE of my supernode, from pshm's
 * tables; the others stay NULL and 0 (calloc): reached through MPI. */
static void build_tables(void)
{
    pshm_seginfo_t info;

    for (int a = 0; a < SHM_NAREAS; a++) {
        shm_sym.base[a] = calloc((size_t)shm.npes, sizeof(char *));
        shm_sym.lim[a] = calloc((size_t)shm.npes, sizeof(size_t));
        if (shm_sym.base[a] == NULL || shm_sym.lim[a] == NULL)
            shm_fatal("shmem_init", "out of memory for the address tables of %d PEs", shm.npes);
    }
    if (pshm_segment_info(shm.ctx, shm.me, &info) < 0)
        shm_fatal("shmem_init", "%s", pshm_last_error());
    shm_sym.mine[SHM_HEAP] = (uintptr_t)info.local_base;
    shm_sym.size[SHM_HEAP] = info.size;
    for (int i = 0; i < shm.node_npes; i++) {
        int pe = shm.node_pes[i];
        if (pshm_segment_info(shm.ctx, pe, &info) < 0)
            shm_fatal("shmem_init", "%s", pshm_last_error());
        shm_sym.base[SHM_HEAP][pe] = (char *)info.local_base;
        shm_sym.lim[SHM_HEAP][pe] = info.size;
    }
    shm_statics_tables();
}

/* At exit every initialization still open is ended at once. */
static void finalize_at_exit(void)
{
    if (shm.initialized) {
        init_calls = 1;
        shmem_finalize();
    }
}

/* Built without MPI but started by an MPI launcher with others: each
 * process would be a job of one, and the program would run N times alone.
 * Refused, told by rank 0 (the others give it time to say it, as mpirun
 * ends the job when a process fails). */
static void refuse_mpi_launch(void)
{
    int rank, size;

    if (PSHMEM_HAVE_MPI || !shm_env_mpi_launch(&rank, &size) || size == 1)
        return;
    if (rank <= 0)
        shm_fatal("shmem_init", "started by an MPI launcher (as rank %d of %d), but this "
                  "OpenSHMEM library was built without MPI and cannot join the other "
                  "processes: run with oshrun -n N on one host, or rebuild pshm with MPI "
                  "(./configure --with-mpi)", rank, size);
    sleep(10);
    exit(1);
}

/* The thread level asked of MPI for a SHMEM level, when the layer
 * initializes MPI: a progress thread and a program's threads at
 * SHMEM_THREAD_MULTIPLE need MPI_THREAD_SERIALIZED, as the layer makes
 * every MPI call under one lock (net.h). */
static int mpi_level(int requested, const shm_env_t *env)
{
#if PSHMEM_HAVE_MPI
    if (requested >= SHMEM_THREAD_SERIALIZED || env->progress_us > 0)
        return MPI_THREAD_SERIALIZED;
    return requested == SHMEM_THREAD_SINGLE ? MPI_THREAD_SINGLE : MPI_THREAD_FUNNELED;
#else
    (void)env;
    return requested;
#endif
}

/* The SHMEM level MPI's level `provided` allows (<= requested): what
 * shm_net_start says the layer may use (MULTIPLE over an MPI of its own
 * at SERIALIZED). */
static int shmem_level(int requested, int provided)
{
#if PSHMEM_HAVE_MPI
    int l = provided >= MPI_THREAD_MULTIPLE ? SHMEM_THREAD_MULTIPLE
          : provided >= MPI_THREAD_SERIALIZED ? SHMEM_THREAD_SERIALIZED
          : provided >= MPI_THREAD_FUNNELED ? SHMEM_THREAD_FUNNELED : SHMEM_THREAD_SINGLE;
    return l < requested ? l : requested;
#else
    (void)provided;
    return requested;
#endif
}

/* requested: the SHMEM thread level; pshm is told PSHM_INIT_THREADS when
 * PEs call in from several threads. */
static void init_with(int requested)
{
    pshm_init_attr_t attr = {.flags = requested == SHMEM_THREAD_MULTIPLE ? PSHM_INIT_THREADS : 0,
                             .bootstrap = NULL};
    shm_env_t env;
    int rc, provided;

    if (shm.initialized) {
        init_calls++;
        return;
    }
    shm_env_load(&env);
    refuse_mpi_launch();
    shm.progress_us = env.progress_us;
    thread_level = requested;
    provided = shm_net_start(&mpi_boot, mpi_level(requested, &env));
    if (provided >= 0) {
        attr.bootstrap = &mpi_boot;
        thread_level = shmem_level(requested, provided);
        if (thread_level == SHMEM_THREAD_MULTIPLE)
            attr.flags |= PSHM_INIT_THREADS;
    }
    rc = pshm_init(&shm.ctx, &attr);
    if (rc < 0)
        shm_fatal("shmem_init", "%s", pshm_last_error());
    shm.me = pshm_rank(shm.ctx);
    shm.npes = pshm_size(shm.ctx);
    /* pshm's judgement, over the host's PEs whatever the supernodes: the
     * layer's own waits on MPI yield where pshm's do. */
    int cpus = 0;
    shm.crowded = pshm_cpu_sharers(shm.ctx, &cpus) > cpus;
    shm_sym.debug = env.debug;
    check_local();
    find_node();
    shm_scratch_size = shm_scratch_size_for(shm.node_npes);
    rc = pshm_attach(shm.ctx, env.heap_size + shm_scratch_size);
    /* The default, not the user's size, gives way to a small backing store.
     * A failed attach fails alike in every PE, so all retry alike. */
    while (rc == -ENOSPC && !env.heap_set && env.heap_size > SHM_HEAP_DEFAULT_MIN) {
        env.heap_size /= 2;
        rc = pshm_attach(shm.ctx, env.heap_size + shm_scratch_size);
    }
    if (rc < 0)   /* pshm agrees on the outcome: every PE fails alike */
        shm_env_heap_fail(&env, pshm_last_error());
    shm_statics_attach();
    build_tables();
    shm_scratch = (void *)shm_sym.mine[SHM_HEAP];
    memset(shm_scratch, 0, shm_scratch_size);
    shm_heap_init((char *)shm_scratch + shm_scratch_size, env.heap_size);
    shm.initialized = 1;
    init_calls = 1;
    if (shm.multi)
        shm_net_init();
    if (shm_coll_init)
        shm_coll_init();
    if (!atexit_armed && atexit(finalize_at_exit) == 0)
        atexit_armed = 1;
    /* Told at the program's start-up, not again when initialized anew. */
    if (shm.me == 0 && !env_told) {
        env_told = 1;
        shm_env_warn();
        if (env.info || env.version)
            shm_env_print(&env);
    }
    shm_barrier();
}

void shmem_init(void) { init_with(SHMEM_THREAD_SINGLE); }

int shmem_init_thread(int requested, int *provided)
{
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        shm_fatal("shmem_init_thread", "requested thread level %d is not one of "
                  "SHMEM_THREAD_SINGLE (0) .. SHMEM_THREAD_MULTIPLE (3)", requested);
    /* Puts, gets and atomics are loads, stores and atomic instructions,
     * safe from any thread; waits poll pshm, which must then be told that
     * several threads may poll at once. Under MPI the level is also what
     * MPI provides. A call after the first keeps the first's level. */
    init_with(requested);
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
    if (init_calls > 1) {
        init_calls--;
        shmem_barrier_all();
        return;
    }
    init_calls = 0;
    /* Collective: every PE is done with every other's memory after this
     * (what it sent through MPI is complete: the barrier implies quiet). */
    shm_barrier();
    if (shm_coll_fini)
        shm_coll_fini();
    if (shm.multi)
        shm_net_fini();
    shm.initialized = 0;
    shm_heap_fini();
    for (int a = 0; a < SHM_NAREAS; a++) {
        free(shm_sym.base[a]);
        free(shm_sym.lim[a]);
        shm_sym.base[a] = NULL;
        shm_sym.lim[a] = NULL;
        shm_sym.size[a] = 0;
    }
    free(shm.node_pes);
    shm.node_pes = NULL;
    shm.node_npes = 0;
    shm.multi = 0;
    shm.npes = 0;
    rc = pshm_finalize(shm.ctx);
    shm.ctx = NULL;
    if (rc < 0)
        shm_fatal("shmem_finalize", "%s", pshm_last_error());
    if (shm.mpi)
        shm_net_stop(&mpi_boot);
}

void shmem_global_exit(int status)
{
    char why[64];

    fflush(NULL);
    snprintf(why, sizeof why, "called shmem_global_exit(%d)", status);
    shm_abort_why(status, why);
}

int shmem_my_pe(void) { return shm.initialized ? shm.me : -1; }
int shmem_n_pes(void) { return shm.initialized ? shm.npes : -1; }

int shmem_pe_accessible(int pe)
{
    return shm.initialized && pe >= 0 && pe < shm.npes;
}

/* Every PE is reachable, by shared memory or through MPI: the address
 * need only be symmetric. */
int shmem_addr_accessible(const void *addr, int pe)
{
    size_t off;
    return shmem_pe_accessible(pe) && shm_area_of(addr, 1, &off) >= 0;
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
