/*
 * none.c - --disable-pshm: every process is a supernode of one, so its
 * objects are anonymous shared mappings that nobody else ever attaches and
 * that leave nothing in the system.
 */
#include "segment/backend.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

const char seg_be_name[] = "none";

const char *seg_be_store_advice(const pshm_cfg_t *cfg, char *buf, size_t n)
{
    (void)cfg;
    snprintf(buf, n, "free memory");
    return buf;
}

int seg_be_create(seg_obj_t *o, const pshm_cfg_t *cfg, const char *name, size_t len,
                  const seg_meta_t *hdr)
{
    char a[32];
    (void)cfg;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return pshm_err(-errno, "cannot map %s of memory for %s: %s; check the address space "
                        "limit (ulimit -v) or ask for a smaller segment",
                        pshm_fmt_size(a, sizeof a, len), name, strerror(errno));
    o->addr = p;
    o->len = len;
    o->fd = -1;
    o->ref.len = len;
    o->ref.shmid = -1;
    snprintf(o->ref.name, sizeof o->ref.name, "%s", name);
    seg_meta_put(p, hdr, o->ref.name);
    o->owner = true;
    o->named = false;  /* anonymous: there is no name to remove */
    return 0;
}

int seg_be_attach(seg_obj_t *o, const pshm_cfg_t *cfg, const seg_ref_t *ref)
{
    (void)o;
    (void)cfg;
    return pshm_err(-ENOTSUP, "cannot attach %.*s: this pshm was built without shared memory "
                    "between processes (--disable-pshm)", SEG_NAME_MAX, ref->name);
}

int seg_be_unlink(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)o;
    (void)cfg;
    return 0;
}

void seg_be_unlink_signal(const seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)o;
    (void)cfg;
}

void seg_be_release(seg_obj_t *o, const pshm_cfg_t *cfg)
{
    (void)cfg;
    if (o->addr) munmap(o->addr, o->len);
    o->addr = NULL;
    o->len = 0;
}

int seg_be_avail(const pshm_cfg_t *cfg, uint64_t *bytes)
{
    (void)cfg;
    *bytes = sys_phys_mem();
    return 0;
}

uint64_t seg_be_obj_max(const pshm_cfg_t *cfg)
{
    (void)cfg;
    return UINT64_MAX;
}

int seg_be_remove_tag(const pshm_cfg_t *cfg, const char *tag, uint32_t nranks)
{
    (void)cfg;
    (void)tag;
    (void)nranks;
    return 0;
}
