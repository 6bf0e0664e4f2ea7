/* tv-export-pstats-private.h: what the pstats collector and table share
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tachyon-format.h"
#include "tv-export-arena.h"
#include "tv-export-locations.h"
#include "tv-export-pstats.h"
#include "tv-profile-data.h"

G_BEGIN_DECLS

#define CANCEL_CHECK_INTERVAL (1u << 16)

typedef struct
{
  TvExportLocation key;          /* first, as TvExportLocations wants */
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
  TvExportLocations locations;    /* Location, by id: first-seen order */
  GPtrArray     *stacks;          /* Stack, first-seen order */
  GHashTable    *stack_table;
  GPtrArray     *pairs;           /* Pair, by callee, then first seen */
  Stack         *scratch;
};
G_END_DECLS
