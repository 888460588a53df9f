/*
 * backend.h - helpers the segment backends share (implemented in segment.c,
 * which is compiled with every backend).
 */
#ifndef PSHM_SEGMENT_BACKEND_H
#define PSHM_SEGMENT_BACKEND_H

#include "base/base.h"
#include "segment/segment.h"

/* -EEXIST for an object found at `name`, owned by uid `owner` (-1: unknown,
 * SEG_OWNER_OTHER: another user's, uid unreadable), of st_mode `mode` (0:
 * unknown): the advice to run pshm-cleanup; for another user's, what is
 * wrong; for a link, FIFO or directory, which pshm-cleanup leaves alone, to
 * remove it by hand. */
#define SEG_OWNER_OTHER (-2L)
int seg_exists_err(const char *what, const char *name, long owner, unsigned mode);
/* Free bytes of the file system holding `dir` (statvfs), 0 if unknown. */
int seg_fs_avail(const char *dir, uint64_t *bytes);
/* True if `m` is a pshm header of job `tag` created by this uid. */
bool seg_meta_ok(const seg_meta_t *m, const char *tag);

/* Writes header `hdr` named `name` at `dst` (a fresh zeroed mapping): the
 * body first, then, after a release fence, the magic that makes it valid. */
void seg_meta_put(void *dst, const seg_meta_t *hdr, const char *name);

/*
 * Objects behind a file descriptor (posix, file). `fd` was just created
 * exclusively at `name` in `dir`: sets mode 0600, writes the header page
 * (magic last), then reserves `len` bytes and maps it (`huge_advise`: the
 * mapping is advised MADV_HUGEPAGE and its pages faulted in, instead of
 * fallocate). On failure the caller unlinks the name and closes fd.
 */
int seg_fd_setup(seg_obj_t *o, int fd, const char *name, const char *dir, size_t len,
                 const char *advice, const seg_meta_t *hdr, bool huge_advise);
/* fd was opened (O_NOFOLLOW|O_NONBLOCK) at a peer's name: checks that it is a
 * regular file of ref->len bytes owned by this uid, then maps it. Closes fd. */
int seg_fd_map_peer(seg_obj_t *o, int fd, const seg_ref_t *ref, const char *shown);
/* What to change after open/create failed with `err` (EMFILE, ENFILE have
 * advice of their own), else `otherwise`. */
const char *seg_open_advice(int err, const char *otherwise);
/* Removes the name (in `dir`) of an object we created if it still leads to
 * the object behind o->fd, then closes o->fd. Needs no free descriptor. */
int seg_fd_unlink(seg_obj_t *o, const char *dir);
/* The removal alone, async-signal-safe: 0, or -errno of the unlink. */
int seg_fd_unlink_quiet(const seg_obj_t *o, const char *dir);
/* Around a backend's exclusive create and the record of the object as
 * named (seg_fd_created, or the SysV fields): a signal delivered at the
 * create's return would run the guard's handler with the name made and not
 * yet recorded, and leave it behind. So this thread blocks every signal
 * from before the create to the record (a pending one is delivered at
 * _end, the name recorded), and o->creating makes a handler on another
 * thread wait for the record (seg_wait_created). _end keeps errno. */
void seg_create_begin(seg_obj_t *o, sigset_t *old);
void seg_create_end(seg_obj_t *o, const sigset_t *old);
/* Marks an object just created exclusively behind `fd` as ours and named
 * (its name already in o->ref.name), before anything that may fail or
 * take long: from now on the signal guard removes it. */
void seg_fd_created(seg_obj_t *o, int fd);
/* seg_be_release of the descriptor backends: unlink, close, unmap. */
void seg_fd_release(seg_obj_t *o, const pshm_cfg_t *cfg);
/* Removes from directory `dir` every regular file "pshm.<uid>.<tag>.*" whose
 * header carries `tag`, or has no header and is held by no process; returns
 * the count or < 0. */
int seg_dir_remove_tag(const char *dir, const char *tag);
/* Checks a name received from a peer: starts with "pshm", no '/'. */
int seg_name_check(const char *name, const char *shown);

#endif
