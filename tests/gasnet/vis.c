/*
 * vis.c - every vector, indexed and strided put and get (gasnet_vis.h),
 * blocking, explicit- and implicit-handle, checked byte by byte against a
 * serial model: the source regions' bytes in order, written in order into
 * the destination regions, nothing else touched. Each node puts into its
 * right neighbour's segment and gets from its left neighbour's; shapes
 * have regions of 0 and 1 bytes, lists in shuffled address order, lists of
 * different lengths on the two sides, strides that are contiguous on one
 * side only, on both, levels of count 1, a count of 0, and 20 levels.
 * With an argument: one refused call, in its words (t-gasnet-vis.sh).
 */
#include "gtest.h"

#include <gasnet_vis.h>

#define AREA 4096u
#define MAXR 512 /* regions of a shape's side */

typedef struct {
    size_t n;
    size_t off[MAXR], len[MAXR];
} side_t;

typedef struct {
    int kind; /* 0 vector, 1 indexed, 2 strided */
    side_t d, s;
    /* strided */
    size_t levels, count[21], dstr[20], sstr[20];
} shape_t;

static uint8_t pat(unsigned node, unsigned area, size_t j)
{
    return (uint8_t)(node * 29u + area * 13u + j * 7u + 3u);
}

static void add(side_t *x, size_t off, size_t len)
{
    x->off[x->n] = off;
    x->len[x->n++] = len;
}

/* The chunks of a strided side, in GASNet's order (level 1 fastest). */
static void strided_side(side_t *x, size_t base, const size_t *str, const size_t *count,
                         size_t levels)
{
    size_t idx[21] = {0};
    x->n = 0;
    for (size_t i = 0; i <= levels; i++)
        if (count[i] == 0)
            return;
    for (;;) {
        size_t off = base;
        for (size_t l = 1; l <= levels; l++)
            off += idx[l] * str[l - 1];
        add(x, off, count[0]);
        size_t l = 1;
        while (l <= levels && ++idx[l] == count[l])
            idx[l++] = 0;
        if (l > levels)
            return;
    }
}

static int nshapes(void) { return 10; }

static void make_shape(int k, shape_t *sh)
{
    memset(sh, 0, sizeof *sh);
    switch (k) {
    case 0: /* vector: 0- and 1-byte regions, shuffled, 7 against 4 */
        sh->kind = 0;
        add(&sh->d, 900, 1); add(&sh->d, 10, 13); add(&sh->d, 500, 0); add(&sh->d, 2000, 64);
        add(&sh->d, 40, 5); add(&sh->d, 1200, 200); add(&sh->d, 3000, 31);
        add(&sh->s, 100, 150); add(&sh->s, 0, 0); add(&sh->s, 3000, 1); add(&sh->s, 1000, 163);
        break;
    case 1: /* vector: one region against many */
        sh->kind = 0;
        add(&sh->d, 7, 3001);
        for (size_t i = 0; i < 100; i++)
            add(&sh->s, 4000 - 40 * (i + 1), i < 99 ? 30 : 31);
        break;
    case 2: /* indexed: 12 x 10 against 8 x 15, shuffled */
        sh->kind = 1;
        for (size_t i = 0; i < 12; i++)
            add(&sh->d, ((i * 5) % 12) * 300 + 3, 10);
        for (size_t i = 0; i < 8; i++)
            add(&sh->s, ((i * 3) % 8) * 400 + 1, 15);
        break;
    case 3: /* indexed: single bytes */
        sh->kind = 1;
        for (size_t i = 0; i < 300; i++)
            add(&sh->d, (i * 13) % 3900, 1);
        for (size_t i = 0; i < 100; i++)
            add(&sh->s, i * 11, 3);
        break;
    default: { /* strided */
        static const struct {
            size_t levels, count[21], dstr[20], sstr[20];
        } st[] = {
            {3, {5, 3, 4, 2}, {7, 30, 130}, {5, 15, 60}},     /* src contiguous only */
            {2, {8, 4, 3}, {8, 32}, {8, 32}},                /* both contiguous: one copy */
            {4, {3, 1, 6, 1, 2}, {4, 4, 30, 30}, {3, 3, 20, 20}}, /* levels of count 1 */
            {0, {77}, {0}, {0}},                              /* no level */
            {2, {4, 0, 3}, {4, 9}, {4, 9}},                   /* a count of 0 */
            {2, {6, 4, 3}, {6, 24}, {9, 40}},                 /* dst contiguous only */
        };
        int i = k - 4;
        sh->kind = 2;
        if (i < 6) {
            sh->levels = st[i].levels;
            memcpy(sh->count, st[i].count, sizeof sh->count);
            memcpy(sh->dstr, st[i].dstr, sizeof sh->dstr);
            memcpy(sh->sstr, st[i].sstr, sizeof sh->sstr);
        }
        strided_side(&sh->d, 11, sh->dstr, sh->count, sh->levels);
        strided_side(&sh->s, 5, sh->sstr, sh->count, sh->levels);
        break;
    }
    }
}

/* 20 levels: counts 2 at levels 3, 9 and 17, 1 elsewhere. */
static void make_deep(shape_t *sh)
{
    memset(sh, 0, sizeof *sh);
    sh->kind = 2;
    sh->levels = 20;
    sh->count[0] = 6;
    size_t dext = 6, sext = 6;
    for (size_t l = 1; l <= 20; l++) {
        sh->count[l] = (l == 3 || l == 9 || l == 17) ? 2 : 1;
        sh->dstr[l - 1] = dext + (l == 3 ? 5 : 0);
        sh->sstr[l - 1] = sext;
        dext = sh->count[l] * sh->dstr[l - 1];
        sext = sh->count[l] * sh->sstr[l - 1];
    }
    strided_side(&sh->d, 0, sh->dstr, sh->count, sh->levels);
    strided_side(&sh->s, 0, sh->sstr, sh->count, sh->levels);
}

/* The model: the bytes of src's regions (in from) in order into dst's (in to). */
static void model(const shape_t *sh, uint8_t *to, const uint8_t *from)
{
    size_t i = 0, di = 0;
    for (size_t j = 0; j < sh->s.n; j++)
        for (size_t b = 0; b < sh->s.len[j]; b++) {
            while (di == sh->d.len[i]) {
                i++;
                di = 0;
            }
            to[sh->d.off[i] + di++] = from[sh->s.off[j] + b];
        }
}

/* The call of shape sh from area `from` into area `to`, put (to on node)
 * or get (from on node), with sync variant v (0 blocking, 1 nb, 2 nbi). */
static void run(const shape_t *sh, int put, int v, gasnet_node_t node, uint8_t *to, uint8_t *from)
{
    gasnet_memvec_t dv[MAXR], sv[MAXR];
    void *da[MAXR], *sa[MAXR];
    gasnet_handle_t h = GASNET_INVALID_HANDLE;

    for (size_t i = 0; i < sh->d.n; i++) {
        dv[i] = (gasnet_memvec_t){to + sh->d.off[i], sh->d.len[i]};
        da[i] = to + sh->d.off[i];
    }
    for (size_t i = 0; i < sh->s.n; i++) {
        sv[i] = (gasnet_memvec_t){from + sh->s.off[i], sh->s.len[i]};
        sa[i] = from + sh->s.off[i];
    }
    size_t dl = sh->d.n ? sh->d.len[0] : 1, sl = sh->s.n ? sh->s.len[0] : 1;
    uint8_t *db = to + 11, *sb = from + 5;
    if (sh->levels == 20)
        db = to, sb = from;
    switch (sh->kind * 6 + put * 3 + v) {
    case 0: gasnet_getv_bulk(sh->d.n, dv, node, sh->s.n, sv); break;
    case 1: h = gasnet_getv_nb_bulk(sh->d.n, dv, node, sh->s.n, sv); break;
    case 2: gasnet_getv_nbi_bulk(sh->d.n, dv, node, sh->s.n, sv); break;
    case 3: gasnet_putv_bulk(node, sh->d.n, dv, sh->s.n, sv); break;
    case 4: h = gasnet_putv_nb_bulk(node, sh->d.n, dv, sh->s.n, sv); break;
    case 5: gasnet_putv_nbi_bulk(node, sh->d.n, dv, sh->s.n, sv); break;
    case 6: gasnet_geti_bulk(sh->d.n, da, dl, node, sh->s.n, sa, sl); break;
    case 7: h = gasnet_geti_nb_bulk(sh->d.n, da, dl, node, sh->s.n, sa, sl); break;
    case 8: gasnet_geti_nbi_bulk(sh->d.n, da, dl, node, sh->s.n, sa, sl); break;
    case 9: gasnet_puti_bulk(node, sh->d.n, da, dl, sh->s.n, sa, sl); break;
    case 10: h = gasnet_puti_nb_bulk(node, sh->d.n, da, dl, sh->s.n, sa, sl); break;
    case 11: gasnet_puti_nbi_bulk(node, sh->d.n, da, dl, sh->s.n, sa, sl); break;
    case 12: gasnet_gets_bulk(db, sh->dstr, node, sb, sh->sstr, sh->count, sh->levels); break;
    case 13: h = gasnet_gets_nb_bulk(db, sh->dstr, node, sb, sh->sstr, sh->count, sh->levels); break;
    case 14: gasnet_gets_nbi_bulk(db, sh->dstr, node, sb, sh->sstr, sh->count, sh->levels); break;
    case 15: gasnet_puts_bulk(node, db, sh->dstr, sb, sh->sstr, sh->count, sh->levels); break;
    case 16: h = gasnet_puts_nb_bulk(node, db, sh->dstr, sb, sh->sstr, sh->count, sh->levels); break;
    case 17: gasnet_puts_nbi_bulk(node, db, sh->dstr, sb, sh->sstr, sh->count, sh->levels); break;
    }
    if (v == 1)
        gasnet_wait_syncnb(h);
    if (v == 2) {
        if (put)
            gasnet_wait_syncnbi_puts();
        else
            gasnet_wait_syncnbi_gets();
    }
}

static void shape_of(int k, int nsh, shape_t *sh)
{
    if (k < nsh - 1)
        make_shape(k, sh);
    else
        make_deep(sh);
}

/* have against the model's image of left's area a under shape sh. */
static void check_area(const char *what, const shape_t *sh, int k, int v, unsigned left, int a,
                       const uint8_t *have)
{
    uint8_t lpat[AREA], want[AREA];

    for (size_t j = 0; j < AREA; j++)
        lpat[j] = pat(left, (unsigned)a, j);
    memset(want, 0xee, AREA);
    model(sh, want, lpat);
    for (size_t j = 0; j < AREA; j++)
        if (have[j] != want[j]) {
            GT_CHECK(0, "%s shape %d variant %d: byte %zu is 0x%02x, not 0x%02x", what, k, v, j,
                     have[j], want[j]);
            return;
        }
}

/* One refused call on a one-node job: mode names it. */
static void refuse(const char *mode, uint8_t *seg, uintptr_t segsz)
{
    uint8_t buf[64];
    gasnet_memvec_t d[2] = {{seg, 8}, {seg + 16, 8}}, s[1] = {{buf, 17}};
    void *a[2] = {seg, seg + segsz - 4};
    size_t cnt[2] = {5, 3}, bad[1] = {3}, ok[1] = {5};

    if (!strcmp(mode, "v-size"))
        gasnet_putv_bulk(0, 2, d, 1, s);
    else if (!strcmp(mode, "v-seg")) {
        d[1].addr = seg + segsz - 4;
        s[0].len = 16;
        gasnet_putv_bulk(0, 2, d, 1, s);
    } else if (!strcmp(mode, "i-len0"))
        gasnet_puti_bulk(0, 2, a, 0, 1, a, 8);
    else if (!strcmp(mode, "i-seg"))
        gasnet_geti_bulk(1, (void *[]){buf}, 16, 0, 2, a, 8);
    else if (!strcmp(mode, "s-stride"))
        gasnet_puts_bulk(0, seg, bad, buf, ok, cnt, 1);
    else if (!strcmp(mode, "s-seg"))
        gasnet_gets_bulk(buf, ok, 0, seg + segsz - 12, ok, cnt, 1);
    else if (!strcmp(mode, "node"))
        gasnet_puts_bulk(7, seg, ok, buf, ok, cnt, 1);
    else {
        fprintf(stderr, "vis: unknown mode '%s'\n", mode);
        gasnet_exit(2);
    }
    fprintf(stderr, "vis: %s was not refused\n", mode);
    gasnet_exit(3);
}

int main(int argc, char **argv)
{
    GT_SAFE(gasnet_init(&argc, &argv));
    unsigned me = gasnet_mynode(), n = gasnet_nodes();
    unsigned right = (me + 1) % n, left = (me + n - 1) % n;
    int nsh = nshapes() + 1, nareas = 2 * 3 * nsh; /* put/get x variant x shape */
    uintptr_t segsz = ((uintptr_t)nareas * AREA + 4095) / 4096 * 4096;
    GT_SAFE(gasnet_attach(NULL, 0, segsz, 0));
    gasnet_seginfo_t *s = calloc(n, sizeof *s);
    GT_SAFE(gasnet_getSegmentInfo(s, (int)n));
    uint8_t *mine = s[me].addr, *rseg = s[right].addr, *lseg = s[left].addr;
    if (argc > 1)
        refuse(argv[1], mine, s[me].size);
    static uint8_t src[AREA], got[AREA];

    /* Put areas (even) get the guard; get areas (odd) my pattern. */
    for (int a = 0; a < nareas; a++)
        for (size_t j = 0; j < AREA; j++)
            mine[a * AREA + j] = (a % 2) ? pat(me, (unsigned)a, j) : 0xee;
    gt_barrier();

    shape_t sh;
    int checked = 0;
    for (int k = 0; k < nsh; k++) {
        shape_of(k, nsh, &sh);
        for (int v = 0; v < 3; v++) {
            int a = (k * 3 + v) * 2;
            /* put from src into right's area a */
            for (size_t j = 0; j < AREA; j++)
                src[j] = pat(me, (unsigned)a, j);
            run(&sh, 1, v, right, rseg + a * AREA, src);
            /* get from left's area a + 1 into got */
            memset(got, 0xee, AREA);
            run(&sh, 0, v, left, got, lseg + (a + 1) * AREA);
            check_area("get", &sh, k, v, left, a + 1, got);
            checked++;
        }
    }
    gt_barrier();
    /* What left put into my even areas. */
    for (int k = 0; k < nsh; k++) {
        shape_of(k, nsh, &sh);
        for (int v = 0; v < 3; v++) {
            int a = (k * 3 + v) * 2;
            check_area("put", &sh, k, v, left, a, mine + a * AREA);
        }
    }
    GT_CHECK(checked == nsh * 3, "%d of %d shapes ran", checked, nsh * 3);
    free(s);
    gt_end("vis");
    return 0;
}
