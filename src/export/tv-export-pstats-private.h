/* tv-export-pstats-private.h: what the pstats collector and table share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tachyon-format.h"
#include "tv-export-arena.h"
#include "tv-export-pstats.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

/* Values of the frame-index map that are not location ids. */
#define FRAME_UNMAPPED        G_MAXUINT32
#define FRAME_INTERNAL        (G_MAXUINT32 - 1)

#define CANCEL_CHECK_INTERVAL (1u << 16)

typedef struct
{
  /* Borrowed from the reader. */
  const char *file;
  gsize       file_len;
  const char *func;
  gsize       func_len;
  gint32      line;
  guint       hash;
  guint32     id;
  guint64     direct;
  guint64     cumulative;
  guint64     seen;               /* the last stack counted, plus one */
  guint       first_pair;         /* its callers: pairs[first_pair …] */
  guint       n_pairs;
} Location;

typedef struct
{
  guint    hash;
  guint32  depth;
  guint64  count;
  guint32  ids[];                 /* location ids, leaf first */
} Stack;

typedef struct
{
  guint32 callee;
  guint32 caller;
  guint64 count;
} Pair;

struct _TvPstats
{
  /* Whoever owns the strings the locations borrow: a reader of our own or
   * the model's. */
  TachReader    *reader;
  TvProfileData *data;
  double         interval_sec;
  guint64        n_samples;

  TvExportArena  arena;           /* stacks and pairs */
  guint32       *frame_map;       /* frame index -> location id */
  guint32        n_frames;
  GPtrArray     *locations;       /* Location, by id: first-seen order */
  GHashTable    *location_table;
  GPtrArray     *stacks;          /* Stack, first-seen order */
  GHashTable    *stack_table;
  GPtrArray     *pairs;           /* Pair, by callee, then first seen */
  Stack         *scratch;
};
/* FNV-1a over LEN bytes of DATA, from HASH. */
static inline guint
hash_bytes (guint       hash,
            const char *data,
            gsize       len)
{
  for (gsize i = 0; i < len; i++)
    hash = (hash ^ (guchar) data[i]) * 16777619u;
  return hash;
}

G_END_DECLS
