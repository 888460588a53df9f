/*
 * coll.c - gasnet_coll_broadcast from every root, of 0 bytes, 1 byte, a
 * Medium's worth and several (chunks), into local buffers: every byte on
 * every node checked.
 */
#include "gtest.h"

int main(int argc, char **argv)
{
    GT_SAFE(gasnet_init(&argc, &argv));
    GT_SAFE(gasnet_attach(NULL, 0, 0, 0));
    gasnet_coll_init(NULL, 0, NULL, 0, 0);
    unsigned me = gasnet_mynode(), n = gasnet_nodes();
    size_t sizes[] = {0, 1, 4095, gasnet_AMMaxMedium(), 3 * gasnet_AMMaxMedium() + 5};
    size_t max = sizes[4];
    unsigned char *src = malloc(max), *dst = malloc(max);
    for (unsigned root = 0; root < n; root++)
        for (unsigned k = 0; k < 5; k++) {
            size_t len = sizes[k];
            for (size_t j = 0; j < max; j++) {
                src[j] = (unsigned char)(j * 3 + root + k);
                dst[j] = 0xee;
            }
            gasnet_coll_broadcast(GASNET_TEAM_ALL, dst, root, src, len,
                                  GASNET_COLL_LOCAL | GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC);
            for (size_t j = 0; j < max; j++) {
                unsigned char want = j < len ? (unsigned char)(j * 3 + root + k) : 0xee;
                if (dst[j] != want) {
                    GT_CHECK(0, "broadcast of %zu bytes from %u: byte %zu is 0x%02x, expected 0x%02x",
                             len, root, j, dst[j], want);
                    break;
                }
            }
        }
    (void)me;
    gt_end("coll");
    return 0;
}
