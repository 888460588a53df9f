/*
 * t-segment-header: a peer's object is accepted only when its header is of
 * the job and kind expected and records the length that was mapped, and
 * when that length is what this process computes for it; otherwise a clear
 * EINVAL (pshm_attach checks every segment and the AM region so).
 */
#include "internal.h"
#include "launch.h"
#include "tests/helpers.h"

#include <errno.h>
#include <string.h>

#define USER_LEN 8192u

int main(void)
{
    pshm_cfg_t cfg;
    char tag[PSHM_TAG_MAX + 1];
    seg_obj_t o, peer;

    if (PSHM_BACKEND_NONE) {
        printf("skip: built with --disable-pshm, objects are never mapped twice\n");
        return T_SKIP;
    }
    CHECK_OK(env_load(&cfg));
    CHECK_OK(launch_random_tag(tag, sizeof tag));
    CHECK_OK(seg_create(&o, &cfg, tag, SEG_KIND_SEGMENT, 0, 0, 1, USER_LEN));
    CHECK_OK(seg_be_attach(&peer, &cfg, &o.ref));
    seg_meta_t *m = o.addr;
    uint64_t len = o.len;

    CHECK_OK(seg_check_mapped(&peer, tag, SEG_KIND_SEGMENT, len));
    CHECK_OK(seg_check_mapped(&peer, tag, SEG_KIND_SEGMENT, 0));
    /* Another expected length: the ranks sized it differently. */
    CHECK_ERR(seg_check_mapped(&peer, tag, SEG_KIND_SEGMENT, len + 4096), -EINVAL);
    CHECK(strstr(pshm_last_error(), "size it differently") != NULL);
    /* Another kind, another job. */
    CHECK_ERR(seg_check_mapped(&peer, tag, SEG_KIND_REGION, 0), -EINVAL);
    CHECK_ERR(seg_check_mapped(&peer, "otherjob", SEG_KIND_SEGMENT, 0), -EINVAL);
    CHECK(strstr(pshm_last_error(), "no header of this job") != NULL);
    /* The creator recorded another length than the one mapped. */
    m->len = len + 4096;
    CHECK_ERR(seg_check_mapped(&peer, tag, SEG_KIND_SEGMENT, 0), -EINVAL);
    CHECK(strstr(pshm_last_error(), "its creator recorded") != NULL);
    m->len = len;
    CHECK_OK(seg_check_mapped(&peer, tag, SEG_KIND_SEGMENT, len));

    seg_be_release(&peer, &cfg);
    seg_be_release(&o, &cfg);
    printf("mapped objects checked against their headers and the expected length\n");
    return T_PASS;
}
