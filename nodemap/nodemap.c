/*
 * nodemap.c - host identity and the split of the job into supernodes.
 *
 * Ranks with byte-equal identities share a host. Hosts are ordered by their
 * lowest rank; each host's ranks, ascending, are cut into consecutive
 * supernodes of at most supernode_max processes. The computation is a sort of
 * (identity, rank) pairs: O(P log P) whatever the placement of ranks.
 */
#include "nodemap/nodemap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------- identity */

static uint64_t fnv1a64(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Reads the kernel's boot id (changes at every boot, distinct per machine). */
static int read_boot_id(char *out, size_t n)
{
    ssize_t k;
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return -1;
    do
        k = read(fd, out, n - 1);
    while (k < 0 && errno == EINTR);
    close(fd);
    if (k <= 0)
        return -1;
    out[k] = '\0';
    out[strcspn(out, "\n")] = '\0';
    return out[0] != '\0' ? 0 : -1;
}

static int host_name(char *out, size_t n)
{
    if (gethostname(out, n) < 0)
        return pshm_err(-errno, "cannot read the host name to identify this host: %s; set "
                        "PSHM_HOST_ID", strerror(errno));
    out[n - 1] = '\0';
    return 0;
}

int nodemap_hostid(const struct pshm_cfg *cfg, int rank, nodemap_hostid_t *id)
{
    char s[512], boot[64];
    size_t len;
    int rc = 0;

    memset(id, 0, sizeof *id);
    if (cfg->host_id[0] != '\0') {
        snprintf(s, sizeof s, "%.*s", (int)sizeof cfg->host_id, cfg->host_id);
    } else if (cfg->host_detect == HOST_DETECT_GETHOSTID) {
        snprintf(s, sizeof s, "%08lx", (unsigned long)gethostid() & 0xffffffffUL);
    } else if (cfg->host_detect == HOST_DETECT_HOSTNAME || read_boot_id(boot, sizeof boot) < 0) {
        rc = host_name(s, 256);   /* also the fallback when /proc is not mounted */
    } else {
        size_t bl = strlen(boot);
        memcpy(s, boot, bl);
        s[bl] = '/';
        rc = host_name(s + bl + 1, 256);
    }
    if (rc < 0)
        return rc;
    if (cfg->sim_hosts > 0) {
        len = strlen(s);
        snprintf(s + len, sizeof s - len, "#%u", (unsigned)((uint32_t)rank % cfg->sim_hosts));
    }
    len = strlen(s);
    if (len < NODEMAP_HOSTID_LEN) {
        memcpy(id->s, s, len);
    } else {
        /* A prefix for people, the hash of the whole for distinctness. */
        const size_t keep = NODEMAP_HOSTID_LEN - 1 - 17;
        memcpy(id->s, s, keep);
        snprintf(id->s + keep, NODEMAP_HOSTID_LEN - keep, "~%016llx",
                 (unsigned long long)fnv1a64(s, len));
    }
    return 0;
}

uint64_t nodemap_machine(const struct pshm_cfg *cfg, const nodemap_hostid_t *id)
{
    nodemap_hostid_t real;
    struct pshm_cfg c;

    if (cfg->sim_hosts == 0)
        return fnv1a64(id->s, NODEMAP_HOSTID_LEN);
    /* The identity without the simulated host's suffix (rank 0's: any
     * rank's is the same before the suffix). */
    c = *cfg;
    c.sim_hosts = 0;
    if (nodemap_hostid(&c, 0, &real) < 0)
        return fnv1a64(id->s, NODEMAP_HOSTID_LEN);
    return fnv1a64(real.s, NODEMAP_HOSTID_LEN);
}

/* -------------------------------------------------------------- the map */

typedef struct entry {
    const nodemap_hostid_t *id;
    int rank;
} entry_t;

typedef struct host {
    int first;   /* index in the sorted entries */
    int count;
    int low;     /* lowest rank: orders the hosts */
} host_t;

static int cmp_entry(const void *a, const void *b)
{
    const entry_t *x = a, *y = b;
    int c = memcmp(x->id->s, y->id->s, NODEMAP_HOSTID_LEN);
    return c != 0 ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

static int cmp_host(const void *a, const void *b)
{
    int x = ((const host_t *)a)->low, y = ((const host_t *)b)->low;
    return (x > y) - (x < y);
}

void nodemap_free(nodemap_t *nm)
{
    free(nm->node_of);
    free(nm->local_rank);
    free(nm->members);
    memset(nm, 0, sizeof *nm);
}

int nodemap_compute(nodemap_t *nm, const nodemap_hostid_t *ids, int size, int rank,
                    uint32_t supernode_max)
{
    entry_t *e = NULL;
    host_t *h = NULL;
    int nh = 0, node = 0, rc = 0;
    nodemap_t m = { .size = size };

    memset(nm, 0, sizeof *nm);
    if (ids == NULL || size < 1 || rank < 0 || rank >= size)
        return pshm_err(-EINVAL, "nodemap: rank %d of a job of %d ranks (ids %s) is not "
                        "valid", rank, size, ids ? "given" : "NULL");
    e = malloc((size_t)size * sizeof *e);
    h = malloc((size_t)size * sizeof *h);
    m.node_of = malloc((size_t)size * sizeof *m.node_of);
    m.local_rank = malloc((size_t)size * sizeof *m.local_rank);
    if (!e || !h || !m.node_of || !m.local_rank) {
        rc = pshm_err(-ENOMEM, "nodemap: cannot allocate the map of %d ranks (%zu bytes)",
                      size, (size_t)size * (sizeof *e + sizeof *h + 2 * sizeof(int)));
        goto out;
    }
    for (int r = 0; r < size; r++)
        e[r] = (entry_t){ &ids[r], r };
    qsort(e, (size_t)size, sizeof *e, cmp_entry);
    for (int i = 0; i < size; i++) {
        if (i == 0 || memcmp(e[i].id->s, e[i - 1].id->s, NODEMAP_HOSTID_LEN) != 0)
            h[nh++] = (host_t){ i, 0, e[i].rank };   /* a group's first is its lowest */
        h[nh - 1].count++;
    }
    qsort(h, (size_t)nh, sizeof *h, cmp_host);

    /* Cut each host's ranks (ascending in e) into supernodes. */
    for (int k = 0; k < nh; k++) {
        for (int j = 0; j < h[k].count; j++) {
            if (j > 0 && supernode_max > 0 && (uint32_t)j % supernode_max == 0)
                node++;
            m.node_of[e[h[k].first + j].rank] = node;
        }
        node++;
    }
    m.node_count = node;
    m.host_count = nh;
    for (int k = 0; k < nh; k++)
        for (int j = 0; j < h[k].count; j++)
            if (e[h[k].first + j].rank == rank)
                m.host_size = h[k].count;
    m.node_index = m.node_of[rank];
    for (int r = 0; r < size; r++)
        m.node_size += m.node_of[r] == m.node_index;
    m.members = malloc((size_t)m.node_size * sizeof *m.members);
    if (m.members == NULL) {
        rc = pshm_err(-ENOMEM, "nodemap: cannot allocate the list of %d supernode members",
                      m.node_size);
        goto out;
    }
    for (int r = 0, n = 0; r < size; r++) {
        if (m.node_of[r] == m.node_index) {
            if (r == rank)
                m.node_rank = n;
            m.members[n] = r;
            m.local_rank[r] = n++;
        } else {
            m.local_rank[r] = -1;
        }
    }
    *nm = m;
    m = (nodemap_t){ 0 };
out:
    nodemap_free(&m);
    free(e);
    free(h);
    return rc;
}
