/* tv-statuses.h: a thread's status bytes, kept in 4 bits a sample
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thread takes few of the 256 status bytes (a status is six flags, and
 * a thread is the main one or not throughout): its distinct ones, in the
 * order they came, are a palette of at most 16, and each sample keeps its
 * status's index in the palette, two samples a byte (the earlier in the
 * low half).  A thread of more than 16 keeps its bytes whole.  A status
 * is one load and a shift away, in any order.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TV_STATUSES_PALETTE 16

typedef struct
{
  guint8  *bytes;               /* (n + 1) / 2 bytes of indices, or n whole
                                 * statuses when wide */
  guint8   palette[TV_STATUSES_PALETTE];
  guint8   n_palette;
  gboolean wide;
} TvStatuses;

/* Status I of STATUSES. */
static inline guint8
tv_statuses_get (const TvStatuses *statuses,
                 guint64           i)
{
  if (statuses->wide)
    return statuses->bytes[i];
  return statuses->palette[(statuses->bytes[i / 2] >> (4 * (i % 2))) & 0xf];
}

/* Statuses START to START + N into OUT. */
void     tv_statuses_read       (const TvStatuses *statuses,
                                 guint64           start,
                                 guint64           n,
                                 guint8           *out);

/* The bytes N statuses take in STATUSES's form. */
static inline gsize
tv_statuses_size (const TvStatuses *statuses,
                  guint64           n)
{
  return statuses->wide ? n : (n + 1) / 2;
}

/* Appends the N statuses IN after the first AT of STATUSES, whose bytes
 * have room for AT + N in its form: FALSE, with the first AT as they
 * were, when they would take the palette past 16 (the caller makes room
 * for AT + N whole bytes and calls tv_statuses_widen()). */
gboolean tv_statuses_append     (TvStatuses       *statuses,
                                 guint64           at,
                                 const guint8     *in,
                                 guint64           n);

/* The first N statuses kept whole, in place: the bytes must have room
 * for N. */
void     tv_statuses_widen      (TvStatuses       *statuses,
                                 guint64           n);

G_END_DECLS
