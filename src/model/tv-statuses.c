/* tv-statuses.c: a thread's status bytes, kept in 4 bits a sample
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tv-statuses.h"

#include <string.h>

void
tv_statuses_read (const TvStatuses *statuses,
                  guint64           start,
                  guint64           n,
                  guint8           *out)
{
  const guint8 *bytes = statuses->bytes;
  guint64 i = start, end = start + n;

  if (statuses->wide)
    {
      memcpy (out, bytes + start, n);
      return;
    }
  if (i < end && i % 2 == 1)
    *out++ = statuses->palette[bytes[i++ / 2] >> 4];
  for (; i + 1 < end; i += 2)
    {
      guint8 b = bytes[i / 2];

      *out++ = statuses->palette[b & 0xf];
      *out++ = statuses->palette[b >> 4];
    }
  if (i < end)
    *out = statuses->palette[bytes[i / 2] & 0xf];
}

/* Statuses IN, N of them, as their indices from AT on, two a byte with
 * the first in the low half; returns the OR of the indices, 16 or more
 * when INDEX has none for a status. */
static guint8
pack (guint8       *bytes,
      guint64       at,
      const guint8 *in,
      guint64       n,
      const guint8 *index)
{
  guint8 *out = bytes + at / 2;
  guint8 all = 0;
  guint64 i = 0;

  if (n > 0 && at % 2 == 1)
    {
      all = index[in[0]];
      *out = (guint8) (*out & 0xf) | (guint8) (all << 4);
      out++;
      i = 1;
    }
  for (; i + 1 < n; i += 2)
    {
      guint8 lo = index[in[i]], hi = index[in[i + 1]];

      all |= lo | hi;
      *out++ = (guint8) (lo | hi << 4);
    }
  if (i < n)
    {
      all |= index[in[i]];
      *out = index[in[i]];
    }
  return all;
}

gboolean
tv_statuses_append (TvStatuses   *statuses,
                    guint64       at,
                    const guint8 *in,
                    guint64       n)
{
  /* Each status's index, 0xff for those not in the palette. */
  guint8 index[256];
  guint8 n_palette = statuses->n_palette;

  if (statuses->wide)
    {
      memcpy (statuses->bytes + at, in, n);
      return TRUE;
    }
  /* One sample, as most records of a deep profile have: no table. */
  if (n == 1)
    {
      guint8 *out = statuses->bytes + at / 2;
      guint k = 0;

      while (k < n_palette && statuses->palette[k] != in[0])
        k++;
      if (k == TV_STATUSES_PALETTE)
        return FALSE;
      if (k == n_palette)
        statuses->palette[statuses->n_palette++] = in[0];
      *out = at % 2 == 1 ? (guint8) (*out & 0xf) | (guint8) (k << 4) : (guint8) k;
      return TRUE;
    }
  memset (index, 0xff, sizeof index);
  for (guint k = 0; k < n_palette; k++)
    index[statuses->palette[k]] = (guint8) k;
  if (pack (statuses->bytes, at, in, n, index) < TV_STATUSES_PALETTE)
    return TRUE;

  /* A status new to the palette: the new ones join it in order, and the
   * statuses are written again, unless there are too many. */
  for (guint64 j = 0; j < n; j++)
    {
      guint8 v = in[j];

      if (index[v] != 0xff)
        continue;
      if (statuses->n_palette == TV_STATUSES_PALETTE)
        {
          statuses->n_palette = n_palette;
          return FALSE;
        }
      index[v] = statuses->n_palette;
      statuses->palette[statuses->n_palette++] = v;
    }
  pack (statuses->bytes, at, in, n, index);
  return TRUE;
}

void
tv_statuses_widen (TvStatuses *statuses,
                   guint64     n)
{
  /* From the last: status I goes to byte I, at or past the byte I / 2
   * it is read from, and past every byte still to be read. */
  for (guint64 i = n; i-- > 0;)
    statuses->bytes[i] = statuses->palette[(statuses->bytes[i / 2] >> (4 * (i % 2))) & 0xf];
  statuses->wide = TRUE;
}
