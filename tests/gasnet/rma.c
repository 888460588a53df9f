/*
 * rma.c - every put, get and memset form, checked byte by byte: blocking,
 * bulk, value (1, 2, 4, 8 bytes), explicit-handle and implicit-handle
 * non-blocking, an access region, and the sync calls. Each node writes its
 * pattern into its right neighbour's segment at unaligned offsets and
 * sizes, reads its left neighbour's back, and checks after a barrier what
 * its neighbour wrote into its own.
 */
#include "gtest.h"

/* rma_fn.c builds this file with GT_RMA_FN: every call then reaches the
 * library's function, not gasnet.h's inline form of it. */
#ifdef GT_RMA_FN
#undef gasnet_put
#undef gasnet_put_bulk
#undef gasnet_get
#undef gasnet_get_bulk
#undef gasnet_memset
#undef gasnet_put_val
#undef gasnet_get_val
#undef gasnet_put_nb
#undef gasnet_put_nb_bulk
#undef gasnet_get_nb
#undef gasnet_get_nb_bulk
#undef gasnet_memset_nb
#undef gasnet_put_nb_val
#undef gasnet_get_nb_val
#undef gasnet_wait_syncnb_valget
#undef gasnet_put_nbi
#undef gasnet_put_nbi_bulk
#undef gasnet_get_nbi
#undef gasnet_get_nbi_bulk
#undef gasnet_put_nbi_val
#undef gasnet_memset_nbi
#undef gasnet_try_syncnb
#undef gasnet_wait_syncnb
#undef gasnet_try_syncnbi_gets
#undef gasnet_try_syncnbi_puts
#undef gasnet_try_syncnbi_all
#undef gasnet_wait_syncnbi_gets
#undef gasnet_wait_syncnbi_puts
#undef gasnet_wait_syncnbi_all
#define GT_NAME "rma_fn"
#else
#define GT_NAME "rma"
#endif

#define AREA 8192u        /* bytes of each form's area */
#define NFORMS 9

static uint8_t pat(unsigned node, unsigned form, size_t j)
{
    return (uint8_t)(node * 31u + form * 17u + j * 5u + 1u);
}

int main(int argc, char **argv)
{
    GT_SAFE(gasnet_init(&argc, &argv));
    unsigned me = gasnet_mynode(), n = gasnet_nodes();
    unsigned right = (me + 1) % n, left = (me + n - 1) % n;
    GT_SAFE(gasnet_attach(NULL, 0, 64 * 4096, 0));
    gasnet_seginfo_t *s = calloc(n, sizeof *s);
    GT_SAFE(gasnet_getSegmentInfo(s, (int)n));
    uint8_t *mine = s[me].addr, *rseg = s[right].addr, *lseg = s[left].addr;
    uint8_t src[AREA], dst[AREA];
    memset(mine, 0xee, 2 * NFORMS * AREA);
    gt_barrier();

    /* puts into right's areas, each form at an odd offset and size */
    gasnet_handle_t hs[4];
    for (unsigned f = 0; f < NFORMS; f++) {
        size_t off = f * AREA + 3, len = AREA - 7 - f;
        for (size_t j = 0; j < len; j++)
            src[j] = pat(me, f, j);
        uint8_t *d = rseg + off;
        switch (f) {
        case 0: gasnet_put(right, d, src, len); break;
        case 1: gasnet_put_bulk(right, d, src, len); break;
        case 2: hs[0] = gasnet_put_nb(right, d, src, len); gasnet_wait_syncnb(hs[0]); break;
        case 3:
            hs[0] = gasnet_put_nb_bulk(right, d, src, len / 2);
            hs[1] = gasnet_put_nb(right, d + len / 2, src + len / 2, len - len / 2);
            gasnet_wait_syncnb_all(hs, 2);
            GT_CHECK(hs[0] == GASNET_INVALID_HANDLE && hs[1] == GASNET_INVALID_HANDLE,
                     "wait_syncnb_all left a handle");
            break;
        case 4:
            gasnet_put_nbi(right, d, src, len / 3);
            gasnet_put_nbi_bulk(right, d + len / 3, src + len / 3, len - len / 3);
            gasnet_wait_syncnbi_puts();
            break;
        case 5: {
            gasnet_begin_nbi_accessregion();
            gasnet_put_nbi(right, d, src, len);
            gasnet_handle_t h = gasnet_end_nbi_accessregion();
            GT_CHECK(gasnet_try_syncnb(h) == GASNET_OK, "access region's handle not done");
            break;
        }
        case 6: /* values of every size, in sequence */
            for (size_t j = 0; j < len;) {
                size_t w = (j + 8 <= len) ? (size_t)1 << (j % 4) : 1;
                gasnet_register_value_t v = 0;
                memcpy(&v, src + j, w);
                if ((j / 8) % 3 == 0) gasnet_put_val(right, d + j, v, w);
                else if ((j / 8) % 3 == 1) gasnet_put_nbi_val(right, d + j, v, w);
                else gasnet_wait_syncnb(gasnet_put_nb_val(right, d + j, v, w));
                j += w;
            }
            break;
        case 7: /* memset, three ways */
            gasnet_memset(right, d, 0x5a, len / 3);
            gasnet_wait_syncnb(gasnet_memset_nb(right, d + len / 3, 0x5b, len / 3));
            gasnet_memset_nbi(right, d + 2 * (len / 3), 0x5c, len - 2 * (len / 3));
            gasnet_wait_syncnbi_all();
            break;
        case 8: /* a zero-byte put changes nothing */
            gasnet_put(right, d, src, 0);
            break;
        }
    }
    GT_CHECK(gasnet_try_syncnbi_all() == GASNET_OK && gasnet_try_syncnbi_puts() == GASNET_OK &&
             gasnet_try_syncnbi_gets() == GASNET_OK, "nbi syncs not done");
    gt_barrier();

    /* what left wrote here */
    for (unsigned f = 0; f < NFORMS; f++) {
        size_t off = f * AREA + 3, len = AREA - 7 - f;
        GT_CHECK(mine[off - 1] == 0xee && mine[off + len] == 0xee,
                 "form %u wrote outside [%zu, %zu)", f, off, off + len);
        for (size_t j = 0; j < len; j++) {
            uint8_t want = f == 7 ? (uint8_t)(j < len / 3 ? 0x5a : j < 2 * (len / 3) ? 0x5b : 0x5c)
                         : f == 8 ? 0xee : pat(left, f, j);
            if (mine[off + j] != want) {
                GT_CHECK(0, "form %u byte %zu: 0x%02x, expected 0x%02x", f, j, mine[off + j], want);
                break;
            }
        }
    }
    gt_barrier();

    /* gets of left's segment (what left's left wrote there), every form */
    unsigned ll = (left + n - 1) % n;
    for (unsigned f = 0; f < 6; f++) {
        size_t off = f * AREA + 3, len = AREA - 7 - f;
        uint8_t *sp = lseg + off;
        memset(dst, 0, sizeof dst);
        switch (f) {
        case 0: gasnet_get(dst, left, sp, len); break;
        case 1: gasnet_get_bulk(dst, left, sp, len); break;
        case 2: gasnet_wait_syncnb(gasnet_get_nb(dst, left, sp, len)); break;
        case 3: {
            gasnet_handle_t h[2] = {gasnet_get_nb_bulk(dst, left, sp, len / 2),
                                    gasnet_get_nb(dst + len / 2, left, sp + len / 2, len - len / 2)};
            while (gasnet_try_syncnb_some(h, 2) != GASNET_OK)
                gasnet_AMPoll();
            GT_CHECK(gasnet_try_syncnb_all(h, 2) == GASNET_OK, "try_syncnb_all");
            break;
        }
        case 4:
            gasnet_get_nbi(dst, left, sp, len / 2);
            gasnet_get_nbi_bulk(dst + len / 2, left, sp + len / 2, len - len / 2);
            gasnet_wait_syncnbi_gets();
            break;
        case 5:
            for (size_t j = 0; j + 8 <= len; j += 8) {
                gasnet_register_value_t v1 = gasnet_get_val(left, sp + j, 1);
                gasnet_register_value_t v2 = gasnet_get_val(left, sp + j + 1, 2);
                gasnet_register_value_t v4 = gasnet_wait_syncnb_valget(gasnet_get_nb_val(left, sp + j + 3, 4));
                uint8_t b = (uint8_t)v1; uint16_t w = (uint16_t)v2; uint32_t d = (uint32_t)v4;
                GT_CHECK(v1 <= 0xff && v2 <= 0xffff && v4 <= 0xffffffffu, "value get wider than asked");
                memcpy(dst + j, &b, 1); memcpy(dst + j + 1, &w, 2); memcpy(dst + j + 3, &d, 4);
                gasnet_register_value_t v8 = gasnet_get_val(left, sp + j, 8);
                dst[j + 7] = (uint8_t)(v8 >> 56); /* little-endian: the 8th byte */
            }
            len = len / 8 * 8;
            break;
        }
        for (size_t j = 0; j < len; j++)
            if (dst[j] != pat(ll, f, j)) {
                GT_CHECK(0, "get form %u byte %zu: 0x%02x, expected 0x%02x", f, j, dst[j], pat(ll, f, j));
                break;
            }
    }
    gt_end(GT_NAME);
    return 0;
}
