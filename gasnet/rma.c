/*
 * rma.c - puts, gets, memset and their sync calls.
 *
 * Every node's segment is mapped here (pshm's cross-mapping), so each
 * operation is a copy through gsn.seg's translation and completes before
 * its call returns: non-blocking calls return GASNET_INVALID_HANDLE (done)
 * and every sync call finds nothing pending. gasnet.h has the same calls
 * inline, which is what clients compile; these are the functions behind
 * their names (&gasnet_put, (gasnet_put)(...)). Others see the bytes after a
 * synchronization (a barrier, an AM: pshm's queues order them).
 */
#include "gasnetc.h"

#include <stdatomic.h>

/* A byte range [addr, addr + nbytes) of node's segment, in its owner's
 * addresses, as mapped here; anything else ends the job. */
void *gasnetc_ptr(gasnet_node_t node, const void *addr, size_t nbytes, const char *call)
{
    gsn_need_attach(call);
    if (__builtin_expect(node >= (gasnet_node_t)gsn.n, 0))
        gsn_fatal(call, "node %u is not in the job (nodes 0..%d)", (unsigned)node, gsn.n - 1);
    const gsn_seg_t *s = &gsn.seg[node];
    uintptr_t off = (uintptr_t)addr - s->owner;
    if (__builtin_expect((uintptr_t)addr < s->owner || off > s->size || nbytes > s->size - off, 0))
        gsn_fatal(call, "[%p, +%zu) is not in node %u's segment [%p, +%" PRIuPTR "): a remote "
                  "address must be in the segment (GASNET_SEGMENT_FAST)", addr, nbytes,
                  (unsigned)node, (void *)s->owner, s->size);
    return s->local + off;
}

void (gasnet_put)(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    if (nbytes)
        memcpy(gasnetc_xlate("gasnet_put", node, dest, nbytes), src, nbytes);
}
void (gasnet_put_bulk)(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    if (nbytes)
        memcpy(gasnetc_xlate("gasnet_put_bulk", node, dest, nbytes), src, nbytes);
}
void (gasnet_get)(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    if (nbytes)
        memcpy(dest, gasnetc_xlate("gasnet_get", node, src, nbytes), nbytes);
}
void (gasnet_get_bulk)(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    if (nbytes)
        memcpy(dest, gasnetc_xlate("gasnet_get_bulk", node, src, nbytes), nbytes);
}

static void check_val_size(const char *call, size_t nbytes)
{
    if (nbytes != 1 && nbytes != 2 && nbytes != 4 && nbytes != 8)
        gsn_fatal(call, "nbytes is %zu: a value is 1, 2, 4 or 8 bytes "
                  "(SIZEOF_GASNET_REGISTER_VALUE_T is 8)", nbytes);
}

/* The value as an unsigned integer of nbytes, stored in its type. */
static void store_val(void *p, gasnet_register_value_t v, size_t nbytes)
{
    switch (nbytes) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static gasnet_register_value_t load_val(const void *p, size_t nbytes)
{
    switch (nbytes) {
    case 1: { uint8_t x; memcpy(&x, p, 1); return x; }
    case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
    default: { uint64_t x; memcpy(&x, p, 8); return x; }
    }
}

void (gasnet_put_val)(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes)
{
    check_val_size("gasnet_put_val", nbytes);
    store_val(gasnetc_xlate("gasnet_put_val", node, dest, nbytes), value, nbytes);
}

gasnet_register_value_t (gasnet_get_val)(gasnet_node_t node, void *src, size_t nbytes)
{
    check_val_size("gasnet_get_val", nbytes);
    return load_val(gasnetc_xlate("gasnet_get_val", node, src, nbytes), nbytes);
}

void (gasnet_memset)(gasnet_node_t node, void *dest, int val, size_t nbytes)
{
    if (nbytes)
        memset(gasnetc_xlate("gasnet_memset", node, dest, nbytes), val, nbytes);
}

gasnet_handle_t (gasnet_put_nb)(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnet_put(node, dest, src, nbytes);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t (gasnet_put_nb_bulk)(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnet_put_bulk(node, dest, src, nbytes);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t (gasnet_get_nb)(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnet_get(dest, node, src, nbytes);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t (gasnet_get_nb_bulk)(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnet_get_bulk(dest, node, src, nbytes);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t (gasnet_put_nb_val)(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                  size_t nbytes)
{
    gasnet_put_val(node, dest, value, nbytes);
    return GASNET_INVALID_HANDLE;
}
gasnet_handle_t (gasnet_memset_nb)(gasnet_node_t node, void *dest, int val, size_t nbytes)
{
    gasnet_memset(node, dest, val, nbytes);
    return GASNET_INVALID_HANDLE;
}
gasnet_valget_handle_t (gasnet_get_nb_val)(gasnet_node_t node, void *src, size_t nbytes)
{
    return gasnet_get_val(node, src, nbytes);
}
gasnet_register_value_t (gasnet_wait_syncnb_valget)(gasnet_valget_handle_t handle) { return handle; }

void (gasnet_put_nbi)(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnet_put(node, dest, src, nbytes);
}
void (gasnet_put_nbi_bulk)(gasnet_node_t node, void *dest, void *src, size_t nbytes)
{
    gasnet_put_bulk(node, dest, src, nbytes);
}
void (gasnet_get_nbi)(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnet_get(dest, node, src, nbytes);
}
void (gasnet_get_nbi_bulk)(void *dest, gasnet_node_t node, void *src, size_t nbytes)
{
    gasnet_get_bulk(dest, node, src, nbytes);
}
void (gasnet_put_nbi_val)(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                        size_t nbytes)
{
    gasnet_put_val(node, dest, value, nbytes);
}
void (gasnet_memset_nbi)(gasnet_node_t node, void *dest, int val, size_t nbytes)
{
    gasnet_memset(node, dest, val, nbytes);
}

/* Every handle is done: the sync calls complete at once, and those given
 * an array mark every entry done, as GASNet's do. */
int (gasnet_try_syncnb)(gasnet_handle_t handle)
{
    (void)handle;
    return GASNET_OK;
}
void (gasnet_wait_syncnb)(gasnet_handle_t handle) { (void)handle; }

static void all_done(gasnet_handle_t *phandle, size_t numhandles)
{
    for (size_t i = 0; phandle != NULL && i < numhandles; i++)
        phandle[i] = GASNET_INVALID_HANDLE;
}
int gasnet_try_syncnb_some(gasnet_handle_t *phandle, size_t numhandles)
{
    all_done(phandle, numhandles);
    return GASNET_OK;
}
void gasnet_wait_syncnb_some(gasnet_handle_t *phandle, size_t numhandles)
{
    all_done(phandle, numhandles);
}
int gasnet_try_syncnb_all(gasnet_handle_t *phandle, size_t numhandles)
{
    all_done(phandle, numhandles);
    return GASNET_OK;
}
void gasnet_wait_syncnb_all(gasnet_handle_t *phandle, size_t numhandles)
{
    all_done(phandle, numhandles);
}
int (gasnet_try_syncnbi_gets)(void) { return GASNET_OK; }
int (gasnet_try_syncnbi_puts)(void) { return GASNET_OK; }
int (gasnet_try_syncnbi_all)(void) { return GASNET_OK; }
void (gasnet_wait_syncnbi_gets)(void) {}
void (gasnet_wait_syncnbi_puts)(void) {}
void (gasnet_wait_syncnbi_all)(void) {}

/* An access region collects the implicit operations it spans: all done. */
static _Thread_local int in_region;
void gasnet_begin_nbi_accessregion(void)
{
    if (in_region)
        gsn_fatal("gasnet_begin_nbi_accessregion", "an access region is already open on this "
                  "thread: end it first (regions do not nest)");
    in_region = 1;
}
gasnet_handle_t gasnet_end_nbi_accessregion(void)
{
    if (!in_region)
        gsn_fatal("gasnet_end_nbi_accessregion", "no access region is open on this thread");
    in_region = 0;
    return GASNET_INVALID_HANDLE;
}
