/*
 * gasnet_vis.h - GASNet's non-contiguous puts and gets (VIS: vector,
 * indexed, strided), as GASNet-1 installs them beside gasnet.h and as its
 * clients (Berkeley UPC's upc_mem*_vlist, _ilist, _strided; GASNet's
 * testvis) call them. Include gasnet.h first, or only this.
 *
 * Each call moves one stream of bytes: the source regions read in order,
 * written in order into the destination regions, which must hold the same
 * total. Remote regions lie in the node's segment. Regions of one list do
 * not overlap one another, nor the other side's: the copy's order is not
 * specified. Every call completes before it returns (pshm maps every
 * segment here), so the _nb forms return GASNET_INVALID_HANDLE and the
 * _nbi forms leave nothing for gasnet_wait_syncnbi_*.
 *
 * Vector: lists of (addr, len) memvecs. Indexed: lists of addresses, each
 * of one length per side (dstlen, srclen, neither 0). Strided: count[0]
 * contiguous bytes, repeated count[1] times strides[0] apart, that
 * count[2] times strides[1] apart, ... up to count[stridelevels]; each
 * side's strides[i] at least count[i] * strides[i - 1] (strides[0] at
 * least count[0]); any count 0 moves nothing.
 */
#ifndef GASNET_VIS_H
#define GASNET_VIS_H

#include <gasnet.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Vector */
extern void gasnet_putv_bulk(gasnet_node_t dstnode, size_t dstcount,
                             gasnet_memvec_t const dstlist[], size_t srccount,
                             gasnet_memvec_t const srclist[]);
extern void gasnet_getv_bulk(size_t dstcount, gasnet_memvec_t const dstlist[],
                             gasnet_node_t srcnode, size_t srccount,
                             gasnet_memvec_t const srclist[]);
extern gasnet_handle_t gasnet_putv_nb_bulk(gasnet_node_t dstnode, size_t dstcount,
                                           gasnet_memvec_t const dstlist[], size_t srccount,
                                           gasnet_memvec_t const srclist[]);
extern gasnet_handle_t gasnet_getv_nb_bulk(size_t dstcount, gasnet_memvec_t const dstlist[],
                                           gasnet_node_t srcnode, size_t srccount,
                                           gasnet_memvec_t const srclist[]);
extern void gasnet_putv_nbi_bulk(gasnet_node_t dstnode, size_t dstcount,
                                 gasnet_memvec_t const dstlist[], size_t srccount,
                                 gasnet_memvec_t const srclist[]);
extern void gasnet_getv_nbi_bulk(size_t dstcount, gasnet_memvec_t const dstlist[],
                                 gasnet_node_t srcnode, size_t srccount,
                                 gasnet_memvec_t const srclist[]);

/* Indexed */
extern void gasnet_puti_bulk(gasnet_node_t dstnode, size_t dstcount, void *const dstlist[],
                             size_t dstlen, size_t srccount, void *const srclist[],
                             size_t srclen);
extern void gasnet_geti_bulk(size_t dstcount, void *const dstlist[], size_t dstlen,
                             gasnet_node_t srcnode, size_t srccount, void *const srclist[],
                             size_t srclen);
extern gasnet_handle_t gasnet_puti_nb_bulk(gasnet_node_t dstnode, size_t dstcount,
                                           void *const dstlist[], size_t dstlen,
                                           size_t srccount, void *const srclist[],
                                           size_t srclen);
extern gasnet_handle_t gasnet_geti_nb_bulk(size_t dstcount, void *const dstlist[],
                                           size_t dstlen, gasnet_node_t srcnode,
                                           size_t srccount, void *const srclist[],
                                           size_t srclen);
extern void gasnet_puti_nbi_bulk(gasnet_node_t dstnode, size_t dstcount, void *const dstlist[],
                                 size_t dstlen, size_t srccount, void *const srclist[],
                                 size_t srclen);
extern void gasnet_geti_nbi_bulk(size_t dstcount, void *const dstlist[], size_t dstlen,
                                 gasnet_node_t srcnode, size_t srccount,
                                 void *const srclist[], size_t srclen);

/* Strided */
extern void gasnet_puts_bulk(gasnet_node_t dstnode, void *dstaddr, const size_t dststrides[],
                             void *srcaddr, const size_t srcstrides[], const size_t count[],
                             size_t stridelevels);
extern void gasnet_gets_bulk(void *dstaddr, const size_t dststrides[], gasnet_node_t srcnode,
                             void *srcaddr, const size_t srcstrides[], const size_t count[],
                             size_t stridelevels);
extern gasnet_handle_t gasnet_puts_nb_bulk(gasnet_node_t dstnode, void *dstaddr,
                                           const size_t dststrides[], void *srcaddr,
                                           const size_t srcstrides[], const size_t count[],
                                           size_t stridelevels);
extern gasnet_handle_t gasnet_gets_nb_bulk(void *dstaddr, const size_t dststrides[],
                                           gasnet_node_t srcnode, void *srcaddr,
                                           const size_t srcstrides[], const size_t count[],
                                           size_t stridelevels);
extern void gasnet_puts_nbi_bulk(gasnet_node_t dstnode, void *dstaddr,
                                 const size_t dststrides[], void *srcaddr,
                                 const size_t srcstrides[], const size_t count[],
                                 size_t stridelevels);
extern void gasnet_gets_nbi_bulk(void *dstaddr, const size_t dststrides[],
                                 gasnet_node_t srcnode, void *srcaddr,
                                 const size_t srcstrides[], const size_t count[],
                                 size_t stridelevels);

/*
 * Descriptions of VIS arguments for diagnostics, as gasnet_tools.h offers
 * them to GASNet's clients (testvis prints them on a mismatch): each writes
 * a NUL-terminated text into buf, which holds the matching _bufsz()
 * bytes. The list forms return the list's bounds, the others its bytes;
 * putsgets' pstats is not filled (pass NULL).
 */
typedef struct gasnett_memveclist_stats {
    size_t minsz, maxsz;
    uintptr_t totalsz;
    void *minaddr, *maxaddr;
} gasnett_memveclist_stats_t;
typedef struct gasnett_addrlist_stats {
    void *minaddr, *maxaddr;
} gasnett_addrlist_stats_t;

extern size_t gasnett_format_memveclist_bufsz(size_t count);
extern gasnett_memveclist_stats_t gasnett_format_memveclist(char *buf, size_t count,
                                                            gasnet_memvec_t const *list);
extern size_t gasnett_format_putvgetv_bufsz(size_t dstcount, size_t srccount);
extern size_t gasnett_format_putvgetv(char *buf, gasnet_node_t node, size_t dstcount,
                                      gasnet_memvec_t const dstlist[], size_t srccount,
                                      gasnet_memvec_t const srclist[]);
extern size_t gasnett_format_addrlist_bufsz(size_t count);
extern gasnett_addrlist_stats_t gasnett_format_addrlist(char *buf, size_t count,
                                                        void *const *list, size_t len);
extern size_t gasnett_format_putigeti_bufsz(size_t dstcount, size_t srccount);
extern size_t gasnett_format_putigeti(char *buf, gasnet_node_t node, size_t dstcount,
                                      void *const dstlist[], size_t dstlen, size_t srccount,
                                      void *const srclist[], size_t srclen);
extern size_t gasnett_format_strides_bufsz(size_t count);
extern void gasnett_format_strides(char *buf, size_t count, const size_t *list);
extern size_t gasnett_format_putsgets_bufsz(size_t stridelevels);
extern size_t gasnett_format_putsgets(char *buf, void *pstats, gasnet_node_t node, void *dstaddr,
                                      const size_t dststrides[], void *srcaddr,
                                      const size_t srcstrides[], const size_t count[],
                                      size_t stridelevels);

#ifdef __cplusplus
}
#endif
#endif /* GASNET_VIS_H */
