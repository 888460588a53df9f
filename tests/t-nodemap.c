/*
 * t-nodemap - host identities and the split into supernodes: nodemap_compute
 * on hand-made identities, then jobs under pshmrun (--hosts 2, and
 * GASNET_SUPERNODE_MAXSIZE) checked through the public API.
 */
#include "internal.h"
#include "tests/helpers.h"
#include "launch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ids[r] = names[host_of(r)] */
static nodemap_hostid_t *make_ids(int size, const char *const *names, int (*host_of)(int))
{
    nodemap_hostid_t *ids = calloc((size_t)size, sizeof *ids);
    CHECK(ids != NULL);
    for (int r = 0; r < size; r++)
        snprintf(ids[r].s, sizeof ids[r].s, "%s", names[host_of(r)]);
    return ids;
}

static int all_same(int r) { (void)r; return 0; }
static int first3(int r) { return r < 3 ? 0 : 1; }
static int mod3(int r) { return r % 3; }
static int mod2(int r) { return r % 2; }
static int mod64(int r) { return r % 64; }

/* Checks rank `rank`'s view against the expected supernode of every rank. */
static void expect_map(const nodemap_hostid_t *ids, int size, int rank, uint32_t max,
                       const int *node_of, int node_count, int host_count)
{
    nodemap_t nm;
    int n = 0;

    CHECK_OK(nodemap_compute(&nm, ids, size, rank, max));
    CHECK(nm.size == size);
    CHECK(nm.node_count == node_count);
    CHECK(nm.host_count == host_count);
    CHECK(nm.node_index == node_of[rank]);
    for (int r = 0; r < size; r++) {
        CHECK(nm.node_of[r] == node_of[r]);
        if (node_of[r] != node_of[rank]) {
            CHECK(nm.local_rank[r] == -1);
            continue;
        }
        CHECK(nm.local_rank[r] == n);
        CHECK(nm.members[n] == r);
        if (r == rank)
            CHECK(nm.node_rank == n);
        n++;
    }
    CHECK(nm.node_size == n);
    nodemap_free(&nm);
    CHECK(nm.node_of == NULL && nm.members == NULL && nm.local_rank == NULL);
}

static void expect_all_ranks(const nodemap_hostid_t *ids, int size, uint32_t max,
                             const int *node_of, int node_count, int host_count)
{
    for (int rank = 0; rank < size; rank++)
        expect_map(ids, size, rank, max, node_of, node_count, host_count);
}

static void unit_tests(void)
{
    static const char *const names[] = { "zz-host", "aa-host", "mm-host" };
    nodemap_hostid_t *ids;
    nodemap_t nm;

    /* One host, no limit. */
    ids = make_ids(4, names, all_same);
    expect_all_ranks(ids, 4, 0, (const int[]){ 0, 0, 0, 0 }, 1, 1);
    /* One host, 8 ranks, at most 3 per supernode: 3, 3, 2. */
    free(ids);
    ids = make_ids(8, names, all_same);
    expect_all_ranks(ids, 8, 3, (const int[]){ 0, 0, 0, 1, 1, 1, 2, 2 }, 3, 1);
    /* The limit equal to the host's size, and of 1. */
    expect_all_ranks(ids, 8, 8, (const int[]){ 0, 0, 0, 0, 0, 0, 0, 0 }, 1, 1);
    expect_all_ranks(ids, 8, 1, (const int[]){ 0, 1, 2, 3, 4, 5, 6, 7 }, 8, 1);
    free(ids);
    printf("ok: one host (no limit, limits 3, 8, 1)\n");

    /* Two hosts, contiguous ranks. */
    ids = make_ids(6, names, first3);
    expect_all_ranks(ids, 6, 0, (const int[]){ 0, 0, 0, 1, 1, 1 }, 2, 2);
    free(ids);
    /* Round-robin over 3 hosts whose names sort against rank order: hosts
     * are numbered by their lowest rank, not by name. */
    ids = make_ids(8, names, mod3);
    expect_all_ranks(ids, 8, 0, (const int[]){ 0, 1, 2, 0, 1, 2, 0, 1 }, 3, 3);
    free(ids);
    /* Round-robin over 2 hosts, at most 3: {0,2,4} {6} {1,3,5} {7}. */
    ids = make_ids(8, names, mod2);
    expect_all_ranks(ids, 8, 3, (const int[]){ 0, 2, 0, 2, 0, 2, 1, 3 }, 4, 2);
    free(ids);
    printf("ok: two and three hosts, contiguous and round-robin, with a limit\n");

    /* 4096 ranks over 64 hosts round-robin. */
    {
        enum { P = 4096, H = 64 };
        static char hn[H][16];
        const char *hp[H];
        for (int h = 0; h < H; h++) {
            snprintf(hn[h], sizeof hn[h], "h%02d", (H - 1 - h));
            hp[h] = hn[h];
        }
        ids = make_ids(P, hp, mod64);
        CHECK_OK(nodemap_compute(&nm, ids, P, 4095, 0));
        CHECK(nm.host_count == H && nm.node_count == H && nm.node_size == P / H);
        CHECK(nm.node_index == 63 && nm.node_rank == P / H - 1);
        for (int i = 0; i < nm.node_size; i++)
            CHECK(nm.members[i] == 63 + 64 * i);
        nodemap_free(&nm);
        free(ids);
        printf("ok: 4096 ranks over 64 hosts\n");
    }

    /* Bad arguments: -EINVAL, a message, and nothing allocated. */
    ids = make_ids(2, names, all_same);
    CHECK_ERR(nodemap_compute(&nm, ids, 0, 0, 0), -EINVAL);
    CHECK(nm.node_of == NULL);
    CHECK_ERR(nodemap_compute(&nm, ids, 2, 2, 0), -EINVAL);
    CHECK_ERR(nodemap_compute(&nm, ids, 2, -1, 0), -EINVAL);
    CHECK_ERR(nodemap_compute(&nm, NULL, 2, 0, 0), -EINVAL);
    CHECK(strstr(pshm_last_error(), "nodemap") != NULL);
    free(ids);
    printf("ok: bad arguments rejected\n");
}

static void hostid_tests(void)
{
    pshm_cfg_t cfg;
    nodemap_hostid_t a, b;
    char longname[64];

    memset(&cfg, 0, sizeof cfg);
    /* Default: boot id + "/" + host name, identical for every rank. */
    CHECK_OK(nodemap_hostid(&cfg, 0, &a));
    CHECK_OK(nodemap_hostid(&cfg, 5, &b));
    CHECK(memcmp(&a, &b, sizeof a) == 0 && a.s[0] != '\0');
    CHECK(a.s[NODEMAP_HOSTID_LEN - 1] == '\0');
    /* Simulated hosts: rank % K decides. */
    cfg.sim_hosts = 2;
    CHECK_OK(nodemap_hostid(&cfg, 1, &a));
    CHECK_OK(nodemap_hostid(&cfg, 3, &b));
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK_OK(nodemap_hostid(&cfg, 2, &b));
    CHECK(memcmp(&a, &b, sizeof a) != 0);
    cfg.sim_hosts = 0;
    /* An explicit identity is used as given. */
    snprintf(cfg.host_id, sizeof cfg.host_id, "rack7-node3");
    CHECK_OK(nodemap_hostid(&cfg, 0, &a));
    CHECK(strcmp(a.s, "rack7-node3") == 0);
    /* Long identities that differ only at the end stay distinct. */
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    memcpy(cfg.host_id, longname, sizeof longname);
    cfg.sim_hosts = 2;
    CHECK_OK(nodemap_hostid(&cfg, 0, &a));
    CHECK_OK(nodemap_hostid(&cfg, 1, &b));
    CHECK(memcmp(&a, &b, sizeof a) != 0);
    CHECK(a.s[NODEMAP_HOSTID_LEN - 1] == '\0' && strncmp(a.s, "xxxx", 4) == 0);
    /* GASNET_HOST_DETECT=hostname and gethostid. */
    memset(&cfg, 0, sizeof cfg);
    cfg.host_detect = HOST_DETECT_HOSTNAME;
    CHECK_OK(nodemap_hostid(&cfg, 0, &a));
    CHECK(strchr(a.s, '/') == NULL && a.s[0] != '\0');
    cfg.host_detect = HOST_DETECT_GETHOSTID;
    CHECK_OK(nodemap_hostid(&cfg, 0, &a));
    CHECK(strlen(a.s) == 8);
    printf("ok: host identities (default, simulated, explicit, long, hostname, gethostid)\n");
}

/* One rank of a job: the public API must agree with `node_of`. */
static int job_rank(const int *node_of, int size, int host_count)
{
    pshm_ctx_t *ctx;
    int me, n = 0;

    CHECK_OK(pshm_init(&ctx, NULL));
    me = pshm_rank(ctx);
#if PSHM_BACKEND_NONE
    /* --disable-pshm: every process is a supernode of one. */
    static int alone[LAUNCH_MAX_PROCS];
    for (int r = 0; r < size; r++)
        alone[r] = r;
    node_of = alone;
#endif
    CHECK(pshm_size(ctx) == size);
    CHECK(pshm_host_count(ctx) == host_count);
    for (int r = 0; r < size; r++) {
        if (node_of[r] != node_of[me]) {
            CHECK_ERR(pshm_node_rank_of(ctx, r), -EHOSTUNREACH);
            CHECK(pshm_is_local(ctx, r) == 0);
            continue;
        }
        CHECK(pshm_node_rank_of(ctx, r) == n);
        CHECK(pshm_is_local(ctx, r) == 1);
        CHECK(pshm_node_member(ctx, n) == r);
        if (r == me)
            CHECK(pshm_node_rank(ctx) == n);
        n++;
    }
    CHECK(pshm_node_size(ctx) == n);
    CHECK_OK(pshm_finalize(ctx));
    printf("rank %d: supernode %d of %d processes checked\n", me, node_of[me], n);
    return T_PASS;
}

int main(int argc, char **argv)
{
    static const int hosts2[] = { 0, 1, 0, 1 };          /* --hosts 2: host r % 2 */
    static const int max2[] = { 0, 0, 1, 1, 2 };         /* one host, at most 2 */
    int st;

    if (getenv("PSHM_RANK") != NULL) {
        if (argc > 1 && strcmp(argv[1], "hosts2") == 0)
            return job_rank(hosts2, 4, 2);
        if (argc > 1 && strcmp(argv[1], "max2") == 0)
            return job_rank(max2, 5, 1);
        fprintf(stderr, "t-nodemap: unknown job mode\n");
        return T_FAIL;
    }
    unit_tests();
    hostid_tests();

    setenv("PSHM_TEST_LAUNCH_FLAGS", "--hosts 2", 1);
    st = th_launch(2, (char *[]){ argv[0], "hosts2", NULL }, 4);
    if (st != 0) {
        printf("FAIL: the job of 4 ranks on 2 simulated hosts exited %d\n", st);
        return T_FAIL;
    }
    printf("ok: 4 ranks on 2 simulated hosts through the public API\n");

    unsetenv("PSHM_TEST_LAUNCH_FLAGS");
    setenv("GASNET_SUPERNODE_MAXSIZE", "2", 1);
    st = th_launch(2, (char *[]){ argv[0], "max2", NULL }, 5);
    if (st != 0) {
        printf("FAIL: the job of 5 ranks with GASNET_SUPERNODE_MAXSIZE=2 exited %d\n", st);
        return T_FAIL;
    }
    printf("ok: GASNET_SUPERNODE_MAXSIZE=2 splits 5 ranks into 2, 2, 1\n");
    return T_PASS;
}
