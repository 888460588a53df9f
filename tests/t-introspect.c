/*
 * t-introspect: the context-free calls the tools are built on give what the
 * library itself uses: the build's configuration, the variable table, the
 * environment's check, the strict parser, the machine's limits, the plan of a
 * job on this host (as pshm_init and pshm_attach compute it), and an
 * object's header as its creator wrote it.
 */
#include "internal.h"
#include "segment/backend.h"
#include "tests/helpers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void build_and_vars(void)
{
    const pshm_build_info_t *b = pshm_build_info();
    int n = 0;

    CHECK(strcmp(b->version, PSHM_VERSION) == 0 && strcmp(b->backend, PSHM_BACKEND_NAME) == 0);
    CHECK(strcmp(b->object_prefix, "pshm") == 0 && b->cache_line == PSHM_CACHE_LINE);
    CHECK(b->debug == PSHM_DEBUG && strcmp(b->configure_args, PSHM_CONFIGURE_ARGS) == 0);
    for (; pshm_env_var(n) != NULL; n++)
        CHECK(pshm_env_var(n) == &pshm_env_vars[n]);
    CHECK(n > 5 && pshm_env_vars[n].name == NULL);
    CHECK(pshm_env_var(-1) == NULL && pshm_env_var(n + 1) == NULL);
    printf("build info and %d variables: ok\n", n);
}

static void env_and_parse(void)
{
    uint64_t v;

    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    CHECK_OK(pshm_env_check());
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "5abc", 1);
    CHECK_ERR(pshm_env_check(), -EINVAL);
    CHECK(strstr(pshm_last_error(), "GASNET_PSHMNET_QUEUE_DEPTH") != NULL);
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");

    CHECK_OK(pshm_parse(PSHM_PARSE_U64, "-n", "42", 1, 100, &v));
    CHECK(v == 42);
    CHECK_ERR(pshm_parse(PSHM_PARSE_U64, "-n", "101", 1, 100, &v), -EINVAL);
    CHECK(strstr(pshm_last_error(), "-n") != NULL);
    CHECK_ERR(pshm_parse(PSHM_PARSE_U64, "-n", "-1", 0, 100, &v), -EINVAL);
    CHECK_OK(pshm_parse(PSHM_PARSE_SIZE, "--size", "64K", 0, UINT64_MAX, &v));
    CHECK(v == 65536);
    CHECK_ERR(pshm_parse(PSHM_PARSE_SIZE, "--size", "64Q", 0, UINT64_MAX, &v), -EINVAL);
    CHECK_OK(pshm_parse(PSHM_PARSE_SECONDS, "--timeout", "0.5", 0, 10000, &v));
    CHECK(v == 500);
    CHECK_ERR(pshm_parse(PSHM_PARSE_SECONDS, "--timeout", "0.05", 100, 10000, &v), -EINVAL);
    CHECK_ERR(pshm_parse(PSHM_PARSE_SECONDS, "--timeout", "1", 0, UINT64_MAX, &v), -EINVAL);
    CHECK_ERR(pshm_parse(7, "x", "1", 0, 1, &v), -EINVAL);
    CHECK_ERR(pshm_parse(PSHM_PARSE_U64, "x", "1", 0, 1, NULL), -EINVAL);
    printf("environment check and strict parser: ok\n");
}

static void limits_and_plan(void)
{
    pshm_host_limits_t hl;
    pshm_host_plan_t p;
    uint64_t am;
    uint64_t room;

    CHECK_OK(pshm_host_limits(&hl));
    CHECK(hl.phys_mem == sys_phys_mem() && hl.usable_cpus == cgroup_usable_cpus());
    CHECK(hl.memcg == cgroup_mem_room(&room, &am, NULL, 0) || hl.memcg == 1);
    CHECK_ERR(pshm_host_limits(NULL), -EINVAL);

    /* 4 processes, supernodes of at most 2: 2 x 2, each network of 2. */
    setenv("GASNET_SUPERNODE_MAXSIZE", "2", 1);
    setenv("GASNET_PSHMNET_QUEUE_DEPTH", "8", 1);
    int rc = pshm_host_plan(4, &p);
    CHECK(p.queue_depth == 8 && p.queue_memory == PSHM_QUEUE_MEMORY_DEFAULT);
    CHECK(p.supernode_max == (PSHM_BACKEND_NONE ? 1u : 2u));
    CHECK(p.node_size == (PSHM_BACKEND_NONE ? 1u : 2u) && p.nodes == 4 / p.node_size);
    CHECK_OK(pshm_am_network_size(p.node_size, 8, PSHM_QUEUE_MEMORY_DEFAULT, &am));
    CHECK(p.am_bytes == am);
    if (rc == 0)
        CHECK(p.seg_max > 0);
    else
        printf("no segment fits here (%s): plan's settings checked only\n", pshm_last_error());
    setenv("GASNET_SUPERNODE_MAXSIZE", "x", 1);
    CHECK_ERR(pshm_host_plan(4, &p), -EINVAL);
    CHECK(strstr(pshm_last_error(), "GASNET_SUPERNODE_MAXSIZE") != NULL);
    unsetenv("GASNET_SUPERNODE_MAXSIZE");
    unsetenv("GASNET_PSHMNET_QUEUE_DEPTH");
    CHECK_ERR(pshm_host_plan(0, &p), -EINVAL);
    printf("host limits and plan: ok\n");
}

static void object_header(void)
{
    static unsigned char page[PSHM_OBJECT_HEADER_SIZE];
    seg_meta_t m;
    pshm_object_info_t o;

    memset(&m, 0, sizeof m);
    m.version = SEG_META_VERSION;
    m.kind = SEG_KIND_REGION;
    m.uid = 1234;
    m.rank = 3;
    m.pid = 4321;
    m.nranks = 8;
    m.pid_start = 99;
    m.created = 1700000000;
    m.len = 1 << 20;
    m.pidns = 4026531836u;
    snprintf(m.tag, sizeof m.tag, "abc123");
    seg_meta_put(page, &m, "/pshm.1234.abc123.q0");

    CHECK_OK(pshm_object_inspect(page, sizeof page, &o));
    CHECK(o.kind == 'q' && o.uid == 1234 && o.rank == 3 && o.pid == 4321 && o.nranks == 8);
    CHECK(o.pid_start == 99 && o.created == 1700000000 && o.len == 1 << 20);
    CHECK(o.pidns == 4026531836u);
    CHECK(strcmp(o.tag, "abc123") == 0 && strcmp(o.name, "/pshm.1234.abc123.q0") == 0);

    /* Short, or never written: no header. */
    CHECK_ERR(pshm_object_inspect(page, 10, &o), -ENODATA);
    static const unsigned char zero[PSHM_OBJECT_HEADER_SIZE];
    CHECK_ERR(pshm_object_inspect(zero, sizeof zero, &o), -ENODATA);
    /* Someone else's bytes, another version, a bad tag: not ours to judge. */
    page[0] ^= 1;
    CHECK_ERR(pshm_object_inspect(page, sizeof page, &o), -EINVAL);
    CHECK(strstr(pshm_last_error(), "no pshm header") != NULL);
    page[0] ^= 1;
    ((seg_meta_t *)(void *)page)->version = SEG_META_VERSION + 1;
    CHECK_ERR(pshm_object_inspect(page, sizeof page, &o), -EINVAL);
    CHECK(strstr(pshm_last_error(), "another version") != NULL);
    ((seg_meta_t *)(void *)page)->version = SEG_META_VERSION;
    snprintf(((seg_meta_t *)(void *)page)->tag, sizeof m.tag, "BAD");
    CHECK_ERR(pshm_object_inspect(page, sizeof page, &o), -EINVAL);
    CHECK(strstr(pshm_last_error(), "bad job tag") != NULL);

    CHECK(pshm_object_sysv_key("pshm.0.abc.s1") == seg_sysv_key("pshm.0.abc.s1"));
    CHECK(pshm_tag_valid("abc123") == 1 && pshm_tag_valid("ABC") == 0 &&
          pshm_tag_valid("") == 0 && pshm_tag_valid("a23456789012345678") == 0);
    CHECK_ERR(pshm_job_remove("BAD", 1), -EINVAL);
    printf("object headers, keys, tags: ok\n");
}

int main(void)
{
    build_and_vars();
    env_and_parse();
    limits_and_plan();
    object_header();
    return T_PASS;
}
