/*
 * introspect.c - what the tools (pshm-info, pshm-cleanup, pshmrun) need from
 * the library, as public calls a runtime's own launcher or diagnostics may
 * use too: the build, the variables and their parser, the machine's limits,
 * the plan of a job on this host, and the shared objects' headers.
 */
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const pshm_build_info_t *pshm_build_info(void)
{
    static const pshm_build_info_t info = {
        PSHM_VERSION, PSHM_BACKEND_NAME, "pshm", PSHM_CACHE_LINE, PSHM_DEBUG, PSHM_PREFIX,
        PSHM_CONFIGURE_ARGS,
    };
    return &info;
}

const pshm_env_var_t *pshm_env_var(int index)
{
    for (int i = 0; index >= 0 && pshm_env_vars[i].name != NULL; i++)
        if (i == index)
            return &pshm_env_vars[i];
    return NULL;
}

/* The environment's settings, on the heap (a path is inside). */
static int cfg_load(pshm_cfg_t **out, const char *fn)
{
    pshm_cfg_t *cfg = calloc(1, sizeof *cfg);
    int rc;

    if (cfg == NULL)
        return pshm_err(-ENOMEM, "%s: out of memory (%zu bytes)", fn, sizeof *cfg);
    rc = env_load(cfg);
    if (rc < 0) {
        free(cfg);
        return rc;
    }
    *out = cfg;
    return 0;
}

int pshm_env_check(void)
{
    pshm_cfg_t *cfg = NULL;
    int rc = cfg_load(&cfg, "pshm_env_check");

    free(cfg);
    return rc;
}

int pshm_parse(int kind, const char *what, const char *s, uint64_t min, uint64_t max,
               uint64_t *out)
{
    uint32_t ms;
    int rc;

    if (what == NULL || out == NULL)
        return pshm_err(-EINVAL, "pshm_parse: %s is NULL", what == NULL ? "what" : "out");
    switch (kind) {
    case PSHM_PARSE_U64:
        return env_parse_u64(what, s, min, max, out);
    case PSHM_PARSE_SIZE:
        return env_parse_size(what, s, min, max, out);
    case PSHM_PARSE_SECONDS:
        if (min > max || max > UINT32_MAX)
            return pshm_err(-EINVAL, "pshm_parse: milliseconds from %llu to %llu: the range "
                            "must lie within 0..%u", (unsigned long long)min,
                            (unsigned long long)max, UINT32_MAX);
        rc = env_parse_ms(what, s, (uint32_t)min, (uint32_t)max, &ms);
        if (rc == 0)
            *out = ms;
        return rc;
    }
    return pshm_err(-EINVAL, "pshm_parse: unknown kind %d (PSHM_PARSE_U64, PSHM_PARSE_SIZE or "
                    "PSHM_PARSE_SECONDS)", kind);
}

int pshm_host_limits(pshm_host_limits_t *out)
{
    if (out == NULL)
        return pshm_err(-EINVAL, "pshm_host_limits: the result pointer is NULL");
    memset(out, 0, sizeof *out);
    out->phys_mem = sys_phys_mem();
    out->usable_cpus = cgroup_usable_cpus();
    out->memcg = cgroup_mem_room(&out->memcg_room, &out->memcg_limit, out->memcg_file,
                                 sizeof out->memcg_file);
    return 0;
}

int pshm_host_plan(unsigned procs, pshm_host_plan_t *out)
{
    pshm_cfg_t *cfg = NULL;
    pshm_host_plan_t p = {0};
    uint32_t smax;
    int rc;

    if (out == NULL)
        return pshm_err(-EINVAL, "pshm_host_plan: the result pointer is NULL");
    memset(out, 0, sizeof *out);
    if (procs == 0 || procs > INT32_MAX)
        return pshm_err(-EINVAL, "pshm_host_plan: %u processes is out of range (1..%d)", procs,
                        INT32_MAX);
    rc = cfg_load(&cfg, "pshm_host_plan");
    if (rc < 0)
        return pshm_err_prefix(rc, "pshm_host_plan");
    /* As pshm_init cuts the host (--disable-pshm: supernodes of one). */
    smax = PSHM_BACKEND_NONE ? 1 : cfg->supernode_max;
    p.queue_memory = cfg->queue_memory;
    p.supernode_max = smax;
    p.node_size = smax > 0 && smax < procs ? smax : procs;
    p.queue_depth = pshm_queue_depth(p.node_size, cfg->queue_depth);
    p.nodes = (procs + p.node_size - 1) / p.node_size;
    rc = pshm_am_network_size(p.node_size, cfg->queue_depth, (size_t)cfg->queue_memory,
                              &p.am_bytes);
    if (rc == 0)
        rc = seg_max_size(cfg, (int)p.node_size, (int)procs, p.am_bytes, &p.seg_max);
    free(cfg);
    *out = p;
    return rc;
}

int pshm_object_inspect(const void *hdr, size_t len, pshm_object_info_t *out)
{
    seg_meta_t m;

    if (hdr == NULL || out == NULL)
        return pshm_err(-EINVAL, "pshm_object_inspect: %s is NULL", hdr == NULL ? "hdr" : "out");
    /* Shorter than a header, or all zero: its creator died before writing it. */
    if (len < sizeof m)
        return pshm_err(-ENODATA, "no pshm header: %zu bytes, fewer than a header (%zu)",
                        len, sizeof m);
    memcpy(&m, hdr, sizeof m);
    if (seg_meta_unwritten(&m))
        return pshm_err(-ENODATA, "no pshm header: never written");
    if (memcmp(m.magic, SEG_MAGIC, sizeof m.magic))
        return pshm_err(-EINVAL, "not a pshm object: no pshm header");
    if (m.version != SEG_META_VERSION)
        return pshm_err(-EINVAL, "pshm header of another version: left alone");
    if (m.kind != SEG_KIND_SEGMENT && m.kind != SEG_KIND_REGION && m.kind != SEG_KIND_RANGE)
        return pshm_err(-EINVAL, "pshm header with an unknown kind: left alone");
    if (strnlen(m.tag, sizeof m.tag) >= sizeof m.tag || !tag_valid(m.tag))
        return pshm_err(-EINVAL, "pshm header with a bad job tag: left alone");
    if (strnlen(m.name, sizeof m.name) >= sizeof m.name)
        return pshm_err(-EINVAL, "pshm header with a bad name: left alone");
    _Static_assert(sizeof out->tag == sizeof m.tag && sizeof out->name == sizeof m.name,
                   "the public header view holds the header's strings");
    memset(out, 0, sizeof *out);
    out->kind = (char)m.kind;
    out->uid = m.uid;
    out->rank = m.rank;
    out->pid = m.pid;
    out->pid_start = m.pid_start;
    out->pidns = m.pidns;
    out->nranks = m.nranks;
    out->created = m.created;
    out->len = m.len;
    memcpy(out->tag, m.tag, sizeof out->tag);
    memcpy(out->name, m.name, sizeof out->name);
    return 0;
}

uint32_t pshm_object_sysv_key(const char *name)
{
    return name != NULL ? seg_sysv_key(name) : 0;
}

int pshm_tag_valid(const char *tag)
{
    return tag_valid(tag);
}

int pshm_job_remove(const char *tag, unsigned nranks)
{
    pshm_cfg_t *cfg = NULL;
    int rc;

    if (!tag_valid(tag))
        return pshm_err(-EINVAL, "pshm_job_remove: \"%s\" is not a job tag (1 to %d characters "
                        "of [a-z0-9])", tag ? tag : "(null)", PSHM_TAG_MAX);
    if (cfg_load(&cfg, "pshm_job_remove") < 0) {
        /* A bad variable must not keep a dead job's objects: only the
         * temporary directory matters here (file backend). */
        const char *t = getenv("GASNET_TMPDIR");
        if (t == NULL || t[0] != '/')
            t = getenv("TMPDIR");
        cfg = calloc(1, sizeof *cfg);
        if (cfg == NULL)
            return pshm_err(-ENOMEM, "pshm_job_remove: out of memory (%zu bytes)", sizeof *cfg);
        snprintf(cfg->tmpdir, sizeof cfg->tmpdir, "%s", t != NULL && t[0] == '/' ? t : "/tmp");
    }
    rc = seg_be_remove_tag(cfg, tag, nranks);
    free(cfg);
    return rc;
}
