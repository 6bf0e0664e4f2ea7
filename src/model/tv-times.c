/* tv-times.c: a thread's timestamps, kept in blocks of small offsets
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-times.h"

#include <string.h>

const guint8 tv_times_widths[4] = { 2, 4, 8, 3 };

G_STATIC_ASSERT (sizeof (TvTimesBlock) == 12);

static inline TvTimesBlock
make_block (guint64 base,
            gsize   at,
            guint   code)
{
  return (TvTimesBlock) { (guint32) base, (guint32) (base >> 32),
                          (guint32) (at / TV_TIMES_ALIGN) << 2 | code };
}

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
  g_assert (at % TV_TIMES_ALIGN == 0 && at < TV_TIMES_MAX_POOL);
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
      *block = make_block (lo, at, 0);
      return (gsize) n * 2;
    }
  if (hi - lo < (1u << 24))
    {
      for (guint i = 0; i < n; i++)
        {
          guint32 o = (guint32) (ts[i] - lo);

          p[3 * i] = (guint8) o;
          p[3 * i + 1] = (guint8) (o >> 8);
          p[3 * i + 2] = (guint8) (o >> 16);
        }
      *block = make_block (lo, at, 3);
      return (gsize) n * 3;
    }
  if (hi - lo <= G_MAXUINT32)
    {
      guint32 *o = (guint32 *) p;

      for (guint i = 0; i < n; i++)
        o[i] = (guint32) (ts[i] - lo);
      *block = make_block (lo, at, 1);
      return (gsize) n * 4;
    }
  memmove (p, ts, (gsize) n * 8);
  *block = make_block (0, at, 2);
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
  return n_blocks * sizeof (TvTimesBlock) + tv_times_block_at (last)
         + (times->n - (n_blocks - 1) * TV_TIMES_BLOCK) * tv_times_widths[tv_times_block_code (last)];
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
      const guint8 *p = times->pool + tv_times_block_at (b);
      guint j = start % TV_TIMES_BLOCK;
      guint count = (guint) MIN (n, TV_TIMES_BLOCK - j);
      guint64 base = tv_times_block_base (b);

      switch (tv_times_block_code (b))
        {
        case 0:
          for (guint i = 0; i < count; i++)
            out[i] = base + ((const guint16 *) p)[j + i];
          break;
        case 1:
          for (guint i = 0; i < count; i++)
            out[i] = base + ((const guint32 *) p)[j + i];
          break;
        case 2:
          memcpy (out, (const guint64 *) p + j, (gsize) count * 8);
          break;
        default:
          for (guint i = 0; i < count; i++)
            {
              const guint8 *o = p + 3 * (j + i);

              out[i] = base + (o[0] | (guint32) o[1] << 8 | (guint32) o[2] << 16);
            }
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

  return tv_times_block_code (block) == 2 ? tv_times_get (times, b * TV_TIMES_BLOCK)
                                          : tv_times_block_base (block);
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
   * array is 12 bytes a block, each 64 samples): the first block BL that
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
