/*
 * segment.h - shared-memory objects: creation, cross-mapping, removal.
 *
 * Every object pshm creates (a process's segment, the supernode's AM region)
 * starts with one header page (seg_meta_t) that tells pshm-cleanup and
 * pshmrun whose it is; the usable bytes follow, page aligned.
 *
 * Exactly one backend file is compiled in (chosen by ./configure):
 * posix.c (shm_open), sysv.c (shmget), file.c (open+mmap in the temporary
 * directory) or none.c (--disable-pshm: private anonymous memory, a supernode
 * of one). Each implements the seg_be_* functions below.
 */
#ifndef PSHM_SEGMENT_H
#define PSHM_SEGMENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/proc.h"
#include "common/sysvscan.h"

struct pshm_cfg;

#define SEG_MAGIC "PSHMOBJ1"      /* 8 bytes, no NUL */
#define SEG_META_VERSION 1u
#define SEG_HDR_SIZE 4096u        /* header page; the usable area follows */
#define SEG_NAME_MAX 64

enum { SEG_KIND_SEGMENT = 's', SEG_KIND_REGION = 'q', SEG_KIND_RANGE = 'r' };

/*
 * Header page of every object, written by its creator before anyone else can
 * map it. Fixed layout (read by pshm-cleanup of any build of the same version).
 */
typedef struct seg_meta {
    char magic[8];          /* SEG_MAGIC */
    uint32_t version;       /* SEG_META_VERSION */
    uint32_t kind;          /* SEG_KIND_* */
    uint32_t uid;           /* creator's uid */
    int32_t rank;           /* creator's job rank (region: supernode index) */
    int32_t pid;            /* creator's pid */
    uint32_t nranks;        /* job size */
    uint64_t pid_start;     /* creator's start time, clock ticks after boot
                               (/proc/PID/stat field 22): tells a recycled pid */
    uint64_t created;       /* CLOCK_REALTIME seconds */
    uint64_t len;           /* object length, header included */
    char tag[24];           /* job tag, NUL terminated */
    char name[SEG_NAME_MAX];/* the object's name (sysv: "key 0x...") */
    uint64_t pidns;         /* creator's PID namespace (inode of /proc/self/ns/pid;
                               0: unknown): its pid means nothing in another one */
} seg_meta_t;
_Static_assert(sizeof(seg_meta_t) <= SEG_HDR_SIZE, "meta fits the header page");

/* How a peer finds an object: exchanged by value through the bootstrap. */
typedef struct seg_ref {
    uint64_t len;               /* bytes, header included */
    int32_t shmid;              /* sysv */
    uint32_t key;               /* sysv */
    char name[SEG_NAME_MAX];    /* posix "/pshm...", file: basename in tmpdir */
} seg_ref_t;

typedef struct seg_obj {
    seg_ref_t ref;
    void *addr;     /* mapping (header page first), NULL if not mapped */
    size_t len;
    int fd;         /* open while named (posix/file), else -1 */
    bool owner;     /* created here: this process removes the name */
    bool named;     /* the name still exists in the system */
    volatile sig_atomic_t creating; /* between seg_create_begin and _end */
    uint64_t huge;  /* hugetlbfs file: its page size, to which len is rounded; else 0 */
} seg_obj_t;

/* ---- backend: one of posix.c, sysv.c, file.c, none.c ---- */

extern const char seg_be_name[];   /* "posix", "sysv", "file", "none" */
/* How to give this backend's store more room, for messages: into buf. */
const char *seg_be_store_advice(const struct pshm_cfg *cfg, char *buf, size_t n);

/* Creates `name` exclusively (mode 0600 whatever the umask), writes the
 * header `hdr` (its name field and magic are filled in here) before anything
 * slow, then reserves all `len` bytes of storage (no SIGBUS later) and maps
 * it read-write. Header first: a creator killed while reserving (seconds for
 * a large segment) leaves an object that still says whose it is. On failure
 * nothing is left behind and the message says what limit was hit. */
int seg_be_create(seg_obj_t *o, const struct pshm_cfg *cfg, const char *name, size_t len,
                  const seg_meta_t *hdr);
/* Maps a peer's object read-write. */
int seg_be_attach(seg_obj_t *o, const struct pshm_cfg *cfg, const seg_ref_t *ref);
/* Removes the name (owner only); the mappings stay valid. */
int seg_be_unlink(seg_obj_t *o, const struct pshm_cfg *cfg);
/* The same from a signal handler: async-signal-safe (system calls and
 * memcpy only, no message), changes nothing in `o`. An object counts as
 * named (owner, named set) from the moment its exclusive create succeeded,
 * so that a signal at any point of the creation finds it. */
void seg_be_unlink_signal(const seg_obj_t *o, const struct pshm_cfg *cfg);
/* The signal guard's handler, before seg_be_unlink_signal: returns once no
 * other thread is between the exclusive create of o's name and its record
 * as named (seg_create_begin .. _end), which takes microseconds. */
void seg_wait_created(const seg_obj_t *o);
/* Unmaps and closes; removes the name too if still named and owned. */
void seg_be_release(seg_obj_t *o, const struct pshm_cfg *cfg);
/* Bytes available for new objects in the backing store (free space of
 * /dev/shm or the temporary directory; sysv: what kernel.shmall leaves). */
int seg_be_avail(const struct pshm_cfg *cfg, uint64_t *bytes);
/* Largest object the store allows (sysv: kernel.shmmax), UINT64_MAX if any. */
uint64_t seg_be_obj_max(const struct pshm_cfg *cfg);
/* Removes every object of job `tag` that still exists (pshmrun after a job):
 * only objects of the caller's uid named for the job whose header carries the
 * tag, or was never written (creator killed between creating and writing it).
 * Returns the number removed or < 0. */
int seg_be_remove_tag(const struct pshm_cfg *cfg, const char *tag, uint32_t nranks);

/* ---- common (segment.c) ---- */


/* Checks a peer's object just mapped: its header is written for job `tag`
 * and kind, records the length that was mapped, and that length is
 * `want_len` (what this process computes for it; 0: not known). */
int seg_check_mapped(const seg_obj_t *o, const char *tag, int kind, uint64_t want_len);
/* Builds the system name of an object: "pshm.<uid>.<tag>.<kind><index>". */
int seg_make_name(char *out, size_t n, const char *tag, int kind, int index);
/* Creates an object with `user_len` usable bytes after the header page and
 * writes its header. */
int seg_create(seg_obj_t *o, const struct pshm_cfg *cfg, const char *tag, int kind,
               int index, int rank, uint32_t nranks, uint64_t user_len);
static inline void *seg_user_base(const seg_obj_t *o) { return (char *)o->addr + SEG_HDR_SIZE; }
/* One reading of what bounds the segments of a supernode. Its rank 0 reads
 * it for all: a rank reading after faster ones reserved theirs would divide
 * what is left again and refuse sizes that fit. */
typedef struct seg_room {
    uint64_t store;          /* seg_be_avail: free bytes of the backing store */
    uint64_t obj_max;        /* seg_be_obj_max: largest object, UINT64_MAX if none */
    uint64_t mem;            /* what the memory cgroup may still charge, UINT64_MAX: none */
    uint64_t mem_limit;      /* its limit (memory.max) */
    char mem_where[200];     /* the file that sets it */
} seg_room_t;
int seg_room_read(const struct pshm_cfg *cfg, seg_room_t *room);
/* Largest segment one of `node_size` processes may ask for, from `room`:
 * GASNET_MAX_SEGSIZE (its "/h" form shared by the `host_size` processes of
 * the job on the host), the store's and the memory cgroup's room (less
 * `reserved` bytes for the AM region), the largest object, the address space.
 * `why` gets the limit that binds and how to raise it, *err (if not NULL) the
 * code for a request above it: -ENOMEM for the address space or a memory
 * cgroup, else -ENOSPC. */
int seg_max_size_room(const struct pshm_cfg *cfg, int node_size, int host_size,
                      uint64_t reserved, const struct seg_room *room, uint64_t *max, int *err,
                      char *why, size_t whylen);
/* A caller's range made shared in place (pshm_attach_range): `len` bytes at
 * `addr` (page aligned, mapped here) are copied into the usable bytes of o,
 * an object its creator has just created and mapped, and those are then
 * moved (mremap) over [addr, addr + len), replacing what was mapped there.
 * Backend-independent: every backend's mapping is a shared mapping that
 * mremap can move. After it o->addr, o->len cover the header page only (the
 * moved part is no longer o's to unmap). */
int seg_move_over(seg_obj_t *o, void *addr, size_t len);
/* A peer's range object: unmaps the usable bytes (at o->addr + SEG_HDR_SIZE)
 * and releases the rest. */
void seg_range_release(seg_obj_t *o, const struct pshm_cfg *cfg);
/* Largest segment one of `node_size` processes may ask for: GASNET_MAX_SEGSIZE,
 * backing-store room (less `reserved` bytes for the AM region), address space. */
int seg_max_size(const struct pshm_cfg *cfg, int node_size, int host_size, uint64_t reserved,
                 uint64_t *max);
/* The same, and into `why` (if not NULL) which of those limits sets the
 * size, and how to raise it. */
int seg_max_size_why(const struct pshm_cfg *cfg, int node_size, int host_size, uint64_t reserved,
                     uint64_t *max, char *why, size_t whylen);
/* Start time of `pid` in clock ticks after boot (field 22 of /proc/PID/stat),
 * with the message set on failure (common/proc.h reads it). */
int seg_pid_start(pid_t pid, uint64_t *start);
/* True if the header was never written: the magic is still zero (the
 * creator died between creating the object and writing its header). */
bool seg_meta_unwritten(const seg_meta_t *m);
/* SysV key of the object named `name` (a hash; never IPC_PRIVATE nor -1):
 * lets tools find a job's segments from its tag. */
uint32_t seg_sysv_key(const char *name);
/* True if some process has the file (dev, ino) open or mapped (/proc/PID/fd
 * and /proc/PID/maps of every process this user may read), or if /proc
 * cannot tell. */
bool seg_file_in_use(dev_t dev, ino_t ino);
/* Seconds a pshm-named file without a header must have been left unmodified
 * before it counts as a dead creator's leftover (with nobody holding it). */
#define SEG_HEADERLESS_AGE 5

#endif /* PSHM_SEGMENT_H */
