/*
 * vis.c - the vector, indexed and strided puts and gets (gasnet_vis.h).
 *
 * The remote side lies in a node's segment, mapped here, so each call is
 * a series of memcpys, complete when it returns, like rma.c's. Every
 * argument is checked before the first byte moves (the totals agree, each
 * remote region lies in the segment, the strides are valid), so a refused
 * call ends the job having written nothing.
 */
#include "gasnetc.h"
#include "gasnet_vis.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* a * b, or fatal naming what overflowed. */
static size_t mul_checked(const char *call, size_t a, size_t b, const char *what)
{
    size_t r;

    if (__builtin_mul_overflow(a, b, &r))
        gsn_fatal(call, "%s overflows: %zu * %zu bytes is more than the address space", what, a,
                  b);
    return r;
}

static size_t add_checked(const char *call, size_t a, size_t b, const char *what)
{
    size_t r;

    if (__builtin_add_overflow(a, b, &r))
        gsn_fatal(call, "%s overflows: %zu + %zu bytes is more than the address space", what, a,
                  b);
    return r;
}

/* One side of a vector or indexed copy: region i is v[i] (vector) or
 * (a[i], len) (indexed), at its address plus delta (the translation of
 * the remote side; 0 for the local one). */
typedef struct vis_list {
    size_t n;
    const gasnet_memvec_t *v;
    void *const *a;
    size_t len;
    uintptr_t delta;
} vis_list_t;

static inline char *vis_region(const vis_list_t *l, size_t i, size_t *len)
{
    uintptr_t addr;

    if (l->v != NULL) {
        *len = l->v[i].len;
        addr = (uintptr_t)l->v[i].addr;
    } else {
        *len = l->len;
        addr = (uintptr_t)l->a[i];
    }
    return (char *)(addr + l->delta);
}

/* Bytes of a list, checked for overflow. */
static size_t vis_total(const char *call, const vis_list_t *l, const char *side)
{
    if (l->v == NULL)
        return mul_checked(call, l->n, l->len, side);
    size_t t = 0;
    for (size_t i = 0; i < l->n; i++)
        t = add_checked(call, t, l->v[i].len, side);
    return t;
}

/* After attach, node in the job (fatal otherwise, as gasnetc_ptr says it):
 * for calls whose regions may all be empty. */
static void vis_node(const char *call, gasnet_node_t node)
{
    gsn_need_attach(call);
    if (node >= (gasnet_node_t)gsn.n)
        gsn_fatal(call, "node %u is not in the job (nodes 0..%d)", (unsigned)node, gsn.n - 1);
}

/* Every non-empty region of the remote list in node's segment (fatal
 * otherwise, as a contiguous put's); then the list's translation. */
static void vis_remote(const char *call, gasnet_node_t node, vis_list_t *l)
{
    for (size_t i = 0; i < l->n; i++) {
        size_t len;
        char *p = vis_region(l, i, &len);
        if (len > 0)
            gasnetc_ptr(node, p, len, call);
    }
    vis_node(call, node);
    l->delta = (uintptr_t)gsn.seg[node].local - gsn.seg[node].owner;
}

/* The bytes of src's regions, in order, into dst's. */
static void vis_copy(const char *call, gasnet_node_t node, vis_list_t *dst, vis_list_t *src,
                     int put)
{
    size_t dn = vis_total(call, dst, "the destination list's size");
    size_t sn = vis_total(call, src, "the source list's size");

    if (dn != sn)
        gsn_fatal(call, "the destination list holds %zu bytes in %zu regions, the source list "
                  "%zu bytes in %zu: the two must hold the same total", dn,
                  dst->n, sn, src->n);
    vis_remote(call, node, put ? dst : src);
    size_t i = 0, j = 0, di = 0, sj = 0, dlen = 0, slen = 0;
    char *d = NULL, *s = NULL;
    while (sn > 0) {
        while (di == dlen) {
            d = vis_region(dst, i++, &dlen);
            di = 0;
        }
        while (sj == slen) {
            s = vis_region(src, j++, &slen);
            sj = 0;
        }
        size_t n = dlen - di < slen - sj ? dlen - di : slen - sj;
        memcpy(d + di, s + sj, n);
        di += n;
        sj += n;
        sn -= n;
    }
}

/* ---- vector ---- */

static void putv(const char *call, gasnet_node_t node, size_t dc, gasnet_memvec_t const *dl,
                 size_t sc, gasnet_memvec_t const *sl)
{
    vis_list_t d = {dc, dl, NULL, 0, 0}, s = {sc, sl, NULL, 0, 0};

    if ((dc > 0 && dl == NULL) || (sc > 0 && sl == NULL))
        gsn_fatal(call, "a list of %zu regions is NULL", dl == NULL ? dc : sc);
    vis_copy(call, node, &d, &s, 1);
}

static void getv(const char *call, size_t dc, gasnet_memvec_t const *dl, gasnet_node_t node,
                 size_t sc, gasnet_memvec_t const *sl)
{
    vis_list_t d = {dc, dl, NULL, 0, 0}, s = {sc, sl, NULL, 0, 0};

    if ((dc > 0 && dl == NULL) || (sc > 0 && sl == NULL))
        gsn_fatal(call, "a list of %zu regions is NULL", dl == NULL ? dc : sc);
    vis_copy(call, node, &d, &s, 0);
}

void gasnet_putv_bulk(gasnet_node_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[],
                      size_t srccount, gasnet_memvec_t const srclist[])
{
    putv("gasnet_putv_bulk", dstnode, dstcount, dstlist, srccount, srclist);
}
void gasnet_getv_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gasnet_node_t srcnode,
                      size_t srccount, gasnet_memvec_t const srclist[])
{
    getv("gasnet_getv_bulk", dstcount, dstlist, srcnode, srccount, srclist);
}
gasnet_handle_t gasnet_putv_nb_bulk(gasnet_node_t dstnode, size_t dstcount,
                                    gasnet_memvec_t const dstlist[], size_t srccount,
                                    gasnet_memvec_t const srclist[])
{
    putv("gasnet_putv_nb_bulk", dstnode, dstcount, dstlist, srccount, srclist);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t gasnet_getv_nb_bulk(size_t dstcount, gasnet_memvec_t const dstlist[],
                                    gasnet_node_t srcnode, size_t srccount,
                                    gasnet_memvec_t const srclist[])
{
    getv("gasnet_getv_nb_bulk", dstcount, dstlist, srcnode, srccount, srclist);
    return GASNET_INVALID_HANDLE;
}
void gasnet_putv_nbi_bulk(gasnet_node_t dstnode, size_t dstcount,
                          gasnet_memvec_t const dstlist[], size_t srccount,
                          gasnet_memvec_t const srclist[])
{
    putv("gasnet_putv_nbi_bulk", dstnode, dstcount, dstlist, srccount, srclist);
}
void gasnet_getv_nbi_bulk(size_t dstcount, gasnet_memvec_t const dstlist[],
                          gasnet_node_t srcnode, size_t srccount,
                          gasnet_memvec_t const srclist[])
{
    getv("gasnet_getv_nbi_bulk", dstcount, dstlist, srcnode, srccount, srclist);
}

/* ---- indexed ---- */

static void idx_check(const char *call, size_t dc, void *const *dl, size_t dlen, size_t sc,
                      void *const *sl, size_t slen)
{
    if (dlen == 0 || slen == 0)
        gsn_fatal(call, "%s is 0: each region of an indexed list is at least 1 byte",
                  dlen == 0 ? "dstlen" : "srclen");
    if ((dc > 0 && dl == NULL) || (sc > 0 && sl == NULL))
        gsn_fatal(call, "a list of %zu addresses is NULL", dl == NULL ? dc : sc);
}

static void puti(const char *call, gasnet_node_t node, size_t dc, void *const *dl, size_t dlen,
                 size_t sc, void *const *sl, size_t slen)
{
    vis_list_t d = {dc, NULL, dl, dlen, 0}, s = {sc, NULL, sl, slen, 0};

    idx_check(call, dc, dl, dlen, sc, sl, slen);
    vis_copy(call, node, &d, &s, 1);
}

static void geti(const char *call, size_t dc, void *const *dl, size_t dlen, gasnet_node_t node,
                 size_t sc, void *const *sl, size_t slen)
{
    vis_list_t d = {dc, NULL, dl, dlen, 0}, s = {sc, NULL, sl, slen, 0};

    idx_check(call, dc, dl, dlen, sc, sl, slen);
    vis_copy(call, node, &d, &s, 0);
}

void gasnet_puti_bulk(gasnet_node_t dstnode, size_t dstcount, void *const dstlist[],
                      size_t dstlen, size_t srccount, void *const srclist[], size_t srclen)
{
    puti("gasnet_puti_bulk", dstnode, dstcount, dstlist, dstlen, srccount, srclist, srclen);
}
void gasnet_geti_bulk(size_t dstcount, void *const dstlist[], size_t dstlen,
                      gasnet_node_t srcnode, size_t srccount, void *const srclist[],
                      size_t srclen)
{
    geti("gasnet_geti_bulk", dstcount, dstlist, dstlen, srcnode, srccount, srclist, srclen);
}
gasnet_handle_t gasnet_puti_nb_bulk(gasnet_node_t dstnode, size_t dstcount,
                                    void *const dstlist[], size_t dstlen, size_t srccount,
                                    void *const srclist[], size_t srclen)
{
    puti("gasnet_puti_nb_bulk", dstnode, dstcount, dstlist, dstlen, srccount, srclist, srclen);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t gasnet_geti_nb_bulk(size_t dstcount, void *const dstlist[], size_t dstlen,
                                    gasnet_node_t srcnode, size_t srccount,
                                    void *const srclist[], size_t srclen)
{
    geti("gasnet_geti_nb_bulk", dstcount, dstlist, dstlen, srcnode, srccount, srclist, srclen);
    return GASNET_INVALID_HANDLE;
}
void gasnet_puti_nbi_bulk(gasnet_node_t dstnode, size_t dstcount, void *const dstlist[],
                          size_t dstlen, size_t srccount, void *const srclist[], size_t srclen)
{
    puti("gasnet_puti_nbi_bulk", dstnode, dstcount, dstlist, dstlen, srccount, srclist, srclen);
}
void gasnet_geti_nbi_bulk(size_t dstcount, void *const dstlist[], size_t dstlen,
                          gasnet_node_t srcnode, size_t srccount, void *const srclist[],
                          size_t srclen)
{
    geti("gasnet_geti_nbi_bulk", dstcount, dstlist, dstlen, srcnode, srccount, srclist, srclen);
}

/* ---- strided ---- */

/* Levels with a count above 1 (the others move nothing more): at most 63,
 * since their counts multiply to fewer than 2^64 bytes, which the extents'
 * check has made sure of by then. */
#define VIS_LEVELS_MAX 64

struct vis_level {
    size_t count, dstride, sstride;
};

/* The strides of one side valid for count (GASNet's rule), and the bytes
 * from its first to its last byte; 0 when a count is 0. */
static size_t strided_extent(const char *call, const char *side, const size_t *strides,
                             const size_t *count, size_t levels)
{
    for (size_t i = 0; i <= levels; i++)
        if (count[i] == 0)
            return 0;
    if (levels > 0 && strides == NULL)
        gsn_fatal(call, "%sstrides is NULL with stridelevels %zu", side, levels);
    size_t ext = count[0];
    for (size_t i = 1; i <= levels; i++) {
        size_t below = i == 1 ? count[0] : mul_checked(call, count[i - 1], strides[i - 2],
                                                        "a stride level's extent");
        if (strides[i - 1] < below)
            gsn_fatal(call, "%sstrides[%zu] is %zu, less than the %zu bytes of the level below "
                      "(count[%zu]%s): levels would overlap", side, i - 1, strides[i - 1], below,
                      i - 1, i == 1 ? "" : " times the stride under it");
        ext = add_checked(call, ext,
                          mul_checked(call, count[i] - 1, strides[i - 1], "the strided extent"),
                          "the strided extent");
    }
    return ext;
}

static void strided(const char *call, int put, gasnet_node_t node, void *dstaddr,
                    const size_t *dstrides, void *srcaddr, const size_t *sstrides,
                    const size_t *count, size_t levels)
{
    if (count == NULL)
        gsn_fatal(call, "count is NULL: it holds stridelevels + 1 (%zu) counts", levels + 1);
    size_t dext = strided_extent(call, "dst", dstrides, count, levels);
    size_t sext = strided_extent(call, "src", sstrides, count, levels);
    vis_node(call, node);
    if (dext == 0)
        return; /* a count of 0: nothing moves */
    char *d = dstaddr, *s = srcaddr;
    if (put)
        d = gasnetc_ptr(node, dstaddr, dext, call);
    else
        s = gasnetc_ptr(node, srcaddr, sext, call);

    /* The contiguous chunk: count[0] bytes, grown by every level that lies
     * back to back with it on both sides; then the levels with a count
     * above 1, walked as an odometer. */
    size_t chunk = count[0], k = 0;
    while (k < levels && dstrides[k] == chunk && sstrides[k] == chunk)
        chunk *= count[++k];
    struct vis_level lv[VIS_LEVELS_MAX];
    size_t nl = 0;
    for (size_t i = k + 1; i <= levels; i++)
        if (count[i] > 1 && nl < VIS_LEVELS_MAX)
            lv[nl++] = (struct vis_level){count[i], dstrides[i - 1], sstrides[i - 1]};
    size_t idx[VIS_LEVELS_MAX] = {0};
    for (;;) {
        memcpy(d, s, chunk);
        size_t l = 0;
        while (l < nl && ++idx[l] == lv[l].count) {
            d -= (lv[l].count - 1) * lv[l].dstride;
            s -= (lv[l].count - 1) * lv[l].sstride;
            idx[l++] = 0;
        }
        if (l == nl)
            return;
        d += lv[l].dstride;
        s += lv[l].sstride;
    }
}

void gasnet_puts_bulk(gasnet_node_t dstnode, void *dstaddr, const size_t dststrides[],
                      void *srcaddr, const size_t srcstrides[], const size_t count[],
                      size_t stridelevels)
{
    strided("gasnet_puts_bulk", 1, dstnode, dstaddr, dststrides, srcaddr, srcstrides, count,
            stridelevels);
}
void gasnet_gets_bulk(void *dstaddr, const size_t dststrides[], gasnet_node_t srcnode,
                      void *srcaddr, const size_t srcstrides[], const size_t count[],
                      size_t stridelevels)
{
    strided("gasnet_gets_bulk", 0, srcnode, dstaddr, dststrides, srcaddr, srcstrides, count,
            stridelevels);
}
gasnet_handle_t gasnet_puts_nb_bulk(gasnet_node_t dstnode, void *dstaddr,
                                    const size_t dststrides[], void *srcaddr,
                                    const size_t srcstrides[], const size_t count[],
                                    size_t stridelevels)
{
    strided("gasnet_puts_nb_bulk", 1, dstnode, dstaddr, dststrides, srcaddr, srcstrides, count,
            stridelevels);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t gasnet_gets_nb_bulk(void *dstaddr, const size_t dststrides[],
                                    gasnet_node_t srcnode, void *srcaddr,
                                    const size_t srcstrides[], const size_t count[],
                                    size_t stridelevels)
{
    strided("gasnet_gets_nb_bulk", 0, srcnode, dstaddr, dststrides, srcaddr, srcstrides, count,
            stridelevels);
    return GASNET_INVALID_HANDLE;
}
void gasnet_puts_nbi_bulk(gasnet_node_t dstnode, void *dstaddr, const size_t dststrides[],
                          void *srcaddr, const size_t srcstrides[], const size_t count[],
                          size_t stridelevels)
{
    strided("gasnet_puts_nbi_bulk", 1, dstnode, dstaddr, dststrides, srcaddr, srcstrides, count,
            stridelevels);
}
void gasnet_gets_nbi_bulk(void *dstaddr, const size_t dststrides[], gasnet_node_t srcnode,
                          void *srcaddr, const size_t srcstrides[], const size_t count[],
                          size_t stridelevels)
{
    strided("gasnet_gets_nbi_bulk", 0, srcnode, dstaddr, dststrides, srcaddr, srcstrides, count,
            stridelevels);
}

/* ---- descriptions (gasnett_format_*) ----
 * Each entry's text is bounded (an address is at most 18 characters, a
 * size 20), so the _bufsz sizes hold them; fmt never writes past `end`. */

static char *fmt(char *p, char *end, const char *f, ...) __attribute__((format(printf, 3, 4)));
static char *fmt(char *p, char *end, const char *f, ...)
{
    va_list ap;

    if (p >= end)
        return p;
    va_start(ap, f);
    int n = vsnprintf(p, (size_t)(end - p), f, ap);
    va_end(ap);
    return n < 0 ? p : (n >= end - p ? end - 1 : p + n);
}

size_t gasnett_format_memveclist_bufsz(size_t count) { return 200 + count * 50; }

static char *memveclist(char *p, char *end, size_t count, gasnet_memvec_t const *list,
                        gasnett_memveclist_stats_t *st)
{
    st->minsz = count ? SIZE_MAX : 0;
    st->maxsz = st->totalsz = 0;
    st->minaddr = st->maxaddr = NULL;
    for (size_t i = 0; i < count; i++) {
        char *a = list[i].addr;
        size_t len = list[i].len;
        st->totalsz += len;
        st->minsz = len < st->minsz ? len : st->minsz;
        st->maxsz = len > st->maxsz ? len : st->maxsz;
        if (len > 0 && (st->minaddr == NULL || (uintptr_t)a < (uintptr_t)st->minaddr))
            st->minaddr = a;
        if (len > 0 && (uintptr_t)a + len - 1 > (uintptr_t)st->maxaddr)
            st->maxaddr = (void *)((uintptr_t)a + len - 1);
    }
    p = fmt(p, end, "%zu entries, totalsz=%" PRIuPTR ", bounds=[%p...%p]\nlist=[", count,
            st->totalsz, st->minaddr, st->maxaddr);
    for (size_t i = 0; i < count; i++)
        p = fmt(p, end, "{%p,%5zu}%s%s", list[i].addr, list[i].len, i + 1 < count ? ", " : "",
                i + 1 < count && i % 4 == 3 ? "\n      " : "");
    return fmt(p, end, "]");
}

gasnett_memveclist_stats_t gasnett_format_memveclist(char *buf, size_t count,
                                                     gasnet_memvec_t const *list)
{
    gasnett_memveclist_stats_t st;

    memveclist(buf, buf + gasnett_format_memveclist_bufsz(count), count, list, &st);
    return st;
}

size_t gasnett_format_putvgetv_bufsz(size_t dstcount, size_t srccount)
{
    return 200 + (dstcount + srccount) * 50;
}

size_t gasnett_format_putvgetv(char *buf, gasnet_node_t node, size_t dstcount,
                               gasnet_memvec_t const dstlist[], size_t srccount,
                               gasnet_memvec_t const srclist[])
{
    char *end = buf + gasnett_format_putvgetv_bufsz(dstcount, srccount), *p;
    gasnett_memveclist_stats_t st;
    uintptr_t total = 0;

    for (size_t i = 0; i < dstcount; i++)
        total += dstlist[i].len;
    p = fmt(buf, end, "(%" PRIuPTR " data bytes) node=%u\ndst: ", total, (unsigned)node);
    p = memveclist(p, end, dstcount, dstlist, &st);
    p = fmt(p, end, "\nsrc: ");
    memveclist(p, end, srccount, srclist, &st);
    return total;
}

size_t gasnett_format_addrlist_bufsz(size_t count) { return 200 + count * 25; }

static char *addrlist(char *p, char *end, size_t count, void *const *list, size_t len,
                      gasnett_addrlist_stats_t *st)
{
    st->minaddr = st->maxaddr = NULL;
    for (size_t i = 0; i < count && len > 0; i++) {
        uintptr_t a = (uintptr_t)list[i];
        if (st->minaddr == NULL || a < (uintptr_t)st->minaddr)
            st->minaddr = list[i];
        if (a + len - 1 > (uintptr_t)st->maxaddr)
            st->maxaddr = (void *)(a + len - 1);
    }
    p = fmt(p, end, "%zu entries, totalsz=%zu, len=%zu, bounds=[%p...%p]\nlist=[", count,
            count * len, len, st->minaddr, st->maxaddr);
    for (size_t i = 0; i < count; i++)
        p = fmt(p, end, "%p%s%s", list[i], i + 1 < count ? ", " : "",
                i + 1 < count && i % 8 == 7 ? "\n      " : "");
    return fmt(p, end, "]");
}

gasnett_addrlist_stats_t gasnett_format_addrlist(char *buf, size_t count, void *const *list,
                                                 size_t len)
{
    gasnett_addrlist_stats_t st;

    addrlist(buf, buf + gasnett_format_addrlist_bufsz(count), count, list, len, &st);
    return st;
}

size_t gasnett_format_putigeti_bufsz(size_t dstcount, size_t srccount)
{
    return 500 + (dstcount + srccount) * 25;
}

size_t gasnett_format_putigeti(char *buf, gasnet_node_t node, size_t dstcount,
                               void *const dstlist[], size_t dstlen, size_t srccount,
                               void *const srclist[], size_t srclen)
{
    char *end = buf + gasnett_format_putigeti_bufsz(dstcount, srccount), *p;
    gasnett_addrlist_stats_t st;

    p = fmt(buf, end, "(%zu data bytes) node=%u\ndst: ", dstcount * dstlen, (unsigned)node);
    p = addrlist(p, end, dstcount, dstlist, dstlen, &st);
    p = fmt(p, end, "\nsrc: ");
    addrlist(p, end, srccount, srclist, srclen, &st);
    return dstcount * dstlen;
}

size_t gasnett_format_strides_bufsz(size_t count) { return count * 30 + 10; }

static char *strides(char *p, char *end, size_t count, const size_t *list)
{
    p = fmt(p, end, "[");
    for (size_t i = 0; i < count; i++)
        p = fmt(p, end, "%zu%s", list[i], i + 1 < count ? ", " : "");
    return fmt(p, end, "]");
}

void gasnett_format_strides(char *buf, size_t count, const size_t *list)
{
    strides(buf, buf + gasnett_format_strides_bufsz(count), count, list);
}

size_t gasnett_format_putsgets_bufsz(size_t stridelevels) { return 500 + 3 * stridelevels * 50; }

size_t gasnett_format_putsgets(char *buf, void *pstats, gasnet_node_t node, void *dstaddr,
                               const size_t dststrides[], void *srcaddr,
                               const size_t srcstrides[], const size_t count[],
                               size_t stridelevels)
{
    char *end = buf + gasnett_format_putsgets_bufsz(stridelevels), *p;
    size_t total = count[0];

    (void)pstats;
    for (size_t i = 1; i <= stridelevels; i++)
        total *= count[i];
    p = fmt(buf, end, "(%zu data bytes) node=%u stridelevels=%zu count=", total, (unsigned)node,
            stridelevels);
    p = strides(p, end, stridelevels + 1, count);
    p = fmt(p, end, "\ndst: dstaddr=%p dststrides=", dstaddr);
    p = strides(p, end, stridelevels, dststrides);
    p = fmt(p, end, "\nsrc: srcaddr=%p srcstrides=", srcaddr);
    strides(p, end, stridelevels, srcstrides);
    return total;
}
