/*
 * agree.c - the settings every rank must share, compared at init.
 *
 * Each rank reads its own environment, and launchers may give ranks
 * different ones (MPMD runs, variables exported to some ranks). A value that
 * shapes shared state (the AM region's layout, the split into supernodes,
 * where objects are found) must be the same everywhere, or a rank maps the
 * others' memory with the wrong offsets or waits for a supernode the others
 * never form. One exchange of every such value, as text, lets every rank
 * find the same first mismatch and fail with the same sentence.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AGREE_VAL 64          /* bytes of one value, NUL included */

/* What must agree, in the order a mismatch is reported; `env` says whether a
 * variable (fix: set it alike) or the build (fix: the same library). */
enum {
    A_VERSION, A_BACKEND, A_LAYOUT, A_LINE, A_ABI, A_DEPTH, A_MEMORY, A_SNMAX, A_DETECT,
    A_SIMHOSTS, A_TMPDIR, A_COUNT
};
static const struct {
    const char *name;
    bool env;
} agree_what[A_COUNT] = {
    [A_VERSION] = { "the pshm library version", false },
    [A_BACKEND] = { "the shared-memory backend", false },
    [A_LAYOUT] = { "the shared-memory layout version", false },
    [A_LINE] = { "the cache line size pshm was built for", false },
    [A_ABI] = { "the pointer size and byte order", false },
    [A_DEPTH] = { "GASNET_PSHMNET_QUEUE_DEPTH", true },
    [A_MEMORY] = { "GASNET_PSHMNET_QUEUE_MEMORY", true },
    [A_SNMAX] = { "GASNET_SUPERNODE_MAXSIZE", true },
    [A_DETECT] = { "GASNET_HOST_DETECT", true },
    [A_SIMHOSTS] = { "PSHM_SIM_HOSTS", true },
    [A_TMPDIR] = { "the temporary directory (GASNET_TMPDIR, else TMPDIR)", true },
};

/* Exchanged by every rank: a fixed size whatever the version, so that even
 * ranks of different versions can compare. */
typedef struct agree_rec {
    char val[A_COUNT][AGREE_VAL];
} agree_rec_t;

/* A long value keeps a prefix for people and the hash of the whole. */
static void put_val(char *out, const char *s)
{
    size_t n = strlen(s);

    if (n < AGREE_VAL) {
        memcpy(out, s, n + 1);
        return;
    }
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    snprintf(out, AGREE_VAL, "%.*s...~%016llx", AGREE_VAL - 21, s, (unsigned long long)h);
}

static void fill(agree_rec_t *r, const pshm_cfg_t *cfg)
{
    static const char *const detect[] = { [HOST_DETECT_BOOTID] = "boot_id",
                                          [HOST_DETECT_HOSTNAME] = "hostname",
                                          [HOST_DETECT_GETHOSTID] = "gethostid" };
    const uint16_t one = 1;
    char b[AGREE_VAL];

    memset(r, 0, sizeof *r);
    put_val(r->val[A_VERSION], PSHM_VERSION);
    put_val(r->val[A_BACKEND], PSHM_BACKEND_NAME);
    snprintf(b, sizeof b, "%u.%u", (unsigned)SEG_META_VERSION, (unsigned)AMQ_LAYOUT_VERSION);
    put_val(r->val[A_LAYOUT], b);
    snprintf(b, sizeof b, "%u", (unsigned)PSHM_CACHE_LINE);
    put_val(r->val[A_LINE], b);
    snprintf(b, sizeof b, "%zu-bit %s-endian", 8 * sizeof(void *),
             *(const unsigned char *)&one ? "little" : "big");
    put_val(r->val[A_ABI], b);
    /* Not set and set to the default are different layouts at P >= 8. */
    if (cfg->queue_depth == 0)
        snprintf(b, sizeof b, "not set");
    else
        snprintf(b, sizeof b, "%u", (unsigned)cfg->queue_depth);
    put_val(r->val[A_DEPTH], b);
    snprintf(b, sizeof b, "%llu", (unsigned long long)cfg->queue_memory);
    put_val(r->val[A_MEMORY], b);
    snprintf(b, sizeof b, "%u", (unsigned)cfg->supernode_max);
    put_val(r->val[A_SNMAX], b);
    put_val(r->val[A_DETECT], cfg->host_detect >= 0 && cfg->host_detect < 3
                                  ? detect[cfg->host_detect] : "?");
    snprintf(b, sizeof b, "%u", (unsigned)cfg->sim_hosts);
    put_val(r->val[A_SIMHOSTS], b);
    /* Only the file backend finds its peers' objects in the temporary
     * directory: the others may differ there. */
    put_val(r->val[A_TMPDIR], PSHM_BACKEND_FILE ? cfg->tmpdir : "");
}

/* The sentence for the first setting that differs from rank 0's, or 0. */
static int compare(const agree_rec_t *all, int size)
{
    enum { SHOWN = 3 };
    char list[4 * (AGREE_VAL + 24)];

    for (int k = 0; k < A_COUNT; k++) {
        const char *v0 = all[0].val[k];
        size_t len = 0;
        int ndiff = 0;

        for (int r = 1; r < size; r++) {
            const char *v = all[r].val[k];
            if (strncmp(v, v0, AGREE_VAL) == 0)
                continue;
            if (ndiff++ < SHOWN)
                len += (size_t)snprintf(list + len, sizeof list - len, ", rank %d has \"%.*s\"",
                                        r, AGREE_VAL, v);
        }
        if (ndiff == 0)
            continue;
        if (ndiff > SHOWN)
            snprintf(list + len, sizeof list - len, " (and %d more ranks)", ndiff - SHOWN);
        return pshm_err(-EINVAL, "%s differs across the job: rank 0 has \"%.*s\"%s; %s",
                        agree_what[k].name, AGREE_VAL, v0, list,
                        agree_what[k].env ? "set it the same for every rank"
                                          : "run every rank with the same build of pshm");
    }
    return 0;
}

int agree_settings(boot_t *b, const pshm_cfg_t *cfg)
{
    agree_rec_t mine, *all;
    int rc;

    fill(&mine, cfg);
    all = calloc((size_t)b->size, sizeof *all);
    if (all == NULL)
        return pshm_err(-ENOMEM, "cannot allocate %zu bytes to compare the settings of %d ranks",
                        (size_t)b->size * sizeof *all, b->size);
    rc = boot_exchange(b, &mine, sizeof mine, all);
    if (rc < 0)
        pshm_err_prefix(rc, "comparing the settings of the ranks");
    else
        rc = compare(all, b->size);
    free(all);
    return rc;
}
