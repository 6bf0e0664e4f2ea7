/* tv-heatmap-view.h: the samples of every second, FlameScope style
 *
 * Copyright 2026 The Tachyon Viewer authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tv-timeline.h"
#include "tv-timeline-highlight.h"
#include "tv-view-state.h"

G_BEGIN_DECLS

#define TV_TYPE_HEATMAP_VIEW (tv_heatmap_view_get_type ())

G_DECLARE_FINAL_TYPE (TvHeatmapView, tv_heatmap_view, TV, HEATMAP_VIEW, GtkWidget)

/* Shows the samples of STATE's threads and thread state; a drag over the
 * cells sets STATE's ranges. */
GtkWidget         *tv_heatmap_view_new           (TvViewState    *state);
/* Nothing is shown until there is a timeline. */
void               tv_heatmap_view_set_timeline  (TvHeatmapView  *self,
                                                  TvTimeline     *timeline);
/* The heatmap shown; NULL until one is made. */
TvTimelineHeatmap *tv_heatmap_view_get_heatmap   (TvHeatmapView  *self);
/* Tints the cells by their share of HIGHLIGHT's samples (made for the
 * same timeline, threads and thread state), or none when NULL. */
void               tv_heatmap_view_set_highlight (TvHeatmapView       *self,
                                                  TvTimelineHighlight *highlight);
TvTimelineHighlight *tv_heatmap_view_get_highlight (TvHeatmapView     *self);
/* Whether a heatmap for the current filters is being made. */
gboolean           tv_heatmap_view_get_busy      (TvHeatmapView  *self);
/* Where a cell is, in the widget's pixels; FALSE when it is not shown. */
gboolean           tv_heatmap_view_get_cell_rect (TvHeatmapView   *self,
                                                  guint            column,
                                                  guint            row,
                                                  graphene_rect_t *rect);
/* Selects the cells of columns COLUMN0..COLUMN1 and rows ROW0..ROW1, as a
 * drag from one corner to the other does. */
void               tv_heatmap_view_select        (TvHeatmapView  *self,
                                                  guint           column0,
                                                  guint           row0,
                                                  guint           column1,
                                                  guint           row1);

G_END_DECLS
