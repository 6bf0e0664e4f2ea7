/* tv-export.h: what every export shares: the filters of the command line
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `--export FORMAT` takes the same filters whatever the format: threads,
 * a thread state, a time range and the orientation.  They are parsed into
 * a TvExportFilter before the profile is read, and turned into a TvQuery
 * once it is loaded, so that every exporter selects its samples through
 * the model.
 */
#pragma once

#include <gio/gio.h>

#include "tv-call-tree.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_EXPORT_ERROR (tv_export_error_quark ())

typedef enum
{
  TV_EXPORT_ERROR_INVALID_FILTER,   /* a filter that cannot be parsed */
  TV_EXPORT_ERROR_NO_SUCH_THREAD,   /* --thread names a thread the profile lacks */
  TV_EXPORT_ERROR_INVALID_OPTION,   /* an image option out of range or malformed */
  TV_EXPORT_ERROR_NO_SUCH_FRAME,    /* a zoom path that is not in the samples shown */
} TvExportError;

typedef struct
{
  GArray        *thread_ids;        /* guint64; empty: every thread */
  TvStateFilter  state;             /* the views' thread-state filters */
  /* Seconds after the header's start time; -INFINITY and INFINITY leave
   * an end open. */
  gboolean       has_range;
  double         range_start;
  double         range_end;
  gboolean       inverted;
  /* HTML: the search the page starts with (a regular expression), or
   * NULL.  Owned. */
  char          *search;
} TvExportFilter;

GQuark      tv_export_error_quark         (void);

void        tv_export_filter_init         (TvExportFilter  *filter);
void        tv_export_filter_clear        (TvExportFilter  *filter);
gboolean    tv_export_filter_add_thread   (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
gboolean    tv_export_filter_set_state    (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
gboolean    tv_export_filter_set_range    (TvExportFilter  *filter,
                                           const char      *text,
                                           GError         **error);
/* Whether the filter keeps every sample (the orientation aside). */
gboolean    tv_export_filter_selects_all  (const TvExportFilter *filter);
gboolean    tv_export_filter_make_query   (const TvExportFilter *filter,
                                           TvProfileData   *data,
                                           TvMergeKey       merge,
                                           TvQuery         *query,
                                           GArray         **thread_indices,
                                           GError         **error);

const char *tv_export_state_to_string     (TvStateFilter    state);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TvExportFilter, tv_export_filter_clear)

G_END_DECLS
