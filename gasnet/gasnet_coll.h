/*
 * gasnet_coll.h - the part of GASNet-1's collectives that GASNet's own test
 * programs use: gasnet_coll_init and a blocking gasnet_coll_broadcast over
 * every node (GASNET_TEAM_ALL). Included by gasnet.h.
 */
#ifndef GASNET_COLL_H
#define GASNET_COLL_H

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t gasnet_image_t;
typedef struct gasnetc_team *gasnet_team_handle_t;
#define GASNET_TEAM_ALL ((gasnet_team_handle_t)0)

typedef struct gasnet_coll_fn_entry {
    void *fnptr;
    unsigned int flags;
} gasnet_coll_fn_entry_t;

/* Synchronization (one IN_ and one OUT_ flag) and addressing flags. */
#define GASNET_COLL_IN_NOSYNC (1 << 0)
#define GASNET_COLL_IN_MYSYNC (1 << 1)
#define GASNET_COLL_IN_ALLSYNC (1 << 2)
#define GASNET_COLL_OUT_NOSYNC (1 << 3)
#define GASNET_COLL_OUT_MYSYNC (1 << 4)
#define GASNET_COLL_OUT_ALLSYNC (1 << 5)
#define GASNET_COLL_SINGLE (1 << 6)
#define GASNET_COLL_LOCAL (1 << 7)
#define GASNET_COLL_DST_IN_SEGMENT (1 << 10)
#define GASNET_COLL_SRC_IN_SEGMENT (1 << 11)

/* Collective; images must be NULL (one image per node), fn_tbl is not
 * used (no reductions). */
extern void gasnet_coll_init(gasnet_image_t *images, gasnet_image_t my_image,
                             gasnet_coll_fn_entry_t *fn_tbl, size_t fn_count, int init_flags);
/* Collective over every node: nbytes at src on node srcimage reach dst on
 * every node (each node's own address: LOCAL; SINGLE is served alike, src
 * being read on srcimage only). Returns once this node's dst is written;
 * every flag synchronizes as ALLSYNC. */
extern void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                  void *src, size_t nbytes, int flags);

#ifdef __cplusplus
}
#endif
#endif /* GASNET_COLL_H */
