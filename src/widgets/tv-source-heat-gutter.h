/* tv-source-heat-gutter.h: the source view's samples per line, in its gutter
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

/* A line of the buffer that has samples: BUFFER_LINE (from 0) shows the
 * file's LINE (from 1), which TOTAL samples ran and SELF stopped in. */
typedef struct
{
  guint   buffer_line;
  int     line;
  guint64 total;
  guint64 self;
} TvSourceHeatCell;

#define TV_TYPE_SOURCE_HEAT_GUTTER (tv_source_heat_gutter_get_type ())

G_DECLARE_FINAL_TYPE (TvSourceHeatGutter, tv_source_heat_gutter, TV, SOURCE_HEAT_GUTTER,
                      GtkSourceGutterRenderer)

GtkSourceGutterRenderer *tv_source_heat_gutter_new       (void);
/* Replaces the cells (any order; copied).  A line's share is of
 * FUNCTION_TOTAL, its bar of the line with the most samples.  NUMBERED:
 * the buffer is not the file, so the gutter also draws each cell's file
 * line number (the view's own numbers would count the buffer's lines). */
void      tv_source_heat_gutter_set_cells               (TvSourceHeatGutter     *self,
                                                         const TvSourceHeatCell *cells,
                                                         guint                   n_cells,
                                                         guint64                 function_total,
                                                         gboolean                numbered);
/* What the gutter shows at BUFFER_LINE (tests): FALSE where it shows
 * nothing.  The label is the share drawn beside the bar (caller frees). */
gboolean  tv_source_heat_gutter_get_cell                (TvSourceHeatGutter     *self,
                                                         guint                   buffer_line,
                                                         TvSourceHeatCell       *cell);
char     *tv_source_heat_gutter_dup_label               (TvSourceHeatGutter     *self,
                                                         guint                   buffer_line);
guint     tv_source_heat_gutter_get_n_cells             (TvSourceHeatGutter     *self);
gboolean  tv_source_heat_gutter_get_numbered            (TvSourceHeatGutter     *self);

G_END_DECLS
