/*
 * env.c - the layer's environment variables, strictly parsed: a value that
 * is not understood ends the job with a message naming the variable, never a
 * silent default.
 */
#include "shmem_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Largest symmetric heap accepted (the machine's limits are pshm's to tell). */
#define HEAP_MAX ((uint64_t)1 << 40)

/* The layer's variables, for SHMEM_INFO and oshinfo(1): one table. */
static const struct shm_env_doc {
    const char *name, *sma, *def, *accepts, *meaning;
} shm_env_doc[] = {
    {"SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE",
     "128M, halved down to 8M when the machine cannot give every PE that much",
     "bytes from 1 to 1T, with an optional K, M, G or T suffix (powers of 1024)",
     "symmetric heap bytes per PE"},
    {"SHMEM_DEBUG", "SMA_DEBUG", "off",
     "any value; 0, no, false, off, n or the empty string: off", "extra argument checks"},
    {"SHMEM_INFO", "SMA_INFO", "off", "any value; 0, no, false, off, n or the empty string: off",
     "PE 0 prints these variables at start-up"},
    {"SHMEM_VERSION", "SMA_VERSION", "off",
     "any value; 0, no, false, off, n or the empty string: off",
     "PE 0 prints the library version at start-up"},
    {"SHMEM_PROGRESS_INTERVAL", NULL, "1000", "0 to 10000000 microseconds, digits only",
     "period of the progress thread in a job over several supernodes (0: no thread)"},
};


/* The value of NAME, else of its SGI spelling (SMA_*), else NULL; `used`
 * receives the name found. */
static const char *get2(const char *name, const char *sma, const char **used)
{
    const char *v = getenv(name);
    *used = name;
    if (v == NULL && (v = getenv(sma)) != NULL)
        *used = sma;
    return v;
}

/* "<digits>[K|M|G|T][B|iB]", powers of 1024, no sign, no overflow. */
static int parse_size(const char *s, uint64_t *out)
{
    uint64_t v = 0, mul = 1;
    const char *p = s;

    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    switch (*p) {
    case 'k': case 'K': mul = 1ull << 10; p++; break;
    case 'm': case 'M': mul = 1ull << 20; p++; break;
    case 'g': case 'G': mul = 1ull << 30; p++; break;
    case 't': case 'T': mul = 1ull << 40; p++; break;
    default: break;
    }
    if (mul > 1 && (strcmp(p, "B") == 0 || strcmp(p, "iB") == 0 || strcmp(p, "b") == 0))
        p += strlen(p);
    if (*p != '\0' || (mul > 1 && v > UINT64_MAX / mul))
        return -1;
    *out = v * mul;
    return 0;
}

/* The specification's flags take any value; "0", "no", "false", "off" (and
 * the empty string) are read as off, so that a script can turn one off. */
static int parse_flag(const char *v)
{
    static const char *const off[] = {"", "0", "no", "false", "off", "n"};
    if (v == NULL)
        return 0;
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        if (strcasecmp(v, off[i]) == 0)
            return 0;
    return 1;
}

void shm_env_load(shm_env_t *env)
{
    const char *name, *v;
    uint64_t size;

    memset(env, 0, sizeof *env);
    env->heap_size = SHM_HEAP_DEFAULT;
    v = get2("SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", &name);
    if (v != NULL) {
        if (parse_size(v, &size) < 0 || size == 0 || size > HEAP_MAX)
            shm_fatal("shmem_init", "%s='%s' is not a heap size: give bytes from 1 to 1T, "
                      "with an optional K, M, G or T suffix (powers of 1024), e.g. 512M",
                      name, v);
        env->heap_size = (size_t)size;
        env->heap_set = 1;
    }
    env->progress_us = SHM_PROGRESS_DEFAULT_US;
    v = getenv("SHMEM_PROGRESS_INTERVAL");
    if (v != NULL) {
        if (parse_size(v, &size) < 0 || strspn(v, "0123456789") != strlen(v) ||
            size > (uint64_t)SHM_PROGRESS_MAX_US)
            shm_fatal("shmem_init", "SHMEM_PROGRESS_INTERVAL='%s' is not a period: give "
                      "microseconds from 0 (no progress thread) to %ld, digits only", v,
                      SHM_PROGRESS_MAX_US);
        env->progress_us = (long)size;
    }
    env->debug = parse_flag(get2("SHMEM_DEBUG", "SMA_DEBUG", &name));
    env->info = parse_flag(get2("SHMEM_INFO", "SMA_INFO", &name));
    env->version = parse_flag(get2("SHMEM_VERSION", "SMA_VERSION", &name));
}

/* The variables MPI launchers give every process (Open MPI, MPICH's hydra
 * and other PMI launchers, PMIx); pshmrun's socket means pshmrun started
 * the process, whatever else is set. */
int shm_env_mpi_launch(int *rank, int *size)
{
    static const char *const rank_vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    static const char *const size_vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    int found = getenv("MPI_LOCALNRANKS") != NULL;

    *rank = -1;
    *size = -1;
    if (getenv("PSHM_BOOT_FD") != NULL)
        return 0;
    for (size_t i = 0; i < sizeof rank_vars / sizeof rank_vars[0]; i++) {
        const char *v = getenv(rank_vars[i]);
        if (v != NULL) {
            found = 1;
            if (*rank < 0)
                *rank = atoi(v);
        }
    }
    for (size_t i = 0; i < sizeof size_vars / sizeof size_vars[0]; i++) {
        const char *v = getenv(size_vars[i]);
        if (v != NULL) {
            found = 1;
            if (*size < 0)
                *size = atoi(v);
        }
    }
    return found;
}

void shm_env_warn(void)
{
    static const char *const prefixes[] = {"SHMEM_", "SMA_"};
    enum { NDOC = sizeof shm_env_doc / sizeof shm_env_doc[0] };
    /* Any other SHMEM_* or SMA_* name is told: a misspelt
     * SHMEM_SYMETRIC_SIZE would leave the job on the default. The test
     * suite's own (tests/shmem/split.sh) is known, as pshm's PSHM_TEST_*. */
    const char *known[2 * NDOC + 2];
    char buf[4096], *line, *save;
    int k = 0;

    for (int i = 0; i < NDOC; i++) {
        known[k++] = shm_env_doc[i].name;
        if (shm_env_doc[i].sma != NULL)
            known[k++] = shm_env_doc[i].sma;
    }
    known[k++] = "SHMEM_TEST_SUPERNODES";
    known[k] = NULL;

    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        if (pshm_env_unknown(prefixes[i], known, "this OpenSHMEM", buf, sizeof buf) <= 0)
            continue;
        save = NULL;
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
            fprintf(stderr, "shmem: warning: %s\n", line);
    }
}

/* The part of pshm_attach's sentence between `from` and `to`, into buf. */
static int cut(const char *msg, const char *from, const char *to, char *buf, size_t n)
{
    const char *a = strstr(msg, from), *b;

    if (a == NULL)
        return -1;
    a += strlen(from);
    b = strstr(a, to);
    if (b == NULL)
        return -1;
    snprintf(buf, n, "%.*s", (int)(b - a), a);
    return 0;
}

_Noreturn void shm_env_heap_fail(const shm_env_t *env, const char *pshm_msg)
{
    const char *name, *v = get2("SHMEM_SYMMETRIC_SIZE", "SMA_SYMMETRIC_SIZE", &name);
    char asked[64], most[64], pes[32], short_by[64], why[600];

    /* pshm's sentence: "... asked for a A segment, but at most M is available
     * to each of the N processes on this host (S short in all), the limit
     * being WHY; or ask for less ...". Told again in the words of the variable
     * the user set; any other failure as pshm tells it. */
    if (cut(pshm_msg, "asked for a ", " segment", asked, sizeof asked) == 0 &&
        cut(pshm_msg, "but at most ", " is available", most, sizeof most) == 0 &&
        cut(pshm_msg, "to each of the ", " processes", pes, sizeof pes) == 0 &&
        cut(pshm_msg, "on this host (", " short in all)", short_by, sizeof short_by) == 0 &&
        cut(pshm_msg, "the limit being ", "; or ask for less", why, sizeof why) == 0) {
        char who[64];
        if (strcmp(pes, "1") == 0)
            snprintf(who, sizeof who, "the PE on this host");
        else
            snprintf(who, sizeof who, "each of the %s PEs on this host", pes);
        if (env->heap_set)
            shm_fatal_all("shmem_init", "%s=%s asks for a symmetric heap of %zu bytes per PE, "
                          "but %s can have at most %s (the layer keeps %u KiB of it; %s short "
                          "in all): lower %s, run fewer PEs on this host, or raise the limit, "
                          "which is %s",
                          name, v, env->heap_size, who, most, (unsigned)(shm_scratch_size / 1024), short_by,
                          name, why);
        shm_fatal_all("shmem_init", "even the smallest default symmetric heap (%zu bytes per "
                      "PE) does not fit: %s can have at most %s (%s short in all); run fewer "
                      "PEs on this host or raise the limit, which is %s", env->heap_size, who,
                      most, short_by, why);
    }
    shm_fatal_all("shmem_init", "cannot create the symmetric heap of %zu bytes per PE (%s): %s",
                  env->heap_size, env->heap_set ? name : "the default size", pshm_msg);
}

/* The value a variable of the table has in env, as text. */
static void env_value(const shm_env_t *env, int i, char *buf, size_t n)
{
    switch (i) {
    case 0: snprintf(buf, n, "%zu", env->heap_size); break;
    case 1: snprintf(buf, n, "%s", env->debug ? "on" : "off"); break;
    case 2: snprintf(buf, n, "%s", env->info ? "on" : "off"); break;
    case 3: snprintf(buf, n, "%s", env->version ? "on" : "off"); break;
    default: snprintf(buf, n, "%ld", env->progress_us); break;
    }
}

void shm_env_print_vars(const shm_env_t *env, FILE *out)
{
    for (size_t i = 0; i < sizeof shm_env_doc / sizeof shm_env_doc[0]; i++) {
        const struct shm_env_doc *d = &shm_env_doc[i];
        const char *used, *v = d->sma ? get2(d->name, d->sma, &used) : getenv(used = d->name);
        char val[64];

        env_value(env, (int)i, val, sizeof val);
        if (v == NULL)
            fprintf(out, "  %-24s %s (default)\n", d->name, val);
        else
            fprintf(out, "  %-24s %s (%s=%s)\n", d->name, val, used, v);
        fprintf(out, "      %s\n      default: %s\n      accepts: %s\n", d->meaning, d->def,
                d->accepts);
    }
    fprintf(out, "  (each SMA_ name is read when its SHMEM_ name is unset; a SHMEM_* or SMA_*\n"
                 "   variable this library does not read is told at start-up; pshm's own\n"
                 "   variables are listed by pshm-info)\n");
}

void shm_env_print(const shm_env_t *env)
{
    if (env->version || env->info)
        printf("%s, OpenSHMEM %d.%d, over pshm %s\n", SHMEM_VENDOR_STRING,
               SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, pshm_version());
    if (!env->info)
        return;
    printf("The environment variables of this OpenSHMEM implementation:\n");
    shm_env_print_vars(env, stdout);
    fflush(stdout);
}
