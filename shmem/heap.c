/*
 * heap.c - the symmetric heap's allocator.
 *
 * Every PE runs the same allocator over the same bytes with the same calls
 * (the allocation routines are collective), so the same call sequence gives
 * the same offsets everywhere: no communication is needed to agree on them.
 * First fit over an address-ordered list of blocks kept in private memory
 * (the heap itself holds only user data); neighbours merge on free.
 * Each allocation ends with a barrier that implies quiet (shm_barrier):
 * after it returns on any PE, the object exists on every PE, and what each
 * PE sent before the call is complete. shmem_free begins with one: nobody
 * still uses the object when it goes. A call that performs no action (a
 * size or count of 0, shmem_free(NULL)) returns at once, without a
 * barrier, as OpenSHMEM 1.5 says.
 *
 * Alignment is decided on offsets alone, never on a PE's own addresses:
 * the heap starts at an address that is a multiple of heap.align_max (the
 * largest power of two not above its size) on every PE, so an offset that
 * is a multiple of an alignment up to that gives an aligned address
 * everywhere. pshm maps the segment where mmap chose (page-aligned only):
 * shm_heap_init maps my segment a second time (mremap of length 0: the
 * same pages, no more storage) where the heap's start is so aligned, and
 * the layer uses that view for my own copy.
 */
#include "shmem_internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Alignment of every block: a cache line, so that separate objects never
 * share one (false sharing between PEs' flags costs more than the bytes). */
#define HEAP_ALIGN 64u

/* The heap's start, after the scratch area, is page-aligned as the segment
 * is, and so is the aligned view placed around it. */
_Static_assert(SHM_SCRATCH_FIXED % 4096 == 0, "the scratch area is whole pages");

typedef struct blk {
    struct blk *next, *prev;
    size_t off, size;     /* bytes from the heap's start; size of the block */
    int used;
} blk_t;

static struct {
    char *base;
    size_t size;          /* SHMEM_SYMMETRIC_SIZE rounded up to a block (HEAP_ALIGN) */
    size_t align_max;     /* largest power of two <= size: the heap's start is a multiple */
    blk_t *head;
    void *view;           /* my aligned view of my segment (NULL: pshm's mapping serves) */
    size_t view_len;
    int view_err;         /* why the view could not be made (errno), 0 if not needed */
} heap;

static blk_t *blk_new(size_t off, size_t size, int used)
{
    blk_t *b = calloc(1, sizeof *b);
    if (b == NULL)
        shm_fatal("shmem_malloc", "out of private memory for the heap's bookkeeping");
    b->off = off;
    b->size = size;
    b->used = used;
    return b;
}

/* A second mapping of [seg, seg + len) (shared memory: mremap of old
 * length 0 maps the same pages again) at an address v with v + lead a
 * multiple of align; NULL and errno if the kernel refuses (a hugetlbfs
 * segment, the address-space limit). The reservation that places it is
 * address space only (PROT_NONE, no storage) and is trimmed after. */
static void *aligned_view(void *seg, size_t len, size_t lead, size_t align)
{
    size_t span = len + align;
    char *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *v, *end;

    if (r == MAP_FAILED)
        return NULL;
    v = (char *)((((uintptr_t)r + lead + align - 1) & ~(uintptr_t)(align - 1)) - lead);
    if (mremap(seg, 0, len, MREMAP_MAYMOVE | MREMAP_FIXED, v) == MAP_FAILED) {
        int e = errno;
        munmap(r, span);
        errno = e;
        return NULL;
    }
    end = v + len;
    if (v > r)
        munmap(r, (size_t)(v - r));
    if (r + span > end)
        munmap(end, (size_t)(r + span - end));
    return v;
}

void shm_heap_init(void *base, size_t size)
{
    size_t room = shm_sym.size[SHM_HEAP] - shm_scratch_size;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);

    /* Every byte asked for is allocatable: the size rounded up to a block,
     * which the segment (whole pages after the scratch area) holds. */
    heap.size = (size + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
    if (heap.size > room)
        shm_fatal("shmem_init", "the segment has %zu bytes for a heap of %zu (an error of the "
                  "OpenSHMEM layer)", room, heap.size);
    heap.align_max = HEAP_ALIGN;
    while (heap.align_max <= heap.size / 2)
        heap.align_max *= 2;
    heap.base = base;
    /* The start is a multiple of the page size (the segment and the scratch
     * area are); beyond, it needs the aligned view. */
    if (((uintptr_t)base & (heap.align_max - 1)) != 0 && heap.align_max > page) {
        size_t len = (shm_sym.size[SHM_HEAP] + page - 1) & ~(page - 1);
        char *v = aligned_view((void *)shm_sym.mine[SHM_HEAP], len, shm_scratch_size,
                               heap.align_max);
        if (v != NULL) {
            heap.view = v;
            heap.view_len = len;
            shm_sym.mine[SHM_HEAP] = (uintptr_t)v;
            shm_sym.base[SHM_HEAP][shm.me] = v;
            shm_scratch = v;
            heap.base = v + shm_scratch_size;
        } else {
            /* The offsets stay symmetric; an alignment this start does not
             * have ends the job in shmem_align, with this reason. */
            heap.view_err = errno;
        }
    }
    heap.head = blk_new(0, heap.size, 0);
}

void shm_heap_fini(void)
{
    for (blk_t *b = heap.head, *n; b != NULL; b = n) {
        n = b->next;
        free(b);
    }
    if (heap.view != NULL)
        munmap(heap.view, heap.view_len);
    memset(&heap, 0, sizeof heap);
}

/* Splits `size` bytes off the front of free block b (and a pad before it,
 * to reach `align`); returns the used block. */
static blk_t *carve(blk_t *b, size_t pad, size_t size)
{
    if (pad > 0) {
        blk_t *f = blk_new(b->off, pad, 0);
        f->prev = b->prev;
        f->next = b;
        if (b->prev) b->prev->next = f; else heap.head = f;
        b->prev = f;
        b->off += pad;
        b->size -= pad;
    }
    if (b->size > size) {
        blk_t *rest = blk_new(b->off + size, b->size - size, 0);
        rest->next = b->next;
        rest->prev = b;
        if (b->next) b->next->prev = rest;
        b->next = rest;
        b->size = size;
    }
    b->used = 1;
    return b;
}

static size_t round_size(size_t size)
{
    return (size + HEAP_ALIGN - 1) & ~(size_t)(HEAP_ALIGN - 1);
}

/* First fit; NULL if no block is large enough. align: power of two. The
 * pad comes from the offset (the heap's start is a multiple of align_max
 * on every PE), so every PE picks the same block and offset. */
static void *heap_alloc(const char *call, size_t size, size_t align)
{
    size = round_size(size);
    if (align > heap.align_max)
        return NULL; /* the heap's start is not a multiple alike on every PE */
    for (blk_t *b = heap.head; b != NULL; b = b->next) {
        size_t pad;
        if (b->used)
            continue;
        pad = (align - (b->off & (align - 1))) & (align - 1);
        if (b->size >= pad && b->size - pad >= size) {
            char *p = heap.base + carve(b, pad, size)->off;
            if (((uintptr_t)p & (align - 1)) != 0)
                shm_fatal(call, "alignment %zu: this PE's heap starts at %p, which is not a "
                          "multiple of it, and the aligned view of the heap could not be "
                          "mapped (%s); ask for at most %zu", align, (void *)heap.base,
                          strerror(heap.view_err), (size_t)1 << __builtin_ctzl(
                          (unsigned long)(uintptr_t)heap.base));
            return p;
        }
    }
    return NULL;
}

static blk_t *find(const char *call, void *ptr)
{
    uintptr_t off = (uintptr_t)ptr - (uintptr_t)heap.base;

    if (off < heap.size)
        for (blk_t *b = heap.head; b != NULL && b->off <= off; b = b->next)
            if (b->off == off && b->used)
                return b;
    shm_fatal(call, "%p was not returned by shmem_malloc, shmem_calloc, shmem_align or "
              "shmem_realloc, or was freed already", ptr);
}

/* Merges free block b with free neighbours. */
static void coalesce(blk_t *b)
{
    blk_t *n = b->next, *p = b->prev;

    if (n != NULL && !n->used) {
        b->size += n->size;
        b->next = n->next;
        if (n->next) n->next->prev = b;
        free(n);
    }
    if (p != NULL && !p->used) {
        p->size += b->size;
        p->next = b->next;
        if (b->next) b->next->prev = p;
        free(b);
    }
}

static void release(blk_t *b)
{
    b->used = 0;
    coalesce(b);
}

void *shmem_align(size_t alignment, size_t size)
{
    void *p = NULL;

    shm_check_init("shmem_align");
    if (size == 0)
        return NULL; /* no action, no barrier (1.5) */
    if (alignment == 0 || (alignment & (alignment - 1)) != 0)
        shm_fatal("shmem_align", "alignment %zu is not a power of two", alignment);
    if (size <= heap.size)
        p = heap_alloc("shmem_align", size, alignment < HEAP_ALIGN ? HEAP_ALIGN : alignment);
    shm_barrier();
    return p;
}

void *shmem_malloc(size_t size)
{
    void *p = NULL;

    shm_check_init("shmem_malloc");
    if (size == 0)
        return NULL; /* no action, no barrier (1.5) */
    if (size <= heap.size)
        p = heap_alloc("shmem_malloc", size, HEAP_ALIGN);
    shm_barrier();
    return p;
}

void *shmem_calloc(size_t count, size_t size)
{
    void *p = NULL;

    shm_check_init("shmem_calloc");
    if (count == 0 || size == 0)
        return NULL; /* no barrier either (1.5) */
    if (count <= heap.size / size) {
        p = heap_alloc("shmem_calloc", count * size, HEAP_ALIGN);
        if (p != NULL)
            memset(p, 0, count * size);
    }
    shm_barrier();
    return p;
}

void shmem_free(void *ptr)
{
    shm_check_init("shmem_free");
    if (ptr == NULL)
        return; /* no action, no barrier */
    shm_barrier();
    release(find("shmem_free", ptr));
}

void *shmem_realloc(void *ptr, size_t size)
{
    blk_t *b;
    void *p = NULL;

    shm_check_init("shmem_realloc");
    /* NULL: shmem_malloc(size), no barrier for size 0; size 0: freed as by
     * shmem_free, one barrier on entry. */
    if (ptr == NULL)
        return shmem_malloc(size);
    /* No PE may still read the old object while it moves. */
    shm_barrier();
    b = find("shmem_realloc", ptr);
    if (size == 0) {
        release(b);
        return NULL;
    }
    if (size <= heap.size) {
        size_t need = round_size(size), old = b->size;
        blk_t *n = b->next;
        if (need <= old) {
            p = ptr; /* shrinking keeps the block: simple and deterministic */
        } else if (n != NULL && !n->used && old + n->size >= need) {
            /* Grow in place into the free neighbour. */
            n->off = b->off + need;
            n->size -= need - old;
            b->size = need;
            if (n->size == 0) {
                b->next = n->next;
                if (n->next) n->next->prev = b;
                free(n);
            }
            p = ptr;
        } else if ((p = heap_alloc("shmem_realloc", size, HEAP_ALIGN)) != NULL) {
            memcpy(p, ptr, old);
            release(find("shmem_realloc", ptr));
        }
    }
    shm_barrier();
    return p;
}

/* Hints only help the library optimize, and "if the implementation cannot
 * optimize, the behavior is same as shmem_malloc" (1.6): bits it does not
 * know are no error. SOS warns and ignores them; so does pshm, once, by
 * PE 0 (every PE must pass the same hints). */
void *shmem_malloc_with_hints(size_t size, long hints)
{
    static atomic_int warned;

    if ((hints & ~(SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE)) && shm.me == 0 &&
        atomic_exchange_explicit(&warned, 1, memory_order_relaxed) == 0)
        fprintf(stderr, "shmem: warning: shmem_malloc_with_hints: hints 0x%lx: unknown bits "
                "ignored (known: SHMEM_MALLOC_ATOMICS_REMOTE, SHMEM_MALLOC_SIGNAL_REMOTE)\n",
                hints);
    /* Every byte of the heap suits every use; size 0: no action, no barrier. */
    return shmem_malloc(size);
}

/* Legacy names. */
void *shmalloc(size_t size) { return shmem_malloc(size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void shfree(void *ptr) { shmem_free(ptr); }
