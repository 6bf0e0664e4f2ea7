/* tv-times.h: a thread's timestamps, kept in blocks of small offsets
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thread's samples come at the sampling interval, so the timestamps of
 * TV_TIMES_BLOCK consecutive samples differ by far less than their 64
 * bits hold.  Each block keeps its smallest timestamp and, in the pool,
 * every timestamp's offset from it, in as few bytes as the block's span
 * needs: 2 (a span up to 65 ms, 64 samples 1 ms apart), 3 (up to 16 s:
 * the same samples with some late, or slower ones), 4 (up to 71 minutes),
 * or 8, the timestamps themselves.  A timestamp is then two loads away, in
 * any order, and a profile sampled every millisecond keeps 2.2 bytes a
 * sample instead of 8.
 *
 * Every block but the last is full, so each starts in the pool at a
 * multiple of 64 bytes and its offsets of 2, 4 and 8 bytes are aligned.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TV_TIMES_BLOCK 64

/* A block's offsets start in the pool at a multiple of this; a pool holds
 * at most TV_TIMES_MAX_POOL bytes (billions of samples). */
#define TV_TIMES_ALIGN    64
#define TV_TIMES_MAX_POOL (G_GUINT64_CONSTANT (1) << 36)

/* 12 bytes, a fifth of a byte a sample: read with tv_times_block_*(). */
typedef struct
{
  guint32 base_lo;             /* the block's smallest timestamp; 0 for */
  guint32 base_hi;             /* whole timestamps */
  guint32 at;                  /* where its offsets start in the pool, in
                                * TV_TIMES_ALIGN bytes, times 4, plus the
                                * width's code: 0 for 2 bytes, 1 for 4, 2
                                * for 8, 3 for 3 (tv_times_widths) */
} TvTimesBlock;

/* The bytes an offset takes, by the width's code. */
extern const guint8 tv_times_widths[4];

static inline guint64
tv_times_block_base (const TvTimesBlock *block)
{
  return (guint64) block->base_hi << 32 | block->base_lo;
}

/* Where BLOCK's offsets start in the pool, in bytes. */
static inline gsize
tv_times_block_at (const TvTimesBlock *block)
{
  return (gsize) (block->at >> 2) * TV_TIMES_ALIGN;
}

static inline guint
tv_times_block_code (const TvTimesBlock *block)
{
  return block->at & 3;
}

typedef struct
{
  TvTimesBlock *blocks;        /* n / TV_TIMES_BLOCK, rounded up */
  guint8       *pool;
  guint64       n;
} TvTimes;

/* Timestamp I (< times->n). */
static inline guint64
tv_times_get (const TvTimes *times,
              guint64        i)
{
  const TvTimesBlock *b = &times->blocks[i / TV_TIMES_BLOCK];
  const guint8 *p = times->pool + tv_times_block_at (b);
  guint j = i % TV_TIMES_BLOCK;

  switch (tv_times_block_code (b))
    {
    case 0:
      return tv_times_block_base (b) + ((const guint16 *) p)[j];
    case 1:
      return tv_times_block_base (b) + ((const guint32 *) p)[j];
    case 2:
      return ((const guint64 *) p)[j];
    default:
      p += 3 * j;
      return tv_times_block_base (b) + (p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16);
    }
}

/* Writes the N (1 to TV_TIMES_BLOCK) timestamps TS at POOL + AT (which
 * has room for N 8-byte values), fills BLOCK, and returns the bytes
 * written. */
gsize    tv_times_encode_block  (const guint64 *ts,
                                 guint          n,
                                 guint8        *pool,
                                 gsize          at,
                                 TvTimesBlock  *block);

/* TIMES of the N timestamps TS, in new memory (tv_times_clear() frees
 * it). */
void     tv_times_init_from     (TvTimes       *times,
                                 const guint64 *ts,
                                 guint64        n);
void     tv_times_clear         (TvTimes       *times);
/* The bytes TIMES takes, its blocks and its pool. */
gsize    tv_times_get_memory_size (const TvTimes *times);

/* Timestamps START to START + N into OUT. */
void     tv_times_read          (const TvTimes *times,
                                 guint64        start,
                                 guint64        n,
                                 guint64       *out);

/* Of timestamps in order from LO to HI, the first at or past VALUE (HI
 * when none is). */
guint64  tv_times_lower_bound   (const TvTimes *times,
                                 guint64        lo,
                                 guint64        hi,
                                 guint64        value);

/* The same from FROM to times->n, galloping from FROM first: walking a
 * thread's samples in steps of time costs the log of each step's samples,
 * not of the thread's. */
guint64  tv_times_gallop        (const TvTimes *times,
                                 guint64        from,
                                 guint64        value);

G_END_DECLS
