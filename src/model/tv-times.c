/* tv-times.c: a thread's timestamps, kept in blocks of small offsets
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-times.h"

#include <string.h>

gsize
tv_times_encode_block (const guint64 *ts,
                       guint          n,
                       guint8        *pool,
                       gsize          at,
                       TvTimesBlock  *block)
{
  guint64 lo = ts[0], hi = ts[0];
  guint8 *p = pool + at;

  g_assert (n >= 1 && n <= TV_TIMES_BLOCK);
  g_assert (at % 8 == 0);
  for (guint i = 1; i < n; i++)
    {
      lo = MIN (lo, ts[i]);
      hi = MAX (hi, ts[i]);
    }
  if (hi - lo <= G_MAXUINT16)
    {
      guint16 *o = (guint16 *) p;

      for (guint i = 0; i < n; i++)
        o[i] = (guint16) (ts[i] - lo);
      *block = (TvTimesBlock) { lo, (guint64) at << 2 | 0 };
      return (gsize) n * 2;
    }
  if (hi - lo <= G_MAXUINT32)
    {
      guint32 *o = (guint32 *) p;

      for (guint i = 0; i < n; i++)
        o[i] = (guint32) (ts[i] - lo);
      *block = (TvTimesBlock) { lo, (guint64) at << 2 | 1 };
      return (gsize) n * 4;
    }
  memmove (p, ts, (gsize) n * 8);
  *block = (TvTimesBlock) { 0, (guint64) at << 2 | 2 };
  return (gsize) n * 8;
}

void
tv_times_init_from (TvTimes       *times,
                    const guint64 *ts,
                    guint64        n)
{
  guint64 n_blocks = (n + TV_TIMES_BLOCK - 1) / TV_TIMES_BLOCK;
  gsize at = 0;

  times->n = n;
  times->blocks = g_new (TvTimesBlock, MAX (n_blocks, 1));
  /* Room for whole timestamps, given back once the widths are known. */
  times->pool = g_malloc (MAX (n, 1) * sizeof (guint64));
  for (guint64 b = 0; b < n_blocks; b++)
    {
      guint count = (guint) MIN (TV_TIMES_BLOCK, n - b * TV_TIMES_BLOCK);

      at += tv_times_encode_block (ts + b * TV_TIMES_BLOCK, count, times->pool, at,
                                   &times->blocks[b]);
    }
  times->pool = g_realloc (times->pool, MAX (at, 1));
}

void
tv_times_clear (TvTimes *times)
{
  g_clear_pointer (&times->blocks, g_free);
  g_clear_pointer (&times->pool, g_free);
  times->n = 0;
}

gsize
tv_times_get_memory_size (const TvTimes *times)
{
  guint64 n_blocks = (times->n + TV_TIMES_BLOCK - 1) / TV_TIMES_BLOCK;
  const TvTimesBlock *last;

  if (n_blocks == 0)
    return 0;
  last = &times->blocks[n_blocks - 1];
  return n_blocks * sizeof (TvTimesBlock) + (last->at >> 2)
         + (times->n - (n_blocks - 1) * TV_TIMES_BLOCK) * ((gsize) 2 << (last->at & 3));
}

void
tv_times_read (const TvTimes *times,
               guint64        start,
               guint64        n,
               guint64       *out)
{
  g_assert (start + n <= times->n);
  while (n > 0)
    {
      const TvTimesBlock *b = &times->blocks[start / TV_TIMES_BLOCK];
      const guint8 *p = times->pool + (b->at >> 2);
      guint j = start % TV_TIMES_BLOCK;
      guint count = (guint) MIN (n, TV_TIMES_BLOCK - j);
      guint64 base = b->base;

      switch (b->at & 3)
        {
        case 0:
          for (guint i = 0; i < count; i++)
            out[i] = base + ((const guint16 *) p)[j + i];
          break;
        case 1:
          for (guint i = 0; i < count; i++)
            out[i] = base + ((const guint32 *) p)[j + i];
          break;
        default:
          memcpy (out, (const guint64 *) p + j, (gsize) count * 8);
          break;
        }
      out += count;
      start += count;
      n -= count;
    }
}

/* The first timestamp of block B, of timestamps in order: its smallest,
 * the block's base unless it keeps them whole. */
static inline guint64
block_first (const TvTimes *times,
             guint64        b)
{
  const TvTimesBlock *block = &times->blocks[b];

  return (block->at & 3) == 2 ? tv_times_get (times, b * TV_TIMES_BLOCK) : block->base;
}

/* The first of LO to HI whose key is at or past VALUE: the blocks' first
 * timestamps when BLOCKS, else the timestamps. */
static inline guint64
bisect (const TvTimes *times,
        guint64        lo,
        guint64        hi,
        guint64        value,
        gboolean       blocks)
{
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      guint64 key = blocks ? block_first (times, mid) : tv_times_get (times, mid);

      if (key < value)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint64
tv_times_lower_bound (const TvTimes *times,
                      guint64        lo,
                      guint64        hi,
                      guint64        value)
{
  guint64 bl;

  if (lo >= hi)
    return lo;
  /* First the blocks after LO's, by their first timestamps (the blocks
   * array is 16 bytes a block, each 64 samples): the first block BL that
   * starts at or past VALUE; then the samples of the block before it. */
  bl = bisect (times, lo / TV_TIMES_BLOCK + 1, (hi - 1) / TV_TIMES_BLOCK + 1, value, TRUE);
  return bisect (times, MAX (lo, (bl - 1) * TV_TIMES_BLOCK), MIN (hi, bl * TV_TIMES_BLOCK),
                 value, FALSE);
}

guint64
tv_times_gallop (const TvTimes *times,
                 guint64        from,
                 guint64        value)
{
  guint64 n = times->n, step = 1, lo = from;

  if (from >= n || tv_times_get (times, from) >= value)
    return from;
  /* Timestamp LO is before VALUE throughout. */
  while (lo + step < n && tv_times_get (times, lo + step) < value)
    {
      lo += step;
      step *= 2;
    }
  return tv_times_lower_bound (times, lo + 1, MIN (lo + step, n), value);
}
