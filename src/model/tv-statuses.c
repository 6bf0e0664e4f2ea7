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

/* The palette index of STATUS, added if new; -1 when the palette is
 * full. */
static inline int
index_of (TvStatuses *statuses,
          guint8      status)
{
  for (guint k = 0; k < statuses->n_palette; k++)
    if (statuses->palette[k] == status)
      return (int) k;
  if (statuses->n_palette == TV_STATUSES_PALETTE)
    return -1;
  statuses->palette[statuses->n_palette] = status;
  return statuses->n_palette++;
}

gboolean
tv_statuses_append (TvStatuses   *statuses,
                    guint64       at,
                    const guint8 *in,
                    guint64       n)
{
  guint8 n_palette = statuses->n_palette;
  guint8 last = 0;
  int index = -1;

  if (statuses->wide)
    {
      memcpy (statuses->bytes + at, in, n);
      return TRUE;
    }
  /* The indices first, so that a status past the palette leaves the
   * bytes as they were; a status mostly repeats the one before. */
  for (guint64 i = 0; i < n; i++)
    {
      if (index < 0 || in[i] != last)
        {
          last = in[i];
          if ((index = index_of (statuses, last)) < 0)
            {
              statuses->n_palette = n_palette;
              return FALSE;
            }
        }
    }
  index = -1;
  for (guint64 i = 0; i < n; i++)
    {
      guint64 s = at + i;
      guint8 *b = &statuses->bytes[s / 2];

      if (index < 0 || in[i] != last)
        index = index_of (statuses, last = in[i]);
      if (s % 2 == 0)
        *b = (guint8) index;
      else
        *b = (guint8) (*b & 0xf) | (guint8) (index << 4);
    }
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
