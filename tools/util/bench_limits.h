/*
 * bench_limits.h - the two processes pshm-pingpong measures between: the
 * shared area where the machine's limits run, the spin waits and barrier
 * that pair them without the library, the limit kernels (cache-line
 * hand-off, 1-copy ring, memcpy), the timing loops that every measurement
 * (limit or pshm) goes through, and the failure path of the pair.
 */
#ifndef PSHM_TOOLS_BENCH_LIMITS_H
#define PSHM_TOOLS_BENCH_LIMITS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pshm.h"

#define KiB (1024ull)
#define MiB (1024ull * 1024)

/* Segment layout (owner offsets, every rank's segment):
 *   [0, 1M)      limits area (used in rank 0's segment only), bench_lim_area_t
 *   [1M, +64)    flag line: put notifications written by the peer
 *   [1M+64, +64) --poll-idle's done word (rank 0's segment)
 *   [1M+128, +64) --instructions' progress word, written by the peer
 *   [1M+4K, 2M)  start-up records, 16 bytes per rank
 *   [2M, ...)    data area: Long and put targets, get sources, the copies
 *                of limit-copy-flag and limit-copy2-bw */
#define OFF_LIM 0
#define OFF_FLAG (1 * MiB)
#define OFF_IDLE_DONE (OFF_FLAG + 64)
#define OFF_INSTR (OFF_FLAG + 128)
#define OFF_STARTUP (1 * MiB + 4 * KiB)
#define OFF_DATA (2 * MiB)

#define LAT_BYTES (64 * MiB)  /* payload per latency repetition: caps iterations */
#define BW_BYTES (256 * MiB)  /* payload per bandwidth repetition */

#define LIM_NSLOT 8
/* The hand-off's line pairs, used in turn (see bench_lim_area_t). */
#define LIM_NHS 64
#define LIM_CHUNK (32 * KiB)
#define LIM_INL 48

typedef struct lim_line {
    _Atomic uint64_t v;
    uint64_t pad[7];
} __attribute__((aligned(64))) lim_line_t;

/* One cache line: sequence number and payload travel together. */
typedef struct lim_slot {
    _Atomic uint64_t seq;
    uint64_t payload[7];
} __attribute__((aligned(64))) lim_slot_t;

/* Ring slot header: seq != 0 means full (seq = message number + 1). */
typedef struct lim_hdr {
    _Atomic uint64_t seq;
    uint64_t len;
    unsigned char inl[LIM_INL]; /* payloads up to 48 bytes travel in the header */
} __attribute__((aligned(64))) lim_hdr_t;

typedef struct lim_ring {
    lim_hdr_t hdr[LIM_NSLOT];
    unsigned char data[LIM_NSLOT][LIM_CHUNK];
} lim_ring_t;

/* limit-cell-rate: the flood's protocol alone, laid out as a queue of the
 * library's is at P = 2 with the default depth: 16-byte cells four to a
 * line, each carrying its line's stamp; LIM_CQ_DEPTH lines, each the first
 * of a row LIM_CQ_ROW lines long (a receiver's row holds a line of every
 * queue into it, 2P + 1 at P = 2). */
#define LIM_CQ_DEPTH 64
#define LIM_CQ_ROW 5
typedef struct lim_cell {
    _Atomic uint32_t stamp;     /* the line's number when the cell is full */
    uint32_t meta;
    uint32_t arg[2];
} lim_cell_t;
typedef struct lim_cq_row {
    lim_cell_t cell[4];
    unsigned char pad[(LIM_CQ_ROW - 1) * 64];
} __attribute__((aligned(64))) lim_cq_row_t;

typedef struct bench_lim_area {
    lim_line_t arrive[2];                    /* spin barrier: epochs reached, one line per side */
    struct {
        int64_t pid[2], cpu[2];
    } __attribute__((aligned(64))) who;      /* written before the first barrier */
    /* Hand-off: round trip i uses pair i % LIM_NHS, ping 0 -> 1 at +0 of its
     * 256 bytes, pong 1 -> 0 at +128 (apart from ping's 128-byte pair, which
     * the adjacent-line prefetcher fetches together), pairs 256 bytes apart
     * as a queue's lines are for two processes. In turn rather than one
     * pair: a line's hand-off time depends on where the machine homes it (on
     * a 2-vCPU VM, 130-250 ns one way from one line to the next, the same
     * lines alike on every pass), so one fixed pair measured its own luck,
     * while the library's queues go round many lines. */
    struct {
        lim_slot_t ping;
        unsigned char pad0[64];
        lim_slot_t pong;
        unsigned char pad1[64];
    } hs[LIM_NHS];
    lim_line_t cf_ping, cf_pong;             /* copy + flag, two-core copy: 0 -> 1, 1 -> 0 */
    lim_ring_t ring[2];                      /* [0]: 0 -> 1, [1]: 1 -> 0 */
    lim_cq_row_t cq[LIM_CQ_DEPTH];           /* limit-cell-rate: 0 -> 1 */
    lim_line_t cq_consumed;                  /* lines the receiver is done with */
} bench_lim_area_t;
_Static_assert(sizeof(bench_lim_area_t) <= OFF_FLAG, "limits area overlaps the flag line");
_Static_assert(sizeof(lim_hdr_t) == 64 && sizeof(lim_slot_t) == 64, "one cache line each");
_Static_assert(sizeof(((bench_lim_area_t *)0)->hs[0]) == 256, "a hand-off pair per 256 bytes");
_Static_assert(sizeof(lim_cell_t) == 16 && sizeof(lim_cq_row_t) == LIM_CQ_ROW * 64,
               "four cells to a line, a row of LIM_CQ_ROW lines");

/* The pair as this process sees it, owned by the tool and bound once. */
typedef struct bench_pair {
    pshm_ctx_t *ctx;            /* NULL in --limits-only (two forked processes) */
    int me;                     /* rank: 0 or 1 in the pair */
    pid_t peer_pid, parent;     /* parent: the forking process in --limits-only */
    int same_core;              /* both on one CPU: waits yield */
    bench_lim_area_t *lim;
    unsigned char *src, *dst;   /* private buffers */
    unsigned char *area[2];     /* rank r's shared data area (this process's view) */
    /* How the timing loops repeat (from the options). */
    int reps, quick;
    int touch;                  /* BENCH_TOUCH_* (bench_opts.h): the ring's read */
    unsigned ring_slots;        /* limit-ring's slots (--ring-slots): 2, 4 or LIM_NSLOT */
    long iters, warmup, window; /* warmup < 0: a tenth of the iterations */
    void (*reset)(void);        /* before each repetition (the tool's message counters) */
    /* Around each repetition of a library test, outside the timed loop, on
     * both ranks: fill the payloads, then check what arrived. */
    void (*before)(const char *test, size_t size, int rep);
    void (*after)(const char *test, size_t size, int rep);
} bench_pair_t;

void bench_pair_bind(bench_pair_t *pair);

/* Prints "pshm-pingpong: rank R: ..." on stderr, aborts the job (if any) and
 * exits with `code`. */
__attribute__((noreturn, format(printf, 2, 3))) void bench_die(int code, const char *fmt, ...);
/* A failed library call ends the job; a rank that fails because another one
 * aborted first stays quiet (that one printed why). */
__attribute__((noreturn)) void bench_fail(const char *call, int rc);
#define CHK(call) do { int rc_ = (call); if (rc_ < 0) bench_fail(#call, rc_); } while (0)

/* Both processes meet: pshm_barrier, or a spin barrier in the limits area. */
void bench_sync_pair(void);

typedef void (*bench_op_fn)(size_t size);            /* one round on rank 0 */
typedef void (*bench_serve_fn)(size_t size, long n); /* rank 1's part of n rounds */
typedef void (*bench_stream_fn)(size_t size, long nwin, long window);

/* The limit kernels, as ops (rank 0), serves and sinks (rank 1). */
void bench_handoff_op(size_t size);
void bench_handoff_serve(size_t size, long n);
void bench_ring_op(size_t size);
void bench_ring_serve(size_t size, long n);
void bench_ring_stream(size_t size, long nwin, long window);
void bench_ring_sink(size_t size, long nwin, long window);
void bench_cell_stream(size_t size, long nwin, long window);
void bench_cell_sink(size_t size, long nwin, long window);
void bench_memcpy_op(size_t size);
void bench_copy_flag_op(size_t size);
void bench_copy_flag_serve(size_t size, long n);
void bench_copy2_stream(size_t size, long nwin, long window);
void bench_copy2_sink(size_t size, long nwin, long window);
void bench_memcpy_stream(size_t size, long nwin, long window);
void bench_serve_nothing(size_t size, long n);
void bench_sink_nothing(size_t size, long nwin, long window);

/*
 * Times calls of op per repetition on rank 0 (rank 1 runs serve). halve: a
 * round trip, reported as one-way. Records the result (median of the
 * repetitions' medians, p99 of all pooled) in us, against `floor` (a test
 * name, or NULL).
 */
void bench_lat_run(const char *test, size_t size, bench_op_fn op, bench_serve_fn serve, int halve,
                   const char *floor);
/* Streams `base` messages (fewer for large sizes) per repetition in windows;
 * records the rate (GB/s of `size` messages, or Mmsg/s when msgs_rate). */
void bench_bw_run(const char *test, size_t size, long base, bench_stream_fn active,
                  bench_stream_fn passive, int msgs_rate, const char *floor);

/* A row of the limits, its kernels from the table that pairs floors with
 * tests (bench_limits.c): a latency limit at `size` (the hand-off at its
 * own 56 bytes), or a streaming one of `base` messages. */
void bench_limit_lat(const char *name, size_t size);
void bench_limit_bw(const char *name, size_t size, long base, int msgs_rate);

/* Median round trip of the cache-line hand-off, in ns (rank 0; 0 on rank 1). */
double bench_handoff_probe(long n);

#endif
