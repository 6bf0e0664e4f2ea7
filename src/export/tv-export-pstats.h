/* tv-export-pstats.h: the statistics of `replay --pstats`, as a file and a table
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tv-call-tree.h"
#include "tv-export.h"

G_BEGIN_DECLS

/* The sort keys of `--sort`, with CPython's SORT_MODE_* values. */
typedef enum
{
  TV_PSTATS_SORT_NAME = -1,
  TV_PSTATS_SORT_NSAMPLES = 0,
  TV_PSTATS_SORT_TOTTIME = 1,
  TV_PSTATS_SORT_CUMTIME = 2,
  TV_PSTATS_SORT_SAMPLE_PCT = 3,
  TV_PSTATS_SORT_CUMUL_PCT = 4,
  TV_PSTATS_SORT_NSAMPLES_CUMUL = 5,
} TvPstatsSort;

/* How tv_pstats_to_table() writes. */
typedef enum
{
  TV_PSTATS_TABLE_SUMMARY = 1 << 0,   /* the summary of interesting functions */
  TV_PSTATS_TABLE_COLORS = 1 << 1,    /* CPython's ANSI colours */
  /* Names with their control and bidirectional characters made visible
   * (tv_text_append_visible()): for a terminal, which would obey them.
   * Without it the names are CPython's bytes. */
  TV_PSTATS_TABLE_VISIBLE = 1 << 2,
} TvPstatsTableFlags;

/* What CPython's PstatsCollector counts for a profile: per location (file,
 * line, function) the samples it was the leaf of and the samples it was on
 * the stack of, and who called it how often. */
typedef struct _TvPstats TvPstats;

TvPstats   *tv_pstats_new_for_path   (const char          *path,
                                      GCancellable        *cancellable,
                                      GError             **error);
TvPstats   *tv_pstats_new_for_query  (TvProfileData       *data,
                                      const TvQuery       *query,
                                      GCancellable        *cancellable,
                                      GError             **error);
void        tv_pstats_free           (TvPstats            *self);

/* How many locations, and the samples counted (those with a stack). */
guint       tv_pstats_get_n_locations (const TvPstats     *self);
guint64     tv_pstats_get_n_samples   (const TvPstats     *self);

/* The file `replay --pstats -o OUT` writes: a marshal dict that
 * pstats.Stats() loads. */
GBytes     *tv_pstats_to_marshal     (const TvPstats      *self);
/* The table `replay --pstats` prints.  LIMIT < 0: every row. */
char       *tv_pstats_to_table       (const TvPstats      *self,
                                      TvPstatsSort         sort,
                                      int                  limit,
                                      TvPstatsTableFlags   flags);

gboolean    tv_pstats_sort_from_string (const char        *text,
                                        TvPstatsSort      *sort);

/* The marshal file of DATA's samples that FILTER selects (its merge key
 * and view are not used: the locations are CPython's, by line). */
GBytes     *tv_export_pstats_build   (TvProfileData        *data,
                                      TvViewState          *state,
                                      GCancellable         *cancellable,
                                      GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TvPstats, tv_pstats_free)

G_END_DECLS
